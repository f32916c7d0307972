"""The registry of rule sets: every module of this package is one rule set.

A module defines one subclass of ``rulebase.WholeRackRules`` or ``rulebase.LayDownRules``
with a ``name``; it is found here without being listed anywhere (adding a rule set is adding
a module). ``RULES`` maps each name to its (stateless, shared) rules object, in the rule
sets' ``order``.
"""

from __future__ import annotations

import importlib
import pkgutil

from ..rulebase import LayDownRules, Rules, WholeRackRules


def _discover() -> dict[str, Rules]:
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
    found.sort(key=lambda r: (r.order, r.name))
    names = [r.name for r in found]
    if len(set(names)) != len(names):
        raise RuntimeError(f"two rule sets share a name: {names}")
    return {r.name: r for r in found}


RULES: dict[str, Rules] = _discover()

__all__ = ["RULES"]
