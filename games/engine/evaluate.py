"""Hand evaluation: winning racks and best arrangements (rules.md §1).

Public API (API.md):

* ``is_winning(tile_ids, okey_kind, *, ace_high=True) -> Arrangement | None``
* ``best_arrangement(tile_ids, okey_kind, *, ace_high=True, values=None, pairs=True)
  -> Arrangement``

Rules implemented: a winning rack is 14 tiles that split entirely into runs and
groups, or into seven pairs, never a mix. The two okeys (``kind == okey_kind``)
are wild; a false joker is a plain tile of the okey's kind. Runs: 3-13 tiles of
one colour, consecutive; 1 is low, or high after 13 when ``ace_high`` (12-13-1),
never both (13-1-2 is invalid). Groups: 3-4 tiles of one number, distinct
colours. Pairs: two identical tiles; an okey fills one; two okeys are a pair.

Tie-breaking (documented rule):

* ``is_winning``: a rack that is both seven pairs and runs/groups is reported as
  pairs (it scores more in ``classic`` and ``rummy``).
* ``best_arrangement`` minimises the leftover tiles; among runs-and-groups
  arrangements with as few leftovers it maximises the opening total under
  ``values`` ("sum": each tile its number, an okey the tile it plays, a 1 counts
  1 also in 12-13-1 [D9]; "seventeen": ``melds.seventeen_value``). With
  ``values=None`` the "sum" total is still used as the hidden tie-break, so okeys
  stand for the highest tiles they can (R5 R6 okey → R7), but
  ``opening_total`` is None.
* with ``pairs=True`` the all-pairs arrangement competes: fewer leftovers wins;
  on equal leftovers pairs win when ``values`` is None (whole-rack variants:
  seven pairs score more), runs and groups win when ``values`` is given (a
  lay-down opener with runs and groups stays free to lay and add).
  The pairs arrangement puts every identical pair down, then each okey fills the
  single of highest number, then two spare okeys pair together.
* an arrangement with no meld at all has ``kind`` None.

Method: a rack becomes one count vector per colour (2 bits a number) plus the
number of okeys. Groups are enumerated number by number (precomputed option
tables); what is left of each colour goes to a memoised per-colour run solver
that returns, for 0, 1 and 2 okeys used, the best score (1000 per leftover tile
minus the meld value) and a plan. The memo is shared between calls (bounded).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product

from .melds import GROUP, PAIR, RUN, Shape, seventeen_value
from .tiles import FALSE_KIND, make_kind, number_of_kind

MELDS, PAIRS = "melds", "pairs"
VALUES = (None, "sum", "seventeen")
_LEFT = 1000  # score of one leftover tile (meld values stay far below this)
_CACHE_LIMIT = 400_000


@dataclass(frozen=True)
class Arrangement:
    """How a rack splits: ``kind`` "melds" (runs and groups), "pairs" or None (nothing)."""

    kind: str | None
    melds: list[Shape] = field(default_factory=list)
    leftover: list[int] = field(default_factory=list)
    opening_total: int | None = None


# ---------------------------------------------------------------- meld values


def _run_value(mode: str, colour: int, s: int, e: int) -> int:
    plays = [make_kind(colour, 1 if q == 14 else q) for q in range(s, e + 1)]
    if mode == "sum":
        return sum(number_of_kind(k) for k in plays)
    return seventeen_value(RUN, plays)


# _RUN_VAL[mode][(s, e)] (value does not depend on the colour)
_RUN_VAL = {
    mode: {(s, e): _run_value(mode, 0, s, e) for s in range(1, 15) for e in range(s + 2, 15)}
    for mode in ("sum", "seventeen")
}


def _group_sizes(total: int) -> tuple[int, ...] | None:
    return {3: (3,), 4: (4,), 6: (3, 3), 7: (3, 4), 8: (4, 4), 9: (3, 3, 3), 10: (3, 3, 4)}.get(
        total
    )


def _group_value(mode: str, number: int, sizes: tuple[int, ...]) -> int:
    if mode == "sum":
        return number * sum(sizes)
    base = 17 if number == 13 else number
    return sum(base + (1 if s == 4 else 0) for s in sizes)


# ------------------------------------------------------------ group options

# _GROUP_SPLIT[(u4, o)] = groups, each (tuple of real colours, number of okeys):
# how u4[c] real tiles of each colour plus o okeys form groups of one number.


def _split_groups(u4: tuple[int, ...], o: int):
    total = sum(u4) + o
    sizes = _group_sizes(total)
    if sizes is None or max(u4) > len(sizes):
        return None
    m = len(sizes)
    # each colour with u copies goes to u distinct groups
    choices = []
    for c in range(4):
        opts = [
            tuple(g for g in range(m) if mask >> g & 1)
            for mask in range(1 << m)
            if bin(mask).count("1") == u4[c]
        ]
        choices.append([(c, o_) for o_ in opts])
    for combo in product(*choices):
        reals = [[] for _ in range(m)]
        for c, gs in combo:
            for g in gs:
                reals[g].append(c)
        if any(not r for r in reals):
            continue
        okeys = [sizes[g] - len(reals[g]) for g in range(m)]
        if any(k < 0 for k in okeys) or sum(okeys) != o:
            continue
        return tuple((tuple(reals[g]), okeys[g]) for g in range(m))
    return None


_GROUP_SPLIT: dict[tuple[tuple[int, ...], int], tuple] = {}
for _u4 in product(range(3), repeat=4):
    for _o in range(3):
        _sp = _split_groups(_u4, _o)
        if _sp is not None:
            _GROUP_SPLIT[(_u4, _o)] = _sp

# _GROUP_OPTS[counts4] = [(u4, o, n_real, sizes), …] for every feasible group use
_GROUP_OPTS: dict[tuple[int, ...], list] = {}
for _c4 in product(range(3), repeat=4):
    _opts = []
    for _u4 in product(*(range(c + 1) for c in _c4)):
        for _o in range(3):
            _sp = _GROUP_SPLIT.get((_u4, _o))
            if _sp is not None:
                _sizes = tuple(len(r) + k for r, k in _sp)
                _opts.append((_u4, _o, sum(_u4), _sizes))
    _GROUP_OPTS[_c4] = _opts


def _lone_run_best(mode: str, n: int, ace_high: bool) -> int:
    top = 14 if ace_high else 13
    positions = [n, 14] if (n == 1 and ace_high) else [n]
    best = -1
    for p in positions:
        for s in range(p - 2, p + 1):
            if s >= 1 and s + 2 <= top:
                best = max(best, _RUN_VAL[mode][(s, s + 2)])
    return best


# keep a group of one real tile and two okeys only where it beats the best run
# that tile could make with the same two okeys (else the run does as well)
_KEEP_LONE_GROUP = {
    (mode, ace_high, n): _group_value(mode, n, (3,)) > _lone_run_best(mode, n, ace_high)
    for mode in ("sum", "seventeen")
    for ace_high in (True, False)
    for n in range(1, 14)
}


# ------------------------------------------------------- per-colour run solver
# A colour's tiles are a vector with 2 bits per position (position p at bits
# 2(p-1)); position 14 is the high ace. The solver returns a 3-tuple indexed by
# okeys used (0, 1, 2) of (score, plan) or None, where score = 1000 per leftover
# real tile - value of the runs, plan = (run, plan) cons list or None, and
# run = (s, e, okey positions).

_INF_ENTRY = None
_memo14: dict[tuple[str, int], dict[int, tuple]] = {}
_memo13: dict[tuple[str, bool], dict[int, tuple]] = {}


def _solver(mode: str, ace_high: bool):
    top = 14 if ace_high else 13
    key = (mode, ace_high)
    memo = _memo14.setdefault(key, {})  # type: ignore[arg-type]
    vals = _RUN_VAL[mode]

    def rec(vec: int) -> tuple:
        r = memo.get(vec)
        if r is not None:
            return r
        if vec == 0:
            r = ((0, None), None, None)
            memo[vec] = r
            return r
        low = (vec & -vec).bit_length() - 1
        p = low // 2 + 1
        sub = rec(vec - (1 << (2 * (p - 1))))
        best = [None, None, None]
        for u in range(3):
            if sub[u] is not None:
                best[u] = (sub[u][0] + _LEFT, sub[u][1])
        removed0 = 1 << (2 * (p - 1))
        for s in range(max(1, p - 2), p + 1):
            k0 = p - s
            # DFS over the positions after p: (next position, okeys, removed, okey positions)
            stack = [(p + 1, k0, removed0, tuple(range(s, p)))]
            while stack:
                q, k, removed, okp = stack.pop()
                length = q - s
                if length >= 3:
                    sub = rec(vec - removed)
                    v = vals[(s, q - 1)]
                    run = (s, q - 1, okp)
                    for u in range(3 - k):
                        e = sub[u]
                        if e is not None:
                            sc = e[0] - v
                            cur = best[u + k]
                            if cur is None or sc < cur[0]:
                                best[u + k] = (sc, (run, e[1]))
                if q > top or length >= 13:
                    continue
                bit = 2 * (q - 1)
                if (vec - removed) >> bit & 3:
                    stack.append((q + 1, k, removed + (1 << bit), okp))
                if k < 2:
                    stack.append((q + 1, k + 1, removed, okp + (q,)))
        r = tuple(best)
        memo[vec] = r
        return r

    return rec


_SOLVERS = {(m, a): _solver(m, a) for m in ("sum", "seventeen") for a in (True, False)}


def _colour_table(mode: str, ace_high: bool) -> dict[int, tuple]:
    return _memo13.setdefault((mode, ace_high), {})


def _solve_colour(vec: int, mode: str, ace_high: bool, table: dict[int, tuple]) -> tuple:
    """Best (score, plan) per okeys used for a 13-position colour vector."""
    rec = _SOLVERS[(mode, ace_high)]
    c1 = vec & 3
    if not ace_high or not c1:
        r = rec(vec)
    else:
        best = list(rec(vec))
        for x in range(1, c1 + 1):  # x of the 1s play high, after 13
            alt = rec(vec - x + (x << 26))
            for u in range(3):
                a = alt[u]
                if a is not None and (best[u] is None or a[0] < best[u][0]):
                    best[u] = a
        r = tuple(best)
    if len(table) > _CACHE_LIMIT:
        table.clear()
        _memo14[(mode, ace_high)].clear()  # type: ignore[index]
    table[vec] = r
    return r


# ------------------------------------------------------------- rack analysis


def _split_rack(tile_ids, okey_kind: int):
    """(four colour vectors, okey ids, {kind: [ids]}) of a rack."""
    vecs = [0, 0, 0, 0]
    okeys: list[int] = []
    pool: dict[int, list[int]] = {}
    for t in tile_ids:
        k = FALSE_KIND if t >= 104 else t >> 1
        if k == okey_kind:
            okeys.append(t)
            continue
        if k == FALSE_KIND:
            k = okey_kind
        c, n = divmod(k, 13)
        vecs[c] += 1 << (2 * n)
        lst = pool.get(k)
        if lst is None:
            pool[k] = [t]
        else:
            lst.append(t)
    return vecs, okeys, pool


def _search(vecs: list[int], j: int, mode: str, ace_high: bool, need_all: bool):
    """Best (score, group choices, colour plans, okeys per colour) or None.

    ``need_all``: stop at the first arrangement that leaves nothing (is_winning).
    """
    table = _colour_table(mode, ace_high)
    # numbers with group options
    numbers = []
    for n in range(13):
        b = 2 * n
        c4 = (vecs[0] >> b & 3, vecs[1] >> b & 3, vecs[2] >> b & 3, vecs[3] >> b & 3)
        if c4 == (0, 0, 0, 0):
            continue
        opts = []
        for u4, o, nreal, sizes in _GROUP_OPTS[c4]:
            if o > j:
                continue
            if nreal == 1 and (need_all or not _KEEP_LONE_GROUP[(mode, ace_high, n + 1)]):
                continue
            score = -_group_value(mode, n + 1, sizes)
            delta = (u4[0] << b, u4[1] << b, u4[2] << b, u4[3] << b)
            opts.append((o, score, delta, (n + 1, u4, o)))
        if opts:
            numbers.append(opts)

    best: list = [None]
    n_numbers = len(numbers)

    def leaf(v0: int, v1: int, v2: int, v3: int, left: int, gscore: int, chosen: tuple) -> bool:
        r0 = table.get(v0) or _solve_colour(v0, mode, ace_high, table)
        r1 = table.get(v1) or _solve_colour(v1, mode, ace_high, table)
        r2 = table.get(v2) or _solve_colour(v2, mode, ace_high, table)
        r3 = table.get(v3) or _solve_colour(v3, mode, ace_high, table)
        if left == 0:
            a, b, c, d = r0[0], r1[0], r2[0], r3[0]
            if a is None or b is None or c is None or d is None:
                return False
            total = gscore + a[0] + b[0] + c[0] + d[0]
            cand = (total, chosen, (a[1], b[1], c[1], d[1]), (0, 0, 0, 0))
        else:
            # fold the okey use over the four colours: fold[k] = (score, uses)
            fold = {0: (0, ())}
            for r in (r0, r1, r2, r3):
                nf: dict[int, tuple] = {}
                for k, (sc, uses) in fold.items():
                    for u in range(left - k + 1):
                        e = r[u]
                        if e is None:
                            continue
                        s2 = sc + e[0]
                        cur = nf.get(k + u)
                        if cur is None or s2 < cur[0]:
                            nf[k + u] = (s2, uses + (u,))
                fold = nf
            cand = None
            for k, (sc, uses) in fold.items():
                total = gscore + sc + (left - k) * _LEFT
                if cand is None or total < cand[0]:
                    cand = (total, chosen, None, uses)
            if cand is None:
                return False
            rs = (r0, r1, r2, r3)
            cand = (
                cand[0],
                chosen,
                tuple(rs[c][cand[3][c]][1] for c in range(4)),
                cand[3],
            )
        if best[0] is None or cand[0] < best[0][0]:
            best[0] = cand
        return need_all and cand[0] < _LEFT // 2

    def rec(i: int, v0, v1, v2, v3, left, gscore, chosen) -> bool:
        if i == n_numbers:
            return leaf(v0, v1, v2, v3, left, gscore, chosen)
        if rec(i + 1, v0, v1, v2, v3, left, gscore, chosen):
            return True
        for o, score, delta, tag in numbers[i]:
            if o > left:
                continue
            if rec(
                i + 1,
                v0 - delta[0],
                v1 - delta[1],
                v2 - delta[2],
                v3 - delta[3],
                left - o,
                gscore + score,
                chosen + (tag,),
            ):
                return True
        return False

    rec(0, vecs[0], vecs[1], vecs[2], vecs[3], j, 0, ())
    return best[0]


def _build(found, pool: dict[int, list[int]], okeys: list[int], okey_kind: int):
    """Shapes and leftover ids from a search result."""
    pool = {k: sorted(v) for k, v in pool.items()}
    okeys = sorted(okeys)
    shapes: list[Shape] = []
    _total, chosen, plans, _uses = found
    for number, u4, o in chosen:
        for reals, n_ok in _GROUP_SPLIT[(u4, o)]:
            missing = [c for c in range(4) if c not in reals][:n_ok]
            members = sorted([(c, False) for c in reals] + [(c, True) for c in missing])
            tiles, plays = [], []
            for c, wild in members:
                k = make_kind(c, number)
                tiles.append(okeys.pop(0) if wild else pool[k].pop(0))
                plays.append(k)
            shapes.append(Shape(GROUP, tuple(tiles), tuple(plays)))
    for colour, plan in enumerate(plans):
        while plan is not None:
            (s, e, okp), plan = plan
            tiles, plays = [], []
            for q in range(s, e + 1):
                k = make_kind(colour, 1 if q == 14 else q)
                tiles.append(okeys.pop(0) if q in okp else pool[k].pop(0))
                plays.append(k)
            shapes.append(Shape(RUN, tuple(tiles), tuple(plays)))
    leftover = sorted([t for ts in pool.values() for t in ts] + okeys)
    return shapes, leftover


def _pairs(pool: dict[int, list[int]], okeys: list[int], okey_kind: int, mode: str | None):
    """The all-pairs arrangement: (shapes, leftover, total)."""
    okeys = sorted(okeys)
    shapes: list[Shape] = []
    singles: list[tuple[int, int]] = []
    for k in sorted(pool):
        ts = sorted(pool[k])
        if len(ts) >= 2:
            shapes.append(Shape(PAIR, (ts[0], ts[1]), (k, k)))
            singles.extend((k, t) for t in ts[2:])
        else:
            singles.append((k, ts[0]))
    singles.sort(key=lambda kt: (-number_of_kind(kt[0]), kt[0]))
    leftover: list[int] = []
    for k, t in singles:
        if okeys:
            shapes.append(Shape(PAIR, (t, okeys.pop(0)), (k, k)))
        else:
            leftover.append(t)
    if len(okeys) >= 2:
        shapes.append(Shape(PAIR, (okeys[0], okeys[1]), (okey_kind, okey_kind)))
        okeys = okeys[2:]
    leftover += okeys
    if mode is None:
        total = 0
    elif mode == "sum":
        total = sum(2 * number_of_kind(s.plays[0]) for s in shapes)
    else:
        total = sum(seventeen_value(PAIR, s.plays) for s in shapes)
    return shapes, sorted(leftover), total


def _seven_pairs(vecs: list[int], j: int) -> bool:
    singles = 0
    for v in vecs:
        # count positions holding exactly one tile
        x = v & ~(v >> 1) & 0x1555555  # low bit set, high bit clear → count 1
        singles += bin(x).count("1")
    return singles <= j


_NEAR = 0  # placeholder for readability


def _quick_reject(vecs: list[int], j: int, ace_high: bool) -> bool:
    """A necessary condition for a winning rack: every real tile can be in a meld.

    Presence masks per colour (bit n-1 for number n; with ace_high a 1 also
    appears at bit 13). A tile with no other real tile within two numbers of its
    colour and no other colour at its number needs both okeys.
    """
    masks = []
    for v in vecs:
        m = 0
        x = (v | (v >> 1)) & 0x1555555
        # compress every other bit
        i = 0
        while x:
            if x & 1:
                m |= 1 << i
            x >>= 2
            i += 1
        masks.append(m)
    a, b, c, d = masks
    two = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)
    three = (a & b & c) | (a & b & d) | (a & c & d) | (b & c & d)
    need = 0
    for ci, m in enumerate(masks):
        if not m:
            continue
        mm = m | ((m & 1) << 13) if ace_high else m
        if j == 0:
            # a run of reals: (n-2, n-1), (n-1, n+1) or (n+1, n+2)
            cov = (((mm << 1) & (mm << 2)) | ((mm << 1) & (mm >> 1)) | ((mm >> 1) & (mm >> 2))) & mm
            cov = (cov | (cov >> 13)) & 0x1FFF
            bad = m & ~(cov | three)
            if bad:
                return True
        else:
            nb = ((mm << 1) | (mm << 2) | (mm >> 1) | (mm >> 2)) & mm
            nb = (nb | (nb >> 13)) & 0x1FFF
            lone = m & ~(nb | two)
            if lone:
                v = vecs[ci]
                while lone:
                    low = lone & -lone
                    need += 2 * (v >> (2 * (low.bit_length() - 1)) & 3)
                    lone ^= low
                if need > j:
                    return True
    return False


# ------------------------------------------------------------------ public API


def is_winning(
    tile_ids: list[int] | tuple[int, ...], okey_kind: int, *, ace_high: bool = True
) -> Arrangement | None:
    """The winning arrangement of a 14-tile rack, or None.

    Runs and groups covering all 14 tiles, or seven pairs (never mixed); when
    both are possible the pairs arrangement is returned. ``opening_total`` is
    None.
    """
    if len(tile_ids) != 14:
        return None
    vecs, okeys, pool = _split_rack(tile_ids, okey_kind)
    j = len(okeys)
    if _seven_pairs(vecs, j):
        shapes, _left, _ = _pairs(pool, okeys, okey_kind, None)
        return Arrangement(PAIRS, shapes, [], None)
    if _quick_reject(vecs, j, ace_high):
        return None
    found = _search(vecs, j, "sum", ace_high, True)
    if found is None or found[0] >= _LEFT // 2:
        return None
    shapes, leftover = _build(found, pool, okeys, okey_kind)
    return Arrangement(MELDS, shapes, leftover, None)


def best_arrangement(
    tile_ids: list[int] | tuple[int, ...],
    okey_kind: int,
    *,
    ace_high: bool = True,
    values: str | None = None,
    pairs: bool = True,
) -> Arrangement:
    """The arrangement leaving the fewest tiles (see the module doc for ties).

    ``values``: None (whole-rack variants), "sum" (fifty-one) or "seventeen";
    ``opening_total`` is the total under ``values`` (None when values is None).
    """
    if values not in VALUES:
        raise ValueError(f"values must be one of {VALUES}")
    mode = values or "sum"
    vecs, okeys, pool = _split_rack(tile_ids, okey_kind)
    j = len(okeys)
    found = _search(vecs, j, mode, ace_high, False)
    shapes, leftover = _build(found, pool, okeys, okey_kind)
    total = None
    if values is not None:
        total = (len(leftover) * _LEFT - found[0]) if shapes else 0
    best = Arrangement(MELDS if shapes else None, shapes, leftover, total)
    if pairs:
        ps, pl, pt = _pairs(pool, okeys, okey_kind, values)
        if ps and (
            len(pl) < len(leftover) or (len(pl) == len(leftover) and (values is None or not shapes))
        ):
            best = Arrangement(PAIRS, ps, pl, pt if values is not None else None)
    return best
