"""The channel layer for one process (no ``REDIS_URL``)."""

from __future__ import annotations

import time

from channels.layers import InMemoryChannelLayer


class ThrottledInMemoryChannelLayer(InMemoryChannelLayer):
    """channels' in-memory layer, sweeping expired messages and group memberships at
    most once a second. The sweep walks every channel and every group; channels runs it
    on every group send and every receive, which made it a visible share of a busy server's
    CPU (one table move is a group send and four receives). Expired entries simply
    stay up to a second longer."""

    sweep_interval = 1.0

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self._swept_at = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._swept_at < self.sweep_interval:
            return
        self._swept_at = now
        super()._clean_expired()
