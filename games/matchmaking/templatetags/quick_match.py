"""``{% quick_wait_seat as seat %}``: the signed-in visitor's seat at a quick-match table
that is still waiting (None otherwise), for the lobby's "back to the table" line."""

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
    if user is None or not user.is_authenticated:
        return None
    return waiting_seat(user)
