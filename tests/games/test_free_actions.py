"""Free actions cannot stall a table.

A free action (``flip`` in seventeen, ``arrange`` everywhere) needs no turn and
never passes one, and neither do a draw, a take, an undo, a lay-down or a
returned discard. None of them may postpone the CPU's move or the turn clock
(the clock runs from the start of a turn to its end), and a seat may play at
most ``FREE_ACTION_LIMIT`` free actions in a row between two moves of the game
(refusal ``too_many_free_actions``). Time is injected (services take ``at=``).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from games.engine import Game
from games.engine.actions import FREE_ACTION_LIMIT
from games.engine.rules import RULES
from games.live import actions as table_actions
from games.live import cpu
from games.live.actions import base as actions_base
from games.models import HandAction, Table
from tests.games.conftest import cpu_table

pytestmark = pytest.mark.django_db

T0 = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def clock(monkeypatch, settings):
    """The table is created at T0; CPUs move 700 ms after the move before."""
    settings.OKEY_CPU_DELAY_MS = 700
    monkeypatch.setattr(actions_base, "now", lambda: T0)


def okey_seed(variant: str = "seventeen") -> str:
    """A seed whose deal gives seat 0 (the starter) an okey to flip."""
    for i in range(200):
        state = Game(variant, {}).new_hand(f"flip-{i}")
        if any(state.is_okey(t) for t in state.racks[0]):
            return f"flip-{i}"
    raise AssertionError("no such seed")


def seventeen_table(monkeypatch, **options) -> Table:
    seed = okey_seed()
    monkeypatch.setattr(actions_base, "seed_source", lambda table, number: seed)
    return cpu_table("seventeen", **options)


def state_of(table: Table):
    table.refresh_from_db()
    return table_actions.load_state(table.current_hand)


def my_okey(table: Table) -> int:
    state = state_of(table)
    return next(t for t in state.racks[0] if state.is_okey(t))


def flip(table: Table, tile: int, at: datetime) -> Table:
    table.refresh_from_db()
    return table_actions.do_submit_action(
        table.pk, 0, {"type": "flip", "tile": tile}, table.version, at=at
    )


def discard_first(table: Table, at: datetime) -> None:
    state = state_of(table)
    tile = next(t for t in state.racks[0] if not state.is_okey(t))
    table_actions.do_submit_action(
        table.pk, 0, {"type": "discard", "tile": tile}, table.version, at=at
    )


def test_flips_during_a_cpu_turn_do_not_delay_its_move(monkeypatch):
    table = seventeen_table(monkeypatch)
    okey = my_okey(table)
    discard_first(table, T0)  # seat 1, a CPU, is to move
    table.refresh_from_db()
    due = table.cpu_due_at
    assert due == T0 + timedelta(milliseconds=700)
    for i in range(FREE_ACTION_LIMIT):  # a flip every 100 ms, as fast as a browser may send
        flip(table, okey, T0 + timedelta(milliseconds=100 * (i + 1)))
        table.refresh_from_db()
        assert table.cpu_due_at == due
    assert table_actions.do_play_due(table.pk, at=due) is True  # the CPU moves when due
    last = HandAction.objects.filter(hand__table=table).order_by("-index").first()
    assert last.seat == 1 and last.by_cpu


def test_a_flip_flood_cannot_stop_the_cpus(monkeypatch):
    """Flips every 150 ms for 20 s (the rate limit allows more): the CPUs still
    play their turns and hand the turn back to seat 0."""
    table = seventeen_table(monkeypatch)
    okey = my_okey(table)
    discard_first(table, T0)
    refused = 0
    for step in range(1, 134):
        at = T0 + timedelta(milliseconds=150 * step)
        try:
            flip(table, okey, at)
        except table_actions.ActionRefused as e:
            assert e.code == "too_many_free_actions"
            refused += 1
        table_actions.sweep(at=at)
    assert state_of(table).turn == 0
    cpu_moves = HandAction.objects.filter(hand__table=table, by_cpu=True)
    assert {a.seat for a in cpu_moves} == {1, 2, 3}
    assert refused > 0


def test_flips_do_not_extend_the_turn_clock(monkeypatch):
    """One flip every 5 s on your own turn: a 30 s clock still ends 30 s after
    the turn began, and then the seat's CPU plays the turn."""
    table = seventeen_table(monkeypatch, clock=30)
    okey = my_okey(table)
    table.refresh_from_db()
    deadline = table.turn_deadline
    assert deadline == T0 + timedelta(seconds=30)
    for i in range(1, 6):
        at = T0 + timedelta(seconds=5 * i)
        try:
            flip(table, okey, at)
        except table_actions.ActionRefused as e:
            assert e.code == "too_many_free_actions" and i > FREE_ACTION_LIMIT
        table.refresh_from_db()
        assert table.turn_deadline == deadline
        assert table_actions.do_play_due(table.pk, at=at) is False
    assert table_actions.do_play_due(table.pk, at=deadline) is True
    last = HandAction.objects.filter(hand__table=table).order_by("-index").first()
    assert last.seat == 0 and last.by_cpu


