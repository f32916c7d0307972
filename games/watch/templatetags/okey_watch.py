"""Template tags of the live tables: a table's watcher count (the table page's
header, at page load; the live count arrives over its socket) and the lobby's list
(the home page's section)."""

from __future__ import annotations

from typing import Any

from django import template

from games.watch import lobby
from games.watch.models import WatchConnection

register = template.Library()


@register.simple_tag
def watcher_count(table: Any) -> int:
    return WatchConnection.objects.filter(table_id=table.pk).count()


@register.simple_tag
def live_tables(limit: int = 6) -> list[dict[str, Any]]:
    return lobby.live_tables(limit)
