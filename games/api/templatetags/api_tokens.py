"""``{% api_tokens %}``: the profile page's "API tokens" section (its tokens, the "New
token" form, the link to the API's docs)."""

from __future__ import annotations

from typing import Any

from django import template

from games.api import tokens
from games.api.forms import TokenForm

register = template.Library()


@register.inclusion_tag("api/_tokens.html", takes_context=True)
def api_tokens(context: template.Context) -> dict[str, Any]:
    request = context["request"]
    return {
        "tokens": tokens.active_tokens(request.user),
        "form": TokenForm(),
        "csrf_token": context.get("csrf_token"),
        "max_tokens": tokens.MAX_ACTIVE,
    }
