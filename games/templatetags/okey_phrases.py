"""The quick-phrase picker's items (games/phrases.py) for templates/games/table.html."""

from __future__ import annotations

from typing import Any

from django import template

from games import phrases

register = template.Library()


@register.simple_tag
def phrase_choices() -> list[dict[str, Any]]:
    """The fixed phrases in the active language, in the picker's order."""
    return phrases.choices()
