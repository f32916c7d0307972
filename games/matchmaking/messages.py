"""Quick match's refusals in words (the reader's language); the table's own codes are
worded by ``games.live.messages`` (the table actions' quick-match codes too: ``quick_match_only``,
``too_early`` with the seconds left, ``game_started``)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from games.live.messages import refusal_text

REFUSALS = {
    "no_session": gettext_lazy(
        "Your browser did not keep your guest session: allow cookies for this site to play."
    ),
    "not_quick_match": gettext_lazy("This is not a quick-match table."),
    "not_waiting_here": gettext_lazy("You are not waiting at this table."),
    "no_rule_set": gettext_lazy("There is no such rule set."),
    "too_many_presses": gettext_lazy(
        "You pressed “Play now” many times in a short while. Wait a minute, then try again."
    ),
}


def refusal(code: str, fallback: str) -> str:
    """A refusal of quick match or of the table actions it calls, in words."""
    text = REFUSALS.get(code)
    return str(text) if text is not None else refusal_text(code, fallback)
