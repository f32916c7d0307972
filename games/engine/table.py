"""Melds on the table: where a tile fits, okey swaps, usable (penalty) tiles,
and fast pre-checks for closing.

Complements ``melds.py`` (which classifies a set of tiles) with what a table
needs: a ``TableMeld`` with its owner, the ends a tile can extend, and the
okeys a real tile can replace.
"""

from __future__ import annotations

from dataclasses import dataclass

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


def is_usable(tile: int, melds: tuple[TableMeld, ...], okey_kind: int, ace_high: bool) -> bool:
    """A penalty ("usable") tile: it extends or completes a table meld, is the real
    tile an okey on the table stands for, or is an okey that fits somewhere."""
    for m in melds:
        if placements(tile, m, okey_kind, ace_high) or swap_index(tile, m, okey_kind) is not None:
            return True
    return False


def face_number(tile: int, okey_kind: int) -> int:
    """The number a tile counts when it is not placed: a false joker counts the
    okey's identity; a real okey its printed number."""
    k = kind_of(tile)
    return number_of_kind(okey_kind if k == FALSE_KIND else k)


# ------------------------------------------------------------ closing pre-checks


def _support(kinds: list[int], ace_high: bool) -> tuple[int, int]:
    """(tiles with no partner at all, tiles without a complete real meld)."""
    count: dict[int, int] = {}
    for k in kinds:
        count[k] = count.get(k, 0) + 1
    none = partial = 0
    for k in kinds:
        c, n = colour_of_kind(k), number_of_kind(k)

        def has(num: int, colour: int = c) -> bool:
            if num == 14:
                num = 1 if ace_high else 0
            return 1 <= num <= 13 and count.get(make_kind(colour, num), 0) > 0

        others = sum(1 for cc in range(4) if cc != c and has(n, cc))
        positions = [n, 14] if (n == 1 and ace_high) else [n]
        full = others >= 2
        partner = others >= 1 or count[k] >= 2
        for p in positions:
            if (
                (has(p - 1) and has(p + 1))
                or (has(p + 1) and has(p + 2))
                or (has(p - 1) and has(p - 2))
            ):
                full = True
            if has(p - 1) or has(p + 1) or has(p - 2) or has(p + 2):
                partner = True
        if not full:
            partial += 1
            if not partner:
                none += 1
    return none, partial


def maybe_closing(rack: tuple[int, ...] | list[int], okey_kind: int, ace_high: bool) -> bool:
    """Cheap necessary condition for "some tile of this 15-tile rack can be put
    down so that the other 14 win" (runs/groups or seven pairs)."""
    okeys = 0
    kinds = []
    for t in rack:
        k = kind_of(t)
        if k == okey_kind:
            okeys += 1
        else:
            kinds.append(okey_kind if k == FALSE_KIND else k)
    # seven pairs: singles (beyond the one put down) must be covered by okeys
    count: dict[int, int] = {}
    for k in kinds:
        count[k] = count.get(k, 0) + 1
    singles = sum(1 for v in count.values() if v == 1)
    if singles <= okeys + 1:
        return True
    none, partial = _support(kinds, ace_high)
    if okeys == 0:
        return partial <= 1
    if okeys == 1:
        return none <= 1
    return none <= 2


def seven_pairs(tiles: list[int] | tuple[int, ...], okey_kind: int) -> bool:
    """Exactly: do these 14 tiles split into seven pairs (okeys fill singles)?"""
    if len(tiles) != 14:
        return False
    okeys = 0
    count: dict[int, int] = {}
    for t in tiles:
        k = kind_of(t)
        if k == okey_kind:
            okeys += 1
            continue
        k = okey_kind if k == FALSE_KIND else k
        count[k] = count.get(k, 0) + 1
    singles = sum(1 for v in count.values() if v == 1)
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
    "maybe_closing",
    "open_slots",
    "placements",
    "run_positions",
    "seven_pairs",
    "swap_index",
    "swapped",
]
