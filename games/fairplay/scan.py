"""The background scan: finished hands of competitive tables, checked once, off the
tables' path (``manage.py fairplay_scan``; docs/fair-play.md).

``scan(limit)`` takes up to ``limit`` finished hands of competitive tables
(``Table.competitive``) that no scan has claimed, oldest first. For each it *claims* the
hand: one ``HandCheck`` row per seat of a person with an account, inserted together (the
unique (hand, seat) constraint: a second scan, in any process, fails the insert and
leaves the hand). It then replays the hand once (``checks.check_hand``: the expert values
each decision the person played themself, ``HandAction.by_cpu`` false, from the seat's
own view) and, in one transaction per hand, stores each row's figures and adds them to
the player's ``PlayerStats`` of the rule set, only if the row is still its own and
running (so a row is counted once even when a slow scan's claim was taken over). A row
whose scan died is taken over after ``STALE_AFTER``; a hand that fails is stored as
failed with the error, and skipped.

It also stores, once per finished competitive game, who sat where and who placed where
(``GameCheck``, for the "always together" signal). Each run that checked something
writes a ``LogEntry``.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from games.live.realtime import game_for, hand_record
from games.models import Hand, HandAction, Table
from games.ratings.api import final_places

from . import checks
from .conf import RECENT_KEEP, setting
from .models import GameCheck, HandCheck, LogEntry, PlayerStats

log = logging.getLogger(__name__)
STALE_AFTER = timedelta(minutes=10)

# the clock and the evaluator (None: the expert); tests give their own
clock: Callable[[], datetime] = timezone.now
evaluator: checks.Evaluator | None = None


@dataclass
class ScanReport:
    hands: int = 0
    seats: int = 0
    decisions: int = 0
    failed: int = 0
    games: int = 0
    seconds: float = 0.0


def pending_hands(now: datetime):
    """Finished hands of competitive tables with a person's account seated and no check
    (or only checks whose scan died), oldest first."""
    S = HandCheck.Status
    checked = HandCheck.objects.filter(hand=OuterRef("pk"))
    stale = checked.filter(status=S.RUNNING, claimed_at__lt=now - STALE_AFTER)
    return (
        Hand.objects.filter(
            result__isnull=False,
            table__competitive=True,
            table__seats__is_cpu=False,
            table__seats__user__isnull=False,
        )
        .filter(~Exists(checked) | Exists(stale))
        .distinct()
        .order_by("finished_at", "id")
    )


def _claim(hand: Hand, now: datetime) -> tuple[str, list[HandCheck]]:
    """This scan's claim on the hand's rows (made now, or taken over from a dead scan)."""
    token = secrets.token_hex(8)
    seats = [s for s in hand.table.seats.all() if not s.is_cpu and s.user_id is not None]
    by_pos = {s.position: s for s in hand.table.seats.all()}
    n = len(by_pos)
    rows = []
    for s in seats:
        before = by_pos.get((s.position - 1) % n)
        feeder = before.user_id if before is not None and not before.is_cpu else None
        rows.append(
            HandCheck(
                hand=hand,
                seat=s.position,
                user_id=s.user_id,
                variant=hand.table.variant,
                claim=token,
                claimed_at=now,
                feeder_id=feeder,
            )
        )
    try:
        with transaction.atomic():
            HandCheck.objects.bulk_create(rows)
    except IntegrityError:  # claimed by another scan, or rows left by a scan that died
        HandCheck.objects.filter(
            hand=hand, status=HandCheck.Status.RUNNING, claimed_at__lt=now - STALE_AFTER
        ).update(claim=token, claimed_at=now)
    mine = list(HandCheck.objects.filter(hand=hand, claim=token, status=HandCheck.Status.RUNNING))
    return token, mine


def _own_moves(hand: Hand, seats: list[int]) -> dict[int, list[int]]:
    """Seat -> the indexes of the actions its person played themself."""
    out: dict[int, list[int]] = {s: [] for s in seats}
    for seat, index in HandAction.objects.filter(
        hand=hand, seat__in=seats, by_cpu=False
    ).values_list("seat", "index"):
        out[seat].append(index)
    return out


def _store(token: str, rows: list[HandCheck], figures: dict[int, dict[str, Any]], now) -> int:
    """Store the figures of this scan's rows and add them to the players' sums; the
    decisions counted."""
    counted = 0
    with transaction.atomic():
        for row in rows:
            f = figures[row.seat]
            done = HandCheck.objects.filter(
                pk=row.pk, claim=token, status=HandCheck.Status.RUNNING
            ).update(
                status=HandCheck.Status.DONE,
                decisions=f["decisions"],
                matches=f["matches"],
                loss=f["loss"],
                bits=f["bits"],
                fed=f["fed"],
            )
            if not done:
                continue
            PlayerStats.objects.bulk_create(
                [PlayerStats(user_id=row.user_id, variant=row.variant, updated_at=now)],
                ignore_conflicts=True,
            )
            stats = PlayerStats.objects.select_for_update().get(
                user_id=row.user_id, variant=row.variant
            )
            stats.hands += 1
            stats.decisions += f["decisions"]
            stats.matches += f["matches"]
            stats.loss = round(stats.loss + f["loss"], 3)
            stats.recent = (stats.recent + f["bits"])[-RECENT_KEEP:]
            stats.updated_at = now
            stats.save()
            counted += f["decisions"]
    return counted


def do_check_hand(hand: Hand, now: datetime, report: ScanReport) -> None:
    token, rows = _claim(hand, now)
    if not rows:
        return
    try:
        figures = checks.check_hand(
            hand_record(hand),
            _own_moves(hand, [r.seat for r in rows]),
            evaluate=evaluator,
        )
    except Exception as exc:  # stored: a hand the engine cannot replay is not retried
        log.exception("fair-play check of hand %s failed", hand.pk)
        HandCheck.objects.filter(pk__in=[r.pk for r in rows], claim=token).update(
            status=HandCheck.Status.FAILED, error=str(exc)[:200]
        )
        report.failed += 1
        return
    report.decisions += _store(token, rows, figures, now)
    report.hands += 1
    report.seats += len(rows)


def pending_games():
    """Finished competitive games with two or more persons' accounts and no GameCheck."""
    return (
        Table.objects.filter(competitive=True, status=Table.Status.FINISHED)
        .exclude(fairplay_game__isnull=False)
        .filter(seats__is_cpu=False, seats__user__isnull=False)
        .distinct()
        .order_by("finished_at", "id")
        .prefetch_related("seats")
    )


