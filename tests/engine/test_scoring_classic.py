"""classic countdown endings (rules.md §2) with exact numbers."""

from __future__ import annotations

import pytest

from games.engine import Game, apply
from games.engine.testing import make_state, tile

# indicator K12 → okey K13
MELDS14 = "R1 R2 R3 Y4 Y5 Y6 B7 B8 B9 B10 K11 R11 Y11 B11"  # + a 15th tile
PAIRS13 = "R1 R1 R2 R2 R4 R4 Y5 Y5 Y7 Y7 B9 B9 K1"  # + okey → seven pairs


@pytest.mark.parametrize(
    ("rack", "down", "ending", "loss"),
    [
        (MELDS14 + " Y9", "Y9", "close", 2),
        (MELDS14 + " K13", "K13", "okey_close", 4),
        (PAIRS13 + " K13 Y9", "Y9", "pairs_close", 4),
        (PAIRS13 + " K13 K13", "K13", "pairs_okey_close", 8),
    ],
)
def test_classic_close_table(rack, down, ending, loss):
    st = make_state("classic", [rack, None, None, None], indicator="K12", turn=0, phase="play")
    over, _ = apply(st, {"type": "close", "seat": 0, "tile": tile(st, 0, down)})
    assert over.result["ending"] == ending
    assert over.hand_totals() == [0, -loss, -loss, -loss]
    g = Game("classic")
    g.record_hand(over)
    assert g.totals() == [20, 20 - loss, 20 - loss, 20 - loss]


def test_classic_show_costs_each_other_player_one_and_stands_on_a_drawn_hand():
    st = make_state(
        "classic",
        ["K12 R1", None, None, None],
        indicator="K12",
        turn=0,
        phase="play",
        turns_done=[0, 0, 0, 0],
    )
    st2, _ = apply(st, {"type": "show", "seat": 0, "tile": st.indicator ^ 1})
    assert st2.hand_totals() == [0, -1, -1, -1]
    assert st2.scores[0]["reason"] == "indicator_shown"


def test_classic_exhausted_pile_nobody_loses():
    st = make_state(
        "classic", [None, None, None, None], indicator="K12", turn=1, phase="draw", rest="discards"
    )
    over, _ = apply(st, {"type": "draw", "seat": 1})
    assert over.result["ending"] == "exhausted" and over.hand_totals() == [0, 0, 0, 0]


def test_classic_not_winning_is_refused():
    from games.engine import Refusal

    st = make_state(
        "classic",
        ["R1 R2 R4 Y4 Y5 Y6 B7 B8 B9 K10 K11 K12 R5 B5 Y9", None, None, None],
        indicator="K12",
        turn=0,
        phase="play",
    )
    with pytest.raises(Refusal) as exc:
        apply(st, {"type": "close", "seat": 0, "tile": tile(st, 0, "Y9")})
    assert exc.value.code == "not_winning"
