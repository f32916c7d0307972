"""Tile efficiency (games/engine/efficiency.py) against brute-force oracles.

Two oracles, written without the colour tables:

* replacements tried for real: a rack is at deficiency 0 when ``evaluate.is_winning`` says
  so, and at most 1 when one tile out and one physical tile in makes it winning;
* the "wild" oracle of the module's definition: r replacements are r real tiles taken out
  and r wild tiles put in; a set of real tiles plus w wild tiles is checked by recursion
  (the lowest real tile goes into a meld built slot by slot, each slot a real tile left or
  a wild one; wild tiles left over make melds of their own, so they must be 0 or 3 and
  more), openings by trying every subset of the real tiles with its best total.
"""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from games.engine import efficiency
from games.engine.efficiency import colour_table, compute_colour_table, deficiency, ukeire
from games.engine.efftables import BIG_TILES, MAX_TILES, big_vectors, table_vectors
from games.engine.evaluate import is_winning
from games.engine.melds import GROUP, RUN, seventeen_value, sum_value
from games.engine.rules import RULES, rules_for
from games.engine.tiles import FALSE_KIND, kind_of, make_kind, parse_tiles
from games.tools.engine.bench import near_winning_rack, random_rack, winning_rack

CLASSIC = rules_for("classic")


# ------------------------------------------------------------------ oracles


def plain(tile: int, okey_kind: int) -> int | None:
    k = kind_of(tile)
    if k == okey_kind:
        return None
    return okey_kind if k == FALSE_KIND else k


def split(rack, okey_kind):
    reals = tuple(sorted(k for t in rack if (k := plain(t, okey_kind)) is not None))
    return reals, len(rack) - len(reals)


def _value(kind: str, plays: list[int], mode: str | None) -> int:
    if mode == "seventeen":
        return seventeen_value(kind, plays)
    return sum_value(plays)


def _melds_with(t: int, rest: tuple[int, ...], wilds: int, ace_high: bool):
    """(kinds of rest used, wilds used, meld kind, plays) for every meld holding kind t."""
    colour, number = t // 13, t % 13 + 1
    top = 14 if ace_high else 13
    positions = [number, 14] if (number == 1 and ace_high) else [number]
    out = []
    for pos in positions:
        for s in range(max(1, pos - 12), pos + 1):
            for e in range(max(pos, s + 2), min(top, s + 12) + 1):
                slots = [
                    make_kind(colour, 1 if q == 14 else q) for q in range(s, e + 1) if q != pos
                ]
                out.extend(_fill(t, slots, rest, wilds, RUN))
    others = [c for c in range(4) if c != colour]
    for size in (2, 3):
        for cols in combinations(others, size):
            out.extend(_fill(t, [make_kind(c, number) for c in cols], rest, wilds, GROUP))
    return out


def _fill(t, slots, rest, wilds, kind):
    res = []

    def rec(i, used, w):
        if w > wilds:
            return
        if i == len(slots):
            res.append((tuple(used), w, kind, [t, *slots]))
            return
        k = slots[i]
        if rest.count(k) > used.count(k):
            rec(i + 1, [*used, k], w)
        rec(i + 1, used, w + 1)

    rec(0, [], 0)
    return res


def _remove(rest: tuple[int, ...], used: tuple[int, ...]) -> tuple[int, ...]:
    lst = list(rest)
    for k in used:
        lst.remove(k)
    return tuple(lst)


@cache
def fresh_best(k: int, mode: str | None, ace_high: bool) -> int | None:
    """The best total of melds of k wild tiles only (None: they cannot all be melds)."""
    if k == 0:
        return 0
    best = None
    top = 14 if ace_high else 13
    for size in range(3, min(k, 13) + 1):
        sub = fresh_best(k - size, mode, ace_high)
        if sub is None:
            continue
        vals = [
            _value(RUN, [make_kind(0, 1 if q == 14 else q) for q in range(s, s + size)], mode)
            for s in range(1, top - size + 2)
        ]
        if size <= 4:
            vals += [_value(GROUP, [make_kind(c, 13) for c in range(size)], mode)]
        cand = max(vals) + sub
        best = cand if best is None else max(best, cand)
    return best


