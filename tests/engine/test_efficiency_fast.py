"""The fast runs-and-groups search of games/engine/efficiency.py against the previous one.

``_oracle_melds_D`` is the search as it was before its leaves read pair forms and its long
colours the long-colour file (groups enumerated number by number, then a four-colour
knapsack at every leaf; colours of more than 10 tiles computed by the greedy recursion
when first met), kept verbatim here with its own copies of the group options and the mask
convolution; every deficiency and ukeire below is computed twice, once with the shipped
search and once with this oracle swapped in, and must be identical: whole-rack racks of
14 and 15 tiles, lay-downs before opening (with opening limits) and after, in every rule
set, on random, built winning, near-winning and two-swaps-away racks with 0-2 okeys. The
pair forms and the long-colour file are also checked on their own.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from functools import cache
from itertools import product

import pytest

from games.engine import efficiency
from games.engine.efficiency import (
    _group_options,
    colour_table,
    compute_colour_table,
    deficiency,
    ukeire,
)
from games.engine.rules import RULES
from games.engine.tiles import FALSE_KIND, N_KINDS
from games.tools.engine.bench import near_winning_rack, random_rack, winning_rack

_CONV3 = [
    [
        sum(1 << t for t in range(3) if any(a >> i & 1 and b >> (t - i) & 1 for i in range(t + 1)))
        for b in range(8)
    ]
    for a in range(8)
]
_GROUP_OPTS = {c4: _group_options(c4) for c4 in product(range(3), repeat=4)}


_ORACLE_TABLES: dict[tuple[int, bool], tuple] = {}


def _oracle_table(vec: int, ace_high: bool) -> tuple:
    """A colour's table as the search read it before: the stored tables of up to 10 tiles,
    else the greedy recursion (no long-colour file)."""
    entry = efficiency._PRE[ace_high].get(vec)
    if entry is not None:
        return entry
    keys, idx, entries = efficiency._BIG[ace_high]
    i = bisect_left(keys, vec)
    if i < len(keys) and keys[i] == vec:
        return entries[idx[i]]
    key = (vec, ace_high)
    if key not in _ORACLE_TABLES:
        _ORACLE_TABLES[key] = compute_colour_table(vec, ace_high, True)
    return _ORACLE_TABLES[key]


def _oracle_melds_D(
    vecs: list[int], s: int, ace_high: bool, bound: int = 1 << 30, enough: int = 0
) -> int | None:
    """(The search as it was, verbatim.) The fewest real tiles left out (D) by a cover
    whose extra slots s - G can be filled (see the module doc), or None when no cover
    leaves out fewer than ``bound``; the search stops at a cover leaving out ``enough`` or
    fewer."""
    colour_table(0, ace_high)  # the stored tables loaded
    pre = efficiency._PRE[ace_high]
    per_number = []
    for b in range(0, 26, 2):
        opts = _GROUP_OPTS[(vecs[0] >> b & 3, vecs[1] >> b & 3, vecs[2] >> b & 3, vecs[3] >> b & 3)]
        if opts:
            per_number.append((b, opts))
    best = [bound]
    conv = _CONV3

    def leaf(v0: int, v1: int, v2: int, v3: int, G: int, M: int) -> bool:
        t0 = pre.get(v0) or _oracle_table(v0, ace_high)
        t1 = pre.get(v1) or _oracle_table(v1, ace_high)
        t2 = pre.get(v2) or _oracle_table(v2, ace_high)
        t3 = pre.get(v3) or _oracle_table(v3, ace_high)
        bd = best[0]
        room = s - G
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
        best[0] = bd
        return bd <= enough

    last = len(per_number)

    def rec(i: int, v0: int, v1: int, v2: int, v3: int, G: int, M: int) -> bool:
        if i == last:
            return leaf(v0, v1, v2, v3, G, M)
        b, opts = per_number[i]
        for use, c, m in opts:  # groups first: they often settle the bound early
            # a cover needs s - G - (its colours' g) >= 0, and a colour's g = c - d is at
            # least -d: groups whose empty slots pass s + (best D so far - 1) cannot lead to
            # a better cover (deeper groups only add empty slots)
            if G + c >= s + best[0]:
                continue
            if rec(
                i + 1,
                v0 - ((use & 3) << b),
                v1 - ((use >> 2 & 3) << b),
                v2 - ((use >> 4 & 3) << b),
                v3 - ((use >> 6 & 3) << b),
                G + c,
                conv[M][m],
            ):
                return True
        return rec(i + 1, v0, v1, v2, v3, G, M)

    rec(0, vecs[0], vecs[1], vecs[2], vecs[3], 0, 1)
    return best[0] if best[0] < bound else None


def _both(monkeypatch, fn, *args, **kwargs):
    """fn's answer with the shipped search and with the oracle swapped in."""
    fast = fn(*args, **kwargs)
    with monkeypatch.context() as m:
        m.setattr(efficiency, "_melds_D", _oracle_melds_D)
        slow = fn(*args, **kwargs)
    return fast, slow


