"""Writing and reading solo results: the signal receiver, personal bests, new records."""

from __future__ import annotations

from typing import Any

from django.db.models import Min, Q

from games.models import Table
from games.solo.models import RECORD_VARIANT, SoloResult


def human_seat(table: Table):
    """The one person at a solo table (the other three seats are CPUs)."""
    return next((s for s in table.seats.all() if not s.is_cpu), None)


def cpu_level(table: Table) -> str:
    levels = [s.cpu_level for s in table.seats.all() if s.is_cpu]
    return levels[0] if levels else "medium"


def on_game_finished(sender: Any, *, table: Table, game: Any, **kwargs: Any) -> None:
    """``game_finished`` receiver: a finished solo table gets its SoloResult row.

    Runs inside the transaction that ends the game, so the row exists exactly when
    the game is complete. Online tables are ignored (they never count)."""
    if table.kind != Table.Kind.SOLO:
        return
    seat = human_seat(table)
    if seat is None:
        return
    totals = game.totals()
    SoloResult.objects.update_or_create(
        table=table,
        defaults={
            "user": seat.user if seat.user_id else None,
            "variant": table.variant,
            "level": cpu_level(table),
            "total": totals[seat.position],
            "rounds": len(game.hands),
            "won": seat.position in game.winners(),
            "finished_at": table.finished_at,
        },
    )


def personal_bests(user: Any) -> dict[str, SoloResult]:
    """The lowest seventeen total per CPU level (the earliest one on a tie)."""
    best: dict[str, SoloResult] = {}
    if user is None or not user.is_authenticated:
        return best
    for r in SoloResult.objects.records().filter(user=user).order_by("total", "finished_at", "id"):
        best.setdefault(r.level, r)
    return best


def is_new_record(result: SoloResult) -> bool:
    """True when this result beat every earlier record game of its player at its level
    (a first game is a record too; equalling the best is not a new one)."""
    if not result.counts_for_records:
        return False
    earlier = (
        SoloResult.objects.records()
        .filter(user_id=result.user_id, level=result.level)
        .filter(
            Q(finished_at__lt=result.finished_at)
            | Q(finished_at=result.finished_at, id__lt=result.id)
        )
        .exclude(pk=result.pk)
        .aggregate(best=Min("total"))["best"]
    )
    return earlier is None or result.total < earlier


__all__ = ["RECORD_VARIANT", "on_game_finished", "personal_bests", "is_new_record"]
