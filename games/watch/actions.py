"""Counting a table's watchers, and telling the table and the lobby when it changes.

A watcher is an open table websocket of a visitor without a seat (the table page
of someone who does not play there: ``games.live.consumers.TableConsumer`` with no
position). Each is one ``WatchConnection`` row; a table's count is its rows, so it
is right however many processes serve the site. These rows are not part of a
table (no version, no engine action, nothing a player plays), so they are written
here and not by ``games.live.actions``; like the seats' presence rows, a socket that
ends cleanly deletes its row, and ``do_reconcile_watchers`` (each process's
sweeper, every presence heartbeat) drops the rows of sockets that ended any other
way: its own rows that no live socket holds at once, any process's rows nobody
vouched for within ``OKEY_PRESENCE_TTL_S``. A count can lag by that long, never
stick.

After every change that commits, the table's group hears ``table.watchers`` (each
process re-reads the count and sends the header chip to its sockets of that
table) and, when the table is listed in the lobby, the lobby hears that its list
changed (``games.watch.lobby``).
"""

from __future__ import annotations

import secrets
from datetime import datetime

from django.db import transaction
from django.db.models import Count

from games.live import actions
from games.live.realtime import group_name, group_send
from games.models import Table
from games.watch import lobby
from games.watch.models import WatchConnection


def watcher_count(table_id: int) -> int:
    return WatchConnection.objects.filter(table_id=table_id).count()


def watcher_counts(table_ids: list[int]) -> dict[int, int]:
    """The watchers of each of these tables (0 for a table nobody watches)."""
    rows = (
        WatchConnection.objects.filter(table_id__in=table_ids)
        .values("table_id")
        .annotate(n=Count("pk"))
    )
    counts = dict.fromkeys(table_ids, 0)
    counts.update({r["table_id"]: r["n"] for r in rows})
    return counts


def _announce(table_ids: set[int], origin: str = "") -> None:
    """Once the transaction commits: each table's sockets re-read its count, and the
    lobby re-reads its list if one of these tables is listed. ``origin``: the socket
    that just connected, whose first frame carries the count already."""
    if not table_ids:
        return
    listed = lobby.listed(table_ids)

    def send() -> None:
        for table_id in sorted(table_ids):
            group_send(
                group_name(table_id),
                {"type": "table.watchers", "nonce": secrets.token_hex(8), "origin": origin},
            )
        if listed:
            lobby.lobby_changed()

    transaction.on_commit(send)


def do_watch(table_id: int, channel: str, *, at: datetime | None = None) -> None:
    """A watcher's socket opened on this table."""
    at = at or actions.now()
    with transaction.atomic():
        if not Table.objects.filter(pk=table_id).exists():
            return
        WatchConnection.objects.update_or_create(
            channel=channel,
            defaults={"table_id": table_id, "process": actions.PROCESS, "seen_at": at},
        )
        _announce({table_id}, origin=channel)


def do_unwatch(channel: str) -> None:
    """A watcher's socket closed."""
    with transaction.atomic():
        rows = WatchConnection.objects.filter(channel=channel)
        tables = set(rows.values_list("table_id", flat=True))
        rows.delete()
        _announce(tables)


def do_reconcile_watchers(
    live: dict[str, int], *, at: datetime | None = None, process: str | None = None
) -> int:
    """Make the stored watchers match the watcher sockets that are really open.

    ``live`` maps the channel name of every watcher socket this process holds to its
    table. This process's rows are refreshed (and re-added if another process expired
    them), its rows that no live socket holds are dropped, and the rows of any process
    not refreshed within the presence TTL expire. Returns how many tables' counts
    changed (each is announced as at a connect or a close)."""
    at = at or actions.now()
    process = process or actions.PROCESS
    touched: set[int] = set()
    with transaction.atomic():
        mine = WatchConnection.objects.filter(process=process)
        gone = mine.exclude(channel__in=list(live))
        touched.update(gone.values_list("table_id", flat=True))
        gone.delete()
        mine.update(seen_at=at)
        have = set(mine.values_list("channel", flat=True))
        missing = {c: t for c, t in live.items() if c not in have}
        if missing:
            existing = set(
                Table.objects.filter(pk__in=set(missing.values())).values_list("pk", flat=True)
            )
            rows = [
                WatchConnection(table_id=t, process=process, channel=c, seen_at=at)
                for c, t in missing.items()
                if t in existing
            ]
            WatchConnection.objects.bulk_create(rows, ignore_conflicts=True)
            touched.update(r.table_id for r in rows)
        expired = WatchConnection.objects.filter(seen_at__lt=at - actions.presence_ttl())
        touched.update(expired.values_list("table_id", flat=True))
        expired.delete()
        _announce(touched)
    return len(touched)
