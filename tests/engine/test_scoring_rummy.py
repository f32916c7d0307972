"""rummy endings (rules.md §3) with exact numbers."""

from __future__ import annotations

import pytest

from games.engine import Game, apply
from games.engine.testing import make_state, tile

MELDS14 = "R1 R2 R3 Y4 Y5 Y6 B7 B8 B9 B10 K11 R11 Y11 B11"
PAIRS13 = "R1 R1 R2 R2 R4 R4 Y5 Y5 Y7 Y7 B9 B9 K1"


@pytest.mark.parametrize(
    ("rack", "down", "ending", "points"),
    [
        (MELDS14 + " Y9", "Y9", "close", 3),
        (MELDS14 + " K13", "K13", "okey_close", 6),
        (PAIRS13 + " K13 Y9", "Y9", "pairs_close", 6),
        (PAIRS13 + " K13 K13", "K13", "pairs_okey_close", 6),
    ],
)
def test_rummy_close_table(rack, down, ending, points):
    st = make_state("rummy", [rack, None, None], indicator="K12", turn=0, phase="play",
                    options={"players": 3})  # fmt: skip
    over, _ = apply(st, {"type": "close", "seat": 0, "tile": tile(st, 0, down)})
    assert over.result["ending"] == ending
    assert over.hand_totals() == [points, 0, 0]


def test_rummy_exhausted_pile_only_the_show_counts():
    st = make_state(
        "rummy",
        [None, "K12 R1", None, None],
        indicator="K12",
        turn=1,
        phase="draw",
        turns_done=[1, 0, 0, 0],
        rest="discards",
    )
    st2, _ = apply(st, {"type": "show", "seat": 1, "tile": st.indicator ^ 1})
    over, _ = apply(st2, {"type": "draw", "seat": 1})
    assert over.result["ending"] == "exhausted" and over.hand_totals() == [0, 1, 0, 0]


def test_rummy_a_show_that_reaches_the_target_ends_the_game_at_once():
    g = Game("rummy", {"players": 2, "length": "short"})  # target 8
    from games.engine.game import HandResult

    g.hands.append(HandResult(1, 0, "close", [], [7, 3]))
    assert g.next_starter() == 1
    st = make_state(
        "rummy",
        [None, "K12 R1"],
        indicator="K12",
        turn=1,
        phase="play",
        starter=1,
        turns_done=[0, 0],
        options={"players": 2, "length": "short"},
        context={"totals": [7, 3]},
    )
    # seat 0 is at 7: a show by seat 0 would end it; seat 1 at 3 does not
    st2, _ = apply(st, {"type": "show", "seat": 1, "tile": st.indicator ^ 1})
    assert not st2.over
    st0 = make_state(
        "rummy",
        ["K12 R1", None],
        indicator="K12",
        turn=0,
        phase="play",
        turns_done=[0, 0],
        options={"players": 2, "length": "short"},
        context={"totals": [7, 3]},
    )
    over, _ = apply(st0, {"type": "show", "seat": 0, "tile": st0.indicator ^ 1})
    assert over.over and over.result["ending"] == "target"
    g.record_hand(over)
    assert g.totals() == [8, 3] and g.is_over() and g.winners() == [0]
