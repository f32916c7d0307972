"""Staff marking an account for fair play, and taking the mark back.

A mark (``accounts.Profile.fair_play_marked``, with its time) takes the account's ratings
and solo records off the public boards (the boards' querysets read the flag) and rates
every rated game again without it (``games.ratings.api.do_rebuild``: the others keep their
placings, so their order). Nothing is marked automatically: the page only lists figures.
Each mark and unmark is logged with who did it, when and why.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import Profile
from games.ratings import api as ratings

from .models import LogEntry


class MarkRefused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def do_set_mark(
    target: Any, *, marked: bool, by: Any, reason: str, at: datetime | None = None
) -> LogEntry:
    """Mark (or unmark) ``target``'s account, log it, and rebuild the ratings."""
    reason = (reason or "").strip()
    if marked and not reason:
        raise MarkRefused("reason_required", "a mark needs a reason")
    at = at or timezone.now()
    with transaction.atomic():
        profile, _made = Profile.objects.select_for_update().get_or_create(user=target)
        if profile.fair_play_marked == marked:
            raise MarkRefused("unchanged", "the account is already so")
        profile.fair_play_marked = marked
        profile.fair_play_marked_at = at if marked else None
        profile.save(update_fields=["fair_play_marked", "fair_play_marked_at"])
        games = ratings.do_rebuild()
        return LogEntry.objects.create(
            at=at,
            actor=by,
            action=LogEntry.Action.MARK if marked else LogEntry.Action.UNMARK,
            target=target,
            reason=reason,
            detail={"rated_games": games},
        )
