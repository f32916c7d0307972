"""What a taken discard may be used for (RULES.md §4 fifty-one, §5 seventeen).

fifty-one, seed 000 (Spanish): "debes usarla en la misma jugada, en tu apertura o
añadiéndola a una combinación"; seed 002 (German): "in deiner Eröffnung oder beim
Anlegen". So the taken tile goes into the opening or onto a meld on the table;
an opened player never lays it in a brand-new meld.

seventeen, seed 004: the taken discard is used "en una combinación nueva": there
a new meld is exactly what it is for.
"""

from __future__ import annotations

import pytest

from games.engine import Refusal, apply, legal_actions, take_useful
from games.engine.bots import choose_action
from games.engine.bots.hint import hint
from games.engine.testing import ids, make_state, tile


def refused(state, action) -> str:
    before = state.to_json()
    with pytest.raises(Refusal) as exc:
        apply(state, action)
    assert state.to_json() == before, "a refused action changes nothing"
    assert exc.value.message
    return exc.value.code


def opened_with_r7_to_take(variant: str, indicator: str):
    """Seat 0 has opened (a run on the table) and may take R7: R7 completes
    R5 R6 in the rack but fits no meld on the table."""
    return make_state(
        variant,
        ["R5 R6 K1 K9 B2", None, None, None],
        indicator=indicator,
        melds=[{"owner": 0, "tiles": "Y5 Y6 Y7"}, {"owner": 1, "tiles": "B9 B10 B11"}],
        opened=["melds", "melds", None, None],
        limit=60 if variant == "fifty-one" else 17,
        takeable="R7",
        turn=0,
        phase="draw",
    )


def new_meld_with(state, seat: int, taken: int) -> list[dict]:
    return [
        a
        for a in legal_actions(state, seat)
        if a["type"] in ("lay", "open") and any(taken in m for m in a["melds"])
    ]


def test_fifty_one_an_opened_player_cannot_lay_the_taken_discard_in_a_new_meld():
    st = opened_with_r7_to_take("fifty-one", "R12")
    assert not take_useful(st, 0)  # nothing on the table takes R7
    taken, _ = apply(st, {"type": "take", "seat": 0})
    r7 = taken.taken
    lay = {"type": "lay", "seat": 0, "melds": [[*ids(st, 0, "R5 R6"), r7]]}
    assert refused(taken, lay) == "taken_not_in_new_meld"
    assert new_meld_with(taken, 0, r7) == []
    # what is left: give it back [D12]
    assert {"type": "undo", "seat": 0} in legal_actions(taken, 0)


def test_fifty_one_the_new_meld_may_still_be_laid_without_the_taken_tile():
    st = make_state(
        "fifty-one",
        ["R5 R6 R7 K1 K9 B2", None, None, None],
        indicator="R12",
        melds=[{"owner": 0, "tiles": "Y5 Y6 Y7"}],
        opened=["melds", "melds", None, None],
        limit=60,
        takeable="Y8",
        turn=0,
        phase="draw",
    )
    assert take_useful(st, 0)  # Y8 goes onto Y5 Y6 Y7
    taken, _ = apply(st, {"type": "take", "seat": 0})
    laid, _ = apply(taken, {"type": "lay", "seat": 0, "melds": [ids(st, 0, "R5 R6 R7")]})
    assert laid.taken == taken.taken  # still to be used
    added, _ = apply(laid, {"type": "add", "seat": 0, "tile": taken.taken, "meld": 1})
    assert added.taken is None
    done, _ = apply(added, {"type": "discard", "seat": 0, "tile": tile(st, 0, "K1")})
    assert done.turn == 1


def test_fifty_one_the_taken_discard_may_go_onto_a_table_meld():
    st = make_state(
        "fifty-one",
        ["R5 R6 K1 K9 B2", None, None, None],
        indicator="R12",
        melds=[{"owner": 0, "tiles": "Y5 Y6 Y7"}, {"owner": 1, "tiles": "B9 B10 B11"}],
        opened=["melds", "melds", None, None],
        limit=60,
        takeable="B12",
        turn=0,
        phase="draw",
    )
    assert take_useful(st, 0)
    taken, _ = apply(st, {"type": "take", "seat": 0})
    adds = [a for a in legal_actions(taken, 0) if a.get("tile") == taken.taken]
    assert [(a["type"], a["meld"]) for a in adds] == [("add", 2)]
    used, _ = apply(taken, adds[0])
    assert used.taken is None


