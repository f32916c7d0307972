"""One heavy request at a time per process, so that live tables keep their share of the CPU.

What runs where (Django 5.2, asgiref 3.13, Channels 4.3; README "Heavy pages and live
tables"): Django's ASGI handler enters a fresh ``asgiref.sync.ThreadSensitiveContext`` for
every HTTP request, so each request's sync view runs in a one-thread executor of its own.
The websocket consumers' ``database_sync_to_async`` calls (and the sweeper's) run outside
any such context, in asgiref's one process-wide ``SyncToAsync.single_thread_executor``. A
page therefore never occupies the live tables' thread, but every thread of the process
shares one interpreter lock: a page that computes for a second slows every table move of
that second, and four such pages at once slow them four times as much.

The pages that do real work on untrusted input (the review and tournament imports) go
through :func:`one_at_a_time`:

- one computes at a time in the process; the next waits up to ``WAIT_S`` seconds, then is
  answered "busy, try again" (503) with nothing changed;
- heavy work may use at most ``SHARE`` of the time: after a block that took d seconds the
  next starts d × (1/SHARE − 1) later, so back-to-back imports cannot keep the interpreter
  (and SQLite's one writer) busy all the time;
- while a block runs, the interpreter hands over between threads every ``SWITCH_S`` (0.5
  ms instead of Python's 5 ms), so a table move waiting for the lock waits less.

The bounded but not cheap pages (the who-met-whom matrix, shown in blocks; a hand's
replay, stored at import for imported files) go through :func:`few_at_a_time`: at most
``PAGES_AT_ONCE`` of them compute at once, the others wait their turn (a waiting thread
costs no CPU), so a flood of them competes with the tables' thread as two threads, not
as many as there are requests.
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
SWITCH_S = 0.0005
GATE = threading.BoundedSemaphore(1)
PAGES_AT_ONCE = 2
PAGES = threading.BoundedSemaphore(PAGES_AT_ONCE)

# injectable for tests (a fake clock); the gate keeps the time the next block may start
clock: Callable[[], float] = time.monotonic
sleep: Callable[[float], None] = time.sleep
_next_start = 0.0


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


@contextmanager
def few_at_a_time(wait_s: float | None = None) -> Iterator[None]:
    """Run the block as one of at most ``PAGES_AT_ONCE`` page computations, or raise
    :class:`Busy` after waiting ``WAIT_S`` seconds for a turn."""
    if not PAGES.acquire(timeout=WAIT_S if wait_s is None else wait_s):
        raise Busy
    try:
        yield
    finally:
        PAGES.release()


def page(view: Callable[..., Any]) -> Callable[..., Any]:
    """A view that runs :func:`few_at_a_time`; a 503 "busy" page when no turn came."""

    @functools.wraps(view)
    def wrapped(request: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            with few_at_a_time():
                return view(request, *args, **kwargs)
        except Busy:
            from django.http import HttpResponse
            from django.utils.translation import gettext as _

            text = _("The server is busy. Try again in a moment.")
            return HttpResponse(text, status=503, content_type="text/plain; charset=utf-8")

    return wrapped
