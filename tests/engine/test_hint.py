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
    "finish",
    "open_now",
    "keeps_useful",
    "discard_guard",
    "okey_wait",
    "opening_nearer",
    "opening_unfed",
    "melds_kept",
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
    assert h["reason"] in {"finish", "okey_close"}
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
    assert hint(plain, 0)["reason"] in {"discard_loose", "keeps_useful"}


def test_seventeen_first_turn_hint_opens_for_18_against_17():
    """Seventeen (RULES.md §5), the starter's first turn: R13 Y13 + okey (a group of
    13s, 17) and R1 Y1 B1 (1) open for 18 against the limit of 17. The arrangement
    with the fewest loose tiles spends the okey on K5 K6 _ K8 instead (8 in all), so
    the listed openings hold none; the hint used to advise a discard here (following
    the hints for a whole hand then ended in "never opened")."""
    state = make_state(
        "seventeen",
        ["R13 Y13 B8 R1 Y1 B1 K5 K6 K8 R4 Y7 B10 K11 R9 Y3", None, None, None],
        indicator="B7",  # the okey is B8
        phase="play",
    )
    assert not [a for a in legal_actions(state, 0) if a["type"] == "open"]
    h = hint(state, 0)
    assert h["action"]["type"] == "open" and h["reason"] == "open_now"
    assert (h["detail"]["total"], h["detail"]["need"]) == (18, 17)
    after, _ = apply(state, h["action"])  # the engine accepts it
    assert after.opened[0] == "melds" and after.limit == 18


def test_a_finish_says_what_it_is_worth():
    """The seed 003 worked example's close: "Finishes" with the points it brings."""
    state = make_state(
        "rummy",
        racks=["R3 R4 R5 R6 K9 B9 Y9 Y10 Y11 Y12 Y13 K6 K7 B5 R11", None, None, None],
        indicator="B4",
        phase="play",
    )
    h = hint(state, 0)
    assert h["reason"] in {"finish", "okey_close"} and h["detail"]["points"] > 0


def test_expert_reasons_are_worded_with_their_figures():
    from django.utils import translation

    from games.live import messages

    with translation.override("en"):
        assert messages.hint_text("open_now", {"total": 18, "need": 17}) == "Opens now: 18 ≥ 17."
        text = messages.hint_text("keeps_useful", {"tile": "K6", "useful": 9, "instead": 6})
        assert text == "Discard black 6: keeps 9 useful tiles instead of 6."
        text = messages.hint_text("finish", {"tile": "R7", "points": 2})
        assert text.startswith("Finishes: +2.") and "red 7" in text
        # without its figures an expert reason reads as the plain one
        assert messages.hint_text("open_now", {}) == messages.hint_text("open", {})


@pytest.mark.parametrize("variant", ["fifty-one", "101", "seventeen"])
def test_an_add_hint_names_the_meld_the_tile_goes_to(variant):
    """K9 fits only seat 1's run K6 K7 K8: the hint says which meld (its id, for the
    table to mark it, and the tiles it plays, for the sentence), not "a meld"."""
    state = make_state(
        variant,
        racks=["K9 R1 Y3 R8 Y11 B13 R13 K2 Y7 B9", None, None, None],
        indicator="R10",
        melds=[{"owner": 2, "tiles": "B2 B3 B4"}, {"owner": 1, "tiles": "K6 K7 K8"}],
        opened=["melds", "melds", "melds", None],
        phase="play",
    )
    h = hint(state, 0)
    run = next(m for m in state.melds if m.owner == 1)
    assert h["action"]["type"] == "add" and h["action"]["meld"] == run.id
    assert h["meld"] == run.id
    assert h["detail"]["meld"] == "K6 K7 K8" and h["detail"]["owner"] == 1


def test_a_discard_hint_names_no_meld():
    state = make_state(
        "classic",
        racks=["R1 R2 R3 B5 B6 B7 K9 K10 K11 Y4 Y5 Y6 R8 R10 B12", None, None, None],
        indicator="K1",
        phase="play",
    )
    h = hint(state, 0)
    assert h["action"]["type"] == "discard" and h["meld"] is None and "meld" not in h["detail"]
