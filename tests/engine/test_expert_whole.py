"""The expert's whole-rack play (games/engine/bots/expert_whole.py): classic and rummy,
where a close pays more with the okey put down (RULES.md §2, §3) and a taken discard
often closes (RULES.md §1, a turn)."""

from __future__ import annotations

import pytest

from games.engine import apply, legal_actions
from games.engine.bots import decide
from games.engine.bots.hint import hint
from games.engine.state import new_hand
from games.engine.testing import make_state, tile
from games.engine.tiles import kind_of
from games.engine.view import view_for

# Indicator K1: both K2 are okeys. The 14 tiles R1 R2 R3 | Y10 Y11 Y12 Y13 | B9 B10 B11 K2 |
# R5 K5 K2 are winning with both okeys (one plays B8 or B12, the other Y5 or B5), and K13 is
# loose. A drawn B8, B12, Y5 or B5 (8 tiles unseen) frees an okey.
READY = "R1 R2 R3 Y10 Y11 Y12 Y13 B9 B10 B11 K2 R5 K5 K2"


def _decide(state, seat: int, level: str) -> dict:
    return decide(view_for(state, seat), legal_actions(state, seat), level)


def _early(variant: str):
    """The starter's second turn: most of the pile still to come."""
    return make_state(variant, [READY + " K13", None, None, None], indicator="K1")


def _late(variant: str):
    """Deep in the hand: eight tiles left in the pile, the others among the discards."""
    return make_state(
        variant,
        [READY + " K13", None, None, None],
        indicator="K1",
        pile="R13 Y13 B13 R12 Y12 R11 Y11 Y10",
        rest="discards",
    )


@pytest.mark.parametrize("variant", ["classic", "rummy"])
def test_early_in_the_hand_the_expert_keeps_the_rack_for_the_okey_close(variant):
    """Complete with two okeys early in the hand: hard closes at once for the plain
    close (2 in classic, 3 in rummy); the expert discards the loose K13 and keeps the
    winning 14, since a drawn or taken B8, B12, Y5 or B5 frees an okey for a close
    that pays double and a rival is unlikely to close within a round."""
    st = _early(variant)
    assert _decide(st, 0, "hard")["type"] == "close"
    act = _decide(st, 0, "expert")
    assert act == {"type": "discard", "seat": 0, "tile": tile(st, 0, "K13")}
    h = hint(st, 0)
    assert h["action"] == act and h["reason"] == "okey_wait"


@pytest.mark.parametrize("variant", ["classic", "rummy"])
def test_late_in_the_hand_the_expert_closes_at_once(variant):
    """The same rack with eight tiles left in the pile: a rival is likely to close
    first, so the expert closes now like hard."""
    st = _late(variant)
    act = _decide(st, 0, "expert")
    assert act["type"] == "close" and act == _decide(st, 0, "hard")


def _waiting(takeable: str):
    """The expert kept READY (14 tiles, its turn to draw); the previous player has
    just discarded ``takeable``."""
    return make_state("classic", [READY, None, None, None], indicator="K1",
                      takeable=takeable, phase="draw")  # fmt: skip


def test_waiting_the_expert_takes_a_tile_that_frees_an_okey_and_closes_with_it():
    st = _waiting("B12")
    act = _decide(st, 0, "expert")
    assert act["type"] == "take"
    st, _ = apply(st, act)
    close = _decide(st, 0, "expert")
    assert close["type"] == "close" and kind_of(close["tile"]) == st.okey_kind
    st, _ = apply(st, close)
    assert st.result["ending"] == "okey_close"
    assert [line["points"] for line in st.result["lines"]] == [-4, -4, -4]


def test_waiting_the_expert_draws_rather_than_take_a_tile_that_only_closes_plainly():
    """Hard takes any discard that lets it close; the waiting expert draws instead
    (the drawn tile may free the okey, and the plain close stays there)."""
    st = _waiting("R13")
    assert _decide(st, 0, "hard")["type"] == "take"
    assert _decide(st, 0, "expert")["type"] == "draw"


def test_early_in_the_hand_the_expert_discards_like_hard_when_nothing_is_one_tile_away():
    """The same rack with the pile full and no tile taken: nobody is near closing, so
    the danger is small and the expert keeps hard's discard."""
    st = make_state(
        "classic",
        ["R1 R2 R3 Y7 Y8 Y9 B7 B8 B9 R5 Y11 B1 K3 K8 K12", None, None, None],
        indicator="K1",
    )
    assert _decide(st, 0, "expert") == _decide(st, 0, "hard")


def test_the_new_reasons_are_worded_with_their_tiles():
    from django.utils import translation

    from games.live import messages

    with translation.override("en"):
        text = messages.hint_text("discard_guard", {"tile": "K3", "avoid": "Y11"})
        assert text.startswith("Discard black 3, not yellow 11:")
        text = messages.hint_text("okey_wait", {"tile": "K13"})
        assert text.startswith("Discard black 13 and keep your winning rack")
        # without the tile kept back it reads as a plain discard
        plain = messages.hint_text("discard_loose", {"tile": "K3", "leftover": 5})
        assert messages.hint_text("discard_guard", {"tile": "K3", "leftover": 5}) == plain


# ---------------------------------------------------------------- whole hands


@pytest.mark.parametrize("variant", ["classic", "rummy"])
def test_every_expert_decision_is_one_of_the_legal_actions(variant):
    """Whole hands between expert seats: every action the expert returns is exactly one
    of ``legal_actions`` (the engine accepts it), and the hand ends."""

    for seed in ("w2-legal-1", "w2-legal-2"):
        st = new_hand(variant, None, seed, 0)
        for _ in range(600):
            if st.over:
                break
            legal = legal_actions(st, st.turn)
            act = decide(view_for(st, st.turn), legal, "expert")
            assert act in legal
            st, _ = apply(st, act)
        assert st.over
