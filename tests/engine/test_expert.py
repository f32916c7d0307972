"""The expert level (games/engine/bots/expert.py): it decides from the seat's view
only, its evaluation covers the decision-relevant actions best first, and
``decide(..., "expert")`` plays the first of them."""

from __future__ import annotations

import json
import random

import pytest

from games.engine import apply, legal_actions, new_hand
from games.engine.bots import choose_action, decide
from games.engine.bots.expert import Option, evaluate, value_unit
from games.engine.rules import RULES, rules_for
from games.engine.tiles import kind_of
from games.engine.view import view_for

VARIANTS = list(RULES)  # every rule set of the registry


def _held_known(state, seat: int) -> set[int]:
    """Tiles of other racks the seat knows the place of: those taken from a discard
    pile (face up, the public ``took`` log) and still held by their taker."""
    out: set[int] = set()
    for s, row in enumerate(state.took or ()):
        if s != seat:
            out |= {t for t in row if t in state.racks[s]}
    return out


def permute_hidden(state, seat: int, rng: random.Random):
    """The same state with every tile ``seat`` cannot see (other racks, the pile)
    shuffled among the hidden places, each rack keeping its size."""
    known = _held_known(state, seat)
    hidden = [t for s, r in enumerate(state.racks) if s != seat for t in r if t not in known]
    hidden += list(state.pile)
    rng.shuffle(hidden)
    racks = []
    for s, r in enumerate(state.racks):
        if s == seat:
            racks.append(r)
            continue
        new = []
        for t in r:
            new.append(t if t in known else hidden.pop())
        racks.append(tuple(new))
    other = state.clone()
    other.racks = tuple(racks)
    other.pile = tuple(hidden)
    return other


def _as_json(options: list[Option]) -> str:
    return json.dumps([(o.action, o.value, o.reason, o.detail) for o in options], sort_keys=True)


@pytest.mark.parametrize("variant", VARIANTS)
def test_permuting_every_hidden_tile_never_changes_the_expert(variant):
    """From real mid-hand states (a hand played by hard and expert CPUs), every
    permutation tried of the tiles the seat cannot see gives the same view, the same
    evaluation (values included) and the same decision."""
    rng = random.Random(f"expert-view-{variant}")
    checked = 0
    for deal in range(2):
        state = new_hand(variant, None, f"expert-view/{deal}", deal % 4)
        for step in range(400):
            if state.over:
                break
            seat = state.turn
            view = view_for(state, seat)
            legal = legal_actions(state, seat)
            if step % 3 == 0:
                first = _as_json(evaluate(view, legal))
                action = decide(view, legal, "expert")
                for _ in range(3):
                    other = permute_hidden(state, seat, rng)
                    assert other.racks != state.racks or other.pile != state.pile or not other.pile
                    assert view_for(other, seat) == view
                    again = view_for(other, seat), legal_actions(other, seat)
                    assert _as_json(evaluate(*again)) == first
                    assert choose_action(other, seat, "expert") == action
                checked += 1
            level = "expert" if seat % 2 == 0 else "hard"
            state, _ = apply(state, choose_action(state, seat, level))
    assert checked >= 20


@pytest.mark.parametrize("variant", VARIANTS)
def test_evaluation_covers_the_actions_best_first_and_decide_plays_the_first(variant):
    state = new_hand(variant, None, f"expert-api/{variant}", 0)
    rng = random.Random(variant)
    kinds_seen = set()
    for _ in range(300):
        if state.over:
            break
        seat = state.turn
        view = view_for(state, seat)
        legal = legal_actions(state, seat)
        options = evaluate(json.loads(json.dumps(view)), legal)
        assert options and all(isinstance(o, Option) for o in options)
        assert decide(view, legal, "expert") == options[0].action
        values = [o.value for o in options]
        assert values[0] == max(values) and values[1:] == sorted(values[1:], reverse=True)
        json.dumps([o.detail for o in options])  # JSON-serialisable facts
        listed = [json.dumps(a, sort_keys=True) for a in legal]
        for o in options:
            assert json.dumps(o.action, sort_keys=True) in listed or o.action["type"] == "open"
        # discards are grouped: one option per kind of tile
        discard_kinds = [
            kind_of(o.action["tile"]) for o in options if o.action["type"] == "discard"
        ]
        assert len(discard_kinds) == len(set(discard_kinds))
        wanted = {kind_of(a["tile"]) for a in legal if a["type"] == "discard"}
        assert set(discard_kinds) == wanted
        kinds_seen |= {o.reason for o in options[:1]}
        action = options[0].action if rng.random() < 0.7 else choose_action(state, seat, "medium")
        state, _ = apply(state, action)
    assert kinds_seen & {"keeps_useful", "discard_loose", "discard_safe"}


def test_value_unit_follows_the_rule_sets_direction():
    for name, rules in RULES.items():
        assert value_unit(rules) == ("points" if rules.higher_wins else "penalty points"), name
    assert value_unit(rules_for("fifty-one")) == "penalty points"


def test_no_legal_action_is_refused():
    state = new_hand("classic", None, "none", 0)
    view = view_for(state, 1)  # not its turn
    with pytest.raises(ValueError):
        evaluate(view, legal_actions(state, 1))
