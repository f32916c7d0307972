"""The registry: where the sub-apps plug into the live table.

The core (``games/*.py``, ``games/live/``) never imports a sub-app
(``tests/games/test_module_graph.py``). A sub-app plugs in three ways: it listens to the
core's signals (``games/signals.py``: ``game_finished``), it mounts its URLs
(``okeysite/urls.py``), and, where the core must ask it something, it sets a hook here
from its ``AppConfig.ready()``. Every hook has a default that is right without the
sub-app, so the core runs (and its tests pass) with none of them.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any


def _no_wait(table: Any, at: datetime) -> int:
    return 0


# Quick match (games/matchmaking): how many seconds a waiting quick-match table still
# waits before CPUs may take its free seats (0: they may now).
fill_wait: Callable[[Any, datetime], int] = _no_wait
