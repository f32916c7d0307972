"""Which tables are rated (games/ratings/api.py says how ratings change).

- A rated table is chosen at creation (the new-table form's "Rated" box) and is a table
  of people with accounts: a guest can neither open nor join one, and a table with any
  CPU seat is casual (the form clears the box and says why; the service refuses).
- When the host fills the free seats with CPUs, the table becomes casual.
- A player who drops out of a rated game keeps their seat: the CPU plays it while they
  are away and the game stays rated; its placing counts for the seat's owner, as it would
  at a club table where a player walks away from a game.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

GUESTS_REFUSED = _("Rated tables are for players with an account: log in to play rated.")
CPU_REFUSED = _("A table with a computer player is casual: its games do not change ratings.")


def rated_refusal(user: Any, seat_kinds: Iterable[str]) -> Promise | None:
    """Why a table with these seats, opened by ``user``, cannot be rated; None when it can.
    ``seat_kinds`` are the services' SeatSpec kinds ("me", "human", "player", "cpu")."""
    if user is None or not getattr(user, "is_authenticated", False):
        return GUESTS_REFUSED
    if any(kind == "cpu" for kind in seat_kinds):
        return CPU_REFUSED
    return None
