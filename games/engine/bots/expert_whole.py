"""The expert's own decisions in whole-rack rule sets (``Rules.whole_rack``: classic, rummy).

``pick(ctx, rng)`` returns the action the expert plays for a prepared context
(``core.Context`` with the expert's unseen count and route), or None to play hard's
plan (``core.play(ctx, "hard", rng)``). It reads the seat's view only.
"""

from __future__ import annotations

import random

from .core import Context


def pick(ctx: Context, rng: random.Random) -> dict | None:
    """The expert's action where it differs from hard's plan, else None."""
    return None
