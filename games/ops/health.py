"""The checks behind /healthz: each answers True (ok) or False (failing), and never says why
to the caller (the reason is logged at WARNING for the operator).

- ``database``: a ``SELECT 1`` on the default database;
- ``channel_layer``: a message sent to a channel of this check's own and received back
  (Redis with ``REDIS_URL``; the in-memory layer otherwise);
- ``cache``: a value set and read back in the default cache (Redis with ``REDIS_URL``);
- ``sweeper``: this process's sweeper (games/live/sweeper.py, which plays CPU moves and
  turn clocks) finished a pass within ``HEALTHZ_SWEEPER_MAX_LAG_S`` seconds
  (``okeysite.metrics.sweeper``). A process started without it (``runserver``) fails this
  check once that long has passed since it started: its tables' CPUs would not move.
  (``manage.py serve --no-sweeper``, a process kept from sweeping on purpose, passes.)
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.cache import cache
from django.db import connections

from okeysite import metrics

log = logging.getLogger(__name__)

# How long the channel layer's round trip may take (seconds).
LAYER_TIMEOUT_S = 2.0


def database() -> bool:
    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT 1")
        return cursor.fetchone() == (1,)


def channel_layer() -> bool:
    layer = get_channel_layer()
    if layer is None:
        return False
    channel = f"okey.healthz.{secrets.token_hex(8)}"
    token = secrets.token_hex(8)

    async def round_trip() -> bool:
        async def go() -> bool:
            await layer.send(channel, {"type": "healthz", "token": token})
            message = await layer.receive(channel)
            return message.get("token") == token

        return await asyncio.wait_for(go(), LAYER_TIMEOUT_S)

    return async_to_sync(round_trip)()


def cache_check() -> bool:
    key, token = f"okey:healthz:{secrets.token_hex(8)}", secrets.token_hex(8)
    cache.set(key, token, 10)
    ok = cache.get(key) == token
    cache.delete(key)
    return ok


def sweeper() -> bool:
    state = metrics.sweeper
    return not state.enabled or state.lag() <= settings.HEALTHZ_SWEEPER_MAX_LAG_S


CHECKS: dict[str, Callable[[], bool]] = {
    "database": database,
    "channel_layer": channel_layer,
    "cache": cache_check,
    "sweeper": sweeper,
}


def run_checks() -> dict[str, bool]:
    """Every check's verdict, by name (a check that raises is failing)."""
    verdicts: dict[str, bool] = {}
    for name, check in CHECKS.items():
        try:
            verdicts[name] = bool(check())
        except Exception as exc:  # any error is "failing"; the operator finds why in the log
            log.warning("health check %s failed: %s: %s", name, type(exc).__name__, exc)
            verdicts[name] = False
    if not verdicts["database"]:
        # the failed query left the connection unusable: let the next request open another
        connections["default"].close_if_unusable_or_obsolete()
    return verdicts
