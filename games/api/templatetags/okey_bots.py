"""Bot tags (docs/bots-api.md): ``{% bot_account %}``, the profile page's "Bot account"
section, and ``{% bot_invite %}``, the waiting table's "Invite a bot" form for its host
(a select of the online bots)."""

from __future__ import annotations

from typing import Any

from django import template

from accounts.models import Profile
from games.api.bot_stream import online_bot_ids

register = template.Library()


@register.inclusion_tag("api/_bot_account.html", takes_context=True)
def bot_account(context: template.Context) -> dict[str, Any]:
    request = context["request"]
    profile = Profile.objects.filter(user=request.user).first()
    return {"profile": profile}


@register.inclusion_tag("api/_bot_invite.html", takes_context=True)
def bot_invite(context: template.Context) -> dict[str, Any]:
    table = context.get("table")
    if table is None or getattr(table, "rated", False):
        return {"bots": []}
    online = online_bot_ids()
    seated = {s.user_id for s in table.seats.all() if s.user_id}
    profiles = Profile.objects.filter(user_id__in=online - seated).select_related("user")
    bots = sorted(({"id": p.user_id, "name": p.name} for p in profiles), key=lambda b: b["name"])
    return {"bots": bots, "table": table, "csrf_token": context.get("csrf_token")}
