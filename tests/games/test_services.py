"""Services: one transaction per change; refusals change nothing; CPUs play."""

from __future__ import annotations

import pytest

from games.live import actions
from games.models import Hand, HandAction, ScoreLine, Table
from tests.games.conftest import cpu_table, play_out_hand

pytestmark = pytest.mark.django_db


def test_table_with_three_cpus_starts_at_once():
    table = cpu_table()
    assert table.status == Table.Status.PLAYING
    hand = table.current_hand
    assert hand.number == 0 and hand.starter == 0  # D2: seat 0 starts the first hand
    assert hand.seed_commitment == Hand.commit_to(hand.seed)


def test_action_for_another_seat_is_refused_and_changes_nothing():
    table = cpu_table()
    before = (table.version, HandAction.objects.count())
    with pytest.raises(actions.ActionRefused) as e:
        actions.do_submit_action(table.pk, 1, {"type": "draw"}, table.version)
    assert e.value.code == "not_your_turn"
    table.refresh_from_db()
    assert (table.version, HandAction.objects.count()) == before


def test_stale_actions_are_refused_and_a_replay_is_applied_once():
    table = cpu_table()
    state = actions.load_state(table.current_hand)
    tile = state.racks[0][0]
    actions.do_submit_action(table.pk, 0, {"type": "discard", "tile": tile}, table.version)
    # the same frame again (same version, a double click): applied once, no refusal
    actions.do_submit_action(table.pk, 0, {"type": "discard", "tile": tile}, table.version)
    assert HandAction.objects.filter(hand__table=table).count() == 1
    # another move on that version: refused as stale
    with pytest.raises(actions.ActionRefused) as e:
        actions.do_submit_action(
            table.pk, 0, {"type": "discard", "tile": state.racks[0][1]}, table.version
        )
    assert e.value.code == "stale_state"
    assert HandAction.objects.filter(hand__table=table).count() == 1


def test_forged_tile_is_refused():
    table = cpu_table()
    with pytest.raises(actions.ActionRefused) as e:
        actions.do_submit_action(table.pk, 0, {"type": "discard", "tile": 999}, table.version)
    assert e.value.code in {"bad_action", "tile_not_in_rack"}


def test_cpu_moves_wait_for_the_sweeper_and_then_play():
    table = cpu_table()
    state = actions.load_state(table.current_hand)
    actions.do_submit_action(table.pk, 0, {"type": "discard", "tile": state.racks[0][0]}, 1)
    table.refresh_from_db()
    assert table.cpu_due_at is not None
    v = table.version
    assert actions.sweep() == 1
    table.refresh_from_db()
    assert table.version == v + 1
    assert HandAction.objects.filter(hand__table=table, by_cpu=True).count() == 1


def test_full_hand_is_stored_and_replays_to_the_same_state():
    table = play_out_hand(cpu_table())
    hand = table.current_hand
    assert hand.result is not None and hand.finished_at is not None
    rebuilt = actions.rebuild_hand(hand)
    assert rebuilt.to_json() == hand.state
    assert ScoreLine.objects.filter(hand=hand).count() == len(rebuilt.scores)


def test_next_hand_moves_the_starter():
    table = play_out_hand(cpu_table())
    if table.status == Table.Status.FINISHED:
        pytest.fail("a classic game does not end after one hand from 20 points")
    actions.do_next_hand(table.pk, table.version)
    table.refresh_from_db()
    assert table.current_hand.number == 1
    assert table.current_hand.starter == 1  # D2


@pytest.mark.parametrize("variant", ["rummy", "fifty-one", "seventeen"])
def test_every_variant_plays_a_whole_hand_against_cpus(variant):
    table = play_out_hand(cpu_table(variant))
    assert table.current_hand.result is not None


@pytest.mark.parametrize("variant,options", [("seventeen", {}), ("fifty-one", {"partners": True})])
def test_two_people_sit_opposite(variant, options):
    """seed 004: two people at a seventeen table sit opposite; 2v2 partners too."""
    table = actions.do_create_table(
        variant=variant,
        options=options,
        seats=[
            actions.SeatSpec("me"),
            actions.SeatSpec("human"),
            actions.SeatSpec("cpu"),
            actions.SeatSpec("cpu"),
        ],
        guest_key="g",
    )
    kinds = [("cpu" if s.is_cpu else "person") for s in table.seats.all()]
    assert kinds == ["person", "cpu", "person", "cpu"]


def test_a_socket_left_on_a_seat_given_up_cannot_play_for_the_next_person():
    """A seat given up (a quick-match wait left) is a new row when someone else sits there:
    a move sent from a tab still open on the old seat is a spectator's, and changes nothing;
    the seat's present owner plays."""
    from games.models import Seat

    table = cpu_table()
    old = table.seats.get(position=0)
    old_pk = old.pk
    old.delete()  # the seat given up ...
    new = Seat.objects.create(table=table, position=0, guest_key="guest-2")  # ... and taken
    state = actions.load_state(table.current_hand)
    move = {"type": "discard", "tile": state.racks[0][0]}
    before = (table.version, HandAction.objects.count())
    with pytest.raises(actions.ActionRefused) as e:
        actions.do_submit_action(table.pk, 0, move, table.version, seat_id=old_pk)
    assert e.value.code == "not_seated"
    table.refresh_from_db()
    assert (table.version, HandAction.objects.count()) == before
    actions.do_submit_action(table.pk, 0, move, table.version, seat_id=new.pk)
    assert HandAction.objects.filter(hand__table=table).count() == 1
    actions.do_set_presence(old_pk, False)  # the old tab closing counts nothing, quietly