@cache
def fill_best(reals: tuple[int, ...], wilds: int, mode: str | None, ace_high: bool) -> int | None:
    """The best total of melds holding every kind of ``reals`` and exactly ``wilds`` wild
    tiles (None: impossible)."""
    if not reals:
        return fresh_best(wilds, mode, ace_high)
    t, rest = reals[0], reals[1:]
    best = None
    for used, w, kind, plays in _melds_with(t, rest, wilds, ace_high):
        sub = fill_best(_remove(rest, used), wilds - w, mode, ace_high)
        if sub is not None:
            cand = sub + _value(kind, plays, mode)
            best = cand if best is None else max(best, cand)
    return best


def pairs_fill(reals: tuple[int, ...], wilds: int) -> bool:
    """Can ``reals`` plus ``wilds`` wild tiles all be pairs?"""
    counts: dict[int, int] = {}
    for k in reals:
        counts[k] = counts.get(k, 0) + 1
    singles = sum(1 for c in counts.values() if c == 1)
    return wilds >= singles and (wilds - singles) % 2 == 0


def wild_deficiency_whole(rack, okey_kind, ace_high=True, cap=3) -> int | None:
    """The module's whole-rack definition, by brute force up to ``cap`` (None: above)."""
    reals, j = split(rack, okey_kind)
    extra = len(rack) - 14  # a 15th tile is simply left out
    for r in range(cap + 1):
        for out in set(combinations(range(len(reals)), r + extra)):
            kept = tuple(k for i, k in enumerate(reals) if i not in out)
            if fill_best(kept, 14 - len(kept), None, ace_high) is not None:
                return r
            if pairs_fill(kept, 14 - len(kept)):
                return r
        # okeys could also be the tile left out of a 15-tile rack
        if extra and j:
            for out in set(combinations(range(len(reals)), r)):
                kept = tuple(k for i, k in enumerate(reals) if i not in out)
                w = 14 - len(kept)
                if fill_best(kept, w, None, ace_high) is not None or pairs_fill(kept, w):
                    return r
    return None


def wild_deficiency_opened(rack, okey_kind, ace_high, cap=3) -> int | None:
    """Lay all but one tile in melds: the fewest wild tiles put in, by brute force."""
    reals, j = split(rack, okey_kind)
    n = len(rack)
    for r in range(cap + 1):
        # T = n - 1 tiles in melds: kept real tiles plus wild slots (okeys + r put in)
        for keep in range(len(reals), -1, -1):
            w = n - 1 - keep
            if w < 0 or w > j + r:
                continue
            for kept in set(combinations(reals, keep)):
                if fill_best(kept, w, None, ace_high) is not None:
                    return r
    return None


def wild_deficiency_opening(rack, okey_kind, rules, limit=None) -> int:
    """Reach an opening (runs and groups, or pairs) within len(rack) - 1 tiles."""
    from types import SimpleNamespace

    reals, j = split(rack, okey_kind)
    n = len(rack)
    state = SimpleNamespace(limit=limit, options={})
    need = max(1, rules.opening_min(state, "melds"))
    pneed = rules.opening_min(state, "pairs")
    min_pairs = max(1, rules.pairs_opening_min_pairs)
    best = n
    for keep in range(len(reals) + 1):
        for kept in set(combinations(reals, keep)):
            for w in range(0, n - 1 - keep + 1):
                if max(0, w - j) >= best:
                    break
                v = fill_best(kept, w, rules.values, rules.ace_high)
                if v is not None and v >= need:
                    best = max(0, w - j)
                    break
                if (keep + w) % 2 == 0 and (keep + w) // 2 >= min_pairs and pairs_fill(kept, w):
                    counts = {k: kept.count(k) for k in kept}
                    if max(counts.values(), default=0) <= 2:
                        per = 1 if rules.values == "seventeen" else 2
                        singles = sum(1 for c in counts.values() if c == 1)
                        fresh = (w - singles) // 2
                        total = per * (sum(k % 13 + 1 for k in counts) + 13 * fresh)
                        if total >= pneed:
                            best = max(0, w - j)
                            break
    return best


