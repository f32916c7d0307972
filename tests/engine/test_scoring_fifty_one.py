"""fifty-one endings table (rules.md §4) with exact numbers, and in-hand penalties."""

from __future__ import annotations

import pytest

from games.engine import apply
from games.engine.testing import make_state, tile

# seat 1 opened (runs): Σ = 3 + 4 + 7 = 14; seat 2 never opened; seat 3 opened: Σ = 1+2+10 = 13
RIVALS = ["R3 K4 B7", "Y1 Y5 Y6 R4", "Y2 Y3 K10"]


def _end_state(last: str, opener: str = "melds", **kw):
    melds = [
        {"owner": 0, "tiles": "B11 B12 B13" if opener == "melds" else "B11 B11"},
        {"owner": 1, "tiles": "R9 R10 R11"},
        {"owner": 3, "tiles": "K6 K7 K8"},
    ]
    return make_state(
        "fifty-one",
        [last, *RIVALS],
        indicator="R12",  # okey R13
        melds=melds,
        opened=[opener, "melds", None, "melds"],
        turn=0,
        phase="play",
        **kw,
    )


def _points(state) -> dict[int, int]:
    return {ln["seat"]: ln["points"] for ln in state.result["lines"]}


def test_ending_from_the_hand():
    st = _end_state("Y13")
    over, _ = apply(st, {"type": "discard", "seat": 0, "tile": tile(st, 0, "Y13")})
    assert over.result["ending"] == "hand"
    assert _points(over) == {0: -500, 1: 14 * 5, 2: 500, 3: 15 * 5}


def test_ending_by_pairs():
    st = _end_state("Y13", opener="pairs")
    over, _ = apply(st, {"type": "discard", "seat": 0, "tile": tile(st, 0, "Y13")})
    assert over.result["ending"] == "pairs"
    assert _points(over) == {0: -1000, 1: 14 * 10, 2: 1000, 3: 15 * 10}


def test_ending_by_discarding_an_okey():
    st = _end_state("R13")
    over, _ = apply(st, {"type": "discard", "seat": 0, "tile": tile(st, 0, "R13")})
    assert over.result["ending"] == "okey"
    assert _points(over) == {0: -1000, 1: 14 * 10, 2: 1000, 3: 15 * 10}


def test_ending_pile_exhausted():
    st = make_state(
        "fifty-one",
        ["Y13 K1", *RIVALS],
        indicator="R12",
        melds=[{"owner": 0, "tiles": "B11 B12 B13"}, {"owner": 1, "tiles": "R9 R10 R11"},
               {"owner": 3, "tiles": "K6 K7 K8"}],
        turn=2,
        phase="draw",
        rest="discards",
    )  # fmt: skip
    over, _ = apply(st, {"type": "draw", "seat": 2})
    assert over.result["ending"] == "exhausted" and over.result["finisher"] is None
    assert _points(over) == {0: 14 * 5, 1: 14 * 5, 2: 500, 3: 15 * 5}


def test_false_joker_counts_its_identity_in_a_rack():
    """Σ counts a false joker as the okey's identity (okey R13 → 13)."""
    st = make_state(
        "fifty-one",
        ["Y13", "F K2", None, None],
        indicator="R12",
        melds=[{"owner": 0, "tiles": "B11 B12 B13"}, {"owner": 1, "tiles": "R9 R10 R11"}],
        turn=0,
        phase="play",
    )
    over, _ = apply(st, {"type": "discard", "seat": 0, "tile": tile(st, 0, "Y13")})
    assert _points(over)[1] == (13 + 2) * 5


def test_penalties_during_the_hand_stay_on_the_sheet():
    st = _end_state("Y13 R8", takeable=None)
    # R8 extends seat 1's R9-R11: penalty tile (not the ending discard)
    st2, _ = apply(st, {"type": "discard", "seat": 0, "tile": tile(st, 0, "R8")})
    assert st2.hand_totals() == [100, 0, 0, 0]
    assert [ln["reason"] for ln in st2.scores] == ["penalty_tile"]


def test_ending_discard_is_exempt_from_the_penalty_tile():
    st = _end_state("R8")
    over, _ = apply(st, {"type": "discard", "seat": 0, "tile": tile(st, 0, "R8")})
    assert over.hand_totals()[0] == -500


def test_taken_discard_costs_the_discarder_10n():
    st = make_state(
        "fifty-one",
        ["B1 K2 K3", None, None, None],
        indicator="R12",
        melds=[{"owner": 0, "tiles": "B11 B12 B13"}],
        takeable="B10",
        turn=0,
        phase="draw",
    )
    st2, _ = apply(st, {"type": "take", "seat": 0})
    assert st2.hand_totals() == [0, 0, 0, 100]
    assert st2.scores[0]["reason"] == "discard_taken"


