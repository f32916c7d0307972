"""The tiles of the public "How to play" pages: notation (``R7``, ``F``) drawn as the
table's tiles (``okey_tiles.tile_html``), in the page's rule set's colours (Okey Rummy's
yellow is green). ``render.py`` stays free of Django; this is the page's side of it."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from games.engine.rules import RULES
from games.live.presenter import tile_ctx
from games.templatetags.okey_tiles import tile_html


def variant_of(slug: str) -> str:
    """The rule set whose page ``slug`` is ("" for the overview)."""
    return next((name for name, rules in RULES.items() if rules.rules_page == slug), "")


@lru_cache(maxsize=16)
def _painter(variant: str) -> Callable[[str], str]:
    def tile(t: str) -> str:
        return str(tile_html(tile_ctx({"t": t}, variant), "small"))

    return tile


def tile_for(slug: str) -> Callable[[str], str]:
    """The tile painter of page ``slug`` (one per rule set, so its renderer is made once)."""
    return _painter(variant_of(slug))
