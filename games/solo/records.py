"""Writing and reading solo results: the signal receiver, personal bests, new records.

What counts (docs/solo.md): a record is a complete seven-round challenge run of the record
rule set by a signed-in player (``SoloResultQuerySet.records``); it is *verified* when no
"Show me" was used in it. Personal bests and new records are the verified ones; an older
unverified record better than them is shown beside them, marked (``unverified_bests``).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Min, Q

from games.models import Table
from games.solo.models import RECORD_VARIANT, Mode, SoloResult
from games.views import hint_counts


def human_seat(table: Table):
    """The one person at a solo table (the other three seats are CPUs)."""
    return next((s for s in table.seats.all() if not s.is_cpu), None)


def cpu_level(table: Table) -> str:
    levels = [s.cpu_level for s in table.seats.all() if s.is_cpu]
    return levels[0] if levels else "medium"


def hint_turns(table: Table) -> list[int]:
    """Per seat, the turns on which it asked "Show me" over the table's hands
    (``Hand.hints``: seat position as a string -> the turn numbers it asked on)."""
    n = len(table.seats.all())  # prefetched where the game ends
    out = [0] * n
    for hints in table.hands.values_list("hints", flat=True):
        for seat, used in enumerate(hint_counts(hints, n)):
            out[seat] += used
    return out


def do_record_result(sender: Any, *, table: Table, game: Any, **kwargs: Any) -> None:
    """``game_finished`` receiver: a finished solo table gets its SoloResult row.

    Runs inside the transaction that ends the game, so the row exists exactly when
    the game is complete. Online tables are ignored (they never count).

    The mode is the table's: a competitive table is a challenge run (the server refused
    "Show me" there). A challenge run is verified only when no hand stored a use of
    "Show me" by any seat: the server cannot store one, but a row is never verified on
    the mode alone."""
    if table.kind != Table.Kind.SOLO:
        return
    seat = human_seat(table)
    if seat is None:
        return
    totals = game.totals()
    mode = Mode.CHALLENGE if table.competitive else Mode.PRACTICE
    hints = hint_turns(table)
    SoloResult.objects.update_or_create(
        table=table,
        defaults={
            "user": seat.user if seat.user_id else None,
            "variant": table.variant,
            "level": cpu_level(table),
            "total": totals[seat.position],
            "rounds": len(game.hands),
            "won": seat.position in game.winners(),
            "mode": mode,
            "verified": mode == Mode.CHALLENGE and not any(hints),
            "hints": hints[seat.position],
            "finished_at": table.finished_at,
        },
    )


def _lowest_per_level(rows) -> dict[str, SoloResult]:
    best: dict[str, SoloResult] = {}
    for r in rows.order_by("total", "finished_at", "id"):
        best.setdefault(r.level, r)
    return best


def personal_bests(user: Any) -> dict[str, SoloResult]:
    """The lowest verified record total per CPU level (the earliest one on a tie)."""
    if user is None or not user.is_authenticated:
        return {}
    return _lowest_per_level(SoloResult.objects.verified().filter(user=user))


def unverified_bests(user: Any) -> dict[str, SoloResult]:
    """Per CPU level, the player's best unverified record (a row from before the modes)
    when it is lower than their verified best there, or when there is no verified one:
    still theirs to see, marked "unverified", never a personal best."""
    if user is None or not user.is_authenticated:
        return {}
    verified = personal_bests(user)
    older = _lowest_per_level(SoloResult.objects.records().filter(user=user, verified=False))
    return {
        level: row
        for level, row in older.items()
        if level not in verified or row.total < verified[level].total
    }


def is_new_record(result: SoloResult) -> bool:
    """True when this verified result beat every earlier verified record of its player at
    its level (a first one is a record too; equalling the best is not a new one). Older
    unverified rows are not beaten or held: they are no personal records."""
    if not (result.counts_for_records and result.verified):
        return False
    earlier = (
        SoloResult.objects.verified()
        .filter(user_id=result.user_id, level=result.level)
        .filter(
            Q(finished_at__lt=result.finished_at)
            | Q(finished_at=result.finished_at, id__lt=result.id)
        )
        .exclude(pk=result.pk)
        .aggregate(best=Min("total"))["best"]
    )
    return earlier is None or result.total < earlier


__all__ = [
    "RECORD_VARIANT",
    "do_record_result",
    "hint_turns",
    "is_new_record",
    "personal_bests",
    "unverified_bests",
]