def physical_at_most_one(rack, okey_kind) -> int:
    """0, 1 or 2 (meaning 2 or more), trying real replacements with evaluate.is_winning."""
    if is_winning(rack, okey_kind) is not None:
        return 0
    outside = [t for t in range(106) if t not in rack]
    for i in range(len(rack)):
        tried = set()
        for t in outside:
            if kind_of(t) in tried:
                continue
            tried.add(kind_of(t))
            if is_winning(rack[:i] + rack[i + 1 :] + [t], okey_kind):
                return 1
    return 2


def _okey_count(rack, okey_kind):
    return sum(1 for t in rack if kind_of(t) == okey_kind)


# ------------------------------------------------------------------ whole rack


def test_winning_racks_are_at_zero_and_one_swap_away_at_most_one() -> None:
    rng = random.Random(7)
    for i in range(60):
        rack, ok = winning_rack(rng, i % 3)
        assert deficiency(rack, ok, CLASSIC) == 0
        rack, ok = near_winning_rack(rng, i % 3)
        assert deficiency(rack, ok, CLASSIC) <= 1


@pytest.mark.parametrize("seed", range(4))
def test_whole_rack_agrees_with_real_replacements(seed: int) -> None:
    """Deficiency 0 and 1 against replacements tried with is_winning (with fewer than two
    okeys in the rack a wild tile put in can always be a real tile or the free okey)."""
    rng = random.Random(seed)
    for i in range(25):
        maker = (winning_rack, near_winning_rack, near_winning_rack)[i % 3]
        rack, ok = maker(rng, i % 2)
        if i % 5 == 4:
            rack, ok = random_rack(rng, 14)
        got = deficiency(rack, ok, CLASSIC)
        assert min(got, 2) == physical_at_most_one(rack, ok), (rack, ok)


def _two_swaps(rng: random.Random, n_okeys: int, size: int = 14):
    rack, ok = winning_rack(rng, n_okeys)
    for _ in range(rng.randrange(3)):
        rest = [t for t in range(106) if t not in rack]
        rack[rng.randrange(14)] = rng.choice(rest)
    if size == 15:
        rack.append(rng.choice([t for t in range(106) if t not in rack]))
    return rack, ok


@pytest.mark.parametrize("variant", ["classic", "rummy"])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), n_okeys=st.integers(0, 2), size=st.sampled_from([14, 15]))
def test_whole_rack_agrees_with_the_wild_oracle(variant, seed, n_okeys, size) -> None:
    rules = rules_for(variant)
    rack, ok = _two_swaps(random.Random(seed), n_okeys, size)
    want = wild_deficiency_whole(rack, ok, rules.ace_high)
    got = deficiency(rack, ok, rules)
    if want is None:
        assert got > 3
    else:
        assert got == want, (rack, ok)


def test_seven_pairs_count() -> None:
    rack = parse_tiles("R1 R1 R2 R2 Y3 Y3 Y5 Y5 B7 B7 K9 K9 K11 B12")
    assert deficiency(rack, 20, CLASSIC) == 1  # one single replaced by the other's twin
    rack = parse_tiles("R1 R1 R2 R2 Y3 Y3 Y5 Y5 B7 B7 K9 K11 K12 B12")
    assert deficiency(rack, 20, CLASSIC) == 2


def test_a_fifteen_tile_rack_is_its_best_discard() -> None:
    rng = random.Random(3)
    for _i in range(20):
        rack, ok = random_rack(rng, 15)
        want = min(deficiency(rack[:k] + rack[k + 1 :], ok, CLASSIC) for k in range(15))
        assert deficiency(rack, ok, CLASSIC) == want


