"""Sort a rack for display: by runs and groups, or by pairs (the sort buttons).

Returns the slots of a two-row rack (``RACK_SLOTS``, ``RACK_ROW`` a row): tile ids and
``None`` gaps, one gap between combinations, leftovers at the end.

``RACK_ROW`` and ``RACK_SLOTS`` are the one definition of the rack's layout: the table
service and the page (``games/live/actions/``, ``games/live/presenter.py``) import them. The
layout holds the largest rack any rule set can have (``tests/engine/test_rack_layout.py``:
the deal's size plus the starter's tile and a draw, 23 tiles for 101).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .evaluate import best_arrangement
from .tiles import FALSE_KIND, kind_of

if TYPE_CHECKING:
    from .state import HandState

RACK_ROW = 16  # slots in a row, like a real istaka
RACK_SLOTS = 2 * RACK_ROW  # two rows


def _pack(groups: list[list[int]], loose: list[int]) -> list[int | None]:
    slots: list[int | None] = []
    for g in groups:
        if slots and len(slots) + len(g) > RACK_SLOTS:
            break
        row_room = RACK_ROW - (len(slots) % RACK_ROW)
        if len(g) > row_room and len(slots) % RACK_ROW:
            slots.extend([None] * row_room)  # keep a combination on one row
        slots.extend(g)
        if len(slots) % RACK_ROW:
            slots.append(None)
    slots.extend(loose)
    slots = slots[:RACK_SLOTS]
    placed = {t for t in slots if t is not None}
    rest = [t for g in groups for t in g if t not in placed] + [t for t in loose if t not in placed]
    for t in rest:  # never lose a tile: fill any gap left
        slots[slots.index(None)] = t
    return slots + [None] * (RACK_SLOTS - len(slots))


def sort_tiles(
    rack: list[int], okey_kind: int, mode: str, *, ace_high: bool = True
) -> list[int | None]:
    """Slots for ``rack``; mode "runs" (runs and groups first), "groups" (groups
    first) or "pairs" (identical tiles side by side)."""
    if mode == "pairs":
        by_kind: dict[int, list[int]] = {}
        for t in rack:
            by_kind.setdefault(kind_of(t), []).append(t)
        pairs = [ts for k, ts in sorted(by_kind.items()) if len(ts) >= 2 and k != okey_kind]
        okeys = by_kind.get(okey_kind, [])
        single = sorted(
            t for k, ts in by_kind.items() if len(ts) < 2 and k != okey_kind for t in ts
        )
        return _pack(pairs, single + okeys)
    arr = best_arrangement(rack, okey_kind, ace_high=ace_high, pairs=False)
    melds = [list(m.tiles) for m in arr.melds]
    if mode == "groups":
        melds = [m for m in melds if _is_group(m, okey_kind)] + [
            m for m in melds if not _is_group(m, okey_kind)
        ]
    loose = sorted(arr.leftover, key=lambda t: (kind_of(t) == okey_kind, kind_of(t)))
    return _pack(melds, loose)


def _is_group(tiles: list[int], okey_kind: int) -> bool:
    nums = {kind_of(t) % 13 for t in tiles if kind_of(t) not in (okey_kind, FALSE_KIND)}
    return len(nums) == 1 and len(tiles) <= 4


def rack_sort(state: HandState, seat: int, mode: str) -> list[int | None]:
    """Slots for a seat's rack in a hand state."""
    rack = list(state.racks[seat])
    return sort_tiles(rack, state.okey_kind, mode, ace_high=state.rules.ace_high)
