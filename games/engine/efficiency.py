"""Tile efficiency: deficiency and ukeire (RULES.md §1 melds, §4-§6 openings).

Public API (API.md, "Tile efficiency"):

* ``deficiency(tiles, okey_kind, rules, *, opened=False, limit=None, options=None) -> int``
* ``ukeire(tiles, okey_kind, rules, unseen, *, opened=False, limit=None, options=None)
  -> tuple[int, dict[int, int]]``

Definitions
-----------

A *replacement* takes one tile out of the rack and puts any tile in. The tile put in is
counted as the best tile for the place (the way shanten calculators count: the two-copies
limit of the tile set is not applied to the tiles that would come in). The rack's okeys
(``kind == okey_kind``) are wild and are never replaced; a false joker is a plain tile of
the okey's kind (RULES.md §1).

* Whole-rack rule sets (``rules.whole_rack``: classic, rummy): a 14-tile rack's deficiency
  is the fewest replacements that make it a winning rack (runs and groups, or seven pairs;
  ``ace_high`` from the rules object). A 15-tile rack's is the fewest replacements after
  which some discard leaves a winning 14 (the minimum over its discards). Other sizes are
  refused (ValueError).
* Lay-down rule sets before opening (``opened=False``): the fewest replacements after which
  the rack holds an opening of at most ``len(tiles) - 1`` tiles (one tile is kept back for
  the discard): runs and groups whose total (``rules.values``) reaches the rule set's
  opening minimum (``rules.opening_min``, read for the table's ``limit`` and ``options``), or
  pairs, at least ``rules.pairs_opening_min_pairs`` of them (at least one) with a total
  (seventeen: each pair its number) reaching the pairs minimum.
* Lay-down rule sets after opening (``opened=True``): the fewest replacements after which
  every tile but one (the final discard) is in runs and groups of the rack's own (melds on
  the table are not looked at). A rack of one tile needs nothing; a rack of 2 or 3 tiles,
  whose 1 or 2 tiles to lay cannot make a meld of their own, counts those tiles.

``ukeire`` gives the deficiency and, for every kind whose drawing lowers it, how many
copies of it the seat cannot see (``unseen``: kind -> copies; the okey kind means a real
okey, ``FALSE_KIND`` a false joker). Drawing a tile makes an n-tile rack n + 1 tiles. For
a whole-rack 15-tile rack (it must discard first) the kinds are those of the discard with
the lowest deficiency and then the most unseen copies that lower it (ties: the lowest tile
id), the deficiency being the 15-tile figure.

Method (runs and groups)
------------------------

Write D for the rack's real tiles left out of the final melds and C for the melds' empty
slots (filled by the rack's okeys and by the tiles put in). For a target of T tiles in
melds out of an n-tile rack with j okeys and n - j real tiles, a cover (a set of melds
holding n - j - D of the real tiles with C empty slots) reaches the target when its
T - (n - j - D) - C extra slots can be filled: none, three or more (fresh melds of their
own), or one or two that its melds absorb (a run grows, a group of three becomes four).
The deficiency is then max(0, D - (n - T)).

Groups cross colours, so they are enumerated number by number (the real tiles a number
gives to groups: 1 or 2 groups of 2-4 distinct colours; a group of one real tile and two
empty slots is never needed, a run does the same with more room to grow), and what each
colour keeps goes to the *colour table*: for a colour's count vector (2 bits a number),
per number of tiles left out d, the fewest empty slots c its runs need and which of c + 1
and c + 2 are also reachable (a 3-bit mask; c + 3 and more always are). The four colours
and the groups combine by a small knapsack on D with the masks convolved. The colour
tables are computed ahead by an exact recursion (lowest position first: leave one copy
out, or start a run there, with up to four empty slots below it and real or empty slots
above, at most ``_RUN_EMPTY`` empty slots a run) for every vector of up to 10 tiles and
stored in ``efftables/colour_tables.bin`` (1.3 MB, written by
``games/tools/engine/efftables_gen.py``); a
colour of 11-14 tiles is read from ``efftables/long_colour_tables.bin``
(``efftables/longcolour.py``: the entries of the greedy recursion, see ``_colour_rec``: the
same deficiencies, far quicker; 1.3 MB), and a longer one (only in the lay-down rule sets'
longer racks) is computed by that recursion when first met and kept (``clear_caches``
forgets those). At a leaf, colours 0 and 1 and colours 2 and 3 are read as two *pair
forms* (see "pair forms" below: built once a process, on an ace rule's first use, from the
stored tables for colours of up to ``MAX_TILES`` tiles), so the knapsack is a loop over a
few points with one table read each; a leaf with a longer colour takes the four-colour
knapsack. The groups are enumerated depth first on an explicit stack (only the numbers
held in two colours or more have any). A search stops as soon as it meets its bound
(ukeire only asks whether a drawn tile gets below the deficiency), and drops a node whose
groups' empty slots G reach s plus the best D so far: a cover needs s - G - sum(g) >= 0
and a colour's g = c - d is at least -d, so it leaves out D >= G - s tiles (deeper groups
only add empty slots).

Openings add values: an exact memoised search over the rack's real tiles (lowest tile
first: not in the opening, or the lowest real tile of one of its melds), giving the best
total for a number of empty slots and a number of tiles; empty slots left over may make
fresh melds of their own at their best value.
"""