def test_a_run_of_thirteen_and_a_stray_tile_regroup() -> None:
    # R1..R13 + B5: B5 out, a second R4 in: R1-R4 and R4-R13 (the one extra slot fits)
    rack = parse_tiles("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 B5")
    assert deficiency(rack, 51, CLASSIC) == 1


# ------------------------------------------------------------------ ukeire


def test_ukeire_lists_exactly_the_kinds_that_lower_the_deficiency() -> None:
    rng = random.Random(11)
    unseen = {k: 2 for k in range(53)}
    unseen[4] = 0  # a kind the seat has seen both copies of is never listed
    for i in range(8):
        rack, ok = near_winning_rack(rng, i % 3)
        d, acc = ukeire(rack, ok, CLASSIC, unseen)
        assert d == deficiency(rack, ok, CLASSIC)
        for kind in range(53):
            if not unseen.get(kind):
                assert kind not in acc
                continue
            ids = [t for t in range(106) if kind_of(t) == kind and t not in rack]
            if not ids:
                continue
            lower = deficiency([*rack, ids[0]], ok, CLASSIC) < d
            assert (kind in acc) == lower, (rack, ok, kind)
            if lower:
                assert acc[kind] == unseen[kind]


def test_ukeire_of_a_fifteen_tile_rack_is_its_best_discards() -> None:
    # eleven tiles in runs, R9 Y9 and two strays: either stray goes, then the group's third
    # 9 (black, or blue's second copy), an okey, or B6 (B6 B7 B8 and B9 R9 Y9) wins
    rack = parse_tiles("R1 R2 R3 R4 Y4 Y5 Y6 Y7 B7 B8 B9 R9 Y9 B2 K5")
    unseen = {k: 1 for k in range(53)}
    d, acc = ukeire(rack, 20, CLASSIC, unseen)
    assert d == 1
    assert set(acc) == {make_kind(3, 9), make_kind(2, 9), make_kind(2, 6), 20}


# ------------------------------------------------------------------ lay-down


def _rack_with_okeys(rng: random.Random, size: int, okeys: int) -> tuple[list[int], int]:
    ok = rng.randrange(52)
    plain = [t for t in range(106) if kind_of(t) != ok]
    return rng.sample(plain, size - okeys) + [ok * 2, ok * 2 + 1][:okeys], ok


LAY_DOWN = [name for name, r in RULES.items() if not r.whole_rack]


@pytest.mark.parametrize("variant", LAY_DOWN)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), size=st.integers(4, 8), okeys=st.integers(0, 2))
def test_after_opening_agrees_with_the_wild_oracle(variant, seed, size, okeys) -> None:
    rules = rules_for(variant)
    rng = random.Random(seed)
    rack, ok = _rack_with_okeys(rng, size, okeys)
    want = wild_deficiency_opened(rack, ok, rules.ace_high, cap=4)
    got = deficiency(rack, ok, rules, opened=True)
    if want is None:
        assert got > 4
    else:
        assert got == want, (rack, ok)


@pytest.mark.parametrize("variant", LAY_DOWN)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), size=st.integers(4, 8), okeys=st.integers(0, 2))
# K8 B12 Y11 Y11 Y5 Y6 K13 in fifty-one: a number held twice once counted as two colours
# of a group (11 + 11 + an empty slot), reading 2 instead of 3
@example(seed=362015174, size=7, okeys=0)
def test_opening_agrees_with_the_wild_oracle(variant, seed, size, okeys) -> None:
    rules = rules_for(variant)
    rng = random.Random(seed)
    rack, ok = _rack_with_okeys(rng, size, okeys)
    assert deficiency(rack, ok, rules) == wild_deficiency_opening(rack, ok, rules), (rack, ok)


