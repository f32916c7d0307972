"""The sweeper: plays due CPU moves and expired turn clocks.

It runs inside each server process (``manage.py serve`` starts it on daphne's
event loop), so its broadcasts reach that process's sockets also with the
in-memory channel layer. Every step is idempotent (row lock + due check), so
several processes sweeping the same database never play a move twice.
Every ``OKEY_PRESENCE_HEARTBEAT_S`` it also vouches for this process's open
table sockets and drops presence nobody vouches for (a socket that ended
uncleanly, a process that was killed), so a seat cannot stay "present" forever;
the same heartbeat does it for the tables' watchers (``games.watch.actions``).
The end of every pass is recorded (``okeysite.metrics.sweeper``): a process whose
sweeper stalls or died shows its lag at /healthz and /metrics.
"""

from __future__ import annotations

import asyncio
import logging
import time

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import close_old_connections

from games import plugins
from games.live import actions
from okeysite import metrics

log = logging.getLogger(__name__)


def sweep_once(live: dict[str, int] | None = None, watching: dict[str, int] | None = None) -> int:
    """One sweep; with ``live`` (this process's table sockets), presence is
    reconciled first (``actions.do_reconcile_presence``), and with ``watching`` (its
    watcher sockets) the watchers (``plugins.do_reconcile_watchers``)."""
    close_old_connections()
    if live is not None:
        actions.do_reconcile_presence(live)
    if watching is not None:
        plugins.do_reconcile_watchers(watching)
    return actions.sweep()


async def run_forever(interval: float | None = None) -> None:
    from games.live.consumers import live_connections, live_watchers

    interval = interval if interval is not None else settings.OKEY_SWEEP_INTERVAL
    every = getattr(settings, "OKEY_PRESENCE_HEARTBEAT_S", 10.0)
    reconciled = -every  # the first sweep reconciles (after a restart, too)
    while True:
        live = watching = None
        if time.monotonic() - reconciled >= every:
            reconciled = time.monotonic()
            live, watching = live_connections(), live_watchers()
        try:
            await database_sync_to_async(sweep_once)(live, watching)
        except Exception:  # keep sweeping whatever one table did
            log.exception("sweeper step failed")
        metrics.sweeper.passed()  # /healthz and /metrics read the lag (games/ops)
        await asyncio.sleep(interval)
