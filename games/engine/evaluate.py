"""Hand evaluation: winning racks and best arrangements (rules.md §1).

Provisional implementation: a memoised search (correct, not yet fast).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from .melds import GROUP, PAIR, RUN, Shape, seventeen_value
from .tiles import FALSE_KIND, colour_of_kind, kind_of, make_kind, number_of_kind

MELDS, PAIRS = "melds", "pairs"


@dataclass(frozen=True)
class Arrangement:
    """How a rack splits: ``kind`` "melds" (runs and groups), "pairs" or None (nothing)."""

    kind: str | None
    melds: list[Shape] = field(default_factory=list)
    leftover: list[int] = field(default_factory=list)
    opening_total: int | None = None


def _value(mode: str | None, kind: str, plays: tuple[int, ...]) -> int:
    if mode is None:
        return 0
    if mode == "sum":
        return sum(number_of_kind(k) for k in plays)
    return seventeen_value(kind, plays)


def _candidate_melds(t: int, rest: dict[int, int], j: int, ace_high: bool):
    """Yield (meld kind, slots) for melds holding plain kind ``t`` where each slot is
    (plays kind, True if filled by a real tile of that kind, False for an okey)."""
    c, n = colour_of_kind(t), number_of_kind(t)
    positions = [n, 14] if (n == 1 and ace_high) else [n]
    top = 14 if ace_high else 13
    for p in positions:
        for start in range(max(1, p - 12), p + 1):
            for end in range(max(p, start + 2), min(top, start + 12) + 1):
                others = [q for q in range(start, end + 1) if q != p]
                yield from _fill(
                    RUN,
                    [(t, True, p)],
                    [(make_kind(c, 1 if q == 14 else q), q) for q in others],
                    rest,
                    j,
                )
    other_cols = [cc for cc in range(4) if cc != c]
    for mask in range(1, 8):
        cols = [other_cols[i] for i in range(3) if mask >> i & 1]
        if len(cols) < 2:
            continue
        yield from _fill(GROUP, [(t, True, c)], [(make_kind(cc, n), cc) for cc in cols], rest, j)


def _fill(kind, fixed, needed, rest, j):
    """Every way to fill ``needed`` slots with real tiles from ``rest`` or okeys."""
    out = []

    def rec(i, used, okeys, acc):
        if i == len(needed):
            out.append((kind, sorted(acc, key=lambda s: s[2]), okeys))
            return
        k, pos = needed[i]
        if rest.get(k, 0) - used.get(k, 0) > 0:
            used[k] = used.get(k, 0) + 1
            rec(i + 1, used, okeys, acc + [(k, True, pos)])
            used[k] -= 1
        if okeys < j:
            rec(i + 1, used, okeys + 1, acc + [(k, False, pos)])

    rec(0, {}, 0, list(fixed))
    return out


def _search(kinds: tuple[int, ...], j: int, ace_high: bool, mode: str | None):
    @cache
    def best(state: tuple[int, ...], okeys: int):
        # returns (leftover, -value, melds) minimal
        if not state:
            return (okeys, 0, ())
        t = state[0]
        rest_list = list(state[1:])
        res = best(tuple(rest_list), okeys)
        res = (res[0] + 1, res[1], res[2])
        rest: dict[int, int] = {}
        for k in rest_list:
            rest[k] = rest.get(k, 0) + 1
        for kind, slots, used_okeys in _candidate_melds(t, rest, okeys, ace_high):
            remaining = list(rest_list)
            for k, real, _ in slots:
                if real and k != t:
                    remaining.remove(k)
            sub = best(tuple(remaining), okeys - used_okeys)
            plays = tuple(k for k, _, _ in slots)
            cand = (sub[0], sub[1] - _value(mode, kind, plays), ((kind, tuple(slots)),) + sub[2])
            if cand[:2] < res[:2]:
                res = cand
        return res

    return best(kinds, j)


def _build(melds_spec, tile_ids: list[int], okey_kind: int) -> tuple[list[Shape], list[int]]:
    pool: dict[int, list[int]] = {}
    okeys: list[int] = []
    for t in tile_ids:
        k = kind_of(t)
        if k == okey_kind:
            okeys.append(t)
        else:
            pool.setdefault(okey_kind if k == FALSE_KIND else k, []).append(t)
    shapes = []
    for kind, slots in melds_spec:
        tiles = tuple(pool[k].pop() if real else okeys.pop() for k, real, _ in slots)
        shapes.append(Shape(kind, tiles, tuple(k for k, _, _ in slots)))
    leftover = [t for ts in pool.values() for t in ts] + okeys
    return shapes, sorted(leftover)


def _pairs(tile_ids: list[int], okey_kind: int, mode: str | None):
    by_kind: dict[int, list[int]] = {}
    okeys: list[int] = []
    for t in tile_ids:
        k = kind_of(t)
        if k == okey_kind:
            okeys.append(t)
        else:
            by_kind.setdefault(okey_kind if k == FALSE_KIND else k, []).append(t)
    shapes = []
    singles = []
    for k, ts in sorted(by_kind.items()):
        if len(ts) >= 2:
            shapes.append(Shape(PAIR, (ts[0], ts[1]), (k, k)))
        else:
            singles.append((k, ts[0]))
    singles.sort(key=lambda kt: (-number_of_kind(kt[0]), kt[0]))
    leftover = []
    for k, t in singles:
        if okeys:
            shapes.append(Shape(PAIR, (t, okeys.pop()), (k, k)))
        else:
            leftover.append(t)
    if len(okeys) == 2:
        shapes.append(Shape(PAIR, (okeys[0], okeys[1]), (okey_kind, okey_kind)))
        okeys = []
    leftover += okeys
    total = sum(_value(mode, PAIR, s.plays) for s in shapes)
    return shapes, sorted(leftover), total


def _melds_arrangement(tile_ids, okey_kind, ace_high, mode):
    plain = []
    j = 0
    for t in tile_ids:
        k = kind_of(t)
        if k == okey_kind:
            j += 1
        else:
            plain.append(okey_kind if k == FALSE_KIND else k)
    left, negval, spec = _search(tuple(sorted(plain)), j, ace_high, mode)
    shapes, leftover = _build(spec, list(tile_ids), okey_kind)
    return shapes, leftover, -negval


def is_winning(
    tile_ids: list[int] | tuple[int, ...], okey_kind: int, *, ace_high: bool = True
) -> Arrangement | None:
    """The winning arrangement of a 14-tile rack, or None.

    When a rack is both seven pairs and runs/groups, the pairs arrangement is
    returned (it scores more in classic and rummy).
    """
    tile_ids = list(tile_ids)
    if len(tile_ids) != 14:
        return None
    shapes, leftover, _ = _pairs(tile_ids, okey_kind, None)
    if not leftover and len(shapes) == 7:
        return Arrangement(PAIRS, shapes, [], None)
    shapes, leftover, _ = _melds_arrangement(tile_ids, okey_kind, ace_high, None)
    if not leftover:
        return Arrangement(MELDS, shapes, [], None)
    return None


def best_arrangement(
    tile_ids: list[int] | tuple[int, ...],
    okey_kind: int,
    *,
    ace_high: bool = True,
    values: str | None = None,
    pairs: bool = True,
) -> Arrangement:
    tile_ids = list(tile_ids)
    shapes, leftover, total = _melds_arrangement(tile_ids, okey_kind, ace_high, values)
    best = Arrangement(MELDS if shapes else None, shapes, leftover, total if values else None)
    if pairs:
        ps, pl, pt = _pairs(tile_ids, okey_kind, values)
        if ps and (len(pl) < len(leftover) or (len(pl) == len(leftover) and values is None)):
            best = Arrangement(PAIRS, ps, pl, pt if values else None)
    return best
