"""The sweeper: plays due CPU moves and expired turn clocks.

It runs inside each server process (``manage.py serve`` starts it on daphne's
event loop), so its broadcasts reach that process's sockets also with the
in-memory channel layer. Every step is idempotent (row lock + due check), so
several processes sweeping the same database never play a move twice.
"""

from __future__ import annotations

import asyncio
import logging

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import close_old_connections

from games import services

log = logging.getLogger(__name__)


def sweep_once() -> int:
    close_old_connections()
    return services.sweep()


async def run_forever(interval: float | None = None) -> None:
    interval = interval if interval is not None else settings.OKEY_SWEEP_INTERVAL
    while True:
        try:
            await database_sync_to_async(sweep_once)()
        except Exception:  # keep sweeping whatever one table did
            log.exception("sweeper step failed")
        await asyncio.sleep(interval)
