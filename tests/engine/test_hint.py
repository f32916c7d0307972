"""The "Show me" hint: a legal recommendation with a reason, from the seat's view."""

from __future__ import annotations

import random

import pytest

from games.engine import apply, legal_actions, new_hand
from games.engine.bots import choose_action
from games.engine.bots.hint import hint
from games.engine.rules import RULES
from games.engine.testing import make_state

REASONS = {
    "close",
    "okey_close",
    "show",
    "open",
    "lay",
    "add",
    "swap",
    "undo",
    "take_fits",
    "draw",
    "discard_loose",
    "discard_safe",
}


@pytest.mark.parametrize("variant", list(RULES))  # every rule set of the registry
def test_hints_are_legal_and_explained_through_whole_hands(variant):
    rng = random.Random(variant)
    state = new_hand(variant, {}, seed=f"hint-{variant}", starter=0)
    seen = set()
    for _ in range(400):
        if state.over:
            break
        h = hint(state, state.turn)
        assert h["action"] in legal_actions(state, state.turn) or h["action"]["type"] in {
            "open",
            "lay",
        }
        assert h["reason"] in REASONS
        seen.add(h["reason"])
        state, _ = apply(
            state, h["action"] if rng.random() < 0.8 else choose_action(state, state.turn, "medium")
        )
    assert "discard_loose" in seen and ("draw" in seen or "take_fits" in seen)


def test_hint_closes_the_seed_003_worked_example():
    """rules.md §3 worked example: indicator B4, the rack closes after drawing R11."""
    state = make_state(
        "rummy",
        racks=["R3 R4 R5 R6 K9 B9 Y9 Y10 Y11 Y12 Y13 K6 K7 B5 R11", None, None, None],
        indicator="B4",
        phase="play",
    )
    h = hint(state, 0)
    assert h["reason"] in {"close", "okey_close"}
    assert h["action"]["type"] == "close"


def test_hint_says_when_a_discard_keeps_back_what_the_next_player_collects():
    """The next player took R12 and Y12 (public log): the loose B12 would feed
    their group, so the hint throws another loose tile and says why."""
    state = make_state(
        "classic",
        [
            "R1 R2 R3 B5 B6 B7 K9 K10 K11 Y4 Y5 Y6 R8 R10 B12",
            "R12 Y12 K7 K7 B3 B3 Y9 Y9 R5 R5 K5 Y1 Y13 B1",
            None,
            None,
        ],
        indicator="K1",
        took=["", "R12 Y12", "", ""],
    )
    h = hint(state, 0)
    assert h["reason"] == "discard_safe"
    assert h["detail"]["avoid"] == "B12" and h["detail"]["tile"] in ("R8", "R10")
    plain = make_state(
        "classic",
        [
            "R1 R2 R3 B5 B6 B7 K9 K10 K11 Y4 Y5 Y6 R8 R10 B12",
            "R12 Y12 K7 K7 B3 B3 Y9 Y9 R5 R5 K5 Y1 Y13 B1",
            None,
            None,
        ],
        indicator="K1",
    )
    assert hint(plain, 0)["reason"] == "discard_loose"
