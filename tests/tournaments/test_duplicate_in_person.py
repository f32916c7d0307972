"""Duplicate rounds in person (docs/duplicate.md): the round's deals are drawn when it is
seated (commitments public, seeds once the round is complete), the organiser types each
table's result deal by deal, and the standings compare each seat of each deal across the
tables. Bad lines are refused with nothing stored; deals are for one player count."""

from __future__ import annotations

import itertools
import json
import re

import pytest
from django.test import Client

from games.tournaments import actions, dealing, exchange
from games.tournaments.models import (
    Deal,
    Entry,
    Round,
    TableResult,
    Tournament,
    TournamentTable,
    seed_commitment,
)
from tests.tournaments.conftest import in_person, register_names

pytestmark = pytest.mark.django_db

NAMES = ["Ayşe", "Baran", "Cem", "Deniz", "Elif", "Fatma", "Gül", "Hakan"]


@pytest.fixture(autouse=True)
def known_deals(monkeypatch):
    counter = itertools.count(1)
    monkeypatch.setattr(dealing, "seed_source", lambda: f"card-{next(counter)}")


def duplicate_club(organiser, **values):
    return in_person(organiser, format="duplicate", deals_per_round=2, rounds=1, **values)


def seated(organiser, names=NAMES, **values):
    t = duplicate_club(organiser, **values)
    register_names(t, organiser, names)
    rnd = actions.do_seat_next_round(t.pk, organiser)
    return t, list(rnd.tables.order_by("number"))


def test_seating_draws_the_rounds_deals_and_publishes_their_commitments(organiser):
    t, tables = seated(organiser)
    deals = list(Deal.objects.filter(round__tournament=t).order_by("number"))
    assert [d.seed for d in deals] == ["card-1", "card-2"]
    assert all(tt.game is None for tt in tables)
    t.published = True
    t.save()
    page = Client().get(f"/tournaments/{t.pk}/").content.decode()
    commitments = re.findall(r'data-testid="deal-commitment">([0-9a-f]{64})<', page)
    assert commitments == [d.commitment for d in deals]
    assert "card-1" not in page  # the seeds wait for the round's end


def test_the_organiser_types_each_deals_hand_totals_and_the_standings_compare_seats(
    organiser,
):
    t, (first, second) = seated(organiser)
    client = Client()
    client.force_login(organiser)
    form = client.get(f"/tournaments/{t.pk}/tables/{first.pk}/result/")
    assert form.status_code == 200
    assert 'name="deal_2_seat_3"' in form.content.decode()
    # classic: higher hand totals are better
    lines = {first: [[4, -2, -2, 0], [-4, 8, -2, -2]], second: [[2, -2, 0, 0], [-4, 2, 4, -2]]}
    for tt, hands in lines.items():
        post = {
            f"deal_{d}_seat_{s}": str(v)
            for d, line in enumerate(hands, 1)
            for s, v in enumerate(line)
        }
        response = client.post(f"/tournaments/{t.pk}/tables/{tt.pk}/result/", post)
        assert response.status_code == 302
    stored = TableResult.objects.get(table=first)
    assert stored.hands == lines[first]
    assert stored.scores == [10 + 4 - 4, 10 - 2 + 8, 10 - 2 - 2, 10 + 0 - 2]  # start 10
    points = {r.player: r.points for r in actions.standings(t)}

    def mp(mine: int, other: int) -> int:
        return 2 if mine > other else 1 if mine == other else 0

    for tt, other in ((first, second), (second, first)):
        for seat, pid in enumerate(tt.seats):
            expected = sum(mp(lines[tt][d][seat], lines[other][d][seat]) for d in range(2))
            assert points[pid] == expected
    # the seeds are public now the round is complete
    t.published = True
    t.save()
    page = Client().get(f"/tournaments/{t.pk}/").content.decode()
    assert "card-1" in page and "card-2" in page
    assert page.count('data-testid="deal-line"') == 2 * 4
    # a player's own page: the round's matchpoints
    pid = first.seats[0]
    history = Client().get(f"/tournaments/{t.pk}/player/{pid}/").content.decode()
    cell = re.search(r'data-testid="history-points">([^<]*)<', history)
    assert cell is not None and cell.group(1) == str(int(points[pid]))


def test_a_bad_deal_line_is_refused_and_nothing_is_stored(organiser):
    t, (first, _second) = seated(organiser)
    client = Client()
    client.force_login(organiser)
    post = {f"deal_{d}_seat_{s}": "3" for d in (1, 2) for s in range(4)}
    post["deal_2_seat_1"] = "three"
    response = client.post(f"/tournaments/{t.pk}/tables/{first.pk}/result/", post)
    assert response.status_code == 400
    page = response.content.decode()
    assert 'data-code="not_integer"' in page and 'aria-invalid="true"' in page
    assert not TableResult.objects.exists()
    with pytest.raises(actions.DealResultRefused) as e:
        actions.do_enter_deal_results(t.pk, organiser, first.pk, [[1, 2, 3, 4]])
    assert [p.code for p in e.value.problems] == ["deal_count"]
    with pytest.raises(actions.TournamentError) as e:
        actions.do_enter_result(t.pk, organiser, first.pk, [10, 4, 0, 2])
    assert e.value.code == "deal_lines_needed"
    assert not TableResult.objects.exists()


