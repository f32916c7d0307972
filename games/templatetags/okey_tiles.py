"""``{{ tile|tile }}`` / ``{{ tile|tile:"small" }}``: a tile's HTML, built in Python.

The table re-renders every fragment for every seat on every move; one template
include per tile was the largest share of that cost in the load benchmark. The
markup is the same as ``games/_tile.html``.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

register = template.Library()


@register.filter(name="tile")
def tile_html(tile: dict[str, Any] | None, size: str = "") -> SafeString:
    if not tile:
        return mark_safe('<span class="tile empty"></span>')
    classes = ["tile", tile.get("css", "")]
    if tile.get("okey"):
        classes.append("is-okey")
    if tile.get("face_down"):
        classes.append("face-down")
    if tile.get("penalty"):
        classes.append("penalty")
    if tile.get("hinted"):
        classes.append("hinted")
    if size == "small":
        classes.append("small")
    t = escape(tile["t"])
    title = t + (" · " + escape(gettext("okey")) if tile.get("okey") else "")
    number = "F" if tile.get("colour") == "F" else escape(tile.get("number", ""))
    mark = '<span class="okey-mark" aria-hidden="true">★</span>' if tile.get("okey") else ""
    # a tile known by its face only (the public log of taken discards) has no id
    data_id = f' data-id="{int(tile["id"])}"' if tile.get("id") is not None else ""
    return mark_safe(
        f'<span class="{" ".join(c for c in classes if c)}"{data_id} '
        f'data-t="{t}" title="{title}"><span class="num">{number}</span>'
        f'<span class="sym" aria-hidden="true">{escape(tile.get("symbol", ""))}</span>{mark}</span>'
    )
