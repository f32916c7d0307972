""" "Show me": the recommended action for a seat, with a one-line reason.

``hint(state, seat)`` asks the hard CPU (which decides from the seat's view and
legal actions only) and explains its choice with a stable reason code plus the
facts the sentence needs; the web layer words it in the player's language.
"""

from __future__ import annotations

from typing import Any

from ..actions import legal_actions
from ..evaluate import best_arrangement
from ..melds import classify
from ..state import HandState
from ..tiles import kind_of, notation
from ..view import view_for
from .core import Context, decide, feeds_next


def _leftover(tiles: list[int], state: HandState) -> int:
    return len(best_arrangement(tiles, state.okey_kind, ace_high=state.rules.ace_high).leftover)


def hint(state: HandState, seat: int) -> dict[str, Any]:
    """``{"action": {...}, "reason": code, "detail": {...}, "tiles": [ids to highlight]}``.

    Reason codes: close, okey_close, show, open, lay, add, swap, undo, take_fits,
    draw, discard_loose, discard_safe (the loose tile it would otherwise throw,
    ``detail["avoid"]``, is one the next player evidently collects: see what it
    took, the view's public ``took`` log).
    """
    view = view_for(state, seat)
    legal = legal_actions(state, seat)
    action = decide(view, legal, "hard")
    kind = action["type"]
    rack = list(state.racks[seat])
    detail: dict[str, Any] = {}
    tiles: list[int] = []
    reason = kind
    if kind == "close":
        tile = action["tile"]
        tiles = [tile]
        reason = "okey_close" if kind_of(tile) == state.okey_kind else "close"
        detail["tile"] = notation(tile)
    elif kind in ("open", "lay"):
        melds = action.get("melds") or []
        tiles = [t for m in melds for t in m]
        detail["melds"] = len(melds)
        if not state.rules.whole_rack and kind == "open":
            total = 0
            for m in melds:
                shape = classify(m, state.okey_kind, ace_high=state.rules.ace_high)
                if shape is not None:
                    total += state.rules.meld_value(shape.kind, shape.plays)
            detail["total"] = total
    elif kind in ("add", "swap", "show"):
        tiles = [action["tile"]]
        detail["tile"] = notation(action["tile"])
    elif kind == "take":
        if state.takeable is not None:
            tiles = [state.takeable]
            detail["tile"] = notation(state.takeable)
        reason = "take_fits"
    elif kind == "discard":
        tile = action["tile"]
        tiles = [tile]
        detail["tile"] = notation(tile)
        rest = [t for t in rack if t != tile]
        detail["leftover"] = _leftover(rest, state)
        reason = "discard_loose"
        plain = decide(view, legal, "hard", avoid_feeding=False)
        if plain.get("tile") not in (None, tile):
            ctx = Context(view, legal)
            if feeds_next(ctx, plain["tile"]) and not feeds_next(ctx, tile):
                reason = "discard_safe"
                detail["avoid"] = notation(plain["tile"])
    return {"action": action, "reason": reason, "detail": detail, "tiles": tiles}
