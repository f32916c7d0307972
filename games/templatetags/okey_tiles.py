"""``{{ tile|tile }}`` / ``{{ tile|tile:"small" }}``: a tile's HTML, built in Python.

The table re-renders every fragment for every seat on every move; one template
include per tile was the largest share of that cost in the load benchmark, so
``games/_tile.html`` is this filter too.

Every tile carries its name in words for a screen reader and as its tooltip
(``games.tilewords.tile_label``: "red 7", "okey, stands for blue 3"), never its
notation. A tile laid in a meld as something else (an okey, a false joker)
shows the tile it stands for, marked as standing in. Marks the presenter sets:
``hinted`` ("Show me"), ``drawn`` (the tile just drawn or taken), ``last`` (a
seat's latest discard), ``penalty`` (assisted tables).
"""

from __future__ import annotations

import json
from typing import Any

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import pgettext

from games.tilewords import tile_label, tile_words, yellow_is_green

register = template.Library()

_MARKS = ("penalty", "hinted", "drawn", "last")


@register.filter(name="tile")
def tile_html(tile: dict[str, Any] | None, size: str = "") -> SafeString:
    if not tile:
        return mark_safe('<span class="tile empty" aria-hidden="true"></span>')
    css = tile.get("css", "")
    variant = tile.get("variant", "")  # presenter.tile_ctx: the table's rule set
    classes = ["tile", css]
    t = tile.get("t", "")
    plays = tile.get("plays")
    stands = bool(plays) and (plays != t or bool(tile.get("okey")))
    if stands:
        # shown as the tile it stands for, in that tile's colour
        green = " rummy" if yellow_is_green(variant) else ""  # the rule set's colours
        classes = ["tile", f"c-{plays[0].lower()}{green}", "stands-in"]
    if tile.get("okey"):
        classes.append("is-okey")
    if tile.get("face_down"):
        classes.append("face-down")
    classes += [m for m in _MARKS if tile.get(m)]
    if size == "small":
        classes.append("small")
    label = escape(tile_label(tile, variant))
    if stands:
        number = "" if plays == "F" else escape(plays[1:])
        mark = (
            '<span class="okey-mark" aria-hidden="true">★</span>'
            f'<span class="stands-mark" aria-hidden="true">{escape(_stands_word(tile))}</span>'
        )
        sym = ""
    else:
        number = "F" if tile.get("colour") == "F" or t == "F" else escape(tile.get("number", ""))
        mark = '<span class="okey-mark" aria-hidden="true">★</span>' if tile.get("okey") else ""
        sym = f'<span class="sym" aria-hidden="true">{escape(tile.get("symbol", ""))}</span>'
    if tile.get("drawn"):
        mark += f'<span class="drawn-mark" aria-hidden="true">{escape(_new_word())}</span>'
    # a tile known by its face only (the public log of taken discards) has no id
    data_id = f' data-id="{int(tile["id"])}"' if tile.get("id") is not None else ""
    return mark_safe(
        f'<span class="{" ".join(c for c in classes if c)}"{data_id} '
        f'data-t="{escape(t)}" role="img" aria-label="{label}" title="{label}">'
        f'<span class="num" aria-hidden="true">{number}</span>{sym}{mark}</span>'
    )


def _stands_word(tile: dict[str, Any]) -> str:
    if tile.get("okey"):
        return pgettext("tile mark", "okey")
    return pgettext("tile mark", "joker")


def _new_word() -> str:
    return pgettext("tile mark", "new")


@register.filter(name="tilewords")
def tilewords_filter(t: str | None, variant: str = "") -> str:
    """``{{ view.okey|tilewords:table.variant }}``: a tile's notation in words."""
    return tile_words(t or "", variant) if t else ""


@register.filter(name="json_attr")
def json_attr(value: Any) -> str:
    """A value as JSON text, for a data attribute (the template escapes it)."""
    return json.dumps(value, separators=(",", ":"))
