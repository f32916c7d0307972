"""okey-review/1 and a game of fixed deals (a duplicate round, RULES.md D38): the file says
how many deals the game was played for, and an import bounds its hands by that instead of
the rule set's own game length (fifty-one: one hand by default)."""

from __future__ import annotations

import json
import random

import pytest

from games.engine import Game, apply
from games.engine.simulate import choose
from games.review import records


def _fixed_deal_hands(variant: str, deals: int) -> list[dict]:
    game = Game(variant, {}, deals=deals)
    hands = []
    for n in range(deals):
        state = game.new_hand(f"fixed-deals/{n}")
        rng = random.Random(n)
        while not state.over:
            state, _ = apply(state, choose(state, rng))
        game.record_hand(state)
        hands.append(records.hand_export(state.record(), n + 1))
    return hands


PLAYERS = [{"seat": s, "name": f"Player {s + 1}", "cpu": None} for s in range(4)]


def test_a_duplicate_fifty_one_round_of_three_deals_imports_as_one_game():
    hands = _fixed_deal_hands("fifty-one", 3)
    options = Game("fifty-one").options
    doc = records.sign(records.document("fifty-one", options, PLAYERS, hands, deals=3))
    loaded = records.load_document(json.dumps(doc))
    assert [h.number for h in loaded["hands"]] == [1, 2, 3]
    assert loaded["document"]["deals"] == 3
    # the same hands without the field are more than one fifty-one game can hold
    plain = records.document("fifty-one", options, PLAYERS, hands)
    assert "deals" not in plain
    with pytest.raises(records.ImportRefused) as refused:
        records.load_document(json.dumps(plain))
    assert refused.value.code == "too_large"


@pytest.mark.parametrize("bad", [0, 65, "3", 2.0, True])
def test_a_bad_deals_count_is_refused(bad):
    hands = _fixed_deal_hands("classic", 1)
    doc = records.document("classic", Game("classic").options, PLAYERS, hands)
    doc["deals"] = bad
    with pytest.raises(records.ImportRefused):
        records.load_document(json.dumps(doc))


def test_more_hands_than_the_deals_are_refused():
    hands = _fixed_deal_hands("classic", 2)
    doc = records.document("classic", Game("classic").options, PLAYERS, hands, deals=1)
    with pytest.raises(records.ImportRefused) as refused:
        records.load_document(json.dumps(doc))
    assert refused.value.code == "too_large"
