"""Score-sheet rows shared by the solo result page and the CSV export."""

from __future__ import annotations

from typing import Any

from games import services
from games.csvsafe import write_rows
from games.messages import reason_label
from games.models import Table


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
    totals = services.game_for(table).totals()
    return [names[s.position] for s in seats], lines, totals


def sheet_csv(table: Table, *, total_label: str = "total") -> str:
    """The sheet as CSV: hand, player, points, reason, code; then one total row per player.

    Written through ``games.csvsafe``: a display name that starts like a formula is text."""
    players, lines, totals = sheet_lines(table)
    rows: list[list[Any]] = [["hand", "player", "points", "reason", "code"]]
    for line in lines:
        rows.append([line["hand"], line["player"], line["points"], line["reason"], line["code"]])
    for name, total in zip(players, totals, strict=False):
        rows.append([total_label, name, total, "", ""])
    return write_rows(rows)
