"""What a discard would cost (``Rules.discard_penalty``), which an assisted table says
before it sends the discard: each rule set's own penalties (RULES.md §4 penalty tile,
§5 Penalties, §6 [D32] işlek and okey), the finishing discard exempt, and nothing in the
rule sets that never charge a discard."""

from __future__ import annotations

import pytest

from games.engine import apply
from games.engine.testing import make_state
from games.engine.tiles import notation
from games.engine.view import view_for

# seat 1 and seat 2 each have a run on the table: K6 K7 K8 takes K5 or K9, B2 B3 B4 takes B5
MELDS = [{"owner": 1, "tiles": "K6 K7 K8"}, {"owner": 2, "tiles": "B2 B3 B4"}]
RACK = "K9 R1 Y3 B5 R8 Y11 B13 R13 K2 Y7"


def state_for(variant: str, rack: str = RACK, *, assisted: bool = True, indicator: str = "R10"):
    return make_state(
        variant,
        racks=[rack, None, None, None],
        indicator=indicator,  # the okey is R11, nowhere in RACK
        melds=MELDS,
        opened=["melds", "melds", "melds", None],
        phase="play",
        options={"assisted": assisted, "clock": 0},
    )


def tile(state, seat: int, t: str) -> int:
    return next(i for i in state.racks[seat] if notation(i) == t)


@pytest.mark.parametrize(
    ("variant", "points", "words"),
    [("fifty-one", 100, "penalty tile"), ("101", 101, "işlek"), ("seventeen", 100, "comes back")],
)
def test_a_tile_that_completes_a_table_meld_costs_what_its_rule_set_charges(variant, points, words):
    state = state_for(variant)
    for t in ("K9", "B5"):
        cost = state.rules.discard_penalty(state, 0, tile(state, 0, t))
        assert cost is not None and cost[0] == points and words in cost[1]
        assert "%(tile)s" in cost[1] and "%(points)s" in cost[1]
    assert state.rules.discard_penalty(state, 0, tile(state, 0, "R1")) is None


@pytest.mark.parametrize("variant", ["fifty-one", "101", "seventeen"])
def test_the_cost_said_is_the_cost_the_discard_writes(variant):
    """The penalty the table warns about is the one the score sheet gets (and in
    seventeen the tile comes back, as it says)."""
    state = state_for(variant)
    k9 = tile(state, 0, "K9")
    points, msgid = state.rules.discard_penalty(state, 0, k9)
    after, _events = apply(state, {"type": "discard", "seat": 0, "tile": k9})
    written = sum(ln["points"] for ln in after.scores if ln["seat"] == 0)
    assert written == points
    assert (k9 in after.racks[0]) is ("comes back" in msgid)


def test_101_says_an_okey_discard_costs_101_once():
    state = state_for("101", RACK.replace("Y7", "R11"))  # the okey R11 [D37]
    points, msgid = state.rules.discard_penalty(state, 0, tile(state, 0, "R11"))
    assert points == 101 and "okey" in msgid


def test_seventeen_says_an_okey_costs_the_base_and_comes_back():
    state = state_for("seventeen", RACK.replace("Y7", "R11"))  # red okey: base 400
    points, msgid = state.rules.discard_penalty(state, 0, tile(state, 0, "R11"))
    assert points == 400 and "only to finish" in msgid and "comes back" in msgid


@pytest.mark.parametrize("variant", ["fifty-one", "101", "seventeen"])
def test_the_finishing_discard_costs_nothing(variant):
    state = state_for(variant, "K9")  # opened, one tile left: discarding it finishes
    assert state.rules.discard_penalty(state, 0, tile(state, 0, "K9")) is None


@pytest.mark.parametrize("variant", ["classic", "rummy"])
def test_whole_rack_rule_sets_never_charge_a_discard(variant):
    state = make_state(
        variant,
        racks=["R3 R4 R5 R6 K9 B9 Y9 Y10 Y11 Y12 Y13 K6 K7 B5 R11", None, None, None],
        indicator="B4",
        phase="play",
    )
    assert all(state.rules.discard_penalty(state, 0, t) is None for t in state.racks[0])


def test_the_seats_view_lists_the_costs_on_its_own_turn_at_an_assisted_table_only():
    state = state_for("101")
    costs = {c["tile"]: c["points"] for c in view_for(state, 0)["discard_costs"]}
    assert costs == {tile(state, 0, "K9"): 101, tile(state, 0, "B5"): 101}
    assert "discard_costs" not in view_for(state_for("101", assisted=False), 0)
    assert view_for(state, 1)["discard_costs"] == []  # not seat 1's turn
    assert "discard_costs" not in view_for(state, None)  # a watcher
