"""``{% table_rating_changes table players as changes %}``: what a finished rated game did
to each player's rating, for the outcome dialog (``templates/games/_outcome.html``).

The dialog's other parts come from the engine's view (games/outcome.py); the rating
changes are the ratings app's own rows (``games.ratings.api.table_changes``), read when
the fragment is rendered. The outcome fragment's key (``games.realtime.fragment_keys``:
the table's version) covers them: the rows are written in the transaction that finishes
the game and bumps the version, and never change afterwards (a rebuild gives the same
numbers), so equal keys still give equal HTML."""

from __future__ import annotations

from typing import Any

from django import template

from games.models import Table
from games.ratings.api import PROVISIONAL_GAMES, table_changes

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