from __future__ import annotations

import time
from array import array
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from functools import cache
from itertools import product
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from .efftables import (
    BIG_TILES,
    MAGIC,
    big_vectors,
    longcolour,
    table_vectors,
    tiles_in,
    unpack_entries,
)
from .melds import PAIRS_OPENING, RUN, seventeen_value
from .tiles import FALSE_KIND, kind_of, make_kind, number_of_kind

# A rack packed into one int (as evaluate.py packs it): colour c's count vector (2 bits a
# number) at bit 28c, the number of real okeys at bit 112. _INC[okey_kind][tile id] is what
# a tile adds.
_M26 = (1 << 26) - 1
_OK_SHIFT = 112
_INC = [
    [
        1 << _OK_SHIFT
        if (k := FALSE_KIND if t >= 104 else t >> 1) == ok
        else 1
        << (28 * ((ok if k == FALSE_KIND else k) // 13) + 2 * ((ok if k == FALSE_KIND else k) % 13))
        for t in range(106)
    ]
    for ok in range(52)
]


def _run_value(mode: str, s: int, e: int) -> int:
    plays = [make_kind(0, 1 if q == 14 else q) for q in range(s, e + 1)]
    if mode == "sum":
        return sum(number_of_kind(k) for k in plays)
    return seventeen_value(RUN, plays)


# _RUN_VAL[mode][(s, e)]: a run's value from position s to e (14: the 1 after 13)
_RUN_VAL = {
    mode: {(s, e): _run_value(mode, s, e) for s in range(1, 15) for e in range(s + 2, 15)}
    for mode in ("sum", "seventeen")
}


def _group_value(mode: str, number: int, sizes: tuple[int, ...]) -> int:
    if mode == "sum":
        return number * sum(sizes)
    base = 17 if number == 13 else number
    return sum(base + (1 if s == 4 else 0) for s in sizes)


_RUN_EMPTY = 5  # the most empty slots one run of a colour table holds
_MASK_BITS = (1 << 48) - 1

# sums of reachable offsets: _CONV3[a][b] = mask of i + j (<= 2) for bits i of a, j of b
_CONV3 = [
    [
        sum(1 << t for t in range(3) if any(a >> i & 1 and b >> (t - i) & 1 for i in range(t + 1)))
        for b in range(8)
    ]
    for a in range(8)
]


# ------------------------------------------------------------------ colour tables


def _colour_rec(ace_high: bool, greedy: bool):
    """The recursion behind the colour tables. ``greedy``: a run takes the colour's tile
    wherever one is left (never an empty slot there); this loses only points (d, c) from
    which leaving a tile out and filling its place empty gains nothing (the same cover
    with that tile kept has d - 1, c - 1: the same extra slots with one tile fewer left
    out), so every deficiency stays the same, and a long colour is far quicker."""
    top = 14 if ace_high else 13

    @cache
    def rec(v: int) -> dict[int, int]:
        """d -> bitmask of the empty-slot counts c reachable by runs covering all but d
        copies of the 14-position vector v."""
        if v == 0:
            return {0: 1}
        low = (v & -v).bit_length() - 1
        p = low // 2 + 1
        bit0 = 1 << (2 * (p - 1))
        res: dict[int, int] = {}
        for d, m in rec(v - bit0).items():
            res[d + 1] = res.get(d + 1, 0) | m
        for s in range(max(1, p - 4), p + 1):
            stack = [(p + 1, p - s, bit0)]
            while stack:
                q, k, removed = stack.pop()
                length = q - s
                if length >= 3:
                    for d, m in rec(v - removed).items():
                        res[d] = res.get(d, 0) | ((m << k) & _MASK_BITS)
                if q > top or length >= 13:
                    continue
                b = 2 * (q - 1)
                if v >> b & 3:
                    stack.append((q + 1, k, removed + (1 << b)))
                    if greedy:
                        continue
                if k < _RUN_EMPTY:
                    stack.append((q + 1, k + 1, removed))
        return res

    return rec


_REC = {True: _colour_rec(True, False), False: _colour_rec(False, False)}
_GREEDY = {True: _colour_rec(True, True), False: _colour_rec(False, True)}
# the colour tables: the precomputed ones (efftables/colour_tables.bin, loaded on first
# use) and, for vectors with more tiles, the ones computed when first met (cleared by
# clear_caches)
_PRE: dict[bool, dict[int, tuple[tuple[int, int, int], ...]]] = {}
# the larger precomputed vectors: (sorted vectors, entry indices, entries) per ace rule
_BIG: dict[bool, tuple[array, array, list]] = {}
# the colours of 11-14 tiles (efftables/longcolour.py), in the same form as _BIG
_LONG: dict[bool, tuple[array, array, list]] = {}
_TABLES: dict[bool, dict[int, tuple[tuple[int, int, int], ...]]] = {True: {}, False: {}}


TABLE_LOAD_SECONDS: dict[str, float] = {}  # for the bench


def _load_tables() -> None:
    t0 = time.process_time()
    try:
        _read_tables()
    finally:
        TABLE_LOAD_SECONDS["colour_tables.bin"] = time.process_time() - t0
    t0 = time.process_time()
    empty: tuple[array, array, list] = (array("I"), array("H"), [])
    long = longcolour.load() or {}
    for ace_high in (True, False):
        _LONG[ace_high] = long.get(ace_high, empty)
    TABLE_LOAD_SECONDS[longcolour.LONG_FILE.name] = time.process_time() - t0


def _read_tables() -> None:
    path = Path(__file__).with_name("efftables") / "colour_tables.bin"
    try:
        data = path.read_bytes()
    except OSError:  # not generated: every table is computed when first met
        data = b""
    if not data.startswith(MAGIC):
        for ace_high in (True, False):
            _PRE[ace_high] = {}
            _BIG[ace_high] = (array("I"), array("H"), [])
        return
    small = table_vectors()
    big = big_vectors()
    pos = len(MAGIC)
    for ace_high in (True, False):
        entries, idx, pos = unpack_entries(data, pos, len(small) + len(big))
        _PRE[ace_high] = dict(zip(small, map(entries.__getitem__, idx[: len(small)]), strict=True))
        _BIG[ace_high] = (array("I", big), idx[len(small) :], entries)


def compute_colour_table(
    vec: int, ace_high: bool, greedy: bool = False
) -> tuple[tuple[int, int, int], ...]:
    """The colour table entry of a 13-number count vector computed by the exact
    recursion (no table read; ``greedy``: the quicker recursion, see ``_colour_rec``,
    used for the colours longer than the stored tables); see ``colour_table``."""
    rec = (_GREEDY if greedy else _REC)[ace_high]
    masks = dict(rec(vec))
    c1 = vec & 3
    if ace_high and c1:
        for x in range(1, c1 + 1):  # x of the 1s play high, after 13
            for d, m in rec(vec - x + (x << 26)).items():
                masks[d] = masks.get(d, 0) | m
    out: list[tuple[int, int, int]] = []
    best_g = None
    for d in sorted(masks):
        m = masks[d]
        c = (m & -m).bit_length() - 1
        g = c - d
        m3 = (m >> c) & 7
        if best_g is None or g < best_g:
            out.append((d, g, m3))
            best_g = g
        elif g == best_g and m3 | out[-1][2] != out[-1][2]:
            out.append((d, g, m3))
    return tuple(out)


def colour_table(vec: int, ace_high: bool) -> tuple[tuple[int, int, int], ...]:
    """The colour table entry of a 13-number count vector (2 bits a number): a tuple of
    (d, g, m) for the numbers d of tiles left out that are worth it (g = c - d falls as d
    grows), c the fewest empty slots, m the mask of the offsets 0-2 reachable above c."""
    if not _PRE:
        _load_tables()
    entry = _PRE[ace_high].get(vec)
    if entry is None:
        keys, idx, entries = _BIG[ace_high]
        i = bisect_left(keys, vec)
        if i < len(keys) and keys[i] == vec:
            return entries[idx[i]]
        keys, idx, entries = _LONG[ace_high]
        i = bisect_left(keys, vec)
        if i < len(keys) and keys[i] == vec:
            return entries[idx[i]]
        table = _TABLES[ace_high]
        entry = table.get(vec)
        if entry is None:
            entry = table[vec] = compute_colour_table(vec, ace_high, True)
    return entry


# ------------------------------------------------------------------ pair forms
#
# A leaf of the group search (four colour vectors once the groups are out, the groups'
# empty slots G and growth mask M) is a knapsack over the four colour tables. Two colours
# merge into a *pair form*: per total D of tiles left out, the achievable g = c - d of the
# two colours as one (g, mask) (everything from g + 3 up is reachable), cumulative over
# D (leaving one more tile out keeps every cover: d + 1, c + 1). The leaf then reads the
# form of colours 0 and 1 as its points (D, g, m) and the form of colours 2 and 3 as a
# table H[cm][r]: the fewest tiles those two leave out for r more empty slots to fill
# with cm the other offsets reachable, so a leaf is a loop over a few points with one
# table read each. Pair forms are built once a process (an ace rule's first use, about
# 0.35 s) from the stored colour tables, for every two colours of at most MAX_TILES tiles
# (their 139-140 distinct entries: about 19,000 pairs, 3,700 distinct forms); a leaf with a
# longer colour takes the four-colour knapsack.

_R_LO, _R_HI = -14, 28  # H's rows: r below _R_LO cannot be met, r from _R_HI up always is
_FAR = 1 << 20  # H's "cannot be met"

# per ace rule: (vector -> small id, number of small ids, forms by small id pairs)
_PAIRS: dict[bool, tuple[dict[int, int], int, list]] = {}


def _union(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    """The (g, mask) form of the union of two achievable sets (each: g plus the mask's
    offsets 0-2, and everything from g + 3 up)."""
    g = min(a[0], b[0])
    m = 0
    for gx, mx in (a, b):
        if gx - g < 3:
            m |= (mx << (gx - g)) & 7
    return g, m


def pair_points(e0: tuple, e1: tuple) -> tuple[tuple[int, int, int], ...]:
    """The pair form of two colour table entries: (D, g, m) at every total D where the
    cumulative achievable set grows (D ascending)."""
    conv = _CONV3
    at: dict[int, tuple[int, int]] = {}
    for d0, g0, m0 in e0:
        for d1, g1, m1 in e1:
            g = g0 + g1
            m = conv[m0][m1]
            D = d0 + d1
            old = at.get(D)
            if old is None:
                at[D] = (g, m)
            else:  # _union, inline
                go, mo = old
                if g < go:
                    at[D] = (g, m | (mo << (go - g) & 7 if go - g < 3 else 0))
                elif g == go:
                    at[D] = (g, m | mo)
                elif g - go < 3:
                    at[D] = (go, mo | (m << (g - go) & 7))
    out: list[tuple[int, int, int]] = []
    cur: tuple[int, int] | None = None
    for D in sorted(at):
        new = at[D] if cur is None else _union(cur, at[D])
        if new != cur:
            out.append((D, *new))
            cur = new
    return tuple(out)


def pair_rows(points: tuple[tuple[int, int, int], ...]) -> tuple[tuple[int, ...], ...]:
    """H[cm][r - _R_LO]: the fewest tiles D the pair leaves out for r empty slots more
    than its g to be filled exactly, the rest of the rack reaching the offsets of cm."""
    conv = _CONV3
    width = _R_HI - _R_LO + 1
    rows = []
    for cm in range(8):
        row = [_FAR] * width
        # the points from the most tiles left out down: a point with fewer overwrites
        for D, g, m in reversed(points):
            lo = g - _R_LO  # the index of r = g (x = 0)
            if lo + 3 < width:
                start = max(0, lo + 3)
                row[start:] = [D] * (width - start)
            mask = conv[cm][m]
            for x in range(3):
                if mask >> x & 1 and 0 <= lo + x < width:
                    row[lo + x] = D
        rows.append(tuple(row))
    return tuple(rows)


def _pairs_for(ace_high: bool) -> tuple[dict[int, int], int, list]:
    """The pair forms of an ace rule, built on its first use (about 0.35 s of CPU; data
    derived from the stored tables, kept by ``clear_caches``)."""
    t0 = time.process_time()
    pairs = _PAIRS[ace_high] = _build_pairs(_PRE[ace_high])
    key = f"pair forms, ace_high={ace_high} (built from colour_tables.bin)"
    TABLE_LOAD_SECONDS[key] = time.process_time() - t0
    return pairs


def _build_pairs(pre: dict[int, tuple]) -> tuple[dict[int, int], int, list]:
    ids: dict[tuple, int] = {}
    sid: dict[int, int] = {}
    for v, e in pre.items():
        sid[v] = ids.setdefault(e, len(ids))
    entries = list(ids)
    k = len(entries)
    forms: dict[tuple, tuple] = {}
    table = []
    for e0 in entries:
        for e1 in entries:
            pts = pair_points(e0, e1)
            f = forms.get(pts)
            if f is None:
                f = forms[pts] = (pts, pair_rows(pts))
            table.append(f)
    return sid, k, table


# ------------------------------------------------------------------ group options


def _group_options(cnt: tuple[int, ...]) -> list[tuple[int, int, int]]:
    """(packed use: colour c's tiles at bit 2c, empty slots, 3-bit growth mask) for every
    way the tiles of one number (cnt[c] copies of colour c) give two or more real tiles to
    each of one or two groups."""
    present = [c for c in range(4) if cnt[c]]
    subsets = [
        tuple(c for c in present if mask >> c & 1)
        for mask in range(16)
        if bin(mask).count("1") >= 2 and all(cnt[c] for c in range(4) if mask >> c & 1)
    ]

    def one(sub: tuple[int, ...]) -> tuple[int, int]:
        r = len(sub)
        c = max(0, 3 - r)
        return c, (0b011 if r + c == 3 else 0b001)

    seen: dict[int, set[tuple[int, int]]] = {}
    for sub in subsets:
        c, m = one(sub)
        use = sum(1 << (2 * x) for x in sub)
        seen.setdefault(use, set()).add((c, m))
    for i, a in enumerate(subsets):
        for b in subsets[i:]:
            use4 = [0, 0, 0, 0]
            for x in a + b:
                use4[x] += 1
            if any(use4[x] > cnt[x] for x in range(4)):
                continue
            ca, ma = one(a)
            cb, mb = one(b)
            use = sum(use4[x] << (2 * x) for x in range(4))
            seen.setdefault(use, set()).add((ca + cb, _CONV3[ma][mb]))
    out = []
    for use, cms in seen.items():
        # keep the fewest empty slots; merge masks of equal counts
        by_c: dict[int, int] = {}
        for c, m in cms:
            by_c[c] = by_c.get(c, 0) | m
        for c, m in by_c.items():
            out.append((use, c, m))
    out.sort(key=lambda e: e[1])
    return out


_GROUP_OPTS = {c4: _group_options(c4) for c4 in product(range(3), repeat=4)}
# the same by the packed counts of one number (colour c's count at bit 2c)
_OPTS_BY_KEY = [_GROUP_OPTS.get((k & 3, k >> 2 & 3, k >> 4 & 3, k >> 6), []) for k in range(256)]
# per number (0-12) and packed counts: the options as what they take from each colour's
# vector, their empty slots and mask, pushed last first so that the groups come off the
# search's stack before "no group" (they often settle the bound early)
_OPTS_AT = [
    [
        [
            ((u & 3) << b, (u >> 2 & 3) << b, (u >> 4 & 3) << b, (u >> 6 & 3) << b, c, m)
            for u, c, m in reversed(opts)
        ]
        for opts in _OPTS_BY_KEY
    ]
    for b in range(0, 26, 2)
]
_NO_GROUP = (0, 0, 0, 0, 0, 1)  # no group at a number: nothing taken, mask {0}


# ------------------------------------------------------------------ melds deficiency


def _vectors(tiles: Sequence[int], okey_kind: int) -> tuple[list[int], int]:
    if len(set(tiles)) != len(tiles):
        raise ValueError("a rack cannot hold the same tile id twice")
    inc = _INC[okey_kind]
    V = sum(map(inc.__getitem__, tiles))
    return [V & _M26, V >> 28 & _M26, V >> 56 & _M26, V >> 84 & _M26], V >> _OK_SHIFT


def _leaf4(pre: dict, ace_high: bool, vecs: tuple[int, ...], room: int, M: int, bd: int) -> int:
    """A leaf of ``_melds_D`` by the four-colour knapsack (a colour longer than the pair
    forms'): the fewest tiles left out below ``bd`` by a cover of the four colours with
    ``room`` empty slots to spare and the groups' mask M, else ``bd``."""
    conv = _CONV3
    t0, t1, t2, t3 = (pre.get(v) or colour_table(v, ace_high) for v in vecs)
    for d0, g0, m0 in t0:
        if d0 >= bd:
            break
        r0 = room - g0
        c0 = conv[M][m0]
        for d1, g1, m1 in t1:
            d01 = d0 + d1
            if d01 >= bd:
                break
            r1 = r0 - g1
            c1 = conv[c0][m1]
            for d2, g2, m2 in t2:
                d012 = d01 + d2
                if d012 >= bd:
                    break
                r2 = r1 - g2
                c2 = conv[c1][m2]
                for d3, g3, m3 in t3:
                    total = d012 + d3
                    if total >= bd:
                        break
                    x = r2 - g3
                    if x >= 3 or (x >= 0 and conv[c2][m3] >> x & 1):
                        bd = total
                        break
    return bd


def _melds_D(
    vecs: list[int], s: int, ace_high: bool, bound: int = 1 << 30, enough: int = 0
) -> int | None:
    """The fewest real tiles left out (D) by a cover whose extra slots s - G can be filled
    (see the module doc), or None when no cover leaves out fewer than ``bound``; the search
    stops at a cover leaving out ``enough`` or fewer."""
    if not _PRE:
        _load_tables()
    pre = _PRE[ace_high]
    v0, v1, v2, v3 = vecs
    # the numbers held in two colours or more (the only ones with groups), lowest first;
    # each group option as what it takes from each colour, its empty slots and its mask
    p0 = (v0 | v0 >> 1) & 0x5555555
    p1 = (v1 | v1 >> 1) & 0x5555555
    p2 = (v2 | v2 >> 1) & 0x5555555
    p3 = (v3 | v3 >> 1) & 0x5555555
    multi = (p0 & (p1 | p2 | p3)) | (p1 & (p2 | p3)) | (p2 & p3)
    per_number = []
    while multi:
        low = multi & -multi
        multi ^= low
        b = low.bit_length() - 1
        key = (v0 >> b & 3) | (v1 >> b & 3) << 2 | (v2 >> b & 3) << 4 | (v3 >> b & 3) << 6
        per_number.append(_OPTS_AT[b >> 1][key])
    conv = _CONV3
    sid, k, forms = _PAIRS.get(ace_high) or _pairs_for(ace_high)
    r_hi = _R_HI - _R_LO

    # the last number's options, then no group there, are the leaves, looped over in place
    # (no node of their own; putting the number with the most options last measured slower)
    finals = [*per_number.pop(), _NO_GROUP] if per_number else [_NO_GROUP]
    last = len(per_number)
    bd = bound
    stack = [(0, v0, v1, v2, v3, 0, 1)]
    push = stack.append
    pop = stack.pop
    while stack:
        i, w0, w1, w2, w3, G0, M0 = pop()
        # a cover needs s - G - (its colours' g) >= 0, and a colour's g = c - d is at least
        # -d: a node whose groups' empty slots reach s + (best D so far) cannot lead to a
        # better cover (deeper groups only add empty slots)
        if s + bd <= G0:
            continue
        if i < last:
            i += 1
            push((i, w0, w1, w2, w3, G0, M0))  # no group at this number: after the groups
            for u0, u1, u2, u3, c, m in per_number[i - 1]:
                push((i, w0 - u0, w1 - u1, w2 - u2, w3 - u3, G0 + c, conv[M0][m]))
            continue
        # the leaves: colours 0-1 as a pair form's points, 2-3 as its rows
        cm0 = conv[M0]
        for u0, u1, u2, u3, c, m in finals:
            G = G0 + c
            if s + bd <= G:
                continue
            x0 = w0 - u0
            x1 = w1 - u1
            x2 = w2 - u2
            x3 = w3 - u3
            try:
                points = forms[sid[x0] * k + sid[x1]][0]
                rows = forms[sid[x2] * k + sid[x3]][1]
            except KeyError:  # a colour longer than the pair forms': the four-colour knapsack
                bd = _leaf4(pre, ace_high, (x0, x1, x2, x3), s - G, cm0[m], bd)
                if bd <= enough:
                    return bd if bd < bound else None
                continue
            room = s - G - _R_LO
            cm = conv[cm0[m]]
            for d01, g, mm in points:
                if d01 >= bd:
                    break
                r = room - g
                if r >= 0:
                    total = d01 + rows[cm[mm]][r if r < r_hi else r_hi]
                    if total < bd:
                        bd = total
            if bd <= enough:
                return bd if bd < bound else None
    return bd if bd < bound else None


def melds_complete(tiles: Sequence[int], okey_kind: int, ace_high: bool) -> bool:
    """Whether the tiles (any number, okeys wild) split entirely into runs and groups:
    the colour tables' answer to ``evaluate.is_winning`` without the pairs."""
    vecs, j = _vectors(tiles, okey_kind)
    return _melds_D(vecs, len(tiles) - sum(map(tiles_in, vecs)), ace_high, 1) == 0


def _melds_complete_vecs(vecs: list[int], j: int, ace_high: bool, n: int) -> bool:
    """melds_complete on packed colours; True (no verdict) when a colour holds more tiles
    than the stored tables (its table would take milliseconds: the caller's own search
    is quicker)."""
    counts = [tiles_in(v) for v in vecs]
    if max(counts) > BIG_TILES:
        return True
    return _melds_D(vecs, n - sum(counts), ace_high, 1) == 0


def _melds_deficiency(
    vecs: list[int], j: int, T: int, ace_high: bool, bound: int = 1 << 30, n: int | None = None
) -> int | None:
    """The runs-and-groups deficiency for T tiles in melds, or None when it is not below
    ``bound`` (``n``: the rack's size, real tiles and okeys, when the caller knows it)."""
    if n is None:
        v0, v1, v2, v3 = vecs
        w = v0 | v1 << 28 | v2 << 56 | v3 << 84
        n_real = (w & _K4).bit_count() + 2 * (w >> 1 & _K4).bit_count()
    else:
        n_real = n - j
    extra = n_real + j - T  # tiles of the rack outside the target
    D = _melds_D(vecs, T - n_real, ace_high, bound + max(0, extra), max(0, extra))
    if D is None:
        return None
    d = max(0, D - extra)
    return d if d < bound else None


_count = tiles_in
_K4 = sum(0x5555555 << (28 * c) for c in range(4))  # the low bit of every count, 4 colours


def _pairs_deficiency(vecs: list[int], j: int, n_pairs: int) -> int:
    v0, v1, v2, v3 = vecs
    w = v0 | v1 << 28 | v2 << 56 | v3 << 84  # the colours packed again (2 free bits apart)
    hi = w >> 1
    doubles = (hi & _K4).bit_count()
    singles = (w & ~hi & _K4).bit_count()
    p = min(doubles, n_pairs)
    k = 2 * p + min(singles + (doubles - p), n_pairs - p)
    return max(0, 2 * n_pairs - j - k)


# ------------------------------------------------------------------ openings

_NEG = -(1 << 30)


@cache
def _fresh_value(mode: str, k: int) -> int:
    """The best total of melds made of k tiles that are all put in (k = 0: 0)."""
    if k == 0:
        return 0
    if k < 3:
        return _NEG
    best = _NEG
    for size in range(3, min(k, 13) + 1):
        rest = _fresh_value(mode, k - size)
        if rest == _NEG:
            continue
        vals = [_RUN_VAL[mode][(s, s + size - 1)] for s in range(1, 14 - size + 1)]
        if size in (3, 4):
            vals.append(_group_value(mode, 13, (size,)))
        best = max(best, max(vals) + rest)
    return best


def _opening_search(vecs: tuple[int, ...], mode: str, ace_high: bool):
    """best(w, f): the highest total of runs and groups holding some of the real tiles of
    ``vecs`` with at most w empty slots and at most f tiles in all (None: no meld)."""
    top = 14 if ace_high else 13

    @cache
    def rec(v: tuple[int, ...], w: int, f: int) -> int:
        # the lowest real tile left: colour c, number n
        c = next((x for x in range(4) if v[x]), None)
        if c is None:
            return _fresh_value(mode, 0)
        vec = v[c]
        # a number held twice has only the high bit of its field set: align to the field
        n = ((vec & -vec).bit_length() - 1) // 2 + 1
        low = 2 * (n - 1)
        bit = 1 << low
        skip = list(v)
        skip[c] = vec - bit
        best = rec(tuple(skip), w, f)
        # groups at number n: this tile, real tiles of higher colours, empty slots
        others = [x for x in range(c + 1, 4) if v[x] >> low & 3]
        for mask in range(1 << len(others)):
            reals = [others[i] for i in range(len(others)) if mask >> i & 1]
            r = 1 + len(reals)
            for size in (3, 4):
                k = size - r
                if k < 0 or k > w or size > f:
                    continue
                rest = list(v)
                rest[c] = vec - bit
                for x in reals:
                    rest[x] -= bit
                sub = rec(tuple(rest), w - k, f - size)
                if sub != _NEG:
                    best = max(best, sub + _group_value(mode, n, (size,)))
        # runs holding this tile as their lowest real tile (the colour's lower numbers
        # are gone, so the slots below it are empty)
        for s in range(max(1, n - w), n + 1):
            stack = [(n + 1, n - s, vec - bit)]
            while stack:
                q, k, cv = stack.pop()
                length = q - s
                if 3 <= length <= f:
                    rest = list(v)
                    rest[c] = cv
                    sub = rec(tuple(rest), w - k, f - length)
                    if sub != _NEG:
                        best = max(best, sub + _RUN_VAL[mode][(s, q - 1)])
                if q > top or length >= 13 or length >= f:
                    continue
                if q <= 13 and cv >> (2 * (q - 1)) & 3:
                    stack.append((q + 1, k, cv - (1 << (2 * (q - 1)))))
                if k < w:
                    stack.append((q + 1, k + 1, cv))
        if n == 1 and ace_high:  # the 1 played high: a run q + 1 .. 14, filled downwards
            stack = [(13, 0, vec - bit)]
            while stack:
                q, k, cv = stack.pop()
                length = 14 - q
                if 3 <= length <= f:
                    rest = list(v)
                    rest[c] = cv
                    sub = rec(tuple(rest), w - k, f - length)
                    if sub != _NEG:
                        best = max(best, sub + _RUN_VAL[mode][(q + 1, 14)])
                if length >= 13 or length >= f:
                    continue
                if cv >> (2 * (q - 1)) & 3:
                    stack.append((q - 1, k, cv - (1 << (2 * (q - 1)))))
                if k < w:
                    stack.append((q - 1, k + 1, cv))
        return best

    def best(w: int, f: int) -> int:
        # empty slots left over may make fresh melds of their own
        out = _NEG
        for extra in range(0, min(w, f) + 1):
            fv = _fresh_value(mode, extra)
            if fv == _NEG:
                continue
            sub = rec(vecs, w - extra, f - extra)
            if sub != _NEG:
                out = max(out, sub + fv)
        return out

    return best


def _open_pairs_wilds(vecs: list[int], n_pairs: int, need: int, mode: str) -> int | None:
    """The fewest empty slots of an opening of at least n_pairs pairs totalling at least
    ``need`` (seventeen: each pair its number; sum: twice it) within the room given."""
    doubles, singles = [], []
    for _c, v in enumerate(vecs):
        for n in range(13):
            x = v >> (2 * n) & 3
            if x == 2:
                doubles.append(n + 1)
            elif x == 1:
                singles.append(n + 1)
    doubles.sort(reverse=True)
    singles.sort(reverse=True)
    per = 1 if mode == "seventeen" else 2
    best = None
    for a in range(min(len(doubles), n_pairs) + 1):
        for b in range(min(len(singles), n_pairs - a) + 1):
            fresh = n_pairs - a - b
            total = per * (sum(doubles[:a]) + sum(singles[:b]) + 13 * fresh)
            if total >= need:
                w = b + 2 * fresh
                if best is None or w < best:
                    best = w
    return best


def _opening_min(rules: Any, kind: str, limit: int | None, options: Mapping | None) -> int:
    state = SimpleNamespace(limit=limit, options=dict(options or {}))
    return rules.opening_min(state, kind)


def _opening_deficiency(
    vecs: list[int],
    j: int,
    n: int,
    rules: Any,
    limit: int | None,
    options: Mapping | None,
    bound: int,
) -> int:
    room = n - 1
    mode = rules.values or "sum"
    best = min(n, bound)  # n: no opening within reach
    n_pairs = max(1, rules.pairs_opening_min_pairs)
    pneed = _opening_min(rules, PAIRS_OPENING, limit, options)
    for p in range(n_pairs, room // 2 + 1):
        w = _open_pairs_wilds(vecs, p, pneed, mode)
        if w is not None:
            best = min(best, max(0, w - j))
    if best == 0:
        return 0
    need = max(1, _opening_min(rules, "melds", limit, options))
    search = _opening_search(tuple(vecs), mode, rules.ace_high)
    for w in range(0, room + 1):
        if max(0, w - j) >= best:
            break
        if search(w, room) >= need:
            best = max(0, w - j)
            break
    return best


# ------------------------------------------------------------------ public API

_NO_BOUND = 1 << 30


def _deficiency_vec(
    vecs: list[int],
    j: int,
    n: int,
    rules: Any,
    opened: bool,
    limit: int | None,
    options: Mapping | None,
    bound: int = _NO_BOUND,
) -> int:
    """The deficiency, or some figure >= ``bound`` when it is not below ``bound``."""
    if rules.whole_rack:
        if n not in (14, 15):
            raise ValueError("a whole-rack deficiency needs 14 or 15 tiles")
        pairs = _pairs_deficiency(vecs, j, 7)
        bound = min(bound, pairs)
        melds = _melds_deficiency(vecs, j, 14, rules.ace_high, bound, n)
        return bound if melds is None else melds
    if not opened:
        return _opening_deficiency(vecs, j, n, rules, limit, options, bound)
    if n <= 1:
        return 0
    if n <= 3:
        return n - 1
    bound = min(bound, n - 1)
    d = _melds_deficiency(vecs, j, n - 1, rules.ace_high, bound, n)
    return bound if d is None else d


def deficiency(
    tiles: Sequence[int],
    okey_kind: int,
    rules: Any,
    *,
    opened: bool = False,
    limit: int | None = None,
    options: Mapping | None = None,
) -> int:
    """The fewest tiles to replace to reach a winning rack (whole-rack rule sets), an
    opening (lay-down, ``opened=False``; ``limit`` is the table's opening limit so far,
    ``options`` the table's options) or a lay-down of every tile but a final discard
    (``opened=True``). See the module doc for the exact definitions."""
    vecs, j = _vectors(tiles, okey_kind)
    return _deficiency_vec(vecs, j, len(tiles), rules, opened, limit, options)


def _add_kind(vecs: list[int], j: int, kind: int, okey_kind: int) -> tuple[list[int], int]:
    if kind == okey_kind:
        return vecs, j + 1
    if kind == FALSE_KIND:
        kind = okey_kind
    out = list(vecs)
    out[kind // 13] += 1 << (2 * (kind % 13))
    return out, j


def _fits(vecs: list[int], j: int, kind: int, okey_kind: int) -> bool:
    """Can the rack hold one more tile of ``kind`` (two copies of each, two okeys)?"""
    if kind == okey_kind:
        return j < 2
    if kind == FALSE_KIND:
        kind = okey_kind
    return (vecs[kind // 13] >> (2 * (kind % 13)) & 3) < 2


def ukeire(
    tiles: Sequence[int],
    okey_kind: int,
    rules: Any,
    unseen: Mapping[int, int],
    *,
    opened: bool = False,
    limit: int | None = None,
    options: Mapping | None = None,
) -> tuple[int, dict[int, int]]:
    """(deficiency, {kind: unseen copies}) for the kinds whose drawing lowers the
    deficiency (module doc)."""
    if rules.whole_rack and len(tiles) == 15:
        d = deficiency(tiles, okey_kind, rules)
        # the discards (one per kind, its lowest id) whose 14 tiles keep the deficiency
        kinds_seen: set[int] = set()
        keep: list[tuple[int, list[int]]] = []
        for t in sorted(tiles):
            k = kind_of(t)
            if k in kinds_seen:
                continue
            kinds_seen.add(k)
            rest = [x for x in tiles if x != t]
            if deficiency(rest, okey_kind, rules) == d:
                keep.append((t, rest))
        best: tuple[int, int, dict[int, int]] | None = None
        for t, rest in keep:
            _d14, acc = ukeire(rest, okey_kind, rules, unseen)
            key = (-sum(acc.values()), t, acc)
            if best is None or key[:2] < best[:2]:
                best = key
        assert best is not None
        return d, best[2]
    vecs, j = _vectors(tiles, okey_kind)
    n = len(tiles)
    d = _deficiency_vec(vecs, j, n, rules, opened, limit, options)
    out: dict[int, int] = {}
    if d == 0:
        return d, out
    for kind in range(FALSE_KIND + 1):
        copies = unseen.get(kind, 0)
        if copies <= 0 or not _fits(vecs, j, kind, okey_kind):
            continue
        v2, j2 = _add_kind(vecs, j, kind, okey_kind)
        if _deficiency_vec(v2, j2, n + 1, rules, opened, limit, options, d) < d:
            out[kind] = copies
    return d, out


def clear_caches() -> None:
    """Forget every colour table and search memo (the bench's cold figures)."""
    for t in _TABLES.values():
        t.clear()
    for r in (*_REC.values(), *_GREEDY.values()):
        r.cache_clear()


__all__ = ["clear_caches", "colour_table", "deficiency", "ukeire"]
