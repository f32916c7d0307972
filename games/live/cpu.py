"""CPU seats on the server.

``choose`` picks the action a CPU seat plays: the engine's bots
(``games.engine.bots.choose_action``, deciding from the seat's view alone), or,
when the turn clock ran out, what the rule set plays for the player
(``Rules.clock_timeout_action``: rummy's clock draws and discards [D8]).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.engine.bots import choose_action

LEVELS = ("easy", "medium", "hard", "expert")
_NAMES = ["Ada", "Baran", "Cem", "Deniz", "Ece", "Filiz", "Gül", "Hakan"]


def cpu_name(position: int, level: str) -> str:
    return f"{_NAMES[position % len(_NAMES)]} (CPU)"


def choose(state: Any, seat: int, level: str, *, timeout: bool = False) -> dict[str, Any]:
    """The action ``seat`` plays now at ``level``; ``timeout``: its turn clock ran out.

    A timed-out turn plays the rule set's time-out action when it has one (rummy [D8]);
    otherwise the seat's CPU plays the turn."""
    if timeout:
        forced = state.rules.clock_timeout_action(state)
        if forced is not None:
            return forced
    return choose_action(state, seat, level)


def describe(level: str) -> str:
    names = {"easy": _("Easy"), "medium": _("Medium"), "hard": _("Hard"), "expert": _("Expert")}
    return names.get(level, level)
