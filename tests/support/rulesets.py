"""Throw-away rule sets for the plug-in contract tests (tests/engine/test_ruleset_contract.py,
tests/games/test_ruleset_plugin.py).

Each one is defined here only, as a new module of ``games/engine/rulesets/`` would define
it (a subclass of a shipped rule set that overrides what differs, reached through the
registry), and the ``throwaway`` fixture registers it through the public registry
(``games.engine.rules.register``) and unregisters it afterwards. Their rules pages are
their parents' (a real rule set brings its own, docs/rule-sets.md).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from games.engine.rules import PAIRS_OPENING, RULES, Rules, register, unregister

Classic = type(RULES["classic"])
FiftyOne = type(RULES["fifty-one"])


class QuickClassic(Classic):
    """Classic counted down from 4 or 6 points instead of 10-30 (another target, [D5]
    [D6]): a game of a few hands."""

    name = "quick-classic"  # a variant name fits 16 characters (the models)
    label = "Quick classic"
    title = "Quick classic (a throw-away test rule set)"
    order = 98
    options = {**Classic.options, "start_points": ((4, 6), 4)}
    rules_page = "classic"  # type: ignore[assignment]


class SixtyOne(FiftyOne):
    """Fifty-one with a fixed 61 barrier (no doubling) and one hand a game."""

    name = "sixty-one"
    label = "Sixty-one"
    title = "Sixty-one (a throw-away test rule set)"
    order = 99
    options = {**FiftyOne.options, "hands": ((1,), 1), "doubling": ((False,), False)}
    rules_page = "fifty-one"  # type: ignore[assignment]

    def opening_min(self, state, kind: str) -> int:
        return 0 if kind == PAIRS_OPENING else 61

    def after_open(self, state, kind: str, total: int) -> int | None:
        return None  # no doubling: every opening needs 61


THROWAWAY = (QuickClassic, SixtyOne)


@pytest.fixture(params=THROWAWAY, ids=[c.name for c in THROWAWAY])
def throwaway(request) -> Iterator[Rules]:
    """Each throw-away rule set in turn, registered for the test and unregistered after."""
    rules = register(request.param())
    try:
        yield rules
    finally:
        unregister(rules.name)


@pytest.fixture
def sixty_one() -> Iterator[Rules]:
    rules = register(SixtyOne())
    try:
        yield rules
    finally:
        unregister(rules.name)


@pytest.fixture
def quick_classic() -> Iterator[Rules]:
    rules = register(QuickClassic())
    try:
        yield rules
    finally:
        unregister(rules.name)
