"""Score-sheet rows shared by the solo result page and the CSV export."""

from __future__ import annotations

from typing import Any

from games.common.csvsafe import write_rows
from games.live import actions
from games.live.messages import reason_label
from games.models import Table
from games.solo.models import Mode, SoloResult
from games.views import hint_counts

CSV_HEADER = ["hand", "player", "points", "reason", "code", "show_me", "mode", "verified"]


def sheet_lines(table: Table) -> tuple[list[str], list[dict[str, Any]], list[int]]:
    """(player names by seat, one dict per score line in sheet order, game totals)."""
    seats = list(table.seats.select_related("user__profile"))
    names = {s.position: s.display_name() for s in seats}
    lines: list[dict[str, Any]] = []
    hands = table.hands.filter(result__isnull=False).order_by("number")
    for hand in hands.prefetch_related("score_lines"):
        for line in hand.score_lines.all():
            lines.append(
                {
                    "hand": hand.number + 1,
                    "seat": line.seat,
                    "player": names.get(line.seat, str(line.seat)),
                    "points": line.points,
                    "reason": str(reason_label(line.reason, table.variant)),
                    "code": line.reason,
                }
            )
    totals = actions.game_for(table).totals()
    return [names[s.position] for s in seats], lines, totals


def run_mode(table: Table) -> tuple[str, str]:
    """(mode, verified) as the CSV writes them: a solo run is ``challenge`` or
    ``practice``, verified ``yes`` or ``no`` once it is finished (blank before); an online
    table is ``competitive`` (no engine help) or ``casual``, never verified."""
    if table.kind != Table.Kind.SOLO:
        return ("competitive" if table.competitive else "casual"), ""
    row = SoloResult.objects.filter(table=table).only("mode", "verified").first()
    if row is None:
        return (Mode.CHALLENGE.value if table.competitive else Mode.PRACTICE.value), ""
    return row.mode, "yes" if row.verified else "no"


def sheet_csv(table: Table, *, total_label: str = "total") -> str:
    """The sheet as CSV (``CSV_HEADER``): one row per score line (hand, player, points,
    reason, code), then one total row per player whose ``show_me`` is the number of turns
    on which that player asked "Show me" over the finished hands. Every row carries the
    run's ``mode`` and ``verified`` (``run_mode``).

    Written through ``games.common.csvsafe``: a display name that starts like a formula is text."""
    players, lines, totals = sheet_lines(table)
    mode, verified = run_mode(table)
    hints = [0] * len(players)
    for h in table.hands.filter(result__isnull=False).values_list("hints", flat=True):
        hints = [a + b for a, b in zip(hints, hint_counts(h, len(players)), strict=True)]
    rows: list[list[Any]] = [list(CSV_HEADER)]
    for line in lines:
        rows.append(
            [
                line["hand"],
                line["player"],
                line["points"],
                line["reason"],
                line["code"],
                "",
                mode,
                verified,
            ]
        )
    for name, total, used in zip(players, totals, hints, strict=False):
        rows.append([total_label, name, total, "", "", used, mode, verified])
    return write_rows(rows)