def game_places(table: Table) -> dict[int, int]:
    """Seat position -> game placing of a finished game (1 = first, ties shared; partners:
    the team's), as the ratings read it."""
    return final_places(table, game_for(table))


def do_check_game(table: Table) -> bool:
    people = [s for s in table.seats.all() if not s.is_cpu and s.user_id is not None]
    if len(people) < 2:
        where: dict[int, int] = {}
    else:
        where = game_places(table)
    seats = {str(s.user_id): [s.position, where.get(s.position, 0)] for s in people}
    _row, made = GameCheck.objects.get_or_create(
        table=table,
        defaults={
            "variant": table.variant,
            "players": len(table.seats.all()),
            "seats": seats,
            "finished_at": table.finished_at,
        },
    )
    return made


def do_scan(limit: int | None = None, *, now: datetime | None = None) -> ScanReport:
    """Check up to ``limit`` hands and ``limit`` games (``FAIRPLAY_SCAN_BATCH``)."""
    started = time.perf_counter()
    limit = setting("SCAN_BATCH") if limit is None else limit
    now = now or clock()
    report = ScanReport()
    for hand in pending_hands(now).select_related("table")[:limit]:
        do_check_hand(hand, now, report)
    for table in pending_games()[:limit]:
        try:
            report.games += int(do_check_game(table))
        except IntegrityError:  # stored by another scan meanwhile
            continue
    report.seconds = round(time.perf_counter() - started, 2)
    if report.hands or report.games or report.failed:
        LogEntry.objects.create(at=now, action=LogEntry.Action.SCAN, detail=asdict(report))
    return report
