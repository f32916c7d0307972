"""Watchers of a table: one row per open websocket of a visitor without a seat.

The count of a table's watchers is the count of its rows, so it is the same for
every server process of a site (with Redis, several processes serve one site and
a table's watchers may be spread over them). Rows follow the pattern of the seats'
``SeatConnection``: the process that holds a socket adds its row on connect and
deletes it on close; its sweeper vouches for its rows every heartbeat and drops
the rows no live socket holds; rows that no process has vouched for within the
presence TTL (a process that was killed) expire. See ``games.watch.actions``.
"""

from __future__ import annotations

from django.db import models

from games.models import Table


class WatchConnection(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="watch_connections")
    process = models.CharField(max_length=32)
    channel = models.CharField(max_length=200, unique=True)
    seen_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["process"]), models.Index(fields=["seen_at"])]

    def __str__(self) -> str:
        return f"{self.table} watched via {self.channel}"
