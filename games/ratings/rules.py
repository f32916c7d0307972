"""Which tables are rated (games/ratings/api.py says how ratings change; who may sit at a
rated table is the table's own rule, games/live/rated.py).

- A rated table is chosen at creation (the new-table form's "Rated" box) and is a table
  of people with accounts: a guest can neither open nor join one, and a table with any
  CPU seat is casual (the form clears the box and says why; the service refuses).
- When the host fills the free seats with CPUs, the table becomes casual.
- Leavers lose (games/live/actions/, "leavers"; games/ratings/api.py): a player who drops
  out keeps their seat for the away grace (their CPU plays meanwhile); one who presses
  Leave, or stays away past the forfeit grace, forfeits and is placed last, whatever the
  CPU then scores. A game left while it cannot count yet (during its first hand when
  everyone left, or by a player who had not moved) is aborted and not rated.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

# What a player is told before sitting down at a rated table (the table's invite card, the
# new-table form, quick match) and again in the outcome dialog.
LEAVERS_RULE = _(
    "Rated game: leaving, or being away for more than %(seconds)s seconds, forfeits it. Your"
    " CPU finishes the game for the others and you are placed last. A game left during its"
    " first hand by a player who has not moved yet is aborted and not rated. No engine help."
)
