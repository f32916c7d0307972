"""Melds on the table: where a tile fits, okey swaps, usable (penalty) tiles,
and fast pre-checks for closing.

Complements ``melds.py`` (which classifies a set of tiles) with what a table
needs: a ``TableMeld`` with its owner, the ends a tile can extend, and the
okeys a real tile can replace.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .melds import GROUP, PAIR, RUN, plays_as
from .tiles import FALSE_KIND, colour_of_kind, kind_of, make_kind, number_of_kind

LOW, HIGH, SLOT = "low", "high", "group"


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table. ``tiles``/``plays`` are in table order (runs low to high)."""

    id: int
    owner: int
    laid_by: int
    kind: str
    tiles: tuple[int, ...]
    plays: tuple[int, ...]

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "owner": self.owner,
            "laid_by": self.laid_by,
            "kind": self.kind,
            "tiles": list(self.tiles),
            "plays": list(self.plays),
        }


def run_positions(plays: tuple[int, ...] | list[int]) -> list[int]:
    """Positions 1..14 of a run's tiles (a 1 after 13 is position 14)."""
    out = []
    for i, k in enumerate(plays):
        n = number_of_kind(k)
        out.append(14 if (n == 1 and i > 0) else n)
    return out


def _kind_at(colour: int, pos: int) -> int:
    return make_kind(colour, 1 if pos == 14 else pos)


def open_slots(meld: TableMeld, ace_high: bool) -> list[tuple[str, int]]:
    """The (end, kind) pairs that could still be added to ``meld``."""
    if meld.kind == RUN:
        if len(meld.plays) >= 13:
            return []
        pos = run_positions(meld.plays)
        colour = colour_of_kind(meld.plays[0])
        out = []
        if pos[0] - 1 >= 1:
            out.append((LOW, _kind_at(colour, pos[0] - 1)))
        if pos[-1] + 1 <= (14 if ace_high else 13):
            out.append((HIGH, _kind_at(colour, pos[-1] + 1)))
        return out
    if meld.kind == GROUP and len(meld.plays) == 3:
        number = number_of_kind(meld.plays[0])
        have = {colour_of_kind(k) for k in meld.plays}
        missing = [c for c in range(4) if c not in have]
        return [(SLOT, make_kind(missing[0], number))]
    return []


def placements(tile: int, meld: TableMeld, okey_kind: int, ace_high: bool) -> list[tuple[str, int]]:
    """Where ``tile`` can be added to ``meld``: a list of (end, kind it plays)."""
    p = plays_as(tile, okey_kind)
    return [(end, k) for end, k in open_slots(meld, ace_high) if p is None or p == k]


def added(meld: TableMeld, tile: int, end: str, kind: int) -> TableMeld:
    """``meld`` with ``tile`` added at ``end`` playing ``kind``."""
    if end == LOW:
        tiles, plays = (tile, *meld.tiles), (kind, *meld.plays)
    elif end == HIGH:
        tiles, plays = (*meld.tiles, tile), (*meld.plays, kind)
    else:
        both = [*zip(meld.tiles, meld.plays, strict=True), (tile, kind)]
        both.sort(key=lambda x: x[1])
        tiles, plays = tuple(t for t, _ in both), tuple(k for _, k in both)
    return TableMeld(meld.id, meld.owner, meld.laid_by, meld.kind, tiles, plays)


def swap_index(tile: int, meld: TableMeld, okey_kind: int) -> int | None:
    """Index of an okey in ``meld`` that the real ``tile`` can replace, or None."""
    p = plays_as(tile, okey_kind)
    if p is None:
        return None
    for i, (t, k) in enumerate(zip(meld.tiles, meld.plays, strict=True)):
        if kind_of(t) == okey_kind and k == p:
            return i
    return None


def swapped(meld: TableMeld, index: int, tile: int) -> TableMeld:
    tiles = list(meld.tiles)
    tiles[index] = tile
    return TableMeld(meld.id, meld.owner, meld.laid_by, meld.kind, tuple(tiles), meld.plays)


@lru_cache(maxsize=4096)
def fits(
    melds: tuple[TableMeld, ...], okey_kind: int, ace_high: bool
) -> tuple[frozenset[int], bool]:
    """(kinds that a plain tile may be added as or swapped in for, any open slot at all)."""
    kinds: set[int] = set()
    any_slot = False
    for m in melds:
        for _, k in open_slots(m, ace_high):
            kinds.add(k)
            any_slot = True
        for t, k in zip(m.tiles, m.plays, strict=True):
            if kind_of(t) == okey_kind:
                kinds.add(k)
    return frozenset(kinds), any_slot


def is_usable(tile: int, melds: tuple[TableMeld, ...], okey_kind: int, ace_high: bool) -> bool:
    """A penalty ("usable") tile: it extends or completes a table meld, is the real
    tile an okey on the table stands for, or is an okey that fits somewhere."""
    if not melds:
        return False
    kinds, any_slot = fits(melds, okey_kind, ace_high)
    p = plays_as(tile, okey_kind)
    if p is None:
        return any_slot
    return p in kinds


