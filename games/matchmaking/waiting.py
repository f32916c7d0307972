"""What the waiting card of a quick-match table shows (``templates/matchmaking/_waiting.html``):
who is waiting (with their ratings at a rated table; a guests' casual table has none), how
many seats are free, how wide the rating window is now, when "Fill with CPUs" is offered,
and "Leave" for a player waiting there. Reads only; ``games.live.presenter`` adds it to the
table page's context and the card's own view renders it again after each live frame (the
card's htmx trigger), so it follows the table as people join and leave."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from games.live import actions as table_actions
from games.matchmaking.actions import window_for
from games.matchmaking.rules import fill_wait
from games.models import Seat, Table
from games.ratings.api import current_rating


def waiting_context(
    table: Table, seats: list[Seat], seat: Seat | None, at: datetime | None = None
) -> dict[str, Any] | None:
    """The card's context for a quick-match table that is still waiting; None otherwise.
    ``at`` defaults to the table actions' clock (``games.live.actions.now``)."""
    if not table.quick_match or table.status != Table.Status.WAITING:
        return None
    at = at or table_actions.now()
    # a rated table's players with their ratings; a casual (guests') table's without
    waiting = [
        {
            "name": s.display_name(),
            "rating": current_rating(s.user, table.variant).number if table.rated else None,
            "is_me": seat is not None and s.position == seat.position,
        }
        for s in seats
        if not s.is_cpu and not s.is_open
    ]
    free = sum(1 for s in seats if s.is_open)
    left = fill_wait(table, at)
    return {
        "waiting": waiting,
        "free": free,
        "rated": table.rated,
        "window": window_for(at - table.created_at),
        "seated": seat is not None,
        "can_fill": seat is not None and left == 0,
        "fill_in": left,  # seconds until "Fill with CPUs" is offered
    }
