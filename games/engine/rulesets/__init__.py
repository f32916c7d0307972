"""The registry of rule sets: every module of this package is one rule set.

A module defines one subclass of ``rulebase.WholeRackRules`` or ``rulebase.LayDownRules``
with a ``name``; it is found here without being listed anywhere (adding a rule set is adding
a module). ``RULES`` maps each name to its (stateless, shared) rules object, in the rule
sets' ``order``.

``register(rules)`` and ``unregister(name)`` are the public way to add or remove a rules
object at run time (the contract tests register a throw-away rule set defined in the test
this way). Both update ``RULES`` in place, so every holder of ``RULES`` (and of
``options.VARIANTS``, a view of it) sees the change. Nothing outside this package imports a
rule set's module: code reaches a rule set through ``RULES`` or ``rules.rules_for``
(``tests/engine/test_ruleset_imports.py`` checks it).
"""

from __future__ import annotations

import importlib
import pkgutil

from ..rulebase import LayDownRules, Rules, WholeRackRules


def _discover() -> list[Rules]:
    found: list[Rules] = []
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for obj in vars(module).values():
            if (
                isinstance(obj, type)
                and issubclass(obj, Rules)
                and obj not in (Rules, WholeRackRules, LayDownRules)
                and obj.__module__ == module.__name__
                and obj.name
            ):
                found.append(obj())
    return found


RULES: dict[str, Rules] = {}


def _sort() -> None:
    ordered = sorted(RULES.values(), key=lambda r: (r.order, r.name))
    RULES.clear()
    RULES.update((r.name, r) for r in ordered)


def register(rules: Rules) -> Rules:
    """Add ``rules`` (an instance of a ``Rules`` subclass with a ``name``) to the registry,
    in its menu ``order``; returns it. A name already taken is refused (``ValueError``)."""
    if not isinstance(rules, Rules) or not rules.name:
        raise ValueError("a rule set is a Rules instance with a name")
    if rules.name in RULES:
        raise ValueError(f"two rule sets share a name: {rules.name!r}")
    RULES[rules.name] = rules
    _sort()
    return rules


def unregister(name: str) -> None:
    """Remove the rule set ``name`` from the registry (no error if it is not there)."""
    RULES.pop(name, None)


for _rules in _discover():
    register(_rules)

__all__ = ["RULES", "register", "unregister"]
