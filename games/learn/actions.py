"""The learn app's one write: open a lesson's table (through the core's
``do_create_table``, with the lesson's deal: ``hooks.seed_for``)."""

from __future__ import annotations

from typing import Any

from games.learn import hooks
from games.learn.script import SCRIPTS
from games.live import actions
from games.models import Table


def do_start_lesson(slug: str, *, user: Any = None, guest_key: str = "") -> Table:
    """A new table for lesson ``slug``: the learner at the script's seat and CPUs in the
    others (their moves are the script's, ``script.cpu_move``), dealt from the script's
    seed at once; casual, private, no turn clock, assisted. Raises KeyError for an
    unknown lesson."""
    script = SCRIPTS[slug]
    seats = [
        actions.SeatSpec("me") if pos == script.seat else actions.SeatSpec("cpu", "easy")
        for pos in range(script.players)
    ]
    token = hooks.opening.set(script)
    try:
        return actions.do_create_table(
            variant=script.variant,
            options={**dict(script.options), "assisted": True},
            seats=seats,
            user=user,
            guest_key=guest_key,
        )
    finally:
        hooks.opening.reset(token)
