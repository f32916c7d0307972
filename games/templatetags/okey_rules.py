"""``{% rule_sets as sets %}``: every registered rule set, for menus and lists of pages.

Each item has the rule set's ``name``, its ``label`` in the reader's language (the
engine's msgid, translated here) and its ``rules_page`` slug, in the registry's order
(games/engine/rulesets/): a new rule set appears without an edit to any template.
"""

from __future__ import annotations

from django import template
from django.utils.translation import gettext

from games.engine.rules import RULES

register = template.Library()


@register.simple_tag
def rule_sets() -> list[dict[str, str]]:
    return [
        {"name": name, "label": gettext(rules.label), "rules_page": rules.rules_page}
        for name, rules in RULES.items()
    ]
