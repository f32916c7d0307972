"""Who may sit at a rated table: players with an account, and no CPU seat
(how ratings change is the ratings app's, games/ratings/api.py and rules.py).

- A rated table is chosen at creation (the new-table form's "Rated" box): a guest can
  neither open nor join one, and a table with any CPU seat is casual (the form clears
  the box and says why; ``do_create_table`` refuses).
- When the host fills the free seats with CPUs, the table becomes casual.
- Bot accounts (``Profile.is_bot``, docs/bots-api.md) are never rated: they cannot open,
  join or be invited to a rated table, against people or other bots.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

GUESTS_REFUSED = _("Rated tables are for players with an account: log in to play rated.")
BOT_REFUSED = _("Bot accounts play casual tables only: their games are never rated.")
CPU_REFUSED = _("A table with a computer player is casual: its games do not change ratings.")


def rated_refusal(user: Any, seat_kinds: Iterable[str]) -> Promise | None:
    """Why a table with these seats, opened by ``user``, cannot be rated; None when it can.
    ``seat_kinds`` are the services' SeatSpec kinds ("me", "human", "player", "cpu")."""
    if user is None or not getattr(user, "is_authenticated", False):
        return GUESTS_REFUSED
    if is_bot(user):
        return BOT_REFUSED
    if any(kind == "cpu" for kind in seat_kinds):
        return CPU_REFUSED
    return None


def is_bot(user: Any) -> bool:
    """True for a bot account (``accounts.models.Profile.is_bot``)."""
    profile = getattr(user, "profile", None) if user is not None else None
    return bool(getattr(profile, "is_bot", False))
