"""The phases of a turn, as ``HandState.phase`` holds them.

``DRAW``: the player to move draws from the pile or takes the previous discard.
``PLAY``: after the draw: show, close, open, lay, add, swap, discard (what the rule set
has). ``OVER``: the hand has ended (``HandState.result`` says how).

A module of its own, below everything that reads a phase (the state, the transitions in
``actions.py``, the move generator in ``legal.py``), so none of them imports another for
three strings.
"""

from __future__ import annotations

DRAW, PLAY, OVER = "draw", "play", "over"

__all__ = ["DRAW", "OVER", "PLAY"]
