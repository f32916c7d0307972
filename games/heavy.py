"""One heavy request at a time per process, so that live tables keep their share of the CPU.

What runs where (Django 5.2, asgiref 3.13, Channels 4.3; README "Heavy pages and live
tables"): Django's ASGI handler enters a fresh ``asgiref.sync.ThreadSensitiveContext`` for
every HTTP request, so each request's sync view runs in a one-thread executor of its own.
The websocket consumers' ``database_sync_to_async`` calls (and the sweeper's) run outside
any such context, in asgiref's one process-wide ``SyncToAsync.single_thread_executor``. A
page therefore never occupies the live tables' thread, but every thread of the process
shares one interpreter lock: a page that computes for a second slows every table move of
that second, and four such pages at once slow them four times as much.

Heavy work takes turns: at most ``AT_ONCE`` (one) computation of the pages below runs at a
time in the process, the others wait for their turn (a waiting thread costs no CPU), so a
flood of them competes with the tables' threads as one thread, not as many as there are
requests. Measured (README): with two such threads at once the tables' p95 was 4 times
worse than with one.

- The heavy pages (a hand's replay and its commentary, a tournament's page and its
  who-met-whom matrix, the lobby, the live tables; their inner parts are kept rendered,
  ``games.pagecache``) take a turn with :func:`page`, and, while the process serves live
  tables (a table socket is open in it), they use at most ``PAGE_SHARE`` of the time:
  after a page of d seconds the next starts d × (1/PAGE_SHARE − 1) later at the
  earliest, so a client asking for them without pause cannot keep the interpreter from
  the tables' frames (README "Pages under load"). A process without live tables (a
  pages-only process, a quiet one) serves them back to back.
- The pages that do real work on untrusted input (the review and tournament imports) go
  through :func:`one_at_a_time`: one import at a time (the next waits up to ``WAIT_S``
  seconds, then is answered "busy, try again", 503, with nothing changed); imports use at
  most ``SHARE`` of the time (after a block of d seconds the next starts d × (1/SHARE − 1)
  later, so back-to-back imports cannot keep the interpreter and SQLite's one writer busy);
  they take a turn too, and while one runs the interpreter hands over between threads every
  ``SWITCH_S`` (0.5 ms instead of Python's 5 ms), so a table move waiting for the
  interpreter lock waits less.
"""

from __future__ import annotations

import functools
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

WAIT_S = 5.0
SHARE = 0.25
PAGE_SHARE = 0.25  # settings.OKEY_PAGE_SHARE overrides it (1 turns the pacing off)
SWITCH_S = 0.0005
GATE = threading.BoundedSemaphore(1)
AT_ONCE = 1
SLOTS = threading.BoundedSemaphore(AT_ONCE)

# injectable for tests (a fake clock); the gate keeps the time the next block may start
clock: Callable[[], float] = time.monotonic
sleep: Callable[[float], None] = time.sleep
_next_start = 0.0
_next_page = 0.0  # the time the next heavy page may start while tables are live


class Busy(Exception):
    """Another heavy request is being computed in this process."""


@contextmanager
def one_at_a_time(wait_s: float | None = None) -> Iterator[None]:
    """Run the block as the process's one heavy computation, or raise :class:`Busy`."""
    global _next_start
    budget = WAIT_S if wait_s is None else wait_s
    asked = clock()
    if not GATE.acquire(timeout=budget):
        raise Busy
    try:
        delay = _next_start - clock()
        if delay > 0:
            if clock() + delay - asked > budget:
                raise Busy
            sleep(delay)
        with in_turn(max(0.0, budget - (clock() - asked))):
            interval = sys.getswitchinterval()
            sys.setswitchinterval(SWITCH_S)
            started = clock()
            try:
                yield
            finally:
                sys.setswitchinterval(interval)
                took = clock() - started
                _next_start = clock() + took * (1 / SHARE - 1)
    finally:
        GATE.release()


_turns = threading.local()  # how deep this thread is in in_turn blocks


@contextmanager
def in_turn(wait_s: float | None = None) -> Iterator[None]:
    """Run the block as one of at most ``AT_ONCE`` heavy computations (pages and imports
    together), or raise :class:`Busy` after waiting ``WAIT_S`` seconds for a turn. A
    thread that has its turn keeps it in nested blocks (a page that imports)."""
    depth = getattr(_turns, "depth", 0)
    if depth == 0 and not SLOTS.acquire(timeout=WAIT_S if wait_s is None else wait_s):
        raise Busy
    _turns.depth = depth + 1
    try:
        yield
    finally:
        _turns.depth = depth
        if depth == 0:
            SLOTS.release()


def tables_live() -> bool:
    """Does this process serve a live table (an open table socket, ``realtime.hub``)?"""
    from games import realtime

    return bool(realtime._HUBS)


def page_share() -> float:
    from django.conf import settings

    return float(getattr(settings, "OKEY_PAGE_SHARE", PAGE_SHARE))


@contextmanager
def paced_page(wait_s: float | None = None) -> Iterator[None]:
    """Run the block as a heavy page: in its turn (:func:`in_turn`) and, while the
    process serves live tables, at most ``page_share()`` of the time (the module's
    docstring); :class:`Busy` when the turn, or the start it may have, is more than
    ``WAIT_S`` away."""
    global _next_page
    budget = WAIT_S if wait_s is None else wait_s
    asked = clock()
    with in_turn(budget):
        share = page_share()
        pacing = share < 1 and tables_live()
        if pacing:
            delay = _next_page - clock()
            if delay > 0:
                if clock() + delay - asked > budget:
                    raise Busy
                sleep(delay)
        started = clock()
        try:
            yield
        finally:
            if pacing:
                took = clock() - started
                _next_page = clock() + took * (1 / share - 1)


def page(view: Callable[..., Any]) -> Callable[..., Any]:
    """A view that runs as :func:`paced_page`; a 503 "busy" page when no turn came."""

    @functools.wraps(view)
    def wrapped(request: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            with paced_page():
                return view(request, *args, **kwargs)
        except Busy:
            from django.http import HttpResponse
            from django.utils.translation import gettext as _

            text = _("The server is busy. Try again in a moment.")
            return HttpResponse(text, status=503, content_type="text/plain; charset=utf-8")

    return wrapped