def test_fifty_one_the_taken_discard_may_go_into_the_opening():
    st = make_state(
        "fifty-one",
        ["R10 R11 R12 K10 B10 Y10 K1 B3 Y6", None, None, None],
        indicator="K12",  # okey K1: R13 is a plain tile
        takeable="R13",
        turn=0,
        phase="draw",
    )
    assert take_useful(st, 0)
    taken, _ = apply(st, {"type": "take", "seat": 0})
    r13 = taken.taken
    assert new_meld_with(taken, 0, r13)  # an opening holding it is offered
    run, group = [*ids(st, 0, "R10 R11 R12"), r13], ids(st, 0, "K10 B10 Y10")
    opened, _ = apply(taken, {"type": "open", "seat": 0, "melds": [run, group]})  # 46 + 30
    assert opened.opened[0] == "melds" and opened.taken is None


def test_fifty_one_after_an_opening_without_it_the_taken_discard_needs_a_table_meld():
    """The opening is the lay-down that must reach the barrier with the taken tile;
    a meld laid after it, even in the same turn, is a new meld."""
    st = make_state(
        "fifty-one",
        ["R10 R11 R12 K12 B12 Y12 K11 B11 Y11 B1", None, None, None],
        indicator="K9",  # okey K10: R13 is a plain tile
        takeable="R13",
        turn=0,
        phase="draw",
    )
    taken, _ = apply(st, {"type": "take", "seat": 0})
    groups = [ids(st, 0, "K12 B12 Y12"), ids(st, 0, "K11 B11 Y11")]
    opened, _ = apply(taken, {"type": "open", "seat": 0, "melds": groups})  # 36 + 33
    assert opened.opened[0] == "melds" and opened.taken == taken.taken
    lay = {"type": "lay", "seat": 0, "melds": [[*ids(st, 0, "R10 R11 R12"), taken.taken]]}
    assert refused(opened, lay) == "taken_not_in_new_meld"
    assert new_meld_with(opened, 0, taken.taken) == []


def test_fifty_one_a_pairs_opener_cannot_use_a_taken_discard():
    """A pairs opener never adds to melds [D13] and the taken tile never goes into a
    new meld once opened: a new pair with it is refused, and taking it is no use."""
    st = make_state(
        "fifty-one",
        ["R9 K1 K3 B5 Y3", None, None, None],
        indicator="R12",
        melds=[{"owner": 0, "tiles": "Y5 Y5"}, {"owner": 1, "tiles": "B6 B7 B8"}],
        opened=["pairs", "melds", None, None],
        takeable="R9",
        turn=0,
        phase="draw",
    )
    assert not take_useful(st, 0)
    taken, _ = apply(st, {"type": "take", "seat": 0})
    pair = {"type": "lay", "seat": 0, "melds": [[tile(st, 0, "R9"), taken.taken]]}
    assert refused(taken, pair) == "taken_not_in_new_meld"
    assert new_meld_with(taken, 0, taken.taken) == []


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_fifty_one_bots_do_not_take_a_discard_only_a_new_meld_could_use(level):
    st = opened_with_r7_to_take("fifty-one", "R12")
    assert choose_action(st, 0, level)["type"] == "draw"
    taken, _ = apply(st, {"type": "take", "seat": 0})  # taken anyway: the bot gives it back
    assert choose_action(taken, 0, level)["type"] == "undo"


def test_fifty_one_show_me_never_suggests_the_taken_tile_in_a_new_meld():
    st = opened_with_r7_to_take("fifty-one", "R12")
    assert hint(st, 0)["action"]["type"] == "draw"
    taken, _ = apply(st, {"type": "take", "seat": 0})
    h = hint(taken, 0)
    assert h["action"]["type"] == "undo" and h["reason"] == "undo"


def test_seventeen_the_taken_discard_goes_into_a_new_meld():
    """seventeen keeps its own rule: "en una combinación nueva" (seed 004)."""
    st = opened_with_r7_to_take("seventeen", "K4")
    assert take_useful(st, 0)
    assert choose_action(st, 0, "medium")["type"] == "take"
    taken, _ = apply(st, {"type": "take", "seat": 0})
    r7 = taken.taken
    lays = new_meld_with(taken, 0, r7)
    assert lays and all(a["type"] == "lay" for a in lays)
    laid, _ = apply(taken, {"type": "lay", "seat": 0, "melds": [[*ids(st, 0, "R5 R6"), r7]]})
    assert laid.taken is None
    assert choose_action(taken, 0, "medium")["type"] == "lay"
