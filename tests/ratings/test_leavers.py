"""Leavers lose, abandoned games are not rated (games/live/actions/, "leavers";
games/ratings/api.py, "Leavers lose"): the rules lichess applies, at an Okey table."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client

from games.live import actions as table_actions
from games.live import cpu
from games.live.realtime import game_for
from games.models import HandAction, Table
from games.ratings.api import OWN_TURNS_SHARE, final_places, leavers
from games.ratings.models import Rating, RatingChange
from tests.ratings.conftest import BASE, make_users, play_to_end

pytestmark = pytest.mark.django_db

PEOPLE = [table_actions.SeatSpec("me")] + [table_actions.SeatSpec("human")] * 3


def rated_table(hands: int = 3) -> tuple[Table, list]:
    """A rated fifty-one table of four accounts, dealt, nobody away."""
    users = make_users("ana", "ben", "cem", "dil")
    table = table_actions.do_create_table(
        variant="fifty-one", options={"hands": hands}, seats=PEOPLE, user=users[0], rated=True
    )
    for u in users[1:]:
        table_actions.do_join_table(table.pk, user=u)
    table.seats.update(away_since=None, connections=1)
    table.refresh_from_db()
    return table, users


def play_turns(table: Table, n: int, at=BASE) -> None:
    """``n`` whole turns, each person's move chosen by the medium CPU and sent for them."""
    for _ in range(n):
        table.refresh_from_db()
        state = table_actions.load_state(table.current_hand)
        seat = state.turn
        while True:
            table.refresh_from_db()
            state = table_actions.load_state(table.current_hand)
            if state.turn != seat or state.over:
                break
            table_actions.do_submit_action(
                table.pk, seat, cpu.choose(state, seat, "medium"), table.version, at=at
            )


def test_everyone_leaving_at_the_first_move_aborts_the_game_unrated():
    table, users = rated_table()
    play_turns(table, 1)  # ana moved; then every person presses Leave
    for u in users:
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            break
        table_actions.do_leave_game(table.pk, user=u, at=BASE)
    table.refresh_from_db()
    assert table.status == Table.Status.ABORTED
    assert table.cpu_due_at is None and table.turn_deadline is None
    assert not RatingChange.objects.exists() and not Rating.objects.exists()
    # and it says so, on the table and to whoever opens it
    c = Client()
    c.force_login(users[0])
    page = c.get(f"/t/{table.code}/").content.decode()
    assert "Game aborted" in page and "not rated" in page


def test_a_player_leaving_before_their_first_move_aborts_the_game():
    table, users = rated_table()
    play_turns(table, 1)  # the starter moved, the last seat has not
    state = table_actions.load_state(table.current_hand)
    waiting = next(
        s for s in table.seats.all() if s.position not in {a.seat for a in HandAction.objects.all()}
    )
    assert waiting.position != state.starter
    table_actions.do_forfeit(table.pk, waiting.position, at=BASE, left=True)
    table.refresh_from_db()
    assert table.status == Table.Status.ABORTED
    with pytest.raises(table_actions.ActionRefused):  # nothing can be played any more
        table_actions.do_submit_action(
            table.pk, state.turn, cpu.choose(state, state.turn, "medium"), table.version
        )


@pytest.mark.slow
def test_a_leaver_is_placed_last_whatever_their_cpu_scores():
    table, users = rated_table(hands=3)
    play_to_end(table, stop_after_hand=True)  # the first hand is over: the game counts now
    table.refresh_from_db()
    table_actions.do_leave_game(table.pk, user=users[1], at=BASE)  # ben forfeits
    ben = table.seats.get(position=1)
    assert ben.forfeited_at == BASE
    # his seat is the stand-in's now: his own moves are refused
    table.refresh_from_db()
    table_actions.do_next_hand(table.pk, table.version)
    table.refresh_from_db()
    with pytest.raises(table_actions.ActionRefused) as e:
        table_actions.do_submit_action(table.pk, 1, {"type": "draw"}, table.version)
    assert e.value.code == "already_left"
    play_to_end(table, away=frozenset({1}))
    assert table.status == Table.Status.FINISHED
    places = dict(RatingChange.objects.filter(table=table).values_list("user__username", "place"))
    assert places["ben"] == 4
    assert max(places[n] for n in ("ana", "cem", "dil")) <= 3
    # and his stand-in did better than last: the placing is the leaver's, not the score's
    assert final_places(table, game_for(table))[1] < 4


