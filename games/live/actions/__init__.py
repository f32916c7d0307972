"""The table actions: every write to a table, each in one transaction.

Each ``do_*`` function is one action (the pattern of Zulip's ``zerver/actions``): it
locks the table row, checks what the caller saw (the version, the seat), applies the
change (the engine's ``apply`` for a move), stores it, bumps the version and broadcasts
*after commit* (``realtime.broadcast_on_commit``), so no client ever sees a change that
was rolled back. Nothing else in the project saves a table, a hand or a seat: views and
consumers parse, authorise and call one of these.

The actions live in one module per domain; this package gathers them (and the read and
broadcast helpers of ``games.live.realtime`` that callers outside the live table use),
so a caller writes ``from games.live import actions`` and ``actions.do_join_table(...)``.
Tests that replace the clock or the seed source replace ``base.now`` and
``base.seed_source``.

- ``base``: the injected clock and seeds, ``ActionRefused``, the row lock, the move's
  prepared writes;
- ``clock``: the turn clock a table gets [D8] and when the server moves for a seat;
- ``table``: open a table, seats, deals, moves (``do_submit_action``);
- ``rack``: a seat's rack order, sorting, dropped tiles, "Show me";
- ``presence``: open sockets, away seats;
- ``leavers``: forfeits and aborts of rated games;
- ``sweep``: what the sweeper plays (due CPU moves, expired clocks, due forfeits).
"""

from datetime import datetime

from games.live.actions import base
from games.live.actions.base import ActionRefused, SeatSpec, seat_of
from games.live.actions.clock import (
    AWAY_AFTER_TIMEOUTS,
    DEFAULT_CLOCK_S,
    cpu_delay,
    grace,
    stand_in_plays,
    turn_clock,
)
from games.live.actions.leavers import do_forfeit, do_leave_game, forfeit_grace, forfeits_due
from games.live.actions.presence import (
    PROCESS,
    do_reconcile_presence,
    do_reset_presence,
    do_set_presence,
    presence_ttl,
)
from games.live.actions.rack import (
    arrange_slots,
    do_save_rack_order,
    do_show_hint,
    do_sort_rack,
    resolve_place,
)
from games.live.actions.sweep import do_play_due, due_tables, sweep, sweep_forfeits
from games.live.actions.table import (
    arrange_seats,
    do_abandon_solo,
    do_come_back,
    do_create_table,
    do_fill_with_cpus,
    do_invite_bot,
    do_join_table,
    do_leave_table,
    do_next_hand,
    do_seat_players,
    do_submit_action,
    seated_group,
    start_hand,
)
from games.live.realtime import (
    attach_event_loop,
    broadcast,
    game_for,
    group_send,
    load_state,
    rebuild_hand,
    snapshot,
)


def now() -> datetime:
    """The table actions' clock: ``base.now`` (which tests replace), read at each call."""
    return base.now()


__all__ = [
    "AWAY_AFTER_TIMEOUTS",
    "DEFAULT_CLOCK_S",
    "PROCESS",
    "ActionRefused",
    "SeatSpec",
    "arrange_seats",
    "arrange_slots",
    "attach_event_loop",
    "broadcast",
    "cpu_delay",
    "do_abandon_solo",
    "do_come_back",
    "do_create_table",
    "do_fill_with_cpus",
    "do_invite_bot",
    "do_forfeit",
    "do_join_table",
    "do_leave_game",
    "do_leave_table",
    "do_next_hand",
    "do_play_due",
    "do_reconcile_presence",
    "do_reset_presence",
    "do_save_rack_order",
    "do_seat_players",
    "do_set_presence",
    "do_show_hint",
    "do_sort_rack",
    "do_submit_action",
    "due_tables",
    "forfeit_grace",
    "forfeits_due",
    "game_for",
    "grace",
    "group_send",
    "load_state",
    "now",
    "presence_ttl",
    "rebuild_hand",
    "resolve_place",
    "seat_of",
    "seated_group",
    "snapshot",
    "stand_in_plays",
    "start_hand",
    "sweep",
    "sweep_forfeits",
    "turn_clock",
]
