"""The turn clock and when the server moves for a seat: a CPU's visible delay, an
away player's grace, the clock a table gets [D8] (docs/clock-and-presence.md).

Steps of actions, not actions: the caller holds the table's row lock.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings

from games.engine import options as engine_options
from games.engine import state as engine_state
from games.live.actions.base import SeatSpec, seat_at
from games.models import Seat, Table

# The turn clock [D8]: whenever two or more people sit at a table their turns are timed
# (docs/clock-and-presence.md). 30 s unless the table chose 15 or 60; "no clock" only
# where a casual table of friends chose it, never at a rated or quick-match table. A
# table of one person (a solo challenge, a table of CPUs) waits for that person.
DEFAULT_CLOCK_S = 30
PEOPLE_SEATS = ("me", "human", "player")


def with_turn_clock(
    variant: str,
    options: dict[str, Any],
    seats: list[SeatSpec],
    *,
    rated: bool = False,
    quick_match: bool = False,
) -> dict[str, Any]:
    """``options`` with the table's turn clock (the engine option ``clock``, seconds) set
    by the rules above: none for fewer than two people unless asked for (the new-table
    form asks only for two or more: ``CreateTableForm.options``); 30 s at a quick-match table;
    30 s when none was chosen (an organiser's table included: a tournament that says
    ``clock: 0`` keeps no clock) or when a rated table asked for none."""
    if "clock" not in engine_options.VARIANTS.get(variant, {}).get("options", {}):
        return options
    people = sum(1 for s in seats if s.kind in PEOPLE_SEATS)
    chosen = options.get("clock")
    if people < 2:
        clock = chosen or 0  # one person is not timed unless the table asked for it
    elif quick_match or chosen is None or (rated and not chosen):
        clock = DEFAULT_CLOCK_S
    else:
        clock = chosen
    return {**options, "clock": clock}


def grace() -> timedelta:
    """How long a dropped player's seat waits before its CPU plays for it."""
    return timedelta(seconds=getattr(settings, "OKEY_AWAY_GRACE_S", 15))


# The table's option ``cpu_speed`` (every rule set's: rulebase.COMMON_OPTIONS): how long
# the table waits before each CPU step, as a share of ``OKEY_CPU_DELAY_MS`` (the normal
# pace). A CPU turn is two steps (its draw, then its discard), and the page's flight of
# each tile runs meanwhile (static/js/motion.js); docs/table-page.md has the measured
# turn: about 0.8 s at normal, 0.3 s at fast.
CPU_SPEED_SHARE = {"normal": 1.0, "fast": 0.15}


def cpu_delay(table: Table | None = None) -> timedelta:
    """The wait before a CPU step at ``table`` (its ``cpu_speed``; None: normal)."""
    ms = getattr(settings, "OKEY_CPU_DELAY_MS", 300)
    speed = (table.options or {}).get("cpu_speed") if table is not None else None
    return timedelta(milliseconds=ms * CPU_SPEED_SHARE.get(speed, 1.0))


# After this many turns in a row on which the clock ran out (``Seat.timeouts``) the seat
# counts as away: its stand-in CPU plays its turns until the player acts again (a move of
# their own, or "I'm back": ``do_come_back``).
AWAY_AFTER_TIMEOUTS = 2


def turn_clock(table: Table) -> timedelta | None:
    """The table's turn clock (its engine option ``clock``; None: no clock).
    ``OKEY_TURN_CLOCK_S`` (tests and demos only) runs every clock that many seconds."""
    seconds = int(table.options.get("clock") or 0)
    if not seconds:
        return None
    override = getattr(settings, "OKEY_TURN_CLOCK_S", 0)
    return timedelta(seconds=float(override) if override else seconds)


def stand_in_plays(seat: Seat) -> bool:
    """Whether a person's seat is played by its stand-in CPU: its owner has no open
    socket (after the away grace), timed out ``AWAY_AFTER_TIMEOUTS`` turns in a row,
    or forfeited the game."""
    return not seat.is_cpu and (
        seat.away_since is not None
        or seat.timeouts >= AWAY_AFTER_TIMEOUTS
        or seat.forfeited_at is not None
    )


def schedule(
    table: Table,
    state: engine_state.HandState,
    at: datetime,
    *,
    same_turn: bool = False,
    cpu_step: bool = False,
) -> None:
    """Set when the next CPU move and the turn clock fall due.

    A CPU seat moves after a short visible delay; a human seat that is away
    (no open connection) is played by its CPU once the grace period since it
    left has passed; a present human gets the table's turn clock, if any.

    ``same_turn``: the action just applied left the same turn going (a draw, a
    lay-down, an undo, a returned discard, and every free action: a flip, an
    arrange, by any seat). Such an action never postpones anything: the turn
    clock runs from the start of the turn to its end, and a due CPU move stays
    due. Only the CPU's own step (``cpu_step``: it plays a turn one action at a
    time) sets its next step, after the visible delay.
    """
    if same_turn and table.status == Table.Status.PLAYING:
        if cpu_step:
            table.cpu_due_at = at + cpu_delay(table)
        return
    table.cpu_due_at = None
    table.turn_deadline = None
    if table.status != Table.Status.PLAYING:
        return
    if state.over:
        _schedule_next_hand(table, at)
        return
    seat = seat_at(table, state.turn)
    if seat.is_cpu or seat.forfeited_at is not None:  # a CPU, or a leaver's stand-in
        table.cpu_due_at = at + cpu_delay(table)
        return
    if seat.timeouts >= AWAY_AFTER_TIMEOUTS:
        table.cpu_due_at = at + cpu_delay(table)  # away by time-outs: no grace to wait
    elif seat.away_since is not None:
        table.cpu_due_at = max(seat.away_since + grace(), at + cpu_delay(table))
    clock = turn_clock(table)
    if clock:
        table.turn_deadline = at + clock


def everyone_away(table: Table) -> tuple[bool, datetime | None]:
    """Whether no person is at the table (every human seat away), and since when."""
    people = [s for s in table.seats.all() if not s.is_cpu]
    if any(s.away_since is None for s in people):
        return False, None
    return True, max((s.away_since for s in people), default=None)


def deals_unattended(table: Table) -> bool:
    """Whether the table deals its next hand with no person at it: an organiser's table
    (a tournament round must reach its end) or a table with no person's seat at all."""
    return table.organised or all(s.is_cpu for s in table.seats.all())


def _schedule_next_hand(table: Table, at: datetime) -> None:
    """A finished hand waits for someone at the table to press "Next hand". A table
    nobody is at (every person away) deals no new hand: the hand in play was finished
    by the stand-ins, and the game waits for a person to come back. An organiser's table
    (``Table.organised``: a tournament round, which must reach its end) is the
    exception, and so is a table of CPUs alone (the benchmarks'): when every person has
    left (or its players never came) the sweeper deals the next hand once the grace
    period is over, after a pause to show the result."""
    empty, since = everyone_away(table)
    if empty and deals_unattended(table):
        pause = at + 4 * cpu_delay(table)
        table.cpu_due_at = max(since + grace(), pause) if since is not None else pause
