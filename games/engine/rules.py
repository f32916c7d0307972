"""One rules object per rule set: flags and hooks, no ``if variant == …`` chains.

``rules_for(variant)`` returns the (stateless, shared) rules object; ``RULES`` maps every
rule set's name to it, in menu order. The base classes are in ``rulebase.py``; each rule
set is one module of ``rulesets/`` (found there without being listed; ``register`` and
``unregister`` add and remove one at run time). No module outside ``rulesets/`` imports a
rule set's module: a rule set is reached through this registry. The state machine in
``actions.py`` asks the rules object what the rule set allows and what things cost.
"""

from __future__ import annotations

from .refusals import Refusal
from .rulebase import (
    MELDS_OPENING,
    PAIR,
    PAIRS_OPENING,
    LayDownRules,
    ResultProblem,
    Rules,
    WholeRackRules,
)
from .rulesets import RULES, register, unregister


def rules_for(variant: str) -> Rules:
    try:
        return RULES[variant]
    except (KeyError, TypeError):
        raise Refusal("bad_variant", f"unknown variant {variant!r}") from None


__all__ = [
    "MELDS_OPENING",
    "PAIRS_OPENING",
    "RULES",
    "LayDownRules",
    "ResultProblem",
    "Rules",
    "WholeRackRules",
    "register",
    "rules_for",
    "unregister",
    "PAIR",
]
