"""One heavy request at a time per process, so that live tables keep their share of the CPU.

What runs where (Django 5.2, asgiref 3.13, Channels 4.3; README "Heavy pages and live
tables"): Django's ASGI handler enters a fresh ``asgiref.sync.ThreadSensitiveContext`` for
every HTTP request, so each request's sync view runs in a one-thread executor of its own.
The websocket consumers' ``database_sync_to_async`` calls (and the sweeper's) run outside
any such context, in asgiref's one process-wide ``SyncToAsync.single_thread_executor``. A
page therefore never occupies the live tables' thread, but every thread of the process
shares one interpreter lock: a page that computes for a second slows every table move of
that second, and four such pages at once slow them four times as much.

The pages that do real work on untrusted input (the review and tournament imports) take
this gate: one computes at a time; the next waits up to ``WAIT_S`` seconds, then is answered
"busy, try again" (503) with nothing changed. Every other page is bounded instead (the
who-met-whom matrix is paginated; an imported hand's replay is stored at import).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

WAIT_S = 5.0
GATE = threading.BoundedSemaphore(1)


class Busy(Exception):
    """Another heavy request is being computed in this process."""


@contextmanager
def one_at_a_time(wait_s: float | None = None) -> Iterator[None]:
    """Hold the process's heavy-work gate for the block, or raise :class:`Busy`."""
    if not GATE.acquire(timeout=WAIT_S if wait_s is None else wait_s):
        raise Busy
    try:
        yield
    finally:
        GATE.release()