def test_the_limit_refuses_with_its_code_and_resets_after_a_move(monkeypatch):
    table = seventeen_table(monkeypatch)
    okey = my_okey(table)
    for i in range(FREE_ACTION_LIMIT):
        flip(table, okey, T0 + timedelta(seconds=i))
    table.refresh_from_db()
    before = (table.version, HandAction.objects.filter(hand__table=table).count())
    with pytest.raises(table_actions.ActionRefused) as e:
        flip(table, okey, T0 + timedelta(seconds=10))
    assert e.value.code == "too_many_free_actions"
    assert e.value.message  # a human sentence
    table.refresh_from_db()
    assert (table.version, HandAction.objects.filter(hand__table=table).count()) == before
    discard_first(table, T0 + timedelta(seconds=11))  # a move of the game
    flip(table, okey, T0 + timedelta(seconds=12))  # flips are allowed again


@pytest.mark.parametrize("variant", list(RULES))
def test_rearranging_the_rack_is_limited_too(variant):
    """``arrange`` is a free action in every variant (the server uses it at a time-out)."""
    table = cpu_table(variant)
    rack = list(state_of(table).racks[0])
    for i in range(FREE_ACTION_LIMIT):
        order = rack[i + 1 :] + rack[: i + 1]
        table.refresh_from_db()
        table_actions.do_submit_action(
            table.pk, 0, {"type": "arrange", "tiles": order}, table.version
        )
    table.refresh_from_db()
    with pytest.raises(table_actions.ActionRefused) as e:
        table_actions.do_submit_action(
            table.pk, 0, {"type": "arrange", "tiles": rack}, table.version
        )
    assert e.value.code == "too_many_free_actions"


def longest_clock(variant: str) -> int:
    """The longest turn clock the rule set offers (60 s; rummy's one clock is 45 s)."""
    return max(RULES[variant].options["clock"][0])


@pytest.mark.parametrize("variant", list(RULES))
def test_no_action_that_keeps_the_turn_postpones_the_clock_or_the_cpu(variant):
    """A whole hand through the services, seat 0 played like a medium CPU one
    action a second (with an arrange of its rack between): whenever an action
    leaves the same turn going, the turn clock and the CPU's due time stay."""
    table = cpu_table(variant, clock=longest_clock(variant))
    at = T0
    kept = set()
    for step in range(3000):
        table.refresh_from_db()
        hand = table.current_hand
        if hand.result is not None:
            break
        state = table_actions.load_state(hand)
        before = (state.turn_no, table.turn_deadline, table.cpu_due_at)
        at += timedelta(seconds=1)
        if step % 3 == 2:  # seat 0 rearranges its rack, whoever is to move
            rack = list(reversed(state.racks[0]))
            table_actions.do_submit_action(
                table.pk, 0, {"type": "arrange", "tiles": rack}, table.version, at=at
            )
            kind = "arrange"
        elif state.turn == 0:
            action = cpu.choose(state, 0, "medium")
            table_actions.do_submit_action(table.pk, 0, action, table.version, at=at)
            kind = action["type"]
        else:
            assert table_actions.do_play_due(table.pk, at=at)
            kind = "cpu"
        table.refresh_from_db()
        state = table_actions.load_state(table.current_hand)
        if state.over or state.turn_no != before[0]:
            continue
        kept.add(kind)
        assert table.turn_deadline == before[1], kind
        if kind != "cpu":  # only the CPU's own step sets its next step
            assert table.cpu_due_at == before[2], kind
    else:
        raise AssertionError("the hand did not finish")
    assert {"draw", "arrange", "cpu"} <= kept


def test_a_timed_out_turn_is_played_out_step_by_step_without_a_new_clock():
    """fifty-one: when the clock runs out the seat's CPU plays the rest of the
    turn, each step after the visible delay; nobody gets the clock again."""
    table = cpu_table("fifty-one", clock=15)
    discard_first(table, T0)
    at = T0
    while state_of(table).turn != 0:  # the CPUs' turns
        at += timedelta(seconds=1)
        assert table_actions.do_play_due(table.pk, at=at)
    deadline = table.turn_deadline
    assert deadline == at + timedelta(seconds=15)
    assert table_actions.do_play_due(table.pk, at=deadline) is True  # the seat's CPU draws for it
    assert state_of(table).turn == 0 and state_of(table).phase == "play"
    assert table.turn_deadline == deadline  # no new clock
    step = table.cpu_due_at
    assert step == deadline + timedelta(milliseconds=700)
    assert table_actions.do_play_due(table.pk, at=step - timedelta(milliseconds=100)) is False
    assert table_actions.do_play_due(table.pk, at=step) is True
