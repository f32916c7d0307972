"""The expert-match check end to end: rated games played through the services, the
background scan, the figures the staff page lists."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from games.fairplay import report
from games.fairplay import scan as fairplay_scan
from games.fairplay.models import GameCheck, HandCheck, LogEntry, PlayerStats
from games.fairplay.scan import do_scan
from games.live.realtime import game_for
from games.models import Hand, HandAction
from games.ratings.api import final_places

from .conftest import make_users, play_game, rated_table
from .policies import level, noisy

pytestmark = pytest.mark.django_db


@pytest.fixture
def pool():
    """Two rated classic games: ``cheat`` plays the expert's move every time; the other
    seven play like people: hard CPUs that play medium's move on a quarter of their
    decisions, and two medium players who sometimes play hard's."""
    names = ["cheat", "hana", "hugo", "hale", "hiro", "hope", "mona", "milo"]
    users = dict(zip(names, make_users(*names), strict=True))
    first = rated_table([users[n] for n in names[:4]], start_points=30)
    play_game(
        first,
        {
            0: level("expert"),
            1: noisy("hard", "medium", 0.25, "hana"),
            2: noisy("hard", "medium", 0.25, "hugo"),
            3: noisy("hard", "medium", 0.25, "hale"),
        },
    )
    second = rated_table([users[n] for n in names[4:]], start_points=30)
    play_game(
        second,
        {
            0: noisy("hard", "medium", 0.25, "hiro"),
            1: noisy("hard", "medium", 0.25, "hope"),
            2: noisy("medium", "hard", 0.25, "mona"),
            3: noisy("medium", "hard", 0.25, "milo"),
        },
    )
    return users


@pytest.mark.slow
def test_the_expert_follower_is_listed_and_the_people_are_not(pool):
    done = do_scan(limit=1000)
    assert done.hands == Hand.objects.filter(result__isnull=False).count()
    figures = report.match_rows("classic")
    assert figures["pool"] is not None
    by_name = {r["player"]["username"]: r for r in figures["rows"]}
    assert set(by_name) == set(pool)  # every player has enough decisions to be scored
    cheat = by_name.pop("cheat")
    assert cheat["matches"] == cheat["decisions"]  # every move was the expert's choice
    assert cheat["loss"] == 0
    assert cheat["flagged"] and cheat["z"] >= 3
    assert [r for r in by_name.values() if r["flagged"]] == []
    # the people are not perfect: each played a move other than the expert's
    assert all(r["matches"] < r["decisions"] for r in by_name.values())


@pytest.fixture
def game():
    """One short rated classic game of four people."""
    users = make_users("ana", "ben", "cem", "didem")
    table = rated_table(users, start_points=10)
    play_game(table, {s: noisy("hard", "medium", 0.25, f"p{s}") for s in range(4)})
    return table


def test_a_scan_checks_each_hand_once_and_counts_it_once(game):
    first = do_scan(limit=3)
    assert first.hands == 3
    rest = do_scan(limit=1000)
    again = do_scan(limit=1000)
    assert again.hands == 0 and again.decisions == 0
    hands = Hand.objects.filter(result__isnull=False).count()
    assert first.hands + rest.hands == hands
    # one row per hand and seat, every one done, summed once into the player's figures
    assert HandCheck.objects.count() == 4 * hands
    assert not HandCheck.objects.exclude(status=HandCheck.Status.DONE).exists()
    for stats in PlayerStats.objects.all():
        rows = HandCheck.objects.filter(user=stats.user, variant=stats.variant)
        assert stats.decisions == sum(r.decisions for r in rows)
        assert stats.matches == sum(r.matches for r in rows)
        assert stats.hands == rows.count()
    # the game's seats and placings are kept once: the game's own placings (ties shared)
    (kept,) = GameCheck.objects.all()
    assert kept.table == game and again.games == 0
    where = final_places(game, game_for(game))
    seats = {str(s.user_id): s.position for s in game.seats.all()}
    assert kept.seats == {uid: [pos, where[pos]] for uid, pos in seats.items()}
    # the scans that checked something are logged with their figures
    logged = LogEntry.objects.filter(action=LogEntry.Action.SCAN)
    assert logged.count() == 2
    assert sum(e.detail["hands"] for e in logged) == hands


def test_moves_a_stand_in_played_are_not_the_persons(game):
    hand = Hand.objects.filter(result__isnull=False).order_by("id").first()
    seat = 1
    # pretend the stand-in played all of seat 1's moves in this hand
    HandAction.objects.filter(hand=hand, seat=seat).update(by_cpu=True)
    do_scan(limit=1000)
    row = HandCheck.objects.get(hand=hand, seat=seat)
    assert row.decisions == 0 and row.bits == ""
    other = HandCheck.objects.get(hand=hand, seat=2)
    assert other.decisions > 0


def test_the_command_checks_a_bounded_batch(game):
    out = io.StringIO()
    call_command("fairplay_scan", "--limit", "2", stdout=out)
    assert "hands=2" in out.getvalue()
    assert HandCheck.objects.values("hand").distinct().count() == 2


def test_a_hand_left_by_a_scan_that_died_is_taken_over_and_counted_once(game):
    hand = Hand.objects.filter(result__isnull=False).order_by("id").first()
    at = fairplay_scan.clock()
    _token, rows = fairplay_scan._claim(hand, at - fairplay_scan.STALE_AFTER / 2)
    assert len(rows) == 4  # claimed, then the scan died before storing anything
    fairplay_scan.do_scan(limit=1000, now=at)
    assert HandCheck.objects.filter(hand=hand, status=HandCheck.Status.RUNNING).count() == 4
    later = at + fairplay_scan.STALE_AFTER
    fairplay_scan.do_scan(limit=1000, now=later)
    rows = HandCheck.objects.filter(hand=hand)
    assert {r.status for r in rows} == {HandCheck.Status.DONE}
    for row in rows:
        stats = PlayerStats.objects.get(user=row.user, variant="classic")
        checked = HandCheck.objects.filter(user=row.user, variant="classic")
        assert stats.decisions == sum(r.decisions for r in checked)
        assert stats.hands == checked.count()