def test_pairs_opening_needs_five_pairs():
    from games.engine import Refusal
    from games.engine.testing import ids

    st = make_state(
        "fifty-one",
        ["R1 R1 R2 R2 R4 R4 Y5 Y5 K9", None, None, None],
        indicator="K12",
        turn=0,
        phase="play",
    )
    melds = [ids(st, 0, x) for x in ("R1 R1", "R2 R2", "R4 R4", "Y5 Y5")]
    with pytest.raises(Refusal) as exc:
        apply(st, {"type": "open", "seat": 0, "melds": melds})
    assert exc.value.code == "too_few_pairs"


def test_taking_the_fifth_pair_opens_with_pairs():
    from games.engine.testing import ids

    st = make_state(
        "fifty-one",
        ["R1 R1 R2 R2 R4 R4 Y5 Y5 K9 B3 B7", None, None, None],
        indicator="K12",
        takeable="K9",
        turn=0,
        phase="draw",
    )
    st2, _ = apply(st, {"type": "take", "seat": 0})
    melds = [ids(st2, 0, x) for x in ("R1 R1", "R2 R2", "R4 R4", "Y5 Y5", "K9 K9")]
    st3, _ = apply(st2, {"type": "open", "seat": 0, "melds": melds})
    assert st3.opened[0] == "pairs" and st3.taken is None
    assert st3.hand_totals()[3] == 90


def _table(rack: str, **kw):
    return make_state(
        "fifty-one",
        [rack, None, None, None],
        indicator="R12",  # okey R13
        melds=[
            {"owner": 0, "tiles": "Y5 Y6 Y7"},
            {"owner": 1, "tiles": "B8 B9 B10"},
            {"owner": 2, "tiles": "K4 R13 K6"},  # the okey plays K5
        ],
        turn=0,
        phase="play",
        **kw,
    )


def test_okey_added_to_a_rival_costs_10_times_what_it_plays():
    st = _table("R13 K1 K2")
    okey = tile(st, 0, "R13")
    st2, _ = apply(st, {"type": "add", "seat": 0, "tile": okey, "meld": 2, "as": "B11"})
    assert st2.hand_totals() == [0, 110, 0, 0]
    st3, _ = apply(st, {"type": "add", "seat": 0, "tile": okey, "meld": 2, "as": "B7"})
    assert st3.hand_totals() == [0, 70, 0, 0]
    own, _ = apply(st, {"type": "add", "seat": 0, "tile": okey, "meld": 1})
    assert own.hand_totals() == [0, 0, 0, 0] and own.melds[0].plays[-1] % 13 == 7  # Y8


def test_swap_from_a_partners_meld_is_free():
    st = _table("K5 K1 K2", options={"partners": True})
    st2, _ = apply(st, {"type": "swap", "seat": 0, "tile": tile(st, 0, "K5"), "meld": 3})
    assert st2.hand_totals() == [0, 0, 0, 0]
    solo = _table("K5 K1 K2")
    st3, _ = apply(solo, {"type": "swap", "seat": 0, "tile": tile(solo, 0, "K5"), "meld": 3})
    assert st3.hand_totals() == [0, 0, 150, 0]
    assert st3.scores[-1]["reason"] == "okey_swap"


def test_okey_and_swap_target_discards_are_penalty_tiles():
    st = _table("R13 K5 K1 Y2")
    okey = tile(st, 0, "R13")
    st2, _ = apply(st, {"type": "discard", "seat": 0, "tile": okey})
    assert st2.hand_totals()[0] == 100  # an okey fits anywhere
    st3, _ = apply(st, {"type": "discard", "seat": 0, "tile": tile(st, 0, "K5")})
    assert st3.hand_totals()[0] == 100  # the real tile the table's okey stands for
    st4, _ = apply(st, {"type": "discard", "seat": 0, "tile": tile(st, 0, "Y2")})
    assert st4.hand_totals()[0] == 0


def test_layoffs_and_swaps_by_unopened_players_are_refused():
    from games.engine import Refusal

    st = _table("K5 K1 K2", opened=[None, "melds", "melds", None])
    for act in (
        {"type": "swap", "seat": 0, "tile": tile(st, 0, "K5"), "meld": 3},
        {"type": "add", "seat": 0, "tile": tile(st, 0, "K5"), "meld": 3},
    ):
        with pytest.raises(Refusal) as exc:
            apply(st, act)
        assert exc.value.code == "not_opened"


def test_doubling_chain_raises_the_barrier():
    from games.engine.testing import ids

    st = make_state(
        "fifty-one",
        ["R11 R12 R13 K10 K11 K12 Y1", "B11 B12 B13 Y11 Y12 Y13 K13 Y2", None, None],
        indicator="B4",
        turn=0,
        phase="play",
    )
    st2, ev = apply(
        st,
        {
            "type": "open",
            "seat": 0,
            "melds": [ids(st, 0, "R11 R12 R13"), ids(st, 0, "K10 K11 K12")],
        },
    )
    assert st2.limit == 69 and ev[-1]["type"] == "opened" and ev[-1]["total"] == 69
    assert st2.rules.opening_min(st2, "melds") == 70