@pytest.mark.slow
def test_several_leavers_rank_last_by_leaving_order():
    table, users = rated_table(hands=3)
    play_to_end(table, stop_after_hand=True)
    table.refresh_from_db()
    table_actions.do_leave_game(table.pk, user=users[2], at=BASE)  # cem first: last
    table_actions.do_leave_game(table.pk, user=users[0], at=BASE + timedelta(seconds=5))  # then ana
    table.refresh_from_db()
    table_actions.do_next_hand(table.pk, table.version)
    play_to_end(table, away=frozenset({0, 2}))
    places = dict(RatingChange.objects.filter(table=table).values_list("user__username", "place"))
    assert places["cem"] == 4 and places["ana"] == 3
    assert {places["ben"], places["dil"]} <= {1, 2}


def test_staying_away_past_the_forfeit_grace_forfeits(settings):
    settings.OKEY_FORFEIT_GRACE_S = 60
    table, users = rated_table(hands=3)
    play_to_end(table, stop_after_hand=True)
    table.refresh_from_db()
    table.seats.filter(position=3).update(away_since=BASE, connections=0)
    assert table_actions.sweep_forfeits(at=BASE + timedelta(seconds=59)) == 0
    assert table.seats.get(position=3).forfeited_at is None
    assert table_actions.sweep_forfeits(at=BASE + timedelta(seconds=60)) == 1
    assert table.seats.get(position=3).forfeited_at == BASE + timedelta(seconds=60)
    # a second sweeper (another process) finds nothing more to do
    assert table_actions.sweep_forfeits(at=BASE + timedelta(seconds=61)) == 0


def test_everyone_gone_after_the_first_hand_ends_the_game_rated_by_leaving_order():
    table, users = rated_table(hands=3)
    play_to_end(table, stop_after_hand=True)
    table.refresh_from_db()
    for i, u in enumerate(users):
        table_actions.do_leave_game(table.pk, user=u, at=BASE + timedelta(seconds=i))
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    places = dict(RatingChange.objects.filter(table=table).values_list("user__username", "place"))
    assert places == {"dil": 1, "cem": 2, "ben": 3, "ana": 4}
    assert table.cpu_due_at is None  # nobody's stand-in plays on for nobody


def test_a_seat_its_person_hardly_played_ranks_as_a_leaver(settings):
    """A puppet account: its CPU played its game; it must not win rating for the farmer
    nor keep its placing."""
    settings.OKEY_FORFEIT_GRACE_S = 10**6  # away all game, but never past the forfeit grace
    table, users = rated_table(hands=1)
    play_turns(table, 4)  # dil made his first move himself, so the game is not aborted
    table.seats.filter(position=3).update(away_since=BASE, connections=0)
    play_to_end(table, away=frozenset({3}))
    assert table.status == Table.Status.FINISHED
    own = HandAction.objects.filter(hand__table=table, seat=3, by_cpu=False).count()
    total = HandAction.objects.filter(hand__table=table, seat=3).count()
    assert own < OWN_TURNS_SHARE * total
    assert set(leavers(table)) == {3}
    places = dict(RatingChange.objects.filter(table=table).values_list("user__username", "place"))
    assert places["dil"] == 4
    assert final_places(table, game_for(table))[3] < 4  # his CPU did better than that


def test_leave_is_refused_at_a_casual_table_and_changes_nothing():
    ana, ben = make_users("ana", "ben")
    table = table_actions.do_create_table(
        variant="rummy",
        options={"players": 2},
        seats=[table_actions.SeatSpec("me"), table_actions.SeatSpec("human")],
        user=ana,
    )
    table_actions.do_join_table(table.pk, user=ben)
    table.refresh_from_db()
    version = table.version
    with pytest.raises(table_actions.ActionRefused) as e:
        table_actions.do_leave_game(table.pk, user=ben)
    assert e.value.code == "not_rated_game"
    table.refresh_from_db()
    assert table.version == version and table.seats.get(position=1).forfeited_at is None


def test_the_rated_table_says_what_leaving_costs_before_joining():
    (ana, ben) = make_users("ana", "ben")
    table = table_actions.do_create_table(
        variant="fifty-one", options={}, seats=PEOPLE, user=ana, rated=True
    )
    c = Client()
    c.force_login(ben)
    page = c.get(f"/t/{table.code}/").content.decode()
    assert 'data-testid="rated-rules"' in page and "placed last" in page


def test_a_game_finished_after_a_fair_play_mark_is_rated_without_the_marked_account():
    table, users = rated_table(hands=1)
    users[3].profile.fair_play_marked = True
    users[3].profile.save()
    play_to_end(table)
    rated = set(RatingChange.objects.filter(table=table).values_list("user__username", flat=True))
    assert rated == {"ana", "ben", "cem"}
