"""The rack's layout (two rows of ``RACK_ROW`` slots) holds every rule set's largest rack.

The page lays a seat's rack out in ``RACK_SLOTS`` slots (``racksort.py`` defines them once;
the table service and the page import them). The largest rack a seat holds is the
deal's size, plus the starter's extra tile, plus a drawn or taken tile: 16 in classic,
23 in 101 (RULES.md §6 [D25]: 21 each, 22 to the starter). The sort buttons must keep
every tile of such a rack.
"""

from __future__ import annotations

import pytest

from games.engine.racksort import RACK_ROW, RACK_SLOTS, sort_tiles
from games.engine.rules import RULES
from games.engine.state import new_hand


def test_the_layout_is_two_rows():
    assert RACK_SLOTS == 2 * RACK_ROW


@pytest.mark.parametrize("variant", list(RULES))
def test_the_layout_holds_the_largest_rack_of_each_rule_set(variant):
    assert RULES[variant].rack_size + 2 <= RACK_SLOTS


def _largest_rack(variant: str, seed: str) -> tuple[list[int], int]:
    """The starter's dealt rack plus the pile's top tile, and the okey."""
    state = new_hand(variant, None, seed, 0)
    return [*state.racks[0], state.pile[-1]], state.okey_kind


@pytest.mark.parametrize("mode", ["runs", "groups", "pairs"])
@pytest.mark.parametrize("variant", list(RULES))
def test_sorting_the_largest_rack_keeps_every_tile(variant, mode):
    for i in range(20):
        rack, okey_kind = _largest_rack(variant, f"layout-{i}")
        assert len(rack) == RULES[variant].rack_size + 2
        slots = sort_tiles(rack, okey_kind, mode, ace_high=RULES[variant].ace_high)
        assert len(slots) == RACK_SLOTS
        assert sorted(t for t in slots if t is not None) == sorted(rack)
