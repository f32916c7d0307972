"""Tiles named in words, in the reader's language: "black 6", "siyah 6", "6 negro".

The engine and the views speak notation (``K6``, ``F``: games/engine/RULES.md §1);
a player never reads it. Every text a player sees or hears (hints, messages,
titles, screen-reader labels, the table's announcements) names a tile through
this module. In Okey Rummy the yellow tiles are shown green, and so are named
green (games/rules_pages/README.md).

Words are cached per language, variant and tile: the table renders every tile
of every fragment for every seat on each move.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language, pgettext

from games.engine.rules import RULES

_COLOUR_WORDS = {
    # msgctxt "tile": a numbered tile; %(number)s is 1..13
    "R": lambda: pgettext("tile", "red %(number)s"),
    "Y": lambda: pgettext("tile", "yellow %(number)s"),
    "G": lambda: pgettext("tile", "green %(number)s"),
    "B": lambda: pgettext("tile", "blue %(number)s"),
    "K": lambda: pgettext("tile", "black %(number)s"),
}

_CACHE: dict[tuple[str | None, str, bool], str] = {}


def yellow_is_green(variant: str) -> bool:
    """The rule set's own word on colours (``Rules.yellow_shown_green``: Okey Rummy's
    yellow is shown green); False for an unknown or empty variant."""
    rules = RULES.get(variant)
    return bool(rules and rules.yellow_shown_green)


def tile_words(t: str, variant: str = "") -> str:
    """The words for one tile's notation (``R7`` → "red 7", ``F`` → "false joker").

    Anything that is not a tile's notation comes back unchanged.
    """
    rummy = yellow_is_green(variant)
    key = (get_language(), t, rummy)
    words = _CACHE.get(key)
    if words is not None:
        return words
    if t == "F":
        words = pgettext("tile", "false joker")
    elif len(t) >= 2 and t[0] in "RYBK" and t[1:].isdigit():
        colour = "G" if (t[0] == "Y" and rummy) else t[0]
        words = _COLOUR_WORDS[colour]() % {"number": int(t[1:])}
    else:
        return t
    if len(_CACHE) < 20000:
        _CACHE[key] = words
    return words


def tiles_words(tiles: list[str], variant: str = "") -> str:
    """Several tiles in words, separated by commas ("red 3, red 4, okey")."""
    return ", ".join(tile_words(t, variant) for t in tiles)


def tile_label(tile: dict[str, Any], variant: str = "") -> str:
    """What a screen reader (and a tile's tooltip) says of one tile context.

    ``tile`` is a view tile (``t``, and ``okey``, ``face_down``, ``plays`` where
    known): "red 7"; "okey (blue 3)" for an okey in a rack; "okey, stands for
    blue 3" for an okey laid in a meld as another tile; "false joker, stands
    for red 7" likewise; "face-down tile" for a tile turned face down.
    """
    if tile.get("face_down"):
        return pgettext("tile", "face-down tile")
    t = tile.get("t", "")
    own = tile_words(t, variant)
    plays = tile.get("plays")
    okey = bool(tile.get("okey"))
    if plays and (okey or plays != t):
        if okey:
            return pgettext("tile", "okey, stands for %(tile)s") % {
                "tile": tile_words(plays, variant)
            }
        return pgettext("tile", "%(tile)s, stands for %(plays)s") % {
            "tile": own,
            "plays": tile_words(plays, variant),
        }
    if okey:
        return pgettext("tile", "okey (%(tile)s)") % {"tile": own}
    return own
