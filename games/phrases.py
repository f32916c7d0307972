"""Quick phrases at the table: a fixed list, never free text.

A seated player sends only the id of one of ``PHRASES`` (``{"action": "phrase",
"phrase": "good_luck"}`` on the table's websocket); any other id, or a frame with no
id, is refused with the stable code ``bad_phrase``. Each connection of the table
renders the bubble in its own language (``games/live/consumers.py``, ``table_phrase``),
so a phrase is a translation key, not a message: nothing needs moderation.

A phrase is not an engine action: it changes no table version and is not stored
with the hand (a replay never shows it).

The limit (``PhraseLimit``): one phrase every ``GAP_S`` seconds per seat and at most
``PER_MINUTE`` in any 60 seconds. Past it the sender alone hears a quiet
``phrase_too_soon`` note by the picker and nobody else sees anything. The limit is
kept in the process that holds the sender's socket (a player's sockets in several
processes would each get the allowance; it is a courtesy limit, the socket's own
rate limit in ``games/live/consumers.py`` still bounds what a client can send).
"""

from __future__ import annotations

from collections import deque
from typing import Any

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext_lazy, pgettext_lazy

from okeysite.limits import LRU

# id -> label. The order is the picker's. Emotes are the same in every language.
PHRASES: dict[str, Any] = {
    "good_luck": gettext_lazy("Good luck"),
    "well_played": gettext_lazy("Well played"),
    "your_turn": pgettext_lazy("quick phrase", "Your turn"),
    "thanks": gettext_lazy("Thanks"),
    "oops": gettext_lazy("Oops"),
    "nice_move": gettext_lazy("Nice move"),
    "hurry_up": gettext_lazy("Hurry up, please"),
    "thumbs_up": "👍",
    "smile": "😄",
    "wow": "😮",
    "party": "🎉",
}
EMOTES = frozenset({"thumbs_up", "smile", "wow", "party"})

GAP_S = 3.0
PER_MINUTE = 10
WINDOW_S = 60.0

REFUSALS = {
    "bad_phrase": gettext_lazy("That is not one of the table's quick phrases."),
    "phrase_too_soon": gettext_lazy("Wait a moment before the next phrase."),
}


def is_phrase(value: Any) -> bool:
    """Whether ``value`` names one of the fixed phrases (nothing else is shown)."""
    return isinstance(value, str) and value in PHRASES


def label(phrase: str) -> str:
    """The phrase in the active language."""
    return str(PHRASES[phrase])


def choices() -> list[dict[str, Any]]:
    """The picker's items in the active language (ids and labels)."""
    return [{"id": k, "label": str(v), "emote": k in EMOTES} for k, v in PHRASES.items()]


class PhraseLimit:
    """Per-seat limit on quick phrases, on a clock the caller passes in (seconds)."""

    def __init__(
        self, gap: float = GAP_S, per_window: int = PER_MINUTE, window: float = WINDOW_S
    ) -> None:
        self.gap, self.per_window, self.window = gap, per_window, window
        # each seat's recent phrases; the least recently heard seats forgotten past 10,000
        self.sent: LRU[int, deque[float]] = LRU(maxsize=10_000)

    def allow(self, seat_id: int, now: float) -> bool:
        """Count a phrase of ``seat_id`` at ``now`` if the limit lets it through."""
        times = self.sent.setdefault(seat_id, deque())
        while times and now - times[0] >= self.window:
            times.popleft()
        if times and now - times[-1] < self.gap:
            return False
        if len(times) >= self.per_window:
            return False
        times.append(now)
        return True


LIMIT = PhraseLimit()


def bubble_html(position: int, phrase: str, name: str, lang: str, nonce: str) -> str:
    """The bubble fragment for one connection, in that connection's language: it fills
    the seat's slot (``#phrase-<position>``, swapped out-of-band; a new element each time,
    so the CSS animation starts again)."""
    with translation.override(lang):
        return render_to_string(
            "games/table.html#phrase_bubble",
            {
                "position": position,
                "phrase": phrase,
                "text": label(phrase),
                "emote": phrase in EMOTES,
                "name": name,
                "nonce": nonce,
            },
        )


def note_html(code: str, lang: str) -> str:
    """The quiet note by the picker for the sender alone (a refusal; nothing changed)."""
    with translation.override(lang):
        return render_to_string(
            "games/table.html#phrase_note", {"code": code, "text": str(REFUSALS[code])}
        )
