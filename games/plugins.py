"""The registry: where the sub-apps plug into the core.

The core (``games/*.py``, ``games/live/``) never imports a sub-app
(``tests/games/test_module_graph.py``). A sub-app plugs in three ways: it listens to the
core's signals (``games/signals.py``: ``game_finished``), it mounts its URLs
(``okeysite/urls.py``, ``okeysite/routing.py``), and, where the core must ask it
something, it sets a hook here from its ``AppConfig.ready()``. Every hook has a default
that is right without the sub-app, so the core runs with none of them installed.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any


def _none(*args: Any, **kwargs: Any) -> None:
    return None


def _zero(*args: Any, **kwargs: Any) -> int:
    return 0


# Quick match (games/matchmaking): how many seconds a waiting quick-match table still
# waits before CPUs may take its free seats (0: they may now); and the waiting card's
# context for a seat of such a table (None: no card).
fill_wait: Callable[[Any, datetime], int] = _zero
waiting_context: Callable[[Any, list[Any], Any], dict[str, Any] | None] = _none

# Watching (games/watch): a table's watchers are counted by their sockets. ``do_watch``
# (table id, channel) and ``do_unwatch`` (channel) as a watcher's socket opens and
# closes, ``watcher_count`` (table id) for the table's header, and
# ``do_reconcile_watchers`` ({channel: table id} of this process's open watcher
# sockets) from the sweeper. ``live_list`` (at most n rows): the live tables fragment of
# the home page ("" without it).
do_watch: Callable[[int, str], None] = _none
do_unwatch: Callable[[str], None] = _none
watcher_count: Callable[[int], int] = _zero
do_reconcile_watchers: Callable[[dict[str, int]], int] = _zero
live_list: Callable[[int], str] = lambda limit: ""  # noqa: E731

# Tournaments (games/tournaments): the tournament table a game is played for (the table
# page links back to it), or None.
tournament_table: Callable[[Any], Any] = _none

# Deals from a sub-app: each source (table, hand number) gives the seed to deal instead
# of the table's own, or None; ``seed_for`` asks them in turn.
seed_sources: list[Callable[[Any, int], str | None]] = []


def seed_for(table: Any, number: int) -> str | None:
    """The seed a sub-app deals at ``table``'s hand ``number``: the first of
    ``seed_sources`` that has one (games/learn: a lesson's scripted deal;
    games/tournaments: a duplicate round's shared deals), else None (the table's own)."""
    for source in seed_sources:
        seed = source(table, number)
        if seed is not None:
            return seed
    return None


# Learn (games/learn): a scripted first hand on the real table; its deal comes through
# ``seed_sources`` (above). ``scripted_move`` (hand, state, seat position): the move a CPU
# seat of a lesson plays instead of its bot's (None: the bot's); ``lesson_refusal`` (hand,
# state, seat position, action): (code, message) when a learner's move is not the lesson's
# (None: let the engine judge it); ``lesson_panel`` (the table page's context for one
# seat): the lesson panel, ``{"key": ..., "html": ...}``, or None at any other table.
scripted_move: Callable[[Any, Any, int], dict[str, Any] | None] = _none
lesson_refusal: Callable[[Any, Any, int, dict[str, Any]], tuple[str, Any] | None] = _none
lesson_panel: Callable[[dict[str, Any]], dict[str, Any] | None] = _none

# Duplicate tournaments (games/tournaments): ``deal_embargoed`` (table) is True while the
# deals of ``table`` are still being played at another table of the same duplicate round:
# until then no page shows more of a finished hand than its seat could see in play (no
# other rack at the hand's end, no review, no watchers).
deal_embargoed: Callable[[Any], bool] = lambda table: False  # noqa: E731
