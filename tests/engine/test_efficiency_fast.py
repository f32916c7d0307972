"""The fast runs-and-groups search of games/engine/efficiency.py against the previous one.

``_oracle_melds_D`` is the search as it was before it was made faster (groups enumerated
number by number, then a four-colour knapsack at every leaf), kept verbatim here with its
own copies of the group options and the mask convolution; every deficiency and ukeire
below is computed twice, once with the shipped search and once with this oracle swapped
in, and must be identical: whole-rack racks of 14 and 15 tiles, lay-downs before opening
(with opening limits) and after, in every rule set, on random, built winning, near-winning
and two-swaps-away racks with 0-2 okeys.
"""

from __future__ import annotations

import random
from itertools import product

import pytest

from games.engine import efficiency
from games.engine.bench import near_winning_rack, random_rack, winning_rack
from games.engine.efficiency import _group_options, colour_table, deficiency, ukeire
from games.engine.rules import RULES
from games.engine.tiles import FALSE_KIND, N_KINDS

_CONV3 = [
    [
        sum(1 << t for t in range(3) if any(a >> i & 1 and b >> (t - i) & 1 for i in range(t + 1)))
        for b in range(8)
    ]
    for a in range(8)
]
_GROUP_OPTS = {c4: _group_options(c4) for c4 in product(range(3), repeat=4)}


def _oracle_melds_D(vecs, s, ace_high, bound=1 << 30, enough=0):
    """The search before it was made faster (verbatim, but for the table reads: every
    colour through ``colour_table``)."""
    per_number = []
    for b in range(0, 26, 2):
        opts = _GROUP_OPTS[(vecs[0] >> b & 3, vecs[1] >> b & 3, vecs[2] >> b & 3, vecs[3] >> b & 3)]
        if opts:
            per_number.append((b, opts))
    best = [bound]
    conv = _CONV3
    exact = bound == 1

    def leaf(v0, v1, v2, v3, G, M):
        t0 = colour_table(v0, ace_high)
        t1 = colour_table(v1, ace_high)
        t2 = colour_table(v2, ace_high)
        t3 = colour_table(v3, ace_high)
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

    def rec(i, v0, v1, v2, v3, G, M):
        if i == last:
            return leaf(v0, v1, v2, v3, G, M)
        b, opts = per_number[i]
        for use, c, m in opts:
            if exact and G + c > s:
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
