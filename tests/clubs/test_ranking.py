"""The club ranking (games/clubs/ranking.py and docs/clubs.md): points per
tournament, the decay by age, shared places, the weighted mean with its floor, and the
worked example of docs/clubs.md to the exact fraction."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest
import time_machine

from games.clubs import ranking
from games.clubs import standings as club_standings
from games.clubs.standings import user_key

F = Fraction


def test_points_run_from_1000_for_the_winner_to_0_for_last_place():
    assert ranking.tournament_points(1, 4) == 1000
    assert ranking.tournament_points(2, 4) == F(2000, 3)
    assert ranking.tournament_points(4, 4) == 0
    assert ranking.tournament_points(F(3, 2), 4) == F(2500, 3)
    with pytest.raises(ValueError):
        ranking.tournament_points(1, 1)


@pytest.mark.parametrize(
    ("age", "expected"),
    [
        (0, F(1)),
        (365, F(1)),  # a full year still counts fully
        (366, F(729, 730)),  # the first day of the fade
        (730, F(1, 2)),  # two years: half
        (1094, F(1, 730)),  # the last day it counts at all
        (1095, F(0)),  # three years: nothing
        (4000, F(0)),
    ],
)
def test_decay_is_full_for_a_year_then_linear_to_nothing_at_three_years(age, expected):
    assert ranking.decay(age) == expected


def test_players_separated_only_by_the_draw_share_the_mean_of_their_places():
    order = [("a", False), ("b", True), ("c", True), ("d", False), ("e", False)]
    assert ranking.shared_places(order) == {"a": 1, "b": 3, "c": 3, "d": 3, "e": 5}


def _result(player, rank, n, weight=1, date=dt.date(2026, 6, 1), tournament="t"):
    return ranking.Result(tournament, date, player, F(rank), n, F(weight))


def test_fewer_than_three_weight_counts_the_missing_weight_as_zero():
    [only] = ranking.rank([_result("a", 1, 4)], dt.date(2026, 12, 1))
    assert only.score.total == F(1000, 3)  # one win alone is not 1000
    many = [_result("a", 1, 4, tournament=str(i)) for i in range(4)]
    [best] = ranking.rank(many, dt.date(2026, 12, 1))
    assert best.score.total == 1000
    assert best.score.tournaments == 4


def test_equal_scores_share_a_rank_and_the_next_rank_is_skipped():
    results = [_result("a", 1, 3), _result("b", 1, 3, tournament="u"), _result("c", 3, 3)]
    standings = ranking.rank(results, dt.date(2026, 12, 1))
    assert [(s.rank, s.score.player) for s in standings] == [(1, "a"), (1, "b"), (3, "c")]


def test_a_tournament_after_the_ranking_date_does_not_count_yet_and_a_faded_one_goes():
    results = [
        _result("a", 1, 2, date=dt.date(2027, 1, 1)),
        _result("b", 1, 2, date=dt.date(2023, 1, 1), tournament="old"),
    ]
    assert ranking.rank(results, dt.date(2026, 12, 1)) == []


# The worked example of docs/clubs.md, read from tournaments in the database.
WORKED = {
    "ayla": F(2500, 3),  # (1000·2·1 + 500·1·½ + 666⅔·1·1) / 3.5 = 833.33
    "bora": F(11000, 21),  # (666⅔·2·1 + 1000·1·½ + 0) / 3.5 = 523.81
    "cem": F(10000, 21),  # (333⅓·2·1 + 0 + 1000·1·1) / 3.5 = 476.19
    "emre": F(1000, 9),  # 333⅓·1·1 / max(1, 3) = 111.11
    "deniz": F(0),  # 0·2·1 / max(2, 3)
}


@pytest.mark.django_db
def test_the_worked_example_to_the_exact_fraction(worked_example):
    club = worked_example["club"]
    users = worked_example["users"]
    items = club_standings.counted(club_standings.club_links_qs(club), club)
    standings = ranking.rank(club_standings.results(items), dt.date(2026, 12, 1))
    keys = {name: user_key(u.pk) for name, u in users.items()} | {"emre": ("name", "emre")}
    got = {
        name: s.score.total for s in standings for name, k in keys.items() if k == s.score.player
    }
    assert got == WORKED
    assert [s.rank for s in standings] == [1, 2, 3, 4, 5]
    assert [s.score.player for s in standings] == [
        keys["ayla"],
        keys["bora"],
        keys["cem"],
        keys["emre"],
        keys["deniz"],
    ]
    ayla = next(s.score for s in standings if s.score.player == keys["ayla"])
    assert [(line.result.rank, line.result.n, line.points, line.decay) for line in ayla.lines] == [
        (2, 3, 500, F(1, 2)),
        (1, 4, 1000, 1),
        (2, 4, F(2000, 3), 1),
    ]
    assert ayla.weight == F(7, 2)
    assert ayla.tournaments == 3


@pytest.mark.django_db
def test_the_history_page_shows_the_worked_example_on_its_date(client, worked_example):
    club = worked_example["club"]
    ayla = worked_example["users"]["ayla"]
    with time_machine.travel(dt.datetime(2026, 12, 1, 12, tzinfo=dt.UTC), tick=False):
        page = client.get(f"/clubs/{club.slug}/players/u{ayla.pk}/").content.decode()
    assert "Club score 833.3 from 3 tournaments." in page
    assert "Winter open" in page and ">50%<" in page and ">250.0<" in page
    assert ">666.7<" in page  # November night: 2nd of 4, weight 1, decay 100%


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("today", "decay", "contribution"),
    [
        # Winter open (1 Dec 2024) is 365 days old on 1 Dec 2025: still full weight
        (dt.datetime(2025, 12, 1, 12, tzinfo=dt.UTC), "100%", "1000.0"),
        # one day later the fade starts: 729/730 of its weight
        (dt.datetime(2025, 12, 2, 12, tzinfo=dt.UTC), "99.9%", "998.6"),
        # 1094 days: 1/730 of its weight
        (dt.datetime(2027, 11, 30, 12, tzinfo=dt.UTC), "0.1%", "1.4"),
        # 1095 days, three years: nothing
        (dt.datetime(2027, 12, 1, 12, tzinfo=dt.UTC), "0%", "0.0"),
    ],
)
def test_decay_at_its_boundaries_on_the_history_page(
    client, worked_example, today, decay, contribution
):
    """Bora's history shows Winter open (his win: 1000 points, weight 1) decaying with the
    date; its contribution is 1000 × 1 × decay."""
    club = worked_example["club"]
    bora = worked_example["users"]["bora"]
    with time_machine.travel(today, tick=False):
        page = client.get(f"/clubs/{club.slug}/players/u{bora.pk}/").content.decode()
    row = page.split("Winter open", 1)[1].split("</tr>", 1)[0]
    assert f">{decay}<" in row
    cells = [c.rsplit(">", 1)[-1] for c in row.split("</td>")[:-1]]
    assert cells[-2:] == [decay, contribution]