def test_fifty_one_opening_examples() -> None:
    rules = rules_for("fifty-one")
    # a doubled Y11 is one colour: no group of 11s, so Y5 Y6 (Y7) + Y11 (Y12 Y13) = 54
    # needs three replacements, not two (RULES.md §1: a group is of different colours)
    rack = parse_tiles("K8 B12 Y11 Y11 Y5 Y6 K13")
    assert deficiency(rack, 28, rules) == 3
    # K11 K12 K13 (36) + R5 Y5 B5 (15) = 51: an opening in hand
    rack = parse_tiles("K11 K12 K13 R5 Y5 B5 R1 Y2")
    assert deficiency(rack, 20, rules) == 0
    # with the doubling limit at 60, 51 is no longer enough: one more tile (K10) is
    assert deficiency(rack, 20, rules, limit=60) == 1
    # five pairs open too
    rack = parse_tiles("R1 R1 Y2 Y2 B3 B3 K4 K4 R6 R6 K9")
    assert deficiency(rack, 20, rules) == 0


def test_colour_table_of_an_empty_colour() -> None:
    assert colour_table(0, True) == ((0, 0, 1),)


# ------------------------------------------------------------------ colour tables


def oracle_colour(numbers: list[int], ace_high: bool) -> dict[int, set[int]]:
    """d -> the empty-slot counts c (up to 13) with which runs (or lone-tile melds) hold
    every tile of one colour but d, by brute force over the subsets kept."""
    kinds = tuple(sorted(make_kind(0, n) for n in numbers))
    out: dict[int, set[int]] = {}
    for keep in range(len(kinds) + 1):
        for kept in set(combinations(kinds, keep)):
            for c in range(14):
                if fill_best(kept, c, None, ace_high) is not None:
                    out.setdefault(len(kinds) - keep, set()).add(c)
    return out


def _vec(numbers: list[int]) -> int:
    return sum(1 << (2 * (n - 1)) for n in numbers)


@pytest.mark.parametrize("ace_high", [True, False])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_colour_tables_agree_with_the_oracle(ace_high, data) -> None:
    """Every entry (d, g, m) of a colour's table: c = g + d is the fewest empty slots with
    d tiles left out, m says exactly which of c + 1, c + 2 are reachable, and the d left out
    of the table are no better (no fewer slots less d)."""
    numbers = data.draw(st.lists(st.integers(1, 13), min_size=0, max_size=7))
    numbers = [n for n in numbers if numbers.count(n) <= 2]
    table = colour_table(_vec(numbers), ace_high)
    want = oracle_colour(numbers, ace_high)
    listed = {d for d, _g, _m in table}
    for d, g, m in table:
        c = g + d
        assert min(want[d]) == c, (numbers, d)
        # the oracle tries up to 13 empty slots: offsets above that are not checked
        known = sum(1 << t for t in range(3) if c + t <= 13)
        assert m & known == sum(1 << t for t in range(3) if c + t in want[d]), (numbers, d)
    best_g = min(g for _d, g, _m in table)
    for d, cs in want.items():
        if d not in listed:
            earlier = [g for dd, g, _m in table if dd < d]
            assert earlier and min(cs) - d >= min(earlier), (numbers, d)
    assert best_g == min(min(cs) - d for d, cs in want.items())


@pytest.mark.parametrize("ace_high", [True, False])
def test_the_stored_tables_are_the_recursion(ace_high) -> None:
    """The generated file (efftables/colour_tables.bin) holds what the exact recursion
    computes: every vector of up to 3 tiles and a random sample of the rest, up to
    BIG_TILES tiles (the dict part and the bisected arrays)."""
    colour_table(0, ace_high)  # loads the file
    stored = efficiency._PRE[ace_high]
    vectors = table_vectors()
    big = big_vectors()
    assert len(stored) == len(vectors)
    assert len(efficiency._BIG[ace_high][0]) == len(big)
    rng = random.Random(99)
    sample = [v for v in vectors if _count_tiles(v) <= 3] + rng.sample(vectors, 1000)
    for v in sample + rng.sample(big, 500):
        efficiency._TABLES[ace_high].clear()
        assert colour_table(v, ace_high) == compute_colour_table(v, ace_high), v
        assert not efficiency._TABLES[ace_high]  # read from the file, not computed


