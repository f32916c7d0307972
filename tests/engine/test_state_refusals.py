"""Refusals: stable codes, state untouched, malformed actions → bad_action."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.engine import REFUSALS, Refusal, apply, new_hand, validate_options
from games.engine.testing import ids, make_state, tile


def code(state, action) -> str:
    before = state.to_json()
    with pytest.raises(Refusal) as exc:
        apply(state, action)
    assert state.to_json() == before, "a refused action changes nothing"
    assert exc.value.message == REFUSALS[exc.value.code] or exc.value.message
    return exc.value.code


def test_every_code_raised_in_the_engine_is_in_the_table():
    src = Path(__file__).resolve().parents[2] / "games" / "engine"
    used = set()
    for f in src.glob("*.py"):
        used |= set(re.findall(r'Refusal\(\s*"([a-z_]+)"', f.read_text()))
    assert used and used <= set(REFUSALS), used - set(REFUSALS)
    with pytest.raises(KeyError):
        Refusal("no_such_code")


@pytest.fixture
def start():
    return new_hand("classic", None, "refusals", 0)


@pytest.mark.parametrize(
    "action",
    [
        None,
        [],
        {},
        {"type": "fly", "seat": 0},
        {"type": "discard", "seat": 0},
        {"type": "discard", "seat": 0, "tile": "R5"},
        {"type": "discard", "seat": 0, "tile": 106},
        {"type": "discard", "seat": 0, "tile": -1},
        {"type": "discard", "seat": 0, "tile": True},
        {"type": "discard", "seat": 0, "tile": 3.0},
        {"type": "discard", "seat": 4, "tile": 3},
        {"type": "discard", "seat": "0", "tile": 3},
        {"type": "discard", "seat": True, "tile": 3},
        {"type": "discard", "seat": 0, "tile": 3, "extra": 1},
        {"type": "open", "seat": 0, "melds": [[1, 2, 2]]},
        {"type": "open", "seat": 0, "melds": [[1, 2, 3], [3, 4, 5]]},
        {"type": "open", "seat": 0, "melds": []},
        {"type": "open", "seat": 0, "melds": [[1]]},
        {"type": "open", "seat": 0, "melds": "1 2 3"},
        {"type": "open", "seat": 0, "melds": [[1, 2, 3]], "assign": {"x": "R5"}},
        {"type": "open", "seat": 0, "melds": [[1, 2, 3]], "assign": {"1": "Z9"}},
        {"type": "open", "seat": 0, "melds": [[1, 2, 3]], "assign": {"1": "F"}},
        {"type": "add", "seat": 0, "tile": 1, "meld": "a"},
        {"type": "add", "seat": 0, "tile": 1, "meld": 1, "as": "R14"},
        {"type": "arrange", "seat": 0, "tiles": [1, 1]},
    ],
)
def test_malformed_actions_are_bad_action(start, action):
    assert code(start, action) == "bad_action"


def test_turn_and_phase(start):
    assert code(start, {"type": "discard", "seat": 1, "tile": start.racks[1][0]}) == (
        "not_your_turn"
    )
    assert code(start, {"type": "draw", "seat": 0}) == "already_drawn"
    assert code(start, {"type": "take", "seat": 0}) == "already_drawn"
    other = next(t for t in range(106) if t not in start.racks[0])
    assert code(start, {"type": "discard", "seat": 0, "tile": other}) == "tile_not_in_rack"
    s2, _ = apply(start, {"type": "discard", "seat": 0, "tile": start.racks[0][0]})
    assert code(s2, {"type": "discard", "seat": 1, "tile": s2.racks[1][0]}) == "must_draw"
    s3, _ = apply(s2, {"type": "draw", "seat": 1})
    s4, _ = apply(s3, {"type": "discard", "seat": 1, "tile": s3.racks[1][0]})
    s5, _ = apply(s4, {"type": "draw", "seat": 2})
    assert code(s5, {"type": "take", "seat": 2}) == "already_drawn"


def test_nothing_to_take_after_a_draw_took_the_turn():
    s = make_state("rummy", [None, None], indicator="B4", turn=0, phase="draw",
                   options={"players": 2})  # fmt: skip
    assert s.takeable is None
    assert code(s, {"type": "take", "seat": 0}) == "nothing_to_take"


def test_hand_over_refuses_everything():
    from games.engine.simulate import play_hand

    s = play_hand("rummy", {"players": 2}, "over")
    assert s.over
    assert code(s, {"type": "draw", "seat": s.turn}) == "hand_over"


def test_variant_specific_actions(start):
    assert code(start, {"type": "open", "seat": 0, "melds": [list(start.racks[0][:3])]}) == (
        "not_allowed_in_variant"
    )
    assert code(start, {"type": "flip", "seat": 0, "tile": start.racks[0][0]}) == (
        "not_allowed_in_variant"
    )
    f = new_hand("fifty-one", None, "x", 0)
    assert code(f, {"type": "close", "seat": 0, "tile": f.racks[0][0]}) == (
        "not_allowed_in_variant"
    )
    assert code(f, {"type": "show", "seat": 0, "tile": f.racks[0][0]}) == ("not_allowed_in_variant")


def test_show_refusals():
    s = make_state("classic", ["K12 R1", None, None, None], indicator="K12", turn=0,
                   phase="play", turns_done=[0, 0, 0, 0])  # fmt: skip
    assert code(s, {"type": "show", "seat": 0, "tile": tile(s, 0, "R1")}) == "not_indicator_twin"
    late = make_state("classic", ["K12 R1", None, None, None], indicator="K12", turn=0,
                      phase="play", turns_done=[1, 1, 1, 1])  # fmt: skip
    assert code(late, {"type": "show", "seat": 0, "tile": late.indicator ^ 1}) == "show_too_late"


def test_meld_refusals_fifty_one():
    s = make_state(
        "fifty-one",
        ["R1 R2 R4 K9 K10 K11 B9 Y9 R9 R9", None, None, None],
        indicator="B12",
        melds=[{"owner": 1, "tiles": "Y5 Y6 Y7"}],
        turn=0,
        phase="play",
    )
    assert code(s, {"type": "open", "seat": 0, "melds": [ids(s, 0, "R1 R2 R4")]}) == "not_a_meld"
    mixed = [ids(s, 0, "K9 K10 K11"), ids(s, 0, "R9 R9")]
    assert code(s, {"type": "open", "seat": 0, "melds": mixed}) == "mixed_opening"
    assert code(s, {"type": "lay", "seat": 0, "melds": [ids(s, 0, "K9 K10 K11")]}) == ("not_opened")
    opened = make_state(
        "fifty-one",
        ["R1 R2 R3", None, None, None],
        indicator="B12",
        melds=[{"owner": 0, "tiles": "Y5 Y6 Y7"}],
        turn=0,
        phase="play",
    )
    assert code(opened, {"type": "open", "seat": 0, "melds": [ids(opened, 0, "R1 R2 R3")]}) == (
        "already_opened"
    )
    assert code(opened, {"type": "lay", "seat": 0, "melds": [ids(opened, 0, "R1 R2 R3")]}) == (
        "keep_one_tile"
    )
    assert code(opened, {"type": "add", "seat": 0, "tile": tile(opened, 0, "R1"), "meld": 9}) == (
        "unknown_meld"
    )
    assert code(opened, {"type": "add", "seat": 0, "tile": tile(opened, 0, "R1"), "meld": 1}) == (
        "does_not_fit"
    )
    assert code(opened, {"type": "swap", "seat": 0, "tile": tile(opened, 0, "R1"), "meld": 1}) == (
        "no_okey_to_swap"
    )


def test_fifty_one_okey_added_as_a_chosen_tile():
    s = make_state(
        "fifty-one",
        ["B12 R1 R2", None, None, None],
        indicator="B11",  # okey B12
        melds=[{"owner": 0, "tiles": "Y5 Y6 Y7"}],
        turn=0,
        phase="play",
    )
    okey = tile(s, 0, "B12")
    low, _ = apply(s, {"type": "add", "seat": 0, "tile": okey, "meld": 1, "as": "Y4"})
    assert low.melds[0].tiles[0] == okey
    high, _ = apply(s, {"type": "add", "seat": 0, "tile": okey, "meld": 1})
    assert high.melds[0].tiles[-1] == okey  # default: extend upwards
    assert code(s, {"type": "add", "seat": 0, "tile": okey, "meld": 1, "as": "Y9"}) == (
        "does_not_fit"
    )


def test_seventeen_restrictions():
    s = make_state(
        "seventeen",
        ["B4 B8 K5 R9 Y1 Y2 Y3", None, None, None],
        indicator="K4",  # okey K5
        melds=[
            {"owner": 0, "tiles": "R1 R2 R3"},
            {"owner": 1, "tiles": "B5 B6 B7"},
            {"owner": 2, "tiles": "R8 R9 R10"},
        ],
        turn=0,
        phase="play",
    )
    s2, _ = apply(s, {"type": "add", "seat": 0, "tile": tile(s, 0, "B8"), "meld": 2})
    # a second okey at the same end in the same turn
    assert code(s2, {"type": "add", "seat": 0, "tile": tile(s, 0, "K5"), "meld": 2,
                     "as": "B9"}) == "end_used_this_turn"  # fmt: skip
    s3, _ = apply(s2, {"type": "add", "seat": 0, "tile": tile(s, 0, "B4"), "meld": 2})
    assert s3.melds[1].plays[0] % 13 == 3  # B4 at the other end is fine
    # an okey out of a group of three: forbidden
    b9 = make_state(
        "seventeen",
        ["R9 Y1 Y2", None, None, None],
        indicator="K4",
        melds=[{"owner": 0, "tiles": "R1 R2 R3"}, {"owner": 3, "tiles": "Y9 K9 K5"}],
        turn=0,
        phase="play",
    )
    assert code(b9, {"type": "swap", "seat": 0, "tile": tile(b9, 0, "R9"), "meld": 2}) == (
        "swap_forbidden"
    )
    # an okey placed this turn cannot be swapped out this turn
    own = make_state(
        "seventeen",
        ["K5 R9 Y1 Y2", None, None, None],
        indicator="K4",
        melds=[{"owner": 0, "tiles": "R10 R11 R12"}],
        turn=0,
        phase="play",
    )
    o2, _ = apply(own, {"type": "add", "seat": 0, "tile": tile(own, 0, "K5"), "meld": 1,
                        "as": "R9"})  # fmt: skip
    assert code(o2, {"type": "swap", "seat": 0, "tile": tile(own, 0, "R9"), "meld": 1}) == (
        "swap_forbidden"
    )


def test_seventeen_taken_discard_must_go_into_a_new_meld():
    s = make_state(
        "seventeen",
        ["R11 R12 Y1 Y5", None, None, None],
        indicator="K4",
        melds=[{"owner": 0, "tiles": "B1 B2 B3"}],
        takeable="B4",
        turn=0,
        phase="draw",
    )
    s2, _ = apply(s, {"type": "take", "seat": 0})
    assert code(s2, {"type": "add", "seat": 0, "tile": s2.taken, "meld": 1}) == (
        "must_use_in_new_meld"
    )


def test_seventeen_provisional_opening_returns_when_short():
    s = make_state(
        "seventeen",
        ["R1 R2 R3 Y5 K9 B11 Y12 K1 K13 B2 B6 B8 R12 Y7 R6", None, None, None],
        indicator="K4",
        turn=0,
        phase="play",
    )
    s2, _ = apply(s, {"type": "lay", "seat": 0, "melds": [ids(s, 0, "R1 R2 R3")]})
    assert len(s2.melds) == 1 and len(s2.racks[0]) == 12 and s2.opened[0] is None
    s3, ev = apply(s2, {"type": "discard", "seat": 0, "tile": tile(s, 0, "Y5")})
    assert s3.melds == () and len(s3.racks[0]) == 14 and s3.opened[0] is None
    assert any(e["type"] == "returned" for e in ev)
    # the discard tile must be in the rack, not on the table
    assert code(s2, {"type": "discard", "seat": 0, "tile": tile(s, 0, "R1")}) == (
        "tile_not_in_rack"
    )


def test_seventeen_okey_discard_with_no_alternative_goes_through():
    """A penalised discard returns only when another clean discard exists."""
    s = make_state(
        "seventeen",
        ["K5 K5", None, None, None],
        indicator="K4",
        melds=[{"owner": 0, "tiles": "R1 R2 R3"}],
        turn=0,
        phase="play",
    )
    s2, _ = apply(s, {"type": "discard", "seat": 0, "tile": s.racks[0][0]})
    assert s2.turn == 1 and s2.hand_totals()[0] == 500


def test_options_validation():
    assert validate_options("rummy", {"players": 2})["length"] == "standard"
    for variant, bad in [
        ("rummy", {"players": 5}),
        ("rummy", {"clock": 20}),
        ("classic", {"players": 3}),
        ("fifty-one", {"hands": 2}),
        ("fifty-one", {"partners": 1}),
        ("seventeen", {"rounds": 5}),
        ("classic", {"colour": "red"}),
        ("classic", "fast"),
    ]:
        with pytest.raises(Refusal) as exc:
            validate_options(variant, bad)
        assert exc.value.code == "bad_option"
    with pytest.raises(Refusal) as exc:
        validate_options("okey101", {})
    assert exc.value.code == "bad_variant"
    assert validate_options("seventeen", {"assisted": True})["assisted"] is True
