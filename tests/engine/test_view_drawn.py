"""The view's ``drawn`` (the tile a seat just drew or took, its own view only)
and ``last_move`` (the latest public move, for the table's announcements).

rules.md §1 "Information": nobody but the drawer sees a drawn tile; a discard, a
taken discard and a shown indicator twin are face up for everyone.
"""

from __future__ import annotations

from games.engine import apply, new_hand, view_for
from games.engine.tiles import notation


def _to_draw(state):
    """From the start: the starter discards, so the next seat is to draw."""
    seat = state.turn
    state, _ = apply(state, {"type": "discard", "seat": seat, "tile": state.racks[seat][0]})
    return state


def test_drawn_tile_is_in_the_drawers_view_only():
    state = _to_draw(new_hand("classic", None, "drawn-1", 0))
    seat = state.turn
    top = state.pile[-1]
    assert view_for(state, seat)["drawn"] is None
    state, _ = apply(state, {"type": "draw", "seat": seat})
    assert view_for(state, seat)["drawn"] == top
    for other in range(state.n_players):
        if other != seat:
            assert view_for(state, other)["drawn"] is None
    assert view_for(state, None)["drawn"] is None
    move = view_for(state, (seat + 1) % 4)["last_move"]
    assert move == {"type": "draw", "seat": seat, "tile": None}  # a draw shows no tile
    state, _ = apply(state, {"type": "discard", "seat": seat, "tile": top})
    assert view_for(state, seat)["drawn"] is None
    assert view_for(state, None)["last_move"] == {
        "type": "discard",
        "seat": seat,
        "tile": notation(top),
    }


def test_a_take_names_the_taken_tile_and_free_actions_are_skipped():
    state = _to_draw(new_hand("classic", None, "drawn-2", 0))
    seat = state.turn
    taken = state.takeable
    state, _ = apply(state, {"type": "take", "seat": seat})
    assert view_for(state, seat)["drawn"] == taken
    mine = list(state.racks[seat])
    state, _ = apply(state, {"type": "arrange", "seat": seat, "tiles": mine[::-1]})
    assert view_for(state, None)["last_move"] == {
        "type": "take",
        "seat": seat,
        "tile": notation(taken),
    }
