"""``{% table_rating_changes table players as changes %}``: what a finished rated game did
to each player's rating, for the outcome dialog (``templates/games/_outcome.html``).

The dialog's other parts come from the engine's view (games/live/outcome.py); the rating
changes are the ratings app's own rows (``games.ratings.api.table_changes``), read when
the fragment is rendered. The outcome fragment's key (``games.live.realtime.fragment_keys``:
the table's version) covers them: the rows are written in the transaction that finishes
the game and bumps the version, and never change afterwards (a rebuild gives the same
numbers), so equal keys still give equal HTML."""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings

from games.models import Table
from games.ratings.api import PROVISIONAL_GAMES, leavers, table_changes
from games.ratings.rules import LEAVERS_RULE

register = template.Library()


@register.simple_tag
def table_rating_changes(table: Table, players: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per rated player: name, before, after, delta, provisional, is_me."""
    names = {p["position"]: p for p in players}
    rows = []
    for c in table_changes(table):
        p = names.get(c.position, {})
        rows.append(
            {
                "position": c.position,
                "name": p.get("name", ""),
                "is_me": bool(p.get("is_me")),
                "place": c.place,
                "before": c.before,
                "after": c.after,
                "delta": c.delta,
                "provisional": c.provisional,
                "provisional_games": PROVISIONAL_GAMES,
            }
        )
    return rows


@register.simple_tag
def rated_rules() -> str:
    """The leavers' rule of rated games, with the forfeit grace in seconds."""
    return str(LEAVERS_RULE) % {"seconds": round(getattr(settings, "OKEY_FORFEIT_GRACE_S", 60))}


@register.simple_tag
def table_leavers(table: Table, players: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The players of a finished rated game who left it (forfeited, or played too few of
    their own turns), first to leave first: the outcome dialog says they were placed last."""
    if not table.rated or table.status != Table.Status.FINISHED:
        return []
    names = {p["position"]: p for p in players}
    gone = leavers(table)
    return [
        {"position": pos, "name": names.get(pos, {}).get("name", "")}
        for pos in sorted(gone, key=lambda p: (gone[p], p))
    ]
