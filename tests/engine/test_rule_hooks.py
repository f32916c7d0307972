"""A rule set is a subclass that overrides what differs (rulebase.py, API.md "State-machine
hooks"): the state machine (``apply``) and the move generator (``legal_actions``) ask the
rules object, never which class it is, so a rule set registered later changes their
behaviour by overriding a hook, with no edit in the engine.
"""

from __future__ import annotations

import pytest

from games.engine import Refusal, apply, legal_actions, new_hand
from games.engine.rules import RULES

FiftyOneRules = type(RULES["fifty-one"])  # through the registry, as any code outside rulesets/


@pytest.fixture
def register(monkeypatch):
    """Register a rules object for one test, as a module of ``rulesets/`` would be."""

    def add(rules):
        monkeypatch.setitem(RULES, rules.name, rules)
        return rules.name

    return add


class _TakeFreely(FiftyOneRules):
    """Fifty-one, except that a taken discard need not be used this turn."""

    name = "test-take-freely"

    def taken_must_be_used(self, state):
        return False


class _NoSwaps(FiftyOneRules):
    """Fifty-one without the okey swap."""

    name = "test-no-swaps"
    action_types = FiftyOneRules.action_types - {"swap"}


def _after_a_take(variant: str):
    state = new_hand(variant, None, "hooks", 0)
    state, _ = apply(state, {"type": "discard", "seat": 0, "tile": state.racks[0][0]})
    state, _ = apply(state, {"type": "take", "seat": 1})
    return state


def test_fifty_one_makes_the_taker_use_the_discard():
    state = _after_a_take("fifty-one")
    assert state.taken is not None  # [D12]
    assert not [a for a in legal_actions(state, 1) if a["type"] == "discard"]
    with pytest.raises(Refusal) as exc:
        apply(state, {"type": "discard", "seat": 1, "tile": state.racks[1][0]})
    assert exc.value.code == "must_use_taken_discard"


def test_a_rule_set_overriding_taken_must_be_used_lets_the_taker_discard(register):
    state = _after_a_take(register(_TakeFreely()))
    assert state.taken is None
    discards = [a for a in legal_actions(state, 1) if a["type"] == "discard"]
    assert len(discards) == len(state.racks[1])
    after, _ = apply(state, discards[0])
    assert after.turn == 2


def test_a_rule_set_without_an_action_type_refuses_it(register):
    variant = register(_NoSwaps())
    state = new_hand(variant, None, "hooks", 0)
    swap = {"type": "swap", "seat": 0, "tile": state.racks[0][0], "meld": 1}
    with pytest.raises(Refusal) as exc:
        apply(state, swap)
    assert exc.value.code == "not_allowed_in_variant"
    with pytest.raises(Refusal) as exc:  # fifty-one has swaps: this one is refused for
        apply(new_hand("fifty-one", None, "hooks", 0), swap)  # another reason
    assert exc.value.code != "not_allowed_in_variant"
