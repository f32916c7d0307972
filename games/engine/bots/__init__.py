"""CPU players: ``choose_action(state, seat, level) -> action``.

The web layer hands over the full ``HandState``; the bot reduces it at once to
what the seat may know, ``view_for(state, seat)``, plus the seat's legal
actions, and decides from those alone (``core.decide``): other racks and the
pile order are never read. The same state always gives the same decision
(randomness is seeded from public data of the view: its version, the seat, the
indicator and the seat's own rack).
"""

from __future__ import annotations

import random
from typing import Any

from ..actions import legal_actions
from ..view import view_for
from . import expert  # noqa: F401 - registers the expert level (core.PLUGGED)
from .core import LEVELS, decide, seed_rng


def choose_action(
    state: Any, seat: int, level: str, *, rng: random.Random | None = None
) -> dict[str, Any]:
    """The action CPU ``seat`` plays now at ``level`` (random, easy, medium, hard, expert).

    A seat without a level (None or "", e.g. a human's seat played by a bot while
    they are away) plays "medium"; an unknown level raises ``ValueError``. The seat
    must have a legal action (normally: it is its turn), else ``ValueError``.
    """
    level = level or "medium"
    view = view_for(state, seat)
    legal = legal_actions(state, seat)
    return decide(view, legal, level, rng)


__all__ = ["LEVELS", "choose_action", "decide", "seed_rng"]
