"""Presence: which seats have an open socket, and what changes when one goes away."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Count, F, Q

from games.live.actions import base
from games.live.actions.clock import schedule
from games.live.realtime import broadcast_on_commit, snapshot
from games.models import Seat, SeatConnection, Table

# ------------------------------------------------------------------ presence
#
# A seat is away when its owner has no open websocket. Each open socket is a
# ``SeatConnection`` row (its channel name, the process holding it, when that
# process last vouched for it); ``Seat.connections`` is their count. A socket
# that ends cleanly deletes its row; one that ends any other way (its consumer
# crashed, its process was killed) is found by ``reconcile_presence``, which each
# server process runs from the sweeper: rows of its own that no live consumer
# holds are dropped, and rows no process has vouched for within
# ``OKEY_PRESENCE_TTL_S`` expire. A count can lag by that long, never stick.

PROCESS = secrets.token_hex(8)  # this server process, in its SeatConnection rows


def presence_ttl() -> timedelta:
    return timedelta(seconds=getattr(settings, "OKEY_PRESENCE_TTL_S", 45))


def do_set_presence(
    seat_id: int | None,
    connected: bool,
    *,
    at: datetime | None = None,
    channel: str | None = None,
) -> None:
    """Count a seat owner's open connections; the seat is away when none is
    left. Leaving during one's turn starts the grace period after which the
    seat's CPU plays; coming back hands the seat back at once. ``channel`` names
    the socket (its row); without one, a connect adds an anonymous row and a
    disconnect removes the oldest row of this process."""
    if seat_id is None:
        return
    at = at or base.now()
    with transaction.atomic():
        seat = Seat.objects.select_for_update().select_related("table").filter(pk=seat_id).first()
        if seat is None:
            return  # the seat was given up (a quick-match wait left): nothing to count
        table = Table.objects.select_for_update().get(pk=seat.table_id)
        rows = SeatConnection.objects.filter(seat_id=seat_id)
        if connected:
            SeatConnection.objects.update_or_create(
                channel=channel or f"{PROCESS}!{secrets.token_hex(8)}",
                defaults={"seat_id": seat_id, "process": PROCESS, "seen_at": at},
            )
        elif channel is not None:
            rows.filter(channel=channel).delete()
        else:
            oldest = rows.filter(process=PROCESS).order_by("pk").first()
            if oldest is not None:
                oldest.delete()
        _count_presence(seat, table, rows.count(), at)


def _count_presence(seat: Seat, table: Table, count: int, at: datetime) -> None:
    """Store a seat's connection count (both rows locked by the caller) and,
    when that makes it away or present, reschedule and tell the table."""
    was_away = seat.away_since is not None
    seat.connections = count
    if count > 0:
        seat.away_since = None
    elif not was_away:
        seat.away_since = at
    seat.save(update_fields=["connections", "away_since"])
    now_away = seat.away_since is not None
    if was_away == now_away or table.status != Table.Status.PLAYING:
        return
    hand, state, _game = snapshot(table)
    if hand is None or state is None:
        return
    if hand.result is not None:  # between hands: is anyone left to deal the next?
        schedule(table, state, at)
        table.save()
        broadcast_on_commit(table, presence=True)
        return
    if state.turn == seat.position:
        deadline = table.turn_deadline
        schedule(table, state, at)
        if deadline is not None:
            table.turn_deadline = deadline  # the clock keeps running
    # Presence is shown, not played: no version bump (a player's pending
    # action stays valid); everyone re-renders to see who is away.
    table.save()
    broadcast_on_commit(table, presence=True)


def do_reconcile_presence(
    live: dict[str, int],
    *,
    at: datetime | None = None,
    process: str | None = None,
) -> int:
    """Make the stored presence match the sockets that are really open.

    ``live`` maps the channel name of every table socket this process holds to
    its seat. This process's rows are refreshed (and re-added if another process
    expired them), its rows that no live socket holds are dropped, rows of any
    process not refreshed within the TTL expire, and every seat whose count was
    wrong is recounted (away, CPU scheduled) as if its sockets had closed.
    Returns the number of seats recounted."""
    at = at or base.now()
    process = process or PROCESS
    touched: set[int] = set()
    with transaction.atomic():
        mine = SeatConnection.objects.filter(process=process)
        gone = mine.exclude(channel__in=list(live))
        touched.update(gone.values_list("seat_id", flat=True))
        gone.delete()
        mine.update(seen_at=at)
        have = set(mine.values_list("channel", flat=True))
        missing = [
            SeatConnection(seat_id=s, process=process, channel=c, seen_at=at)
            for c, s in live.items()
            if c not in have
        ]
        if missing:
            existing = set(
                Seat.objects.filter(pk__in={m.seat_id for m in missing}).values_list(
                    "pk", flat=True
                )
            )
            missing = [m for m in missing if m.seat_id in existing]
            SeatConnection.objects.bulk_create(missing, ignore_conflicts=True)
            touched.update(m.seat_id for m in missing)
        expired = SeatConnection.objects.filter(seen_at__lt=at - presence_ttl())
        touched.update(expired.values_list("seat_id", flat=True))
        expired.delete()
    wrong = (
        Seat.objects.filter(Q(connections__gt=0) | Q(live_connections__isnull=False))
        .annotate(n=Count("live_connections", distinct=True))
        .exclude(connections=F("n"))
        .values_list("pk", flat=True)
    )
    touched.update(wrong)
    for seat_id in sorted(touched):
        with transaction.atomic():
            seat = Seat.objects.select_for_update().filter(pk=seat_id).first()
            if seat is None:
                continue
            table = Table.objects.select_for_update().get(pk=seat.table_id)
            count = SeatConnection.objects.filter(seat_id=seat_id).count()
            if count != seat.connections or (count == 0) != (seat.away_since is not None):
                _count_presence(seat, table, count, at)
    return len(touched)


def do_reset_presence() -> None:
    """At the start of a single server process: nobody is connected yet."""
    SeatConnection.objects.all().delete()
    Seat.objects.filter(connections__gt=0).update(connections=0, away_since=base.now())
