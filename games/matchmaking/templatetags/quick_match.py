"""``{% quick_wait_seat as seat %}``: the visitor's seat at a quick-match table that is still
waiting (None otherwise), for the lobby's "back to the table" line: an account's by user, a
guest's by session key (a guest without a session has none; the tag starts no session)."""

from __future__ import annotations

from typing import Any

from django import template

from games.matchmaking.actions import waiting_seat
from games.models import Seat

register = template.Library()


@register.simple_tag(takes_context=True)
def quick_wait_seat(context: dict[str, Any]) -> Seat | None:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None:
        return None
    if user.is_authenticated:
        return waiting_seat(user)
    return waiting_seat(None, request.session.session_key or "")
