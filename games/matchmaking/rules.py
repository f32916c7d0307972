"""Quick match's times, read by the table actions too (``games/live/actions/`` refuses to
fill a quick-match table with CPUs before its minute, whichever URL asks). Nothing here
imports the table layers, so ``games.live.actions`` may import it without a cycle
(``tests/games/test_module_graph.py``)."""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from games.models import Table

FILL_AFTER = timedelta(seconds=60)  # a waiting table may be filled with CPUs after this


def fill_allowed_at(table: Table) -> datetime:
    """When a waiting quick-match table may be filled with CPUs."""
    return table.created_at + FILL_AFTER


def fill_wait(table: Table, at: datetime) -> int:
    """Whole seconds from ``at`` until the table may be filled with CPUs (0: now)."""
    return max(0, math.ceil((fill_allowed_at(table) - at).total_seconds()))
