"""What the sweeper plays: due CPU moves, expired turn clocks and due forfeits.

``manage.py serve`` runs ``games.live.sweeper``, which calls ``sweep`` a few times a
second. Each step is idempotent (row lock + due check): several processes may sweep.
"""

from __future__ import annotations

import time
from datetime import datetime

from django.db import transaction
from django.db.models import Q

from games import plugins
from games.engine import game as engine_game
from games.engine import state as engine_state
from games.live import cpu
from games.live.actions import base
from games.live.actions.base import ActionRefused, lock_table, seat_at
from games.live.actions.clock import deals_unattended, everyone_away, schedule, stand_in_plays
from games.live.actions.leavers import sweep_forfeits
from games.live.actions.rack import arrange_slots
from games.live.actions.table import apply_action, start_hand
from games.live.realtime import broadcast_on_commit, snapshot
from games.models import Hand, Seat, Table


def do_play_due(table_id: int, *, at: datetime | None = None) -> bool:
    """Play one due CPU move (a CPU seat, or an away player's seat after the
    grace period) or an expired turn clock. Idempotent: the table row is
    locked and the due time re-checked, so several sweepers (processes) never
    play a move twice; returns False, changing nothing, when nothing is due.
    The move is applied in the same transaction and from the same read as the
    checks (``apply_action``): as lean as a player's ``do_submit_action``."""
    started = time.perf_counter()  # the move's latency (okeysite.metrics) counts from here
    at = at or base.now()
    with transaction.atomic():
        table = lock_table(table_id)
        cpu_due = table.cpu_due_at is not None and table.cpu_due_at <= at
        clock_due = table.turn_deadline is not None and table.turn_deadline <= at
        if table.status != Table.Status.PLAYING or not (cpu_due or clock_due):
            return False
        hand, state, game = snapshot(table)
        if (
            hand is not None
            and hand.result is not None
            and cpu_due
            and deals_unattended(table)
            and everyone_away(table)[0]
        ):
            start_hand(table, at=at)  # a tournament's (or CPUs') table nobody is at
            broadcast_on_commit(table)
            return True
        if hand is None or state is None or hand.result is not None:
            table.cpu_due_at = table.turn_deadline = None
            table.save(update_fields=["cpu_due_at", "turn_deadline", "updated_at"])
            return False
        seat = seat_at(table, state.turn)
        if cpu_due and not clock_due and not seat.is_cpu and not stand_in_plays(seat):
            # the player came back (or acted, or said "I'm back") before the stand-in
            # moved; the clock runs on
            deadline = table.turn_deadline
            schedule(table, state, at)
            if deadline is not None:
                table.turn_deadline = deadline
            table.save(update_fields=["cpu_due_at", "turn_deadline", "updated_at"])
            return False
        if clock_due and not cpu_due and table.cpu_due_at is not None:
            last = hand.actions.order_by("-index").first()
            if last is not None and last.by_cpu and last.seat == state.turn:
                return (
                    False  # the seat's CPU is playing out the timed-out turn: its next step waits
                )
        timed_out = clock_due and not cpu_due
        if not seat.is_cpu:
            _count_timeout(seat, timed_out)
        # a lesson's CPU plays its script (games/learn), never closing before the learner
        scripted = plugins.scripted_move(hand, state, state.turn) if seat.is_cpu else None
        action = scripted or cpu.choose(state, state.turn, seat.cpu_level, timeout=timed_out)
        current = (hand, state, game)
        if action.get("type") == "timeout":
            # [D8] the opening turn's time-out discards the rightmost tile: the one
            # rightmost on the player's own rack, so record that order first.
            current = _arrange_as_seen(table, seat, current, at)
        apply_action(table, current, state.turn, action, by_cpu=True, at=at, started=started)
    return True


def _count_timeout(seat: Seat, timed_out: bool) -> None:
    """Count a person's turn the server starts playing (``Seat.timeouts``): +1 when their
    clock ran out; a turn their stand-in plays because they are away (no socket) breaks
    the row of time-outs (back to 0), so a returning player is told what happened while
    they were away, not about a time-out long past. Turns the stand-in plays for a seat
    already away by time-outs leave the count as it is (until the player acts)."""
    if timed_out:
        seat.timeouts += 1
    elif seat.away_since is not None and seat.timeouts:
        seat.timeouts = 0
    else:
        return
    seat.save(update_fields=["timeouts"])


def _arrange_as_seen(
    table: Table,
    seat: Seat,
    current: tuple[Hand, engine_state.HandState, engine_game.Game],
    at: datetime,
) -> tuple[Hand, engine_state.HandState, engine_game.Game]:
    """Apply the engine's ``arrange`` with the order the player sees (their
    slots, left to right, top row first); return the hand, state and game after it."""
    state = current[1]
    rack = list(state.racks[seat.position])
    seen = [t for t in arrange_slots(rack, seat.rack_order or []) if t is not None]
    if seen == rack:
        return current
    return apply_action(
        table,
        current,
        seat.position,
        {"type": "arrange", "tiles": seen},
        by_cpu=True,  # the server arranges for the time-out
        at=at,
    )


def due_tables(at: datetime | None = None) -> list[int]:
    at = at or base.now()
    return list(
        Table.objects.filter(status=Table.Status.PLAYING)
        .filter(Q(cpu_due_at__lte=at) | Q(turn_deadline__lte=at))
        .values_list("pk", flat=True)[:200]
    )


# The sweeper runs every few tenths of a second; forfeits are looked for once a second.
FORFEIT_CHECK_S = 1.0
_forfeits_checked = -FORFEIT_CHECK_S


def sweep(at: datetime | None = None) -> int:
    """Play everything that is due (one move per table per sweep), after recording the
    forfeits that fell due (``sweep_forfeits``)."""
    global _forfeits_checked
    played = 0
    if at is not None or time.monotonic() - _forfeits_checked >= FORFEIT_CHECK_S:
        _forfeits_checked = time.monotonic()
        played += sweep_forfeits(at)
    for table_id in due_tables(at):
        try:
            if do_play_due(table_id, at=at):
                played += 1
        except ActionRefused:
            continue
    return played
