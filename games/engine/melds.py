"""Melds: runs, groups and pairs, with okeys standing for missing tiles.

A meld is a list of tile ids plus, aligned with it, the kind each tile *plays
as* (an okey plays the tile it stands for; a false joker plays the okey's kind;
every other tile plays itself). ``classify`` finds that assignment.

Okey choice when the caller does not say (a documented rule):
runs first, then groups, then pairs; in a run the okeys fill the highest
window that holds every real tile, i.e. they extend the run *upwards*
(R5 R6 okey → R7; R12 R13 okey → R1, the high ace of 12-13-1; an inner gap
is filled first: R5 R7 okey → R6); in a group the okeys take the missing colours in the order
red, yellow, blue, black.
"""

from __future__ import annotations

from dataclasses import dataclass

from .tiles import FALSE_KIND, colour_of_kind, kind_of, make_kind, number_of_kind

RUN, GROUP, PAIR = "run", "group", "pair"
MELD_KINDS = (RUN, GROUP, PAIR)
# How a lay-down player opened (``HandState.opened``): with runs and groups, or with pairs.
MELDS_OPENING, PAIRS_OPENING = "melds", "pairs"


@dataclass(frozen=True)
class Shape:
    """A valid meld: its kind, its tiles in table order and what each plays."""

    kind: str
    tiles: tuple[int, ...]
    plays: tuple[int, ...]


def plays_as(tile_id: int, okey_kind: int) -> int | None:
    """What a tile plays as: None for a real okey (wild), else its kind."""
    k = kind_of(tile_id)
    if k == okey_kind:
        return None
    if k == FALSE_KIND:
        return okey_kind
    return k


def is_okey(tile_id: int, okey_kind: int) -> bool:
    return kind_of(tile_id) == okey_kind


def _run_pos(kind: int, ace_high: bool) -> list[int]:
    n = number_of_kind(kind)
    return [1, 14] if (n == 1 and ace_high) else [n]


def _kind_at(colour: int, pos: int) -> int:
    return make_kind(colour, 1 if pos == 14 else pos)


def _try_run(fixed: list[tuple[int, int]], free: list[int], ace_high: bool) -> Shape | None:
    size = len(fixed) + len(free)
    if size < 3 or size > 13:
        return None
    if not fixed:  # two okeys alone are never a 3-run; only reachable for size >= 3
        return None
    colours = {colour_of_kind(k) for _, k in fixed}
    if len(colours) != 1:
        return None
    colour = colours.pop()
    top = 14 if ace_high else 13
    for start in range(top - size + 1, 0, -1):
        window = range(start, start + size)
        placed: dict[int, int] = {}
        ok = True
        for tid, k in fixed:
            pos = next((p for p in _run_pos(k, ace_high) if p in window and p not in placed), None)
            if pos is None:
                ok = False
                break
            placed[pos] = tid
        if not ok:
            continue
        holes = [p for p in window if p not in placed]
        for p, tid in zip(holes, free, strict=True):
            placed[p] = tid
        order = sorted(placed)
        fixed_kind = dict(fixed)
        tiles = tuple(placed[p] for p in order)
        plays = tuple(fixed_kind.get(placed[p], _kind_at(colour, p)) for p in order)
        # a fixed okey assignment must sit where its kind says
        if any(_kind_at(colour, p) != pk for p, pk in zip(order, plays, strict=True)):
            continue
        return Shape(RUN, tiles, plays)
    return None


def _try_group(fixed: list[tuple[int, int]], free: list[int]) -> Shape | None:
    size = len(fixed) + len(free)
    if size not in (3, 4) or not fixed:
        return None
    numbers = {number_of_kind(k) for _, k in fixed}
    if len(numbers) != 1:
        return None
    number = numbers.pop()
    by_colour: dict[int, int] = {}
    for tid, k in fixed:
        c = colour_of_kind(k)
        if c in by_colour:
            return None  # two tiles of one colour never share a group
        by_colour[c] = tid
    plays_of: dict[int, int] = {tid: k for tid, k in fixed}
    missing = [c for c in range(4) if c not in by_colour]
    for c, tid in zip(missing, free, strict=False):
        by_colour[c] = tid
        plays_of[tid] = make_kind(c, number)
    order = sorted(by_colour)
    tiles = tuple(by_colour[c] for c in order)
    return Shape(GROUP, tiles, tuple(plays_of[t] for t in tiles))


def _try_pair(fixed: list[tuple[int, int]], free: list[int], okey_kind: int) -> Shape | None:
    if len(fixed) + len(free) != 2:
        return None
    kinds = {k for _, k in fixed}
    if len(kinds) > 1:
        return None
    k = kinds.pop() if kinds else okey_kind
    tiles = tuple(t for t, _ in fixed) + tuple(free)
    return Shape(PAIR, tiles, (k, k))


def classify(
    tile_ids: list[int] | tuple[int, ...],
    okey_kind: int,
    *,
    ace_high: bool = True,
    allow: tuple[str, ...] = MELD_KINDS,
    assign: dict[int, int] | None = None,
) -> Shape | None:
    """The meld these tiles form, or None.

    ``assign`` maps okey tile ids to the kind they stand for (the player's
    choice); unassigned okeys are placed by the documented default. ``allow``
    restricts and orders the kinds tried.
    """
    if len(set(tile_ids)) != len(tile_ids):
        return None
    assign = assign or {}
    fixed: list[tuple[int, int]] = []
    free: list[int] = []
    for t in tile_ids:
        p = plays_as(t, okey_kind)
        if p is None:
            if t in assign:
                fixed.append((t, assign[t]))
            else:
                free.append(t)
        else:
            fixed.append((t, p))
    for kind in allow:
        if kind == RUN:
            s = _try_run(fixed, free, ace_high)
        elif kind == GROUP:
            s = _try_group(fixed, free)
        else:
            s = _try_pair(fixed, free, okey_kind)
        if s is not None:
            return s
    return None


# ------------------------------------------------------------------- meld values


def sum_value(plays: tuple[int, ...] | list[int]) -> int:
    """fifty-one: each tile counts its number (an okey the tile it plays) [D9]."""
    return sum(number_of_kind(k) for k in plays)


def seventeen_value(kind: str, plays: tuple[int, ...] | list[int]) -> int:
    """seventeen values (rules.md §5): group 3 = n (13s: 17), group 4 = n + 1
    (13s: 18 [D16]), run = middle of its three highest + 1 per tile past three,
    pair = its number once."""
    nums = sorted(number_of_kind(k) for k in plays)
    if kind == PAIR:
        return nums[0]
    if kind == GROUP:
        base = 17 if nums[0] == 13 else nums[0]
        return base + (1 if len(nums) == 4 else 0)
    return nums[-2] + (len(nums) - 3)