def _count_tiles(v: int) -> int:
    return sum(v >> (2 * i) & 3 for i in range(13))


def test_the_table_file_is_generated_deterministically() -> None:
    from games.tools.engine import efftables_gen as gen

    small = gen.build(max_tiles=3, big_tiles=4)
    assert small == gen.build(max_tiles=3, big_tiles=4)
    assert (MAX_TILES, BIG_TILES) == (6, 10)
    assert gen.OUT.read_bytes()[: len(gen.MAGIC)] == gen.MAGIC


def test_cold_caches_give_the_same_answers() -> None:
    rng = random.Random(5)
    racks = [random_rack(rng, 14) for _ in range(30)]
    warm = [deficiency(r, ok, CLASSIC) for r, ok in racks]
    efficiency.clear_caches()
    assert [deficiency(r, ok, CLASSIC) for r, ok in racks] == warm


def test_melds_complete_is_is_winning_without_pairs() -> None:
    from games.engine.efficiency import melds_complete

    rng = random.Random(21)
    for i in range(60):
        rack, ok = (winning_rack, near_winning_rack)[i % 2](rng, i % 3)
        arr = is_winning(rack, ok)
        if arr is None or arr.kind == "melds":
            assert melds_complete(rack, ok, True) == (arr is not None), (rack, ok)


def test_a_long_colour_is_still_judged_by_the_search() -> None:
    # more reds than the stored tables hold: is_winning's own search decides
    rack = parse_tiles("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 K5")
    assert is_winning(rack, make_kind(2, 2)) is None
    rack = parse_tiles("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 Y11 B11 K11")
    assert is_winning(rack, make_kind(1, 2)) is not None  # R1-R10 and the four 11s


def test_the_greedy_recursion_gives_the_same_deficiencies(monkeypatch) -> None:
    """Colours longer than the stored tables use the greedy recursion (a run never leaves
    a tile of its own for an empty slot): with every table computed that way, the
    deficiencies are those of the exact stored tables."""
    from array import array

    rng = random.Random(8)
    cases = []
    for i in range(40):
        rack, ok = (winning_rack, near_winning_rack, _two_swaps)[i % 3](rng, i % 3)
        cases.append((rack, ok, CLASSIC, False))
    for variant in LAY_DOWN:
        for _ in range(10):
            rack, ok = _rack_with_okeys(rng, 9, rng.randrange(3))
            cases.append((rack, ok, rules_for(variant), True))
    exact = [deficiency(r, ok, rules, opened=o) for r, ok, rules, o in cases]
    colour_table(0, True)
    monkeypatch.setattr(efficiency, "_PRE", {True: {}, False: {}})
    empty = (array("I"), array("H"), [])
    monkeypatch.setattr(efficiency, "_BIG", {True: empty, False: empty})
    monkeypatch.setattr(efficiency, "_LONG", {True: empty, False: empty})
    monkeypatch.setattr(efficiency, "_PAIRS", {True: ({}, 0, []), False: ({}, 0, [])})
    efficiency.clear_caches()
    try:
        greedy = [deficiency(r, ok, rules, opened=o) for r, ok, rules, o in cases]
    finally:
        efficiency.clear_caches()
    assert greedy == exact


def test_the_bench_cold_figure_never_sees_a_rack_twice() -> None:
    """Cold: every call gets a rack the process has not timed before (new seeds each
    pass), with the memo tables cleared just before it."""
    from games.tools.engine import bench

    seen: list[tuple[int, ...]] = []
    log: list[str] = []

    def fn(rack, ok):
        log.append("call")
        seen.append((*sorted(rack), ok))

    rate = bench._cold_rate(fn, lambda r: random_rack(r, 14), 0.0, 50, lambda: log.append("clear"))
    rate2 = bench._cold_rate(fn, lambda r: random_rack(r, 14), 0.0, 50, lambda: log.append("clear"))
    assert rate > 0 and rate2 > 0
    assert len(seen) >= 100 and len(set(seen)) == len(seen)
    assert log == ["clear", "call"] * len(seen)
