"""Small template helpers for the tournament pages."""

from __future__ import annotations

import json
import re
from typing import Any

from django import template
from django.utils.translation import gettext as _

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


_TABLE = re.compile(r"^round (\d+) table (\d+)$")
_ROUND = re.compile(r"^round (\d+)$")


@register.filter
def audit_what(what: str) -> str:
    """The audit entry's subject in the reader's language (tables and rounds are
    stored language-neutral as "round R table T" / "round R")."""
    m = _TABLE.match(what or "")
    if m:
        return _("round %(r)s, table %(t)s") % {"r": m.group(1), "t": m.group(2)}
    m = _ROUND.match(what or "")
    if m:
        return _("round %(r)s") % {"r": m.group(1)}
    return what


def _short(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


@register.simple_tag
def audit_changes(before: Any, after: Any) -> list[dict[str, str]]:
    """The keys that changed between an audit entry's two snapshots (both dicts),
    as short texts; [] when there is nothing to compare."""
    if not isinstance(before, dict) or not isinstance(after, dict):
        return []
    return [
        {"key": key, "before": _short(before.get(key)), "after": _short(after.get(key))}
        for key in sorted(set(before) | set(after))
        if before.get(key) != after.get(key)
    ]
