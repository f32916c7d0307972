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
  The pairs arrangement puts every identical pair down; the okeys then fill the
  singles of highest number or pair together, whichever leaves fewer tiles
  (then the higher total; on a full tie the two okeys pair together).
* after the total, fewer melds win (R1 … R13 is one run, not four); the choice
  among arrangements that still tie is deterministic but unspecified.
* an arrangement with no meld at all has ``kind`` None.

Method: a rack becomes one count vector per colour (2 bits a number) plus the
number of okeys. Groups are enumerated number by number (precomputed option
tables); what is left of each colour goes to a memoised per-colour run solver
that returns, for 0, 1 and 2 okeys used, the best score (a million per leftover
tile, minus a thousand per point of meld value, plus one per meld) and a plan.
The memo is shared between calls (bounded); the solver's answers for colours of up
to ten tiles are precomputed (``efftables/solved.py``, ``solver_tables.bin``: scores
and first moves, the same answers), so a rack the process has never seen is mostly
table reads. ``is_winning`` first rejects racks with a tile that no meld can hold,
and forces into groups the tiles that no run can hold; it needs any complete
arrangement, not the best, so it judges each colour by its precomputed cover mask
(``efftables/cover.py``: with which numbers of okeys runs hold all its tiles) and
stops at the first complete arrangement, whose runs it lays out from the same masks
(a colour with one tile a number and no okey: its rows of numbers, from a table; with
okeys: each okey put where the mask says the rest still covers, then the rows). Both
builders lay the groups out with one helper (``_group_shapes``) and take the tiles by kind,
the lower id first (``_next_ids``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product
from time import process_time as _process_time
from typing import Any

from .efficiency import _melds_complete_vecs
from .efftables import cover as _cover
from .efftables import solved as _solved
from .melds import GROUP, PAIR, RUN, Shape, seventeen_value
from .tiles import FALSE_KIND, make_kind, number_of_kind

MELDS, PAIRS = "melds", "pairs"
VALUES = (None, "sum", "seventeen")
# Scores (lower is better): _LEFT per leftover tile, minus _VAL per point of meld
# value, plus 1 per meld (so equal totals prefer fewer, longer melds).
_LEFT = 1_000_000
_VAL = 1000
# memo bounds per (values, ace rule): about 0.5 kB an entry, cleared when exceeded
_CACHE_LIMIT = 60_000  # colour vectors
_MEMO_LIMIT = 150_000  # solver states


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
        reals: list[list[int]] = [[] for _ in range(m)]
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

# bit masks of the numbers (bit n-1) where a lone-tile group can beat a run
_LONE_MASK = {
    (mode, ace_high): sum(
        1 << (n - 1) for n in range(1, 14) if _KEEP_LONE_GROUP[(mode, ace_high, n)]
    )
    for mode in ("sum", "seventeen")
    for ace_high in (True, False)
}

# options per count 4-tuple, split by the number of real tiles used:
# (okeys, packed use (colour c at bit 28c), u4, total tiles, n groups, n groups of 4)
_OPTS_MULTI: dict[tuple[int, ...], list] = {}
_OPTS_LONE: dict[tuple[int, ...], list] = {}
for _c4, _opts in _GROUP_OPTS.items():
    _multi: list[tuple] = []
    _lone: list[tuple] = []
    for _u4, _o, _nreal, _sizes in _opts:
        _packed = _u4[0] | _u4[1] << 28 | _u4[2] << 56 | _u4[3] << 84
        _entry = (_o, _packed, _u4, sum(_sizes), len(_sizes), _sizes.count(4))
        (_lone if _nreal == 1 else _multi).append(_entry)
    _multi.sort(key=lambda e: (e[0], -e[3]))
    _OPTS_MULTI[_c4] = _multi
    _OPTS_LONE[_c4] = _lone


# ------------------------------------------------------- per-colour run solver
# A colour's tiles are a vector with 2 bits per position (position p at bits
# 2(p-1)); position 14 is the high ace. A rack is packed into one int: colour c
# at bit 28c, the number of real okeys at bit 112.
#
# The solver gives, for 0, 1 and 2 okeys used in the colour's runs, the best
# (score, plan) or None, where score = _LEFT per leftover real tile - _VAL × the value
# of the runs, plan = (run, plan) cons list or None, run = (s, e, okey positions).

_M26 = (1 << 26) - 1
_OK_SHIFT = 112
_INF = 1 << 40
_memo14: dict[tuple[str, bool], dict[int, tuple]] = {}
_plans13: dict[tuple[str, bool], dict[int, tuple]] = {}
_scores13: dict[tuple[str, bool], dict[int, tuple[int, int, int, int]]] = {}


def _solver(mode: str, ace_high: bool, tables: bool = True):
    """The memoised run solver of one value mode and ace rule. ``tables``: a state of up to
    ``_solved.SOLVED_TILES`` tiles is read from the precomputed tables (same answers;
    ``efftables/solved.py`` makes them with ``tables=False`` and its own memo)."""
    key = (mode, ace_high)
    top = 14 if ace_high else 13
    memo = _memo14.setdefault(key, {}) if tables else {}
    vals = _RUN_VAL[mode]
    small = _solved.SOLVED_TILES
    single = 0x5555555  # the low bit of each of the 14 positions

    get = memo.get

    def rec(vec: int) -> tuple:
        r = get(vec)
        if r is not None:
            return r
        if vec == 0:
            r = ((0, None), None, None)
            memo[vec] = r
            return r
        if tables and (vec & single).bit_count() + 2 * (vec >> 1 & single).bit_count() <= small:
            tab = _SOLVED_BY.get(key)
            if tab is not None:
                raw = tab.state(vec)
                if raw is not None:
                    # a plan read from the tables is (tables, state, okeys), walked when
                    # the arrangement is built (_plan_list); a solver plan is a cons list
                    # of (run, plan) pairs
                    a, b, c = raw
                    r = (
                        None if a == _INF else (a, (tab, vec, 0)),
                        None if b == _INF else (b, (tab, vec, 1)),
                        None if c == _INF else (c, (tab, vec, 2)),
                    )
                    memo[vec] = r
                    return r
        low = (vec & -vec).bit_length() - 1
        p = low // 2 + 1
        removed0 = 1 << (2 * (p - 1))
        sub = rec(vec - removed0)
        best: list[tuple[int, Any] | None] = [None, None, None]
        for u in range(3):
            if sub[u] is not None:
                best[u] = (sub[u][0] + _LEFT, sub[u][1])
        for s in range(max(1, p - 2), p + 1):
            # DFS over the positions after p: (next position, okeys, removed, okey positions)
            stack = [(p + 1, p - s, removed0, tuple(range(s, p)))]
            while stack:
                q, k, removed, okp = stack.pop()
                length = q - s
                if length >= 3:
                    x = vec - removed
                    sub = get(x) or rec(x)  # a memo hit without a call
                    v = vals[(s, q - 1)] * _VAL - 1
                    for u in range(3 - k):
                        e = sub[u]
                        if e is not None:
                            sc = e[0] - v
                            cur = best[u + k]
                            if cur is None or sc < cur[0]:
                                best[u + k] = (sc, ((s, q - 1, okp), e[1]))
                if q > top or length >= 13:
                    continue
                bit = 2 * (q - 1)
                if vec >> bit & 3:
                    stack.append((q + 1, k, removed + (1 << bit), okp))
                if k < 2:
                    stack.append((q + 1, k + 1, removed, okp + (q,)))
        r = tuple(best)
        memo[vec] = r
        return r

    rec.memo = memo  # type: ignore[attr-defined]
    return rec


_SOLVERS = {(m, a): _solver(m, a) for m in ("sum", "seventeen") for a in (True, False)}
for _key in _SOLVERS:
    _plans13[_key] = {}
    _scores13[_key] = {}


def _solve_colour(vec: int, mode: str, ace_high: bool) -> tuple[int, int, int, int]:
    """(score with no okey, extra score with 1 okey, with 2 okeys, mask of the okey
    counts that leave no tile) for a 13-position colour vector (an impossible
    okey count costs about _INF); caches the plans."""
    key = (mode, ace_high)
    rec = _SOLVERS[key]
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
    plans, scores = _plans13[key], _scores13[key]
    if len(plans) > _CACHE_LIMIT or len(_memo14[key]) > _MEMO_LIMIT:
        plans.clear()
        scores.clear()
        _memo14[key].clear()
    sc = tuple(_INF if e is None else e[0] for e in r)
    feas = sum(1 << u for u in range(3) if sc[u] < _LEFT // 2)
    out = (sc[0], sc[1] - sc[0], sc[2] - sc[0], feas)
    plans[vec] = r
    scores[vec] = out
    return out


def _colour_plan(vec: int, u: int, mode: str, ace_high: bool):
    key = (mode, ace_high)
    r = _plans13[key].get(vec)
    if r is None:
        _solve_colour(vec, mode, ace_high)
        r = _plans13[key][vec]
    return r[u]


# sums of okey counts: _CONV[a][b] = mask of i + j (≤ 2) for bits i of a, j of b
_CONV = [
    [
        sum(1 << t for t in range(3) if any(a >> i & 1 and b >> (t - i) & 1 for i in range(t + 1)))
        for b in range(8)
    ]
    for a in range(8)
]

# ------------------------------------------------------------- rack analysis

# _INC[okey_kind][tile id] = what the tile adds to the packed rack
_INC: list[list[int]] = []
for _ok in range(52):
    _row = []
    for _tid in range(106):
        _k = FALSE_KIND if _tid >= 104 else _tid >> 1
        if _k == _ok:
            _row.append(1 << _OK_SHIFT)
        else:
            if _k == FALSE_KIND:
                _k = _ok
            _row.append(1 << (28 * (_k // 13) + 2 * (_k % 13)))
    _INC.append(_row)

# presence of 7 positions: bit i set when the 2-bit count at position i is not 0
_PRES = [sum(1 << i for i in range(7) if x >> (2 * i) & 3) for x in range(1 << 14)]


def _pack(tile_ids, okey_kind: int) -> int:
    if len(set(tile_ids)) != len(tile_ids):
        raise ValueError("a rack cannot hold the same tile id twice")
    inc = _INC[okey_kind]
    return sum(map(inc.__getitem__, tile_ids))


def _forced(
    masks: list[int], vecs: list[int], j: int, ace_high: bool, three: int, two: int
) -> list[int] | None:
    """None when a rack cannot be winning, else per colour the mask of numbers whose
    tiles cannot be in a run (so they must all be in groups).

    A necessary condition for a winning rack: every real tile can be in a meld.

    With no okey a tile needs two neighbours of its colour making a run with it,
    or a group of three colours at its number. With j okeys, a tile with no other
    real tile of its colour within j + 1 numbers and no other colour at its
    number can only be in a meld with two okeys and no other real tile, so two
    such tiles need four okeys.
    """
    need = 0
    forced = [0, 0, 0, 0]
    for ci in range(4):
        m = masks[ci]
        if not m:
            continue
        mm = m | ((m & 1) << 13) if ace_high else m
        if j == 0:
            cov = (((mm << 1) & (mm << 2)) | ((mm << 1) & (mm >> 1)) | ((mm >> 1) & (mm >> 2))) & mm
            cov = (cov | (cov >> 13)) & 0x1FFF
            if m & ~(cov | three):
                return None
            forced[ci] = m & ~cov
        else:
            nb = (mm << 1) | (mm << 2) | (mm >> 1) | (mm >> 2)
            near = nb & mm
            near = (near | (near >> 13)) & 0x1FFF
            # a run with at most one okey has another real tile within 2 (with two
            # okeys, is_winning first tries these tiles in groups, see there)
            forced[ci] = m & ~near
            if j == 2:  # R3 okey okey R6: two okeys bridge a gap of three
                nb |= (mm << 3) | (mm >> 3)
                nb &= mm
                nb = (nb | (nb >> 13)) & 0x1FFF
            else:
                nb = near
            lone = m & ~(nb | two)
            if lone:
                v = vecs[ci]
                while lone:
                    low = lone & -lone
                    need += 2 * (v >> (2 * (low.bit_length() - 1)) & 3)
                    lone ^= low
                if need > j:
                    return None
    return forced


_NOPTS: dict[tuple, list] = {}
# per (mode, ace_high, okeys, lone groups): packed key of a number → its options
_NOPTS_BY: dict[tuple, dict[int, list]] = {
    (m, a, j, lone, need_all): {}
    for m in ("sum", "seventeen")
    for a in (True, False)
    for j in range(3)
    for lone in (True, False)
    for need_all in (True, False)
}


def _number_options(
    mode: str,
    ace_high: bool,
    n: int,
    c4: tuple,
    j: int,
    lone: bool,
    fmask: int = 0,
    absorb: bool = False,
) -> list:
    """Group options at number n: (okeys, score, packed delta, tag), by okeys used;
    tag = (n, u4, okeys, number of groups of three).

    ``fmask``: colours (bit c) whose tiles at n must all go into groups.
    ``absorb`` (winning checks): leave out an option whose last okey only turns a
    group of three into a group of four: the search lets a spare okey join any
    group of three it chose instead."""
    key = (mode, ace_high, n, c4, j, lone, fmask, absorb)
    opts = _NOPTS.get(key)
    if opts is not None:
        return opts
    b = 2 * (n - 1)
    seventeen = mode == "seventeen"
    entries = list(_OPTS_MULTI[c4])
    if lone and _LONE_MASK[(mode, ace_high)] >> (n - 1) & 1:
        entries += _OPTS_LONE[c4]
    opts = []
    for o, packed, u4, total, m, n4 in entries:
        if o > j or any(fmask >> c & 1 and u4[c] != c4[c] for c in range(4)):
            continue
        # total - 1 tiles split into groups (_GROUP_SPLIT), so _group_sizes has an answer
        if absorb and o and (u4, o - 1) in _GROUP_SPLIT and 3 in _group_sizes(total - 1):  # type: ignore[operator]
            continue
        value = (17 if n == 13 else n) * m + n4 if seventeen else n * total
        score = m - value * _VAL
        opts.append((o, score, packed << b, (n, u4, o, m - n4)))
    opts.sort(key=lambda e: e[0])
    _NOPTS[key] = opts
    return opts


def _search(
    V: int,
    j: int,
    mode: str,
    ace_high: bool,
    need_all: bool,
    masks,
    two,
    three,
    forced=None,
    group_okeys: int | None = None,
):
    """Best (score, group choices, packed rest, okeys left[, okeys per colour,
    okeys joining groups]) or None.

    ``need_all`` (is_winning): stop at the first arrangement leaving nothing and
    skip groups of one real tile (a run with the same two okeys does as well).
    ``forced``: per colour, the numbers whose tiles must all go into groups.
    ``group_okeys``: at most this many okeys in the enumerated groups.
    """
    key = (mode, ace_high)
    scores = _scores13[key]
    jg = j if group_okeys is None else group_okeys
    if jg == 0:
        cand = three
    elif need_all or jg == 1:
        cand = two
    else:
        cand = two | ((masks[0] | masks[1] | masks[2] | masks[3]) & _LONE_MASK[key])
    numbers = []
    lone = jg == 2 and not need_all
    cache = _NOPTS_BY[(mode, ace_high, jg, lone, need_all)]
    F = 0  # forced masks of the four colours, 13 bits each
    if forced is not None:
        if (forced[0] | forced[1] | forced[2] | forced[3]) & ~cand:
            return None  # a tile that must be in a group where no group can be
        F = forced[0] | forced[1] << 13 | forced[2] << 26 | forced[3] << 39
    while cand:
        low = cand & -cand
        cand ^= low
        i = low.bit_length() - 1
        b = 2 * i
        # the four colours' counts at this number and the forced colours, as one key
        k = (
            (V >> b & 3)
            | (V >> (28 + b) & 3) << 2
            | (V >> (56 + b) & 3) << 4
            | (V >> (84 + b) & 3) << 6
            | (F >> i & 1) << 8
            | (F >> (i + 12) & 2) << 8
            | (F >> (i + 24) & 4) << 8
            | (F >> (i + 36) & 8) << 8
            | i << 12
        )
        opts = cache.get(k)
        if opts is None:
            c4 = (V >> b & 3, V >> (28 + b) & 3, V >> (56 + b) & 3, V >> (84 + b) & 3)
            opts = _number_options(mode, ace_high, i + 1, c4, jg, lone, k >> 8 & 15, need_all)
            cache[k] = opts
        if k & 0xF00:  # tiles that cannot be in runs: every copy goes into a group
            if not opts:
                return None
            numbers.append((opts, True))
        elif opts:
            numbers.append((opts, False))
    n_numbers = len(numbers)
    best: list = [None]
    chosen: list = []
    LEFT2 = 2 * _LEFT

    if need_all:

        def leaf(R: int, left: int, gscore: int) -> bool:
            v0 = R & _M26
            s0 = scores.get(v0) or _solve_colour(v0, mode, ace_high)
            if not s0[3]:
                return False
            v1 = R >> 28 & _M26
            s1 = scores.get(v1) or _solve_colour(v1, mode, ace_high)
            if not s1[3]:
                return False
            v2 = R >> 56 & _M26
            s2 = scores.get(v2) or _solve_colour(v2, mode, ace_high)
            if not s2[3]:
                return False
            v3 = R >> 84 & _M26
            s3 = scores.get(v3) or _solve_colour(v3, mode, ace_high)
            f0, f1, f2, f3 = s0[3], s1[3], s2[3], s3[3]
            sums = _CONV[_CONV[_CONV[f0][f1]][f2]][f3]
            if sums >> left & 1:
                runs = left
            elif left and chosen:  # spare okeys join groups of three
                g3 = sum(t[3] for t in chosen)
                runs = next(
                    (t for t in range(left - 1, max(0, left - g3) - 1, -1) if sums >> t & 1), -1
                )
                if runs < 0:
                    return False
            else:
                return False
            for u0 in range(runs + 1):
                if f0 >> u0 & 1:
                    for u1 in range(runs - u0 + 1):
                        if f1 >> u1 & 1:
                            for u2 in range(runs - u0 - u1 + 1):
                                u3 = runs - u0 - u1 - u2
                                if f2 >> u2 & 1 and f3 >> u3 & 1:
                                    uses = (u0, u1, u2, u3)
                                    best[0] = (gscore, tuple(chosen), R, left, uses, left - runs)
                                    return True
            return False  # not reached: the sum mask said a split exists

    else:
        best_total = [_INF]
        tab = _SOLVED_BY.get(key)
        if tab is None:
            outs, oidx = _NO_OUTS, _NO_INDEX
        else:
            outs, oidx = tab.outs, tab.out_idx
        lo3, hi3 = _LO3, _HI3

        def leaf(R: int, left: int, gscore: int) -> bool:
            v = R & _M26
            a = (
                outs[oidx[lo3[v & 0x3FFF] + hi3[v >> 14]]]
                or scores.get(v)
                or _solve_colour(v, mode, ace_high)
            )
            v = R >> 28 & _M26
            b = (
                outs[oidx[lo3[v & 0x3FFF] + hi3[v >> 14]]]
                or scores.get(v)
                or _solve_colour(v, mode, ace_high)
            )
            v = R >> 56 & _M26
            c = (
                outs[oidx[lo3[v & 0x3FFF] + hi3[v >> 14]]]
                or scores.get(v)
                or _solve_colour(v, mode, ace_high)
            )
            v = R >> 84 & _M26
            d = (
                outs[oidx[lo3[v & 0x3FFF] + hi3[v >> 14]]]
                or scores.get(v)
                or _solve_colour(v, mode, ace_high)
            )
            total = gscore + a[0] + b[0] + c[0] + d[0]
            if left == 1:
                total += min(_LEFT, a[1], b[1], c[1], d[1])
            elif left == 2:
                x1, x2, x3, x4 = a[1], b[1], c[1], d[1]
                if x1 > x2:
                    x1, x2 = x2, x1
                if x3 > x4:
                    x3, x4 = x4, x3
                if x1 <= x3:
                    m1, m2 = x1, (x2 if x2 < x3 else x3)
                else:
                    m1, m2 = x3, (x1 if x1 < x4 else x4)
                total += min(LEFT2, _LEFT + m1, m1 + m2, a[2], b[2], c[2], d[2])
            if total < best_total[0]:
                best_total[0] = total
                best[0] = (total, tuple(chosen), R, left)
            return False

    last = n_numbers - 1

    def rec(i: int, R: int, left: int, gscore: int) -> bool:
        opts, must = numbers[i]
        if i == last:  # the leaves, without one more call level
            if not must and leaf(R, left, gscore):
                return True
            for o, score, delta, tag in opts:
                if o > left:
                    break
                chosen.append(tag)
                if leaf(R - delta, left - o, gscore + score):
                    return True
                chosen.pop()
            return False
        if not must and rec(i + 1, R, left, gscore):
            return True
        for o, score, delta, tag in opts:
            if o > left:
                break
            chosen.append(tag)
            if rec(i + 1, R - delta, left - o, gscore + score):
                return True
            chosen.pop()
        return False

    R0 = V & ~(3 << _OK_SHIFT)
    if n_numbers == 0:
        leaf(R0, j, 0)
    else:
        rec(0, R0, j, 0)
    return best[0]


def _okey_split(R: int, left: int, mode: str, ace_high: bool, need_all: bool) -> list[int]:
    """How many okeys each colour's runs use in the best completion of R."""
    scores = _scores13[(mode, ace_high)]
    tab = _SOLVED_BY.get((mode, ace_high))
    s = []
    for c in range(4):
        v = R >> (28 * c) & _M26
        e = tab.outs[tab.out_idx[_cover.rank(v)]] if tab is not None else None
        s.append(e or scores.get(v) or _solve_colour(v, mode, ace_high))
    if need_all:
        for u0 in range(left + 1):
            for u1 in range(left - u0 + 1):
                for u2 in range(left - u0 - u1 + 1):
                    u3 = left - u0 - u1 - u2
                    uses = (u0, u1, u2, u3)
                    if all(s[c][3] >> uses[c] & 1 for c in range(4)):
                        return list(uses)
        return [0, 0, 0, 0]
    # each colour's score with u okeys in its runs; the okeys not in runs stay over
    c0, c1, c2, c3 = ((e[0], e[0] + e[1], e[0] + e[2]) for e in s)
    best = None
    for u0 in range(left + 1):
        t0 = c0[u0]
        for u1 in range(left - u0 + 1):
            t1 = t0 + c1[u1]
            for u2 in range(left - u0 - u1 + 1):
                t2 = t1 + c2[u2]
                for u3 in range(left - u0 - u1 - u2 + 1):
                    total = t2 + c3[u3] + (left - u0 - u1 - u2 - u3) * _LEFT
                    if best is None or total < best[0]:
                        best = (total, [u0, u1, u2, u3])
    return best[1] if best else [0, 0, 0, 0]


_KIND_AT = [tuple(make_kind(c, 1 if q == 14 else q) for q in range(15)) for c in range(4)]


def _pool(tile_ids, okey_kind: int) -> tuple[dict[int, list[int]], list[int]]:
    pool: dict[int, list[int]] = {}
    okeys: list[int] = []
    for t in sorted(tile_ids):
        k = FALSE_KIND if t >= 104 else t >> 1
        if k == okey_kind:
            okeys.append(t)
            continue
        if k == FALSE_KIND:
            k = okey_kind
        lst = pool.get(k)
        if lst is None:
            pool[k] = [t]
        else:
            lst.append(t)
    return pool, okeys


# group layouts: _GROUP_LAYOUT[(u4, o)] = per group, (colour, True if an okey) by colour
_GROUP_LAYOUT = {
    key: tuple(
        tuple(
            (c, c not in reals)
            for c in range(4)
            if c in reals or c in [x for x in range(4) if x not in reals][:n_ok]
        )
        for reals, n_ok in split
    )
    for key, split in _GROUP_SPLIT.items()
}


# _GROUP_PLAYS[number][(u4, okeys)] = per group (plays, None or okey flags, layout)
_GROUP_PLAYS: list[dict[tuple[tuple[int, ...], int], tuple]] = [{}] + [
    {
        key: tuple(
            (
                tuple(c * 13 + number - 1 for c, _w in layout),
                None if not any(w for _c, w in layout) else tuple(w for _c, w in layout),
                layout,
            )
            for layout in layouts
        )
        for key, layouts in _GROUP_LAYOUT.items()
    }
    for number in range(1, 14)
]


_new = object.__new__
_FAST_SHAPE = not hasattr(Shape, "__slots__")
_FAST_ARRANGEMENT = not hasattr(Arrangement, "__slots__")


def _arrangement(
    kind: str | None, melds: list[Shape], leftover: list[int], total: int | None
) -> Arrangement:
    """Arrangement(kind, melds, leftover, total), filling the frozen dataclass's __dict__
    directly, as ``_shape`` does (same object, equality and hash)."""
    if _FAST_ARRANGEMENT:
        a = _new(Arrangement)
        d = a.__dict__
        d["kind"] = kind
        d["melds"] = melds
        d["leftover"] = leftover
        d["opening_total"] = total
        return a
    return Arrangement(kind, melds, leftover, total)


def _shape(kind: str, tiles: tuple[int, ...], plays: tuple[int, ...]) -> Shape:
    """Shape(kind, tiles, plays), filling the frozen dataclass's __dict__ directly
    (three times faster than its __init__; same object, equality and hash)."""
    if _FAST_SHAPE:
        sh = _new(Shape)
        d = sh.__dict__
        d["kind"] = kind
        d["tiles"] = tiles
        d["plays"] = plays
        return sh
    return Shape(kind, tiles, plays)


# _PLAIN[okey_kind][tile id] = the kind the tile plays as a plain tile, -1 for an okey
_PLAIN = [
    [-1 if (t >> 1 == ok and t < 104) else (ok if t >= 104 else t >> 1) for t in range(106)]
    for ok in range(52)
]


def _plan_list(plan) -> list:
    """The runs of a solver plan (a cons list)."""
    out = []
    while plan is not None:
        if len(plan) == 3:  # (tables, state, okeys): the rest of the plan is in the tables
            out += plan[0].walk(plan[1], plan[2])
            break
        run, plan = plan
        out.append(run)
    return out


# the solver's answers for colours of up to _solved.SOLVED_TILES tiles, precomputed
# (efftables/solved.py): data loaded once, not memo (clear_caches keeps them)
_t0 = _process_time()
_SOLVED_BY = _solved.load() or {}
TABLE_LOAD_SECONDS = {_solved.SOLVED_FILE.name: _process_time() - _t0}  # for the bench
_NO_OUTS = (None,)
_NO_INDEX = bytes(_cover.N13)


def _next_ids(tile_ids, okey_kind: int) -> tuple[dict[int, int], list[int]]:
    """The rack's plain tiles as ``nxt[kind]`` = the lowest id of that kind not yet laid
    (a kind's two copies are ids ``a`` and ``a + 1``: 2k and 2k + 1, or the false jokers
    104 and 105 for the okey's kind, so taking a tile is ``t = nxt[k]; nxt[k] = t + 1``),
    and its okeys, highest id first (``pop()`` gives the lower id first)."""
    plain = _PLAIN[okey_kind]
    nxt: dict[int, int] = {}
    okeys: list[int] = []
    for t in tile_ids:
        k = plain[t]
        if k < 0:
            okeys.append(t)
        elif k in nxt:  # both copies: the lower is the even id
            nxt[k] = t & -2
        else:
            nxt[k] = t
    if len(okeys) == 2 and okeys[0] < okeys[1]:
        okeys.reverse()
    return nxt, okeys


def _group_shapes(groups, absorb: int, nxt: dict[int, int], okeys: list[int], shapes: list) -> None:
    """Append the groups' shapes: ``groups`` as (number, u4, okeys used) each, ``absorb``
    spare okeys joining the first groups of three (the one builder of both searches)."""
    for number, u4, o in groups:
        for plays, wild, layout in _GROUP_PLAYS[number][(u4, o)]:
            if absorb and len(plays) == 3:  # a spare okey joins this group of three
                absorb -= 1
                spare = next(c for c in range(4) if all(c != x for x, _ in layout))
                layout = tuple(sorted((*layout, (spare, True))))
                plays = tuple(c * 13 + number - 1 for c, _w in layout)
                wild = tuple(w for _c, w in layout)
            tiles = []
            if wild is None:
                for k in plays:
                    t = nxt[k]
                    nxt[k] = t + 1
                    tiles.append(t)
            else:
                for k, w in zip(plays, wild, strict=True):
                    if w:
                        tiles.append(okeys.pop())
                    else:
                        t = nxt[k]
                        nxt[k] = t + 1
                        tiles.append(t)
            shapes.append(_shape(GROUP, tuple(tiles), plays))


def _run_shapes(runs, colour: int, nxt: dict[int, int], okeys: list[int], shapes: list) -> None:
    """Append the shapes of one colour's runs, each (start, end, okey positions)."""
    kinds = _KIND_AT[colour]
    for s, e, okp in runs:
        plays = kinds[s : e + 1]
        tiles = []
        if okp:
            for q in range(s, e + 1):
                if q in okp:
                    tiles.append(okeys.pop())
                else:
                    k = kinds[q]
                    t = nxt[k]
                    nxt[k] = t + 1
                    tiles.append(t)
        else:
            for k in plays:
                t = nxt[k]
                nxt[k] = t + 1
                tiles.append(t)
        shapes.append(_shape(RUN, tuple(tiles), plays))


def _build(found, tile_ids, okey_kind: int, mode: str, ace_high: bool, need_all: bool):
    """Shapes and leftover ids from a search result."""
    _score, chosen, R, left = found[:4]
    nxt, okeys = _next_ids(tile_ids, okey_kind)
    shapes: list[Shape] = []
    absorb = found[5] if len(found) > 5 else 0
    if chosen:
        _group_shapes([t[:3] for t in chosen], absorb, nxt, okeys, shapes)
    if len(found) > 4:
        uses = found[4]
    else:
        uses = _okey_split(R, left, mode, ace_high, need_all) if left else (0, 0, 0, 0)
    plans = _plans13[(mode, ace_high)]
    tab = _SOLVED_BY.get((mode, ace_high))
    for colour in range(4):
        vec = R >> (28 * colour) & _M26
        if not vec:
            continue
        if tab is not None and tab.out_idx[_LO3[vec & 0x3FFF] + _HI3[vec >> 14]]:
            runs = tab.plan(vec, uses[colour])
        else:
            entry = plans.get(vec)
            if entry is None:
                entry = _colour_plan(vec, uses[colour], mode, ace_high)
            else:
                entry = entry[uses[colour]]
            runs = _plan_list(entry[1])
        _run_shapes(runs, colour, nxt, okeys, shapes)
    plain = _PLAIN[okey_kind]
    leftover = [t for t in tile_ids if (k := plain[t]) >= 0 and t >= nxt[k]]
    leftover += okeys
    leftover.sort()
    return shapes, leftover


def _pairs(tile_ids, okey_kind: int, mode: str | None):
    """The all-pairs arrangement: (shapes, leftover, total)."""
    pool, okeys = _pool(tile_ids, okey_kind)
    shapes: list[Shape] = []
    singles: list[tuple[int, int]] = []
    for k in sorted(pool):
        ts = pool[k]
        if len(ts) >= 2:
            shapes.append(Shape(PAIR, (ts[0], ts[1]), (k, k)))
            singles.extend((k, t) for t in ts[2:])
        else:
            singles.append((k, ts[0]))
    singles.sort(key=lambda kt: (-number_of_kind(kt[0]), kt[0]))
    # f okeys fill the f highest singles; two spare okeys pair together
    j = len(okeys)
    choice = None
    for f in range(min(j, len(singles)) + 1):
        r = j - f
        left = len(singles) - f + (r - 2 if r >= 2 else r)
        val = sum(number_of_kind(k) for k, _ in singles[:f])
        if r >= 2:
            val += number_of_kind(okey_kind)
        if choice is None or (left, -val) < choice[0]:
            choice = ((left, -val), f)
    assert choice is not None  # f = 0 is always tried
    f = choice[1]
    leftover = [t for _, t in singles[f:]]
    for k, t in singles[:f]:
        shapes.append(Shape(PAIR, (t, okeys.pop(0)), (k, k)))
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


def _masks(V: int) -> tuple[list[int], list[int], int, int]:
    vecs = [V & _M26, V >> 28 & _M26, V >> 56 & _M26, V >> 84 & _M26]
    P = _PRES
    masks = [P[v & 0x3FFF] | P[v >> 14] << 7 for v in vecs]
    a, b, c, d = masks
    two = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)
    three = (a & b & (c | d)) | (c & d & (a | b))
    return vecs, masks, two, three


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
    found = winning_verdict(tile_ids, okey_kind, ace_high)
    if found is None:
        return None
    return lay_out_win(found, tile_ids, okey_kind, ace_high)


def winning_verdict(
    tile_ids: list[int] | tuple[int, ...], okey_kind: int, ace_high: bool = True
) -> Any:
    """The first half of :func:`is_winning` on a 14-tile rack: None when it is not
    winning, else what :func:`lay_out_win` turns into the arrangement (``PAIRS`` for
    seven pairs, else the melds search's find). Apart so that the bench can time the
    verdict and the laying-out each on its own (``bench.is_winning_phases``)."""
    V = _pack(tile_ids, okey_kind)
    j = V >> _OK_SHIFT
    singles = (V & ~(V >> 1) & _SINGLE_BITS).bit_count()
    if singles <= j:  # seven pairs (14 tiles: the spare okeys are even)
        return PAIRS
    vecs, masks, two, three = _masks(V)
    forced = _forced(masks, vecs, j, ace_high, three, two)
    if forced is None:
        return None
    if _COVER is not None:
        found = _cover_search(V, j, ace_high, masks, two, three, forced)
        if found is None and j == 2:  # see below
            found = _cover_search(V, j, ace_high, masks, two, three, None, 0)
        return found
    if not _melds_complete_vecs(vecs, j, ace_high, 14):  # the colour tables' verdict
        return None
    # A tile with no tile of its colour within two numbers is in a group, or in a run
    # holding both okeys (so no group holds one): with two okeys, two narrow searches.
    found = _search(V, j, "sum", ace_high, True, masks, two, three, forced)
    if found is None and j == 2:
        found = _search(V, j, "sum", ace_high, True, masks, two, three, None, 0)
    return None if found is None else ("search", found)


def lay_out_win(
    found: Any, tile_ids: list[int] | tuple[int, ...], okey_kind: int, ace_high: bool = True
) -> Arrangement:
    """The second half of :func:`is_winning`: the arrangement of a rack whose
    :func:`winning_verdict` is ``found`` (not None)."""
    if found is PAIRS:
        shapes, _left, _ = _pairs(tile_ids, okey_kind, None)
        return Arrangement(PAIRS, shapes, [], None)
    if type(found) is tuple and found[0] == "search":
        shapes, leftover = _build(found[1], tile_ids, okey_kind, "sum", ace_high, True)
        return Arrangement(MELDS, shapes, leftover, None)
    return _arrangement(MELDS, _build_cover(found, tile_ids, okey_kind, ace_high), [], None)


# ------------------------------------------------- winning check on run covers
# is_winning needs any complete arrangement, not the best one: the groups are still
# enumerated number by number, and each colour's rest is judged by its precomputed cover
# mask (efftables/cover.py: with which numbers of okeys runs hold every tile of it), a
# table read instead of the scored run solver; the runs of the arrangement found are then
# laid out by walking the same masks (each run chosen so that the rest stays coverable):
# a colour with one tile a number and no okey is its rows of numbers (_SEGS_*, no walk);
# with okeys, each okey is first put in a place the masks accept (``_okey_runs``: just
# above a tile first, so okeys fill gaps and extend runs upwards, RULES.md §1) and the
# colour is then laid out with no okey; the run-by-run walk is what is left when that fails.

_t0 = _process_time()
_COVER = _cover.load()
TABLE_LOAD_SECONDS[_cover.COVER_FILE.name] = _process_time() - _t0
if _COVER is not None:
    _COVER_LOW, _COVER_HIGH, _COVER_ACE = _COVER
_LO3, _HI3 = _cover.LO3, _cover.HI3
_COLUMN = 3 | 3 << 28 | 3 << 56 | 3 << 84


def _win_options(c4: tuple[int, ...], fmask: int, jg: int) -> tuple:
    """Group options of one number for a winning check: (okeys, packed use at bit 0,
    u4, groups of three), by okeys used. ``fmask``: colours whose tiles there must all go
    into groups. As ``_number_options(..., absorb=True)`` without the scores: no group of
    one real tile, and no option whose last okey only turns a group of three into four
    (a spare okey may join any group of three chosen instead)."""
    out = []
    for o, packed, u4, total, m, n4 in _OPTS_MULTI[c4]:
        if o > jg or any(fmask >> c & 1 and u4[c] != c4[c] for c in range(4)):
            continue
        # total - 1 tiles split into groups (_GROUP_SPLIT), so _group_sizes has an answer
        if o and (u4, o - 1) in _GROUP_SPLIT and 3 in _group_sizes(total - 1):  # type: ignore[operator]
            continue
        out.append((o, packed, u4, m - n4))
    out.sort(key=lambda e: e[0])
    return tuple(out)


# _WIN_OPTS[jg][counts of the four colours (2 bits each) | forced colours << 8]
_WIN_OPTS: list[list[tuple]] = []
for _jg in range(3):
    _win_row: list[tuple] = [()] * 4096
    for _c4 in product(range(3), repeat=4):
        _k = _c4[0] | _c4[1] << 2 | _c4[2] << 4 | _c4[3] << 6
        for _f in range(16):
            _win_row[_k | _f << 8] = _win_options(_c4, _f, _jg)
    _WIN_OPTS.append(_win_row)


def _cover_leaf(table: bytes, R: int, left: int, chosen) -> tuple | None:
    """The search's leaf: the colours' rest R, ``left`` okeys not in groups."""
    lo3, hi3 = _LO3, _HI3
    v = R & _M26
    f0 = table[lo3[v & 0x3FFF] + hi3[v >> 14]]
    if not f0:
        return None
    v = R >> 28 & _M26
    f1 = table[lo3[v & 0x3FFF] + hi3[v >> 14]]
    if not f1:
        return None
    v = R >> 56 & _M26
    f2 = table[lo3[v & 0x3FFF] + hi3[v >> 14]]
    if not f2:
        return None
    v = R >> 84 & _M26
    f3 = table[lo3[v & 0x3FFF] + hi3[v >> 14]]
    if not f3:
        return None
    conv = _CONV
    sums = conv[conv[conv[f0][f1]][f2]][f3]
    if sums >> left & 1:
        runs = left
    elif left and chosen:  # spare okeys join groups of three
        g3 = 0
        for _i, opt in chosen:
            g3 += opt[3]
        runs = -1
        for t in range(left - 1, max(0, left - g3) - 1, -1):
            if sums >> t & 1:
                runs = t
                break
        if runs < 0:
            return None
    else:
        return None
    if not runs:
        return (list(chosen), R, (0, 0, 0, 0), left)
    for u0 in range(runs + 1):
        if f0 >> u0 & 1:
            for u1 in range(runs - u0 + 1):
                if f1 >> u1 & 1:
                    for u2 in range(runs - u0 - u1 + 1):
                        u3 = runs - u0 - u1 - u2
                        if f2 >> u2 & 1 and f3 >> u3 & 1:
                            return (list(chosen), R, (u0, u1, u2, u3), left - runs)
    return None  # not reached: the sum mask said a split exists


def _cover_search(V: int, j: int, ace_high: bool, masks, two, three, forced, group_okeys=None):
    """A complete arrangement's (group choices, packed rest, okeys per colour's runs,
    okeys joining groups of three), or None; the colours judged by their cover masks."""
    table = _COVER_ACE if ace_high else _COVER_LOW
    jg = j if group_okeys is None else group_okeys
    cand = three if jg == 0 else two
    F = 0
    if forced is not None:
        if (forced[0] | forced[1] | forced[2] | forced[3]) & ~cand:
            return None
        F = forced[0] | forced[1] << 13 | forced[2] << 26 | forced[3] << 39
    if not F:  # runs alone first: no group enumeration needed when they hold everything
        R0 = V & ~(3 << _OK_SHIFT)
        found = _cover_leaf(table, R0, j, ())
        if found is not None:
            return found
    opts_of = _WIN_OPTS[jg]
    numbers = []
    while cand:
        low = cand & -cand
        cand ^= low
        i = low.bit_length() - 1
        b = 2 * i
        col = V >> b & _COLUMN  # the four colours' counts at this number
        k = (col | col >> 26 | col >> 52 | col >> 78) & 0xFF
        if F:
            k |= (
                (F >> i & 1) | (F >> (i + 12) & 2) | (F >> (i + 24) & 4) | (F >> (i + 36) & 8)
            ) << 8
        opts = opts_of[k]
        if k & 0xF00:
            if not opts:
                return None
            numbers.append((i, b, opts, True))
        elif opts:
            numbers.append((i, b, opts, False))
    chosen: list = []
    last = len(numbers)

    def rec(n: int, R: int, left: int):
        if n == last:
            return _cover_leaf(table, R, left, chosen)
        i, b, opts, must = numbers[n]
        if not must:
            r = rec(n + 1, R, left)
            if r is not None:
                return r
        for opt in opts:
            if opt[0] > left:
                break
            chosen.append((i, opt))
            r = rec(n + 1, R - (opt[1] << b), left - opt[0])
            if r is not None:
                return r
            chosen.pop()
        return None

    return rec(0, V & ~(3 << _OK_SHIFT), j)


def _segments(m: int, top: int) -> tuple | None:
    """The maximal runs of set bits of a presence mask (bit p - 1: position p) as runs
    (start, end, no okey positions), or None when one is shorter than 3 or longer than 13."""
    runs = []
    while m:
        low = m & -m
        seg = m & ~(m + low)
        s, e = low.bit_length(), seg.bit_length()
        if e - s < 2 or e - s > 12 or e > top:
            return None
        runs.append((s, e, ()))
        m ^= seg
    return tuple(runs)


def _segment_tables() -> tuple[list, list]:
    """Per 13-number presence mask, the runs of a colour with one tile a number and no
    okey (what ``_cover_runs`` lays out: each maximal row of numbers is one run): without
    12-13-1, and with it (the 1 low when that covers, else high, as there)."""
    low_t, ace_t = [], []
    for m in range(1 << 13):
        lo = _segments(m, 13)
        low_t.append(lo)
        if lo is None and m & 1:
            lo = _segments(m & ~1 | 1 << 13, 14)
        ace_t.append(lo)
    return low_t, ace_t


_SEGS_LOW, _SEGS_ACE = _segment_tables()
# positions 1-13 (no 12-13-1) or 1-14 (position 14: a 1 played after 13), as they are
_SEGS_BY_TOP = {13: _SEGS_LOW, 14: [_segments(m, 14) for m in range(1 << 14)]}
_PAIR_HIGH_BITS = 0x2AAAAAA  # the high bit of each of the 13 two-bit counts
_PAIR_HIGH_BITS14 = 0xAAAAAAA  # and of the 14 positions


def _cover_runs(vec: int, u: int, ace_high: bool) -> list[tuple[int, int, tuple[int, ...]]]:
    """Runs (start, end, okey positions) holding every tile of a colour with exactly u
    okeys, the colour's cover mask saying they exist: lowest tile first, each run the
    longest (then with the fewest okeys below its lowest tile) that leaves a coverable
    rest."""
    if not u and not vec & _PAIR_HIGH_BITS:  # one tile a number, no okey: rows of numbers
        pres = _PRES
        runs = (_SEGS_ACE if ace_high else _SEGS_LOW)[pres[vec & 0x3FFF] | pres[vec >> 14] << 7]
        if runs is not None:
            return runs
    lo3, hi3 = _LO3, _HI3
    if ace_high:
        table, top = _COVER_HIGH, 14
        c1 = vec & 3
        for x in range(c1 + 1):  # x of the 1s play high, after 13
            w = vec - x + (x << 26)
            if table[lo3[w & 0x3FFF] + hi3[w >> 14]] >> u & 1:
                vec = w
                break
    else:
        table, top = _COVER_LOW, 13
    if u:
        runs = _okey_runs(vec, u, table, top)
        if runs is not None:
            return runs
    runs = []
    while vec:
        low = (vec & -vec).bit_length() - 1
        p = low // 2 + 1
        if not u:  # no okey left: runs of the real tiles from p up, longest first
            rest = _plain_runs(vec, table, top)
            if rest is None:  # not reached: the mask said a cover exists
                raise AssertionError("run cover tables disagree with the plan")
            return runs + rest
        found = None
        for s in range(p, max(0, p - 1 - u), -1):
            # first the runs whose okeys only fill the gaps between real tiles (and
            # the places below p), longest first
            k = p - s
            removed = 1 << (2 * p - 2)
            okp = tuple(range(s, p))
            q = p + 1
            path = [(q, k, removed, okp)] if k == 2 else []
            while q <= top and q - s < 13:
                b = 2 * (q - 1)
                if vec >> b & 3:
                    removed += 1 << b
                elif k < u:
                    k += 1
                    okp = (*okp, q)
                else:
                    break
                q += 1
                if q - s >= 3:
                    path.append((q, k, removed, okp))
            for q, k, removed, okp in reversed(path):
                w = vec - removed
                if table[lo3[w & 0x3FFF] + hi3[w >> 14]] >> (u - k) & 1:
                    found = (s, q - 1, okp, removed, k)
                    break
            if found is not None:
                break
        if found is None:
            found = _cover_run_any(vec, u, p, top, table)
        if found is None:  # not reached: the mask said a cover exists
            raise AssertionError("run cover tables disagree with the plan")
        s, e, okp, removed, k = found
        runs.append((s, e, okp))
        vec -= removed
        u -= k
    return runs


def _okey_runs(vec: int, u: int, table: bytes, top: int) -> list | None:
    """Runs holding every tile of a colour (positions 1 to ``top``) and u okeys, found by
    putting each okey in the first place that leaves the rest coverable with the okeys
    after it (a cover mask read per place tried: first just above a tile, highest first,
    so okeys fill gaps and extend runs upwards; then just below one; then anywhere), then
    laying out the real and placed tiles as runs with no okey; None when no place within
    the tables' reach works (the caller then searches runs)."""
    lo3, hi3, pres = _LO3, _HI3, _PRES
    placed = []
    w = vec
    full = (1 << top) - 1
    for after in range(u - 1, -1, -1):
        m = pres[w & 0x3FFF] | pres[w >> 14] << 7
        up = m << 1 & full & ~m  # just above a tile: extends a run or fills a gap
        down = m >> 1 & ~m & ~up  # just below one
        for cand in (up, down, full & ~up & ~down):
            while cand:
                q = cand.bit_length()
                cand ^= 1 << (q - 1)
                b = 2 * q - 2
                if w >> b & 3 == 2:
                    continue
                w2 = w + (1 << b)
                if top == 14 and (w2 & 3) + (w2 >> 26) > 2:
                    continue  # the high table holds at most two 1s low and high together
                if table[lo3[w2 & 0x3FFF] + hi3[w2 >> 14]] >> after & 1:
                    w = w2
                    placed.append(q)
                    break
            else:
                continue
            break
        else:
            return None
    if w & _PAIR_HIGH_BITS14:
        plain = _plain_runs(w, table, top)
    else:
        pres = _PRES
        plain = _SEGS_BY_TOP[top][pres[w & 0x3FFF] | pres[w >> 14] << 7]
    if plain is None:
        return None
    runs = []
    for s, e, okp in plain:
        if placed:
            okp = tuple(sorted({q for q in placed if s <= q <= e}))
            for q in okp:
                placed.remove(q)
        runs.append((s, e, okp))
    return runs


def _plain_runs(vec: int, table: bytes, top: int) -> list | None:
    """Runs of real tiles only holding every tile of a colour whose cover mask has bit 0:
    lowest tile first, each run the longest that leaves a coverable rest."""
    lo3, hi3 = _LO3, _HI3
    runs = []
    while vec:
        low = (vec & -vec).bit_length() - 1
        p = low // 2 + 1
        removed, q = 0, p
        while q <= top and q - p < 13 and vec >> (2 * q - 2) & 3:
            removed += 1 << (2 * q - 2)
            q += 1
        e = q - 1
        while e >= p + 2:
            w = vec - removed
            if table[lo3[w & 0x3FFF] + hi3[w >> 14]] & 1:
                break
            removed -= 1 << (2 * e - 2)
            e -= 1
        else:
            return None
        runs.append((p, e, ()))
        vec = w
    return runs


def _cover_run_any(vec: int, u: int, p: int, top: int, table: bytes):
    """The first run from the lowest tile p (the longest, then the fewest okeys below
    p) among all of them, okeys also in place of real tiles, whose rest is coverable."""
    lo3, hi3 = _LO3, _HI3
    found = None
    for s in range(p, max(0, p - 1 - u), -1):
        # every run from s holding p: (end + 1, okeys, removed, okey positions),
        # real tiles before okeys, longest first
        k0 = p - s
        cands = []
        stack = [(p + 1, k0, 1 << (2 * p - 2), tuple(range(s, p)))]
        while stack:
            q, k, removed, okp = stack.pop()
            if q - s >= 3:
                cands.append((q - s, -k, q, k, removed, okp))
            if q > top or q - s >= 13:
                continue
            if k < u:
                stack.append((q + 1, k + 1, removed, (*okp, q)))
            b = 2 * (q - 1)
            if vec >> b & 3:
                stack.append((q + 1, k, removed + (1 << b), okp))
        cands.sort(reverse=True)
        for _n, _k, q, k, removed, okp in cands:
            w = vec - removed
            if table[lo3[w & 0x3FFF] + hi3[w >> 14]] >> (u - k) & 1:
                found = (s, q - 1, okp, removed, k)
                break
        if found is not None:
            break
    return found


def _build_cover(found, tile_ids, okey_kind: int, ace_high: bool) -> list[Shape]:
    """The shapes of a winning arrangement found by ``_cover_search``."""
    chosen, R, uses, absorb = found
    nxt, okeys = _next_ids(tile_ids, okey_kind)
    shapes: list[Shape] = []
    if chosen:
        _group_shapes([(i + 1, opt[2], opt[0]) for i, opt in chosen], absorb, nxt, okeys, shapes)
    for colour in range(4):
        vec = R >> (28 * colour) & _M26
        if vec:
            _run_shapes(_cover_runs(vec, uses[colour], ace_high), colour, nxt, okeys, shapes)
    return shapes


# the low bit of every 2-bit count of the four colours
_SINGLE_BITS = sum(1 << (28 * c + 2 * n) for c in range(4) for n in range(13))


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
    V = _pack(tile_ids, okey_kind)
    j = V >> _OK_SHIFT
    _vecs, masks, two, three = _masks(V)
    found = _search(V, j, mode, ace_high, False, masks, two, three)
    n = len(tile_ids)
    melds_left = (found[0] + _LEFT - 1) // _LEFT
    if pairs:
        # the pairs arrangement's leftover count, straight from the counts
        singles = (V & ~(V >> 1) & _SINGLE_BITS).bit_count()
        doubles = (V >> 1 & _SINGLE_BITS).bit_count()
        pairs_left, n_pairs = n, 0
        for f in range(min(j, singles) + 1):
            r = j - f
            left = singles - f + (r - 2 if r >= 2 else r)
            if left < pairs_left:
                pairs_left, n_pairs = left, doubles + f + (1 if r >= 2 else 0)
        if n_pairs and (
            pairs_left < melds_left
            or (pairs_left == melds_left and (values is None or melds_left == n))
        ):
            ps, pl, pt = _pairs(tile_ids, okey_kind, values)
            return Arrangement(PAIRS, ps, pl, pt if values is not None else None)
    shapes, leftover = _build(found, tile_ids, okey_kind, mode, ace_high, False)
    total = None
    if values is not None:
        total = -((found[0] - len(leftover) * _LEFT) // _VAL) if shapes else 0
    return _arrangement(MELDS if shapes else None, shapes, leftover, total)


def clear_caches() -> None:
    """Forget the shared per-colour memo tables (the bench's cold figures start empty)."""
    for key in _memo14:
        _memo14[key].clear()
        _plans13[key].clear()
        _scores13[key].clear()