def test_a_deal_is_never_scored_for_another_player_count(organiser):
    """A table whose seats differ from the deals' player count (a damaged or edited
    record) cannot get deal lines, and stored results mixing table sizes are not
    compared: the page says why instead of ranking anyone."""
    t, (first, second) = seated(organiser)
    TournamentTable.objects.filter(pk=second.pk).update(seats=second.seats[:3])
    with pytest.raises(actions.DealResultRefused) as e:
        actions.do_enter_deal_results(t.pk, organiser, second.pk, [[1, 1, -2], [0, 0, 0]])
    assert [p.code for p in e.value.problems] == ["player_count_mismatch"]
    actions.do_enter_deal_results(t.pk, organiser, first.pk, [[4, -2, -2, 0], [0, 0, 0, 0]])
    TableResult.objects.create(table=second, scores=[10, 10, 10], hands=[[0, 0, 0], [0, 0, 0]])
    with pytest.raises(actions.TournamentError) as e:
        actions.standings(t)
    assert e.value.code == "player_count_mismatch"
    t.published = True
    t.save()
    page = Client().get(f"/tournaments/{t.pk}/").content.decode()
    assert 'data-testid="standings-error"' in page
    assert "dealt for one number of players" in page


def test_duplicate_seats_a_short_field_with_cpus_at_every_table(organiser):
    t, tables = seated(organiser, names=NAMES[:5])
    assert [len(tt.seats) for tt in tables] == [4, 4]
    assert sorted(tt.seats.count(None) for tt in tables) == [1, 2]


def played_round(organiser):
    t, (first, second) = seated(organiser)
    actions.do_enter_deal_results(t.pk, organiser, first.pk, [[4, -2, -2, 0], [-4, 8, -2, -2]])
    actions.do_enter_deal_results(t.pk, organiser, second.pk, [[2, -2, 0, 0], [-4, 2, 4, -2]])
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    return t


def test_the_tournament_file_keeps_the_deals_and_each_deals_hand_totals(organiser):
    t = played_round(organiser)
    data = exchange.export_tournament(t)
    assert data["tournament"]["format"] == "duplicate"
    assert data["tournament"]["deals_per_round"] == 2
    assert [d["seed"] for d in data["rounds"][0]["deals"]] == ["card-1", "card-2"]
    assert data["rounds"][0]["tables"][0]["hands"] == [4, -2, -2, 0, -4, 8, -2, -2]
    copy = exchange.do_import_tournament(organiser, json.loads(json.dumps(data)))
    assert exchange.export_tournament(copy) == data  # the round trip keeps everything
    names = {e.pid: e.name for e in t.entries.all()}
    copy_names = {e.pid: e.name for e in copy.entries.all()}
    assert [(names[r.player], r.points) for r in actions.standings(t)] == [
        (copy_names[r.player], r.points) for r in actions.standings(copy)
    ]


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d["rounds"][0]["tables"][0].update(hands=[4, -2, -2, 0]),  # one deal only
        lambda d: d["rounds"][0]["tables"][0]["hands"].__setitem__(0, "4"),
        lambda d: d["rounds"][0]["deals"].pop(),
        lambda d: d["rounds"][0]["deals"][0].update(seed="another"),  # not its commitment
        lambda d: d["rounds"][0]["tables"][1]["seats"].pop(),  # tables of two sizes
    ],
)
def test_a_damaged_duplicate_file_creates_nothing(organiser, damage):
    t = played_round(organiser)
    data = json.loads(json.dumps(exchange.export_tournament(t)))
    damage(data)
    if len(data["rounds"][0]["tables"][1]["seats"]) == 3:  # keep the scores one per seat
        data["rounds"][0]["tables"][1]["scores"].pop()
    before = (Tournament.objects.count(), Deal.objects.count())
    with pytest.raises(actions.TournamentError) as e:
        exchange.do_import_tournament(organiser, data)
    assert e.value.code == "bad_file"
    assert (Tournament.objects.count(), Deal.objects.count()) == before


def test_the_largest_duplicate_tournament_exports_and_imports_again(organiser):
    """256 players at 64 tables, 30 rounds of 16 deals, every hand total of five
    characters: within the file's limits (``exchange.MAX_VALUES``, ``MAX_BYTES``)."""
    t = in_person(organiser, format="duplicate", deals_per_round=16, rounds=30)
    entries = Entry.objects.bulk_create(
        [Entry(tournament=t, name=f"Player {i:03d} of the largest duplicate") for i in range(256)]
    )
    pids = [e.pid for e in entries]
    for number in range(1, 31):
        rnd = Round.objects.create(tournament=t, number=number)
        seeds = [f"{number:02d}{n:030x}" for n in range(1, 17)]
        Deal.objects.bulk_create(
            [
                Deal(round=rnd, number=n, seed=s, commitment=seed_commitment(s))
                for n, s in enumerate(seeds, 1)
            ]
        )
        pids = pids[number:] + pids[:number]
        tables = TournamentTable.objects.bulk_create(
            [
                TournamentTable(round=rnd, number=k + 1, seats=pids[4 * k : 4 * k + 4])
                for k in range(64)
            ]
        )
        TableResult.objects.bulk_create(
            [
                TableResult(table=tt, scores=[10] * 4, hands=[[-1000, -1000, 1000, 1000]] * 16)
                for tt in tables
            ]
        )
    raw = exchange.dumps(t)
    assert len(raw.encode()) <= exchange.MAX_BYTES
    copy = exchange.do_import_tournament(organiser, exchange.load(raw))
    assert Deal.objects.filter(round__tournament=copy).count() == 30 * 16
    assert TableResult.objects.filter(table__round__tournament=copy).count() == 30 * 64
