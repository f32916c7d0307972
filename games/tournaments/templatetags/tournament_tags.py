"""Small template helpers for the tournament pages."""

from __future__ import annotations

import json
from typing import Any

from django import template

from games.tournaments.messages import audit_label

register = template.Library()


@register.filter
def action_label(code: str) -> str:
    return audit_label(code)


@register.filter
def as_json(value: Any) -> str:
    if value is None:
        return ""
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


@register.filter
def played_in(entry: Any, number: int) -> bool:
    return bool(entry.plays_round(number))
