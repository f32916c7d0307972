"""CPU seats on the server.

``choose`` picks the action a CPU seat plays. It delegates to the engine's bots
(``games.engine.bots``) when that package is present, and otherwise plays a
plain legal game: finish when it can, lay down what it can, draw, and discard
the tile that leaves its rack closest to a finished arrangement.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

LEVELS = ("easy", "medium", "hard")
_NAMES = ["Ada", "Baran", "Cem", "Deniz", "Ece", "Filiz", "Gül", "Hakan"]


def cpu_name(position: int, level: str) -> str:
    return f"{_NAMES[position % len(_NAMES)]} (CPU)"


def choose(state: Any, seat: int, level: str, *, timeout: bool = False) -> dict[str, Any]:
    from games.engine import legal_actions

    if timeout:
        from games.engine import timeout_action

        # rummy's clock draws and discards for the player [D8]; at the other
        # variants' tables the seat's CPU plays the turn.
        forced = timeout_action(state) if state.variant == "rummy" else None
        if forced is not None:
            return forced
    try:
        from games.engine.bots import choose_action
    except ImportError:
        choose_action = None
    if choose_action is not None:
        return choose_action(state, seat, level)
    return _stand_in(state, seat, legal_actions(state, seat))


_ORDER = ("close", "open", "lay", "add", "swap", "draw")


def _stand_in(state: Any, seat: int, acts: list[dict[str, Any]]) -> dict[str, Any]:
    for kind in _ORDER:
        for a in acts:
            if a["type"] == kind:
                return a
    discards = [a for a in acts if a["type"] == "discard"]
    if discards:
        return _best_discard(state, seat, discards)
    return acts[0]


def _best_discard(state: Any, seat: int, discards: list[dict[str, Any]]) -> dict[str, Any]:
    from games.engine.evaluate import best_arrangement
    from games.engine.tiles import kind_of, number_of_kind

    rack = list(state.racks[seat])
    okey = state.okey_kind
    ace_high = state.rules.ace_high

    from games.engine import is_penalty_tile

    def cost(a: dict[str, Any]) -> tuple[int, int]:
        t = a["tile"]
        if kind_of(t) == okey:
            return (99, 0)
        if is_penalty_tile(state, t):
            return (98, 0)
        rest = [x for x in rack if x != t]
        left = len(best_arrangement(rest, okey, ace_high=ace_high).leftover)
        return (left, -number_of_kind(kind_of(t)) if kind_of(t) < 52 else 0)

    return min(discards, key=cost)


def describe(level: str) -> str:
    return {"easy": _("Easy"), "medium": _("Medium"), "hard": _("Hard")}.get(level, level)