def face_number(tile: int, okey_kind: int) -> int:
    """The number a tile counts when it is not placed: a false joker counts the
    okey's identity; a real okey its printed number."""
    k = kind_of(tile)
    return number_of_kind(okey_kind if k == FALSE_KIND else k)


# ------------------------------------------------------------ closing pre-checks


def support(kinds: list[int], ace_high: bool) -> tuple[list[int], list[int]]:
    """(kinds with no partner at all, kinds without a complete real meld)."""
    count = [0] * 52
    colours = [0] * 13  # bitmask of the colours present for each number
    for k in kinds:
        count[k] += 1
        colours[k % 13] |= 1 << (k // 13)
    none: list[int] = []
    partial: list[int] = []
    for k in kinds:
        c, n0 = divmod(k, 13)
        base = c * 13
        others = (colours[n0] & ~(1 << c)).bit_count()
        if others >= 2:
            continue
        # same-colour neighbours at numbers n-2, n-1, n+1, n+2 (a 1 also follows 13)
        m2 = n0 >= 2 and count[base + n0 - 2] > 0
        m1 = n0 >= 1 and count[base + n0 - 1] > 0
        p1 = (n0 <= 11 and count[base + n0 + 1] > 0) or (n0 == 12 and ace_high and count[base] > 0)
        p2 = (n0 <= 10 and count[base + n0 + 2] > 0) or (n0 == 11 and ace_high and count[base] > 0)
        hi = False
        hi_partner = False
        if n0 == 0 and ace_high:  # a 1 after 12-13
            h12, h13 = count[base + 11] > 0, count[base + 12] > 0
            hi = h12 and h13
            hi_partner = h12 or h13
        if (m1 and p1) or (p1 and p2) or (m1 and m2) or hi:
            continue
        partial.append(k)
        if not (others or m2 or m1 or p1 or p2 or count[k] > 1 or hi_partner):
            none.append(k)
    return none, partial


def meld_close_candidates(
    rack: tuple[int, ...] | list[int], okey_kind: int, ace_high: bool
) -> set[int] | None:
    """For a 15-tile rack: the kinds that might be put down so that the other 14
    split into runs and groups (None: any kind may), or an empty set when no
    choice can. A cheap necessary condition, exact enough to skip most searches:
    without okeys every kept tile needs a complete real meld around it; a tile
    with no partner at all needs both okeys (which may serve two such tiles of one
    colour three apart)."""
    okeys = 0
    kinds = []
    for t in rack:
        k = kind_of(t)
        if k == okey_kind:
            okeys += 1
        else:
            kinds.append(okey_kind if k == FALSE_KIND else k)
    none, partial = support(kinds, ace_high)
    if okeys == 0:
        if len(partial) > 1:
            return set()
        return set(partial) or None
    if okeys == 1:
        if len(none) > 1:
            return set()
        return set(none) or None
    # two okeys cover one partner-less tile (X ok ok) or two of one colour three apart
    # (X ok ok Y); a third must be the tile put down
    if len(none) > 3:
        return set()
    return set(none) if len(none) == 3 else None


def _singles_and_okeys(tiles: tuple[int, ...] | list[int], okey_kind: int) -> tuple[int, int]:
    """(kinds held exactly once, okeys held); a false joker counts as the okey's kind."""
    okeys = 0
    count: dict[int, int] = {}
    for t in tiles:
        k = kind_of(t)
        if k == okey_kind:
            okeys += 1
            continue
        k = okey_kind if k == FALSE_KIND else k
        count[k] = count.get(k, 0) + 1
    return sum(1 for v in count.values() if v == 1), okeys


def seven_pairs(tiles: list[int] | tuple[int, ...], okey_kind: int) -> bool:
    """Exactly: do these 14 tiles split into seven pairs (okeys fill singles)?"""
    if len(tiles) != 14:
        return False
    singles, okeys = _singles_and_okeys(tiles, okey_kind)
    return singles <= okeys and (okeys - singles) % 2 == 0


def find_pairs(rack: tuple[int, ...] | list[int], okey_kind: int) -> list[tuple[int, int]]:
    """Pairs in a rack: identical tiles first, then singles (highest first) with an
    okey, then the two okeys together."""
    by_kind: dict[int, list[int]] = {}
    okeys: list[int] = []
    for t in rack:
        k = kind_of(t)
        if k == okey_kind:
            okeys.append(t)
        else:
            by_kind.setdefault(okey_kind if k == FALSE_KIND else k, []).append(t)
    out: list[tuple[int, int]] = []
    singles = []
    for k in sorted(by_kind):
        ts = by_kind[k]
        if len(ts) >= 2:
            out.append((ts[0], ts[1]))
        else:
            singles.append((number_of_kind(k), ts[0]))
    singles.sort(reverse=True)
    for _, t in singles:
        if not okeys:
            break
        out.append((t, okeys.pop()))
    if len(okeys) == 2:
        out.append((okeys[0], okeys[1]))
    return out


__all__ = [
    "find_pairs",
    "GROUP",
    "HIGH",
    "LOW",
    "PAIR",
    "RUN",
    "SLOT",
    "TableMeld",
    "added",
    "face_number",
    "is_usable",
    "meld_close_candidates",
    "open_slots",
    "placements",
    "run_positions",
    "seven_pairs",
    "swap_index",
    "swapped",
]
