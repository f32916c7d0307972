"""seventeen scoring (rules.md §5) with exact numbers."""

from __future__ import annotations

import pytest

from games.engine import apply
from games.engine.testing import make_state, tile

# indicator B4 → okey B5 (blue): base 800, finisher −80


def _st(rack0: str, opened_pairs: int = 0, **kw):
    melds = [{"owner": 0, "tiles": "K1 K2 K3"}]
    opened = ["melds", "melds", None, None]
    if opened_pairs >= 1:
        melds.append({"owner": 1, "tiles": "R9 R9"})
        opened[1] = "pairs"
    else:
        melds.append({"owner": 1, "tiles": "R9 Y9 K9"})
    if opened_pairs >= 2:
        melds.append({"owner": 2, "tiles": "Y7 Y7"})
        opened[2] = "pairs"
    return make_state(
        "seventeen",
        [rack0, "R1 R2 R3 R4", "Y1 Y2", None],
        indicator="B4",
        melds=melds,
        opened=opened,
        turn=0,
        phase="play",
        **kw,
    )


def _points(state) -> dict[int, int]:
    return {ln["seat"]: ln["points"] for ln in state.result["lines"]}


def test_finish_no_pairs():
    st = _st("Y12")
    over, _ = apply(st, {"type": "discard", "seat": 0, "tile": tile(st, 0, "Y12")})
    assert over.result["ending"] == "finish"
    assert _points(over) == {0: -80, 1: 40, 2: 800, 3: 800}


def test_finish_one_pairs_opener_doubles():
    st = _st("Y12", opened_pairs=1)
    over, _ = apply(st, {"type": "discard", "seat": 0, "tile": tile(st, 0, "Y12")})
    assert _points(over) == {0: -80, 1: 80, 2: 1600, 3: 1600}


def test_finish_two_pairs_openers_times_four():
    st = _st("Y12", opened_pairs=2)
    over, _ = apply(st, {"type": "discard", "seat": 0, "tile": tile(st, 0, "Y12")})
    # seat 2 opened with pairs: 2 tiles × 10 × 4
    assert _points(over) == {0: -80, 1: 160, 2: 80, 3: 3200}


def test_okey_finish_times_two():
    st = _st("B5")
    over, _ = apply(st, {"type": "discard", "seat": 0, "tile": tile(st, 0, "B5")})
    assert over.result["ending"] == "okey"
    assert _points(over) == {0: -80, 1: 80, 2: 1600, 3: 1600}


def test_okey_discard_before_the_end_costs_base_and_returns():
    st = _st("B5 Y12 K7", opened_pairs=1)
    okey = tile(st, 0, "B5")
    st2, _ = apply(st, {"type": "discard", "seat": 0, "tile": okey})
    assert st2.hand_totals()[0] == 800 * 2 and okey in st2.racks[0]
    assert st2.scores[-1]["reason"] == "okey_discard"


def test_exhausted_pile_no_finisher():
    st = make_state(
        "seventeen",
        ["Y12 Y13", "R1 R2 R3 R4", "Y1 Y2", None],
        indicator="B4",
        melds=[{"owner": 0, "tiles": "K1 K2 K3"}, {"owner": 1, "tiles": "R9 R9"}],
        turn=3,
        phase="draw",
        rest="discards",
    )
    over, _ = apply(st, {"type": "draw", "seat": 3})
    assert over.result["ending"] == "exhausted"
    assert _points(over) == {0: 2 * 10 * 2, 1: 4 * 10 * 2, 2: 1600, 3: 1600}


def test_opened_with_pairs_must_still_end_with_a_discard_after_last_pile_tile():
    """Always end the turn with a discard, also after drawing the last tile."""
    st = make_state(
        "seventeen",
        ["Y12 Y13", None, None, None],
        indicator="B4",
        melds=[{"owner": 0, "tiles": "K1 K2 K3"}],
        pile="R5",
        turn=0,
        phase="draw",
        rest="discards",
    )
    st2, _ = apply(st, {"type": "draw", "seat": 0})
    assert st2.pile == () and st2.phase == "play" and not st2.over
    st3, _ = apply(st2, {"type": "discard", "seat": 0, "tile": tile(st2, 0, "R5")})
    assert st3.turn == 1 and not st3.over
    over, _ = apply(st3, {"type": "draw", "seat": 1})
    assert over.result["ending"] == "exhausted"


def test_pairs_opener_adds_single_tiles_to_runs_and_lays_pairs_but_no_runs():
    from games.engine import Refusal
    from games.engine.testing import ids

    st = make_state(
        "seventeen",
        ["Y8 R3 R3 K1 K2 K3 B12", None, None, None],
        indicator="B4",
        melds=[{"owner": 0, "tiles": "R9 R9"}, {"owner": 1, "tiles": "Y5 Y6 Y7"}],
        turn=0,
        phase="play",
    )
    assert st.opened[0] == "pairs"
    st2, _ = apply(st, {"type": "add", "seat": 0, "tile": tile(st, 0, "Y8"), "meld": 2})
    assert st2.hand_totals() == [0, 0, 0, 0]  # a plain tile on a rival's run is free [D23]
    st3, _ = apply(st2, {"type": "lay", "seat": 0, "melds": [ids(st, 0, "R3 R3")]})
    assert st3.melds[-1].kind == "pair" and st3.melds[-1].owner == 0
    with pytest.raises(Refusal) as exc:
        apply(st, {"type": "lay", "seat": 0, "melds": [ids(st, 0, "K1 K2 K3")]})
    assert exc.value.code == "wrong_meld_type"


def test_a_runs_opener_cannot_give_a_pair_to_a_runs_opener():
    from games.engine import Refusal
    from games.engine.testing import ids

    st = make_state(
        "seventeen",
        ["R3 R3 K1", None, None, None],
        indicator="B4",
        melds=[{"owner": 0, "tiles": "K5 K6 K7"}, {"owner": 1, "tiles": "Y5 Y6 Y7"}],
        turn=0,
        phase="play",
    )
    for to in (0, 1):
        with pytest.raises(Refusal) as exc:
            apply(st, {"type": "lay", "seat": 0, "melds": [ids(st, 0, "R3 R3")], "to": to})
        assert exc.value.code == "bad_receiver"
