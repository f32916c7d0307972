"""Which tables are rated (games/ratings/api.py says how ratings change).

- A rated table is chosen at creation (the new-table form's "Rated" box) and is a table
  of people with accounts: a guest can neither open nor join one, and a table with any
  CPU seat is casual (the form clears the box and says why; the service refuses).
- When the host fills the free seats with CPUs, the table becomes casual.
- Leavers lose (games/services.py, "leavers"; games/ratings/api.py): a player who drops
  out keeps their seat for the away grace (their CPU plays meanwhile); one who presses
  Leave, or stays away past the forfeit grace, forfeits and is placed last, whatever the
  CPU then scores. A game left while it cannot count yet (during its first hand when
  everyone left, or by a player who had not moved) is aborted and not rated.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

GUESTS_REFUSED = _("Rated tables are for players with an account: log in to play rated.")
CPU_REFUSED = _("A table with a computer player is casual: its games do not change ratings.")
# What a player is told before sitting down at a rated table (the table's invite card, the
# new-table form, quick match) and again in the outcome dialog.
LEAVERS_RULE = _(
    "Rated game: leaving, or being away for more than %(seconds)s seconds, forfeits it. Your"
    " CPU finishes the game for the others and you are placed last. A game left during its"
    " first hand by a player who has not moved yet is aborted and not rated. No engine help."
)


def rated_refusal(user: Any, seat_kinds: Iterable[str]) -> Promise | None:
    """Why a table with these seats, opened by ``user``, cannot be rated; None when it can.
    ``seat_kinds`` are the services' SeatSpec kinds ("me", "human", "player", "cpu")."""
    if user is None or not getattr(user, "is_authenticated", False):
        return GUESTS_REFUSED
    if any(kind == "cpu" for kind in seat_kinds):
        return CPU_REFUSED
    return None