def _with_okeys(rng: random.Random, size: int, okeys: int) -> tuple[list[int], int]:
    rack, ok = random_rack(rng, size)
    real = [t for t in (2 * ok, 2 * ok + 1) if t not in rack][: max(0, okeys)]
    rack = [t for t in rack if t >> 1 != ok][: size - len(real)] + real
    while len(rack) < size:
        t = rng.randrange(104)
        if t not in rack and t >> 1 != ok:
            rack.append(t)
    return rack, ok


def _near(rng: random.Random, okeys: int, ace_high: bool, size: int = 14):
    rack, ok = winning_rack(rng, okeys, ace_high=ace_high)
    for _ in range(rng.randrange(1, 4)):  # one to three swaps away
        i = rng.randrange(len(rack))
        t = rng.randrange(106)
        if t not in rack:
            rack[i] = t
    if size == 15:
        t = rng.choice([x for x in range(106) if x not in rack])
        rack.append(t)
    return rack, ok


WHOLE = [name for name, r in RULES.items() if r.whole_rack]
LAY = [name for name, r in RULES.items() if not r.whole_rack]


@pytest.mark.parametrize("variant", WHOLE)
@pytest.mark.parametrize("size", [14, 15])
def test_whole_rack_deficiency_is_the_previous_one(variant, size, monkeypatch) -> None:
    rules = RULES[variant]
    rng = random.Random(f"fast/whole/{variant}/{size}")
    racks = [random_rack(rng, size) for _ in range(600)]
    racks += [_with_okeys(rng, size, k) for k in (1, 2) for _ in range(200)]
    racks += [_near(rng, k, rules.ace_high, size) for k in (0, 1, 2) for _ in range(200)]
    racks += (
        [near_winning_rack(rng, k) for k in (0, 1, 2) for _ in range(100)] if size == 14 else []
    )
    racks += (
        [winning_rack(rng, k, ace_high=rules.ace_high) for k in (0, 1, 2) for _ in range(60)]
        if size == 14
        else []
    )
    for rack, ok in racks:
        fast, slow = _both(monkeypatch, deficiency, rack, ok, rules)
        assert fast == slow, (variant, rack, ok)


@pytest.mark.parametrize("variant", LAY)
@pytest.mark.slow
def test_lay_down_deficiency_is_the_previous_one(variant, monkeypatch) -> None:
    rules = RULES[variant]
    rng = random.Random(f"fast/lay/{variant}")
    cases = []
    for _ in range(300):
        size = rng.choice([4, 5, 7, 9, 11, 14, 15, 21, 22])
        rack, ok = _with_okeys(rng, size, rng.choice([0, 0, 1, 2]))
        cases.append((rack, ok, True, None))
    for _ in range(80):
        size = rng.choice([5, 9, 14, 15])
        rack, ok = _with_okeys(rng, size, rng.choice([0, 1, 2]))
        cases.append((rack, ok, False, rng.choice([None, 40, 60, 101, 120])))
    for _ in range(150):
        rack, ok = _near(rng, rng.choice([0, 1, 2]), rules.ace_high)
        cases.append((rack, ok, True, None))
    for rack, ok, opened, limit in cases:
        fast, slow = _both(monkeypatch, deficiency, rack, ok, rules, opened=opened, limit=limit)
        assert fast == slow, (variant, rack, ok, opened, limit)


@pytest.mark.parametrize("variant", list(RULES))
def test_ukeire_is_the_previous_one(variant, monkeypatch) -> None:
    rules = RULES[variant]
    rng = random.Random(f"fast/ukeire/{variant}")
    unseen = {k: 2 for k in range(N_KINDS)} | {FALSE_KIND: 1}
    for i in range(40):
        rack, ok = (_near if i % 2 else lambda r, k, a: _with_okeys(r, 14, k))(
            rng, rng.choice([0, 1, 2]), rules.ace_high
        )
        opened = not rules.whole_rack and i % 3 != 0
        fast, slow = _both(monkeypatch, ukeire, rack, ok, rules, unseen, opened=opened)
        assert fast == slow, (variant, rack, ok, opened)


def test_a_cold_search_is_the_previous_one(monkeypatch) -> None:
    """With every computed table forgotten before each call (the bench's cold figure)."""
    rules = RULES["classic"]
    rng = random.Random("fast/cold")
    for _ in range(200):
        rack, ok = random_rack(rng, rng.choice([14, 15]))
        efficiency.clear_caches()
        fast = deficiency(rack, ok, rules)
        efficiency.clear_caches()
        with monkeypatch.context() as m:
            m.setattr(efficiency, "_melds_D", _oracle_melds_D)
            slow = deficiency(rack, ok, rules)
        assert fast == slow


