"""The view's public log of taken discards (``view["took"]``).

Taking the previous player's discard happens face up at a real table (rules.md §1
"Information": the discards are public), so every seat, and a spectator, sees
which tiles each seat took this hand. The log is part of the state, rebuilt
exactly by ``replay`` and by loading saved JSON.
"""

from __future__ import annotations

import json

import pytest

from games.engine import apply, legal_actions, new_hand, replay, view_for
from games.engine.bots import choose_action
from games.engine.rules import RULES
from games.engine.state import HandState
from games.engine.testing import make_state
from games.engine.tiles import notation

VARIANTS = list(RULES)  # every registered rule set


def _play_with_takes(variant: str, seed: str, steps: int = 400) -> tuple[HandState, list]:
    """Hard bots play; return the state and the ``took`` events seen (seat, tile)."""
    state = new_hand(variant, None, seed, 0)
    takes: list[tuple[int, int]] = []
    for _ in range(steps):
        if state.over:
            break
        seat = state.turn
        state, events = apply(state, choose_action(state, seat, "hard"))
        for e in events:
            if e["type"] == "took":
                takes.append((e["seat"], e["tile"]))
            if e["type"] == "undone":
                takes.pop()
    return state, takes


def _state_with_takes(variant: str) -> tuple[HandState, list]:
    for i in range(30):
        state, takes = _play_with_takes(variant, f"took-{variant}-{i}")
        if len(takes) >= 2:
            return state, takes
    raise AssertionError("no hand with two takes")


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_view_lists_each_seats_taken_discards_in_order(variant):
    state, takes = _state_with_takes(variant)
    expected = [[notation(t) for s, t in takes if s == seat] for seat in range(state.n_players)]
    for seat in (*range(state.n_players), None):
        assert view_for(state, seat)["took"] == expected


@pytest.mark.parametrize("variant", VARIANTS)
def test_replay_and_saved_json_rebuild_the_log(variant):
    state, _ = _state_with_takes(variant)
    again = replay(state.record())
    assert again.took == state.took and again == state
    loaded = HandState.from_json(json.loads(json.dumps(state.to_json())))
    assert loaded.took == state.took
    # a state saved before the log existed gets it back from its own actions
    old = state.to_json()
    del old["took"]
    assert HandState.from_json(old).took == state.took


def test_log_holds_no_hidden_tile():
    """Only tiles that were face up when taken; notation only (no tile id of a rack)."""
    state, takes = _state_with_takes("classic")
    public_kinds = {notation(t) for _, t in takes}
    for seat in range(4):
        log = view_for(state, seat)["took"]
        flat = [x for row in log for x in row]
        assert all(isinstance(x, str) for x in flat)
        assert set(flat) <= public_kinds
    # every logged tile was the takeable discard in some earlier public view
    seen_takeable = set()
    s = new_hand("classic", None, state.seed, state.starter)
    for a in state.actions:
        if s.takeable is not None:
            seen_takeable.add(notation(s.takeable))
        s, _ = apply(s, a)
    assert public_kinds <= seen_takeable


def test_a_drawn_tile_is_never_logged():
    state = new_hand("classic", None, "draws", 0)
    state, _ = apply(state, {"type": "discard", "seat": 0, "tile": state.racks[0][0]})
    state, _ = apply(state, {"type": "draw", "seat": 1})
    assert view_for(state, 2)["took"] == [[], [], [], []]


def test_take_is_logged_and_an_undone_take_is_not():
    """[D12] a taken discard that is given back returns to the discards: not logged."""
    s = make_state(
        "fifty-one",
        ["B1 K2 K3", None, None, None],
        indicator="R12",
        melds=[{"owner": 0, "tiles": "B11 B12 B13"}],
        takeable="B10",
        turn=0,
        phase="draw",
    )
    assert view_for(s, 2)["took"] == [[], [], [], []]
    s2, _ = apply(s, {"type": "take", "seat": 0})
    assert view_for(s2, 2)["took"] == [["B10"], [], [], []]
    s3, _ = apply(s2, {"type": "undo", "seat": 0})
    assert view_for(s3, 2)["took"] == [[], [], [], []]
    assert {"type": "take", "seat": 0} not in legal_actions(s3, 0)


def test_make_state_names_earlier_takes():
    s = make_state(
        "classic",
        ["R1 R2 R3", "K7 B7 Y9", None, None],
        indicator="R12",
        took=["", "K7", "", ""],
        turn=0,
    )
    assert view_for(s, 0)["took"] == [[], ["K7"], [], []]
    with pytest.raises(ValueError):
        make_state("classic", ["R1", "K7", None, None], indicator="R12", took=["", "K8", "", ""])