def test_long_colours_are_judged_like_the_rest(monkeypatch) -> None:
    """Racks with a colour of 11-14 tiles (a long run, two runs of a colour; one built
    winning rack in ten), whole-rack and after opening, cold."""
    rng = random.Random("fast/long")
    racks = []
    while len(racks) < 300:
        rack, ok = _near(rng, rng.choice([0, 1, 2]), True, rng.choice([14, 15]))
        vecs, _j = efficiency._vectors(rack, ok)
        if max(map(efficiency.tiles_in, vecs)) > 10:
            racks.append((rack, ok))
    for variant in ("classic", "rummy", "fifty-one"):
        rules = RULES[variant]
        opened = not rules.whole_rack
        for rack, ok in racks:
            efficiency.clear_caches()
            fast, slow = _both(monkeypatch, deficiency, rack, ok, rules, opened=opened)
            assert fast == slow, (variant, rack, ok)


@pytest.mark.parametrize("ace_high", [True, False])
def test_the_long_colour_file_is_the_greedy_recursion(ace_high) -> None:
    """Every vector of 11-14 tiles is in the file, and a sample of them (the longest and
    random ones) holds what the greedy recursion computes."""
    from games.engine.efftables import BIG_TILES, tiles_in
    from games.engine.efftables.longcolour import LONG_TILES

    colour_table(0, ace_high)
    keys, idx, entries = efficiency._LONG[ace_high]
    assert len(keys) == len(idx) == 787_333
    assert all(keys[i] < keys[i + 1] for i in range(len(keys) - 1))
    assert all(BIG_TILES < tiles_in(keys[i]) <= LONG_TILES for i in range(0, len(keys), 997))
    rng = random.Random(f"fast/long-file/{ace_high}")
    for i in [0, len(keys) - 1, *rng.sample(range(len(keys)), 150)]:
        v = keys[i]
        assert entries[idx[i]] == compute_colour_table(v, ace_high, True), hex(v)
        assert colour_table(v, ace_high) == entries[idx[i]]


@cache
def _achievable(entry, d: int, top: int = 30) -> frozenset[int]:
    """The g values (c - d, up to ``top``) a colour's entry reaches leaving out at most d
    tiles (an entry's point: g plus its mask's offsets, and everything from g + 3)."""
    out: set[int] = set()
    for dd, g, m in entry:
        if dd <= d:
            out |= {g + k for k in range(3) if m >> k & 1} | set(range(g + 3, top))
    return frozenset(out)


def _pair_sums(e0, e1, D: int) -> set[int]:
    out: set[int] = set()
    for d0 in range(D + 1):
        out |= {x + y for x in _achievable(e0, d0) for y in _achievable(e1, D - d0)}
    return out


@pytest.mark.parametrize("ace_high", [True, False])
def test_pair_forms_are_the_two_colours_knapsack(ace_high) -> None:
    """A leaf's answer through the pair forms (the points of colours 0-1, the rows of
    colours 2-3) is the fewest tiles left out found from the four colours' achievable
    sets directly: some g of each colour summing to the room less an offset the groups
    reach (their mask's, or 3 and more)."""
    colour_table(0, ace_high)
    sid, k, forms = efficiency._PAIRS.get(ace_high) or efficiency._pairs_for(ace_high)
    by_id = {sid[v]: e for v, e in efficiency._PRE[ace_high].items()}
    assert len(by_id) == k
    rng = random.Random(f"fast/pairs/{ace_high}")
    for _ in range(60):
        a, b, c, d = (rng.randrange(k) for _ in range(4))
        cm = rng.choice([1, 3, 5, 7])
        room = rng.randrange(-4, 5)
        points = forms[a * k + b][0]
        rows = forms[c * k + d][1]
        assert points[0][0] == 0
        fast = efficiency._FAR
        for D, g, m in points:
            r = room - g - efficiency._R_LO
            if r >= 0:
                r = min(r, len(rows[0]) - 1)
                fast = min(fast, D + rows[efficiency._CONV3[cm][m]][r])
        offsets = {x for x in range(3) if cm >> x & 1}
        s01 = [_pair_sums(by_id[a], by_id[b], n) for n in range(25)]
        s23 = [_pair_sums(by_id[c], by_id[d], n) for n in range(25)]
        slow = next(
            total
            for total in range(25)
            if any(
                room - x - y in offsets or room - x - y >= 3
                for d01 in range(total + 1)
                for x in s01[d01]
                for y in s23[total - d01]
            )
        )
        assert fast == slow, (by_id[a], by_id[b], by_id[c], by_id[d], cm, room)
