"""The run-cover tables behind ``is_winning`` (games/engine/efftables/cover.py).

A colour's cover mask says with which numbers of okeys (0, 1, 2) runs of that colour hold
every one of its tiles (RULES.md §1: runs of 3-13 consecutive tiles, 12-13-1 only when the
ace plays high, never 13-1-2). The brute-force oracle (tests/engine/oracle.py, recursion on
tile ids with ``melds.classify``) judges one-colour racks; the shipped file must be what the
recursion computes; and ``is_winning`` read through the tables must give the verdict of the
evaluator's scored search, with a valid arrangement.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import evaluate
from games.engine.efftables import cover
from games.engine.evaluate import is_winning
from games.engine.tiles import format_tiles, kind_notation, make_kind
from games.tools.engine.bench import near_winning_rack, random_rack, winning_rack

from .oracle import oracle_melds
from .test_evaluate_oracle import check_shapes, random_rack_with_okeys

OKEY = make_kind(3, 12)  # black 12: the okeys below are black 12s


def _vec(numbers: list[int]) -> int:
    return sum(1 << (2 * (n - 1)) for n in numbers)


def _one_colour_rack(numbers: list[int], okeys: int) -> list[int]:
    ids = []
    for n in sorted(numbers):
        k = make_kind(0, n)
        ids.append(2 * k if 2 * k not in ids else 2 * k + 1)
    return ids + [2 * OKEY, 2 * OKEY + 1][:okeys]


def _oracle_mask(numbers: list[int], ace_high: bool) -> int:
    """Bit u set when the red tiles and u okeys split into melds leaving nothing (one
    colour: a group would hold one red tile and two okeys, as a run of them does)."""
    mask = 0
    for u in range(3):
        rack = _one_colour_rack(numbers, u)
        if not rack:
            mask |= 1
            continue
        left, _total = oracle_melds(rack, OKEY, ace_high=ace_high, values=None)
        if left == 0:
            mask |= 1 << u
    return mask


colour_numbers = st.lists(st.integers(1, 13), min_size=0, max_size=9).map(
    lambda ns: sorted(n for i, n in enumerate(ns) if ns[:i].count(n) < 2)
)


@pytest.mark.parametrize("ace_high", [True, False])
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(numbers=colour_numbers)
def test_cover_masks_agree_with_the_oracle(ace_high: bool, numbers: list[int]) -> None:
    table = evaluate._COVER_ACE if ace_high else evaluate._COVER_LOW
    assert table[cover.rank(_vec(numbers))] == _oracle_mask(numbers, ace_high), numbers


@pytest.mark.parametrize(
    "numbers, ace_high, mask",
    [
        ([12, 13, 1], True, 0b111),  # 12-13-1, or longer with okeys at 11 and 10
        ([12, 13, 1], False, 0b000),  # no 12-13-1 in seventeen
        ([13, 1, 2], True, 0b000),  # 13-1-2 is never a run
        ([5], True, 0b100),  # one tile: a run with two okeys
        ([3, 6], True, 0b100),  # R3 okey okey R6
        ([10, 10, 11, 11, 12, 12], False, 0b111),  # two equal runs
        ([1, 1, 2, 3, 12, 13], True, 0b111),  # 1-2-3 and 12-13-1: the second 1 plays high
        ([1, 1, 2, 3, 12, 13], False, 0b000),  # no 12-13-1: three okeys would be needed
    ],
)
def test_cover_examples(numbers: list[int], ace_high: bool, mask: int) -> None:
    table = evaluate._COVER_ACE if ace_high else evaluate._COVER_LOW
    assert table[cover.rank(_vec(numbers))] == mask


@pytest.mark.slow
def test_the_shipped_file_is_the_recursion() -> None:
    """run_cover.bin (written by games/tools/engine/efftables_gen.py) holds what cover_rec
    computes: a random sample of every table, and the ace table is the best of the 1s played low or
    high."""
    tables = cover.load()
    assert tables is not None
    low_t, high_t, ace_t = tables
    low, high = cover.cover_rec(13), cover.cover_rec(14)
    rng = random.Random(17)
    for _ in range(3000):
        r = rng.randrange(cover.N13)
        v, x, i = 0, r, 0
        while x:
            v |= (x % 3) << (2 * i)
            x //= 3
            i += 1
        assert cover.rank(v) == r
        assert low_t[r] == low(v), v
        want = high(v)
        assert high_t[r] == want, v
        for x in range(1, (v & 3) + 1):
            w = v - x + (x << 26)
            assert high_t[cover.rank(w)] == high(w), w
            want |= high(w)
        assert ace_t[r] == want, v


def _old_is_winning(monkeypatch, rack: list[int], ok: int, ace_high: bool):
    with monkeypatch.context() as m:
        m.setattr(evaluate, "_COVER", None)
        return is_winning(rack, ok, ace_high=ace_high)


def test_is_winning_gives_the_scored_search_verdict(monkeypatch) -> None:
    """Through the cover tables, is_winning says what the evaluator's scored search says
    (the verdict the tests compare with the brute-force oracle), on built winning racks,
    near misses and random racks with 0-2 okeys and false jokers, and its arrangement is
    valid and complete."""
    rng = random.Random(23)
    cases = []
    for i in range(900):
        ace_high = i % 4 != 0
        kind = i % 3
        if kind == 0:
            rack, ok = winning_rack(rng, i % 7 % 3, ace_high=ace_high)
        elif kind == 1:
            rack, ok = near_winning_rack(rng, i % 7 % 3)
        else:
            rack, ok = random_rack_with_okeys(rng, 14)
        cases.append((rack, ok, ace_high))
    wins = 0
    for rack, ok, ace_high in cases:
        new = is_winning(rack, ok, ace_high=ace_high)
        old = _old_is_winning(monkeypatch, rack, ok, ace_high)
        assert (new is None) == (old is None), format_tiles(rack)
        if new is not None:
            wins += 1
            assert new.kind == old.kind and not new.leftover
            check_shapes(new, rack, ok, ace_high)
    assert wins > 300


def test_okeys_extend_runs_upwards_and_long_runs_stay_whole() -> None:
    # R1 ... R7 is one run, not two; the okey ends K6 K7 as K8
    rack = [2 * make_kind(0, n) for n in range(1, 8)]
    rack += [2 * make_kind(3, 6), 2 * make_kind(3, 7), 2 * OKEY]
    rack += [2 * make_kind(c, 9) for c in range(4)]
    arr = is_winning(rack, OKEY)
    assert arr is not None
    runs = sorted(" ".join(map(kind_notation, m.plays)) for m in arr.melds if m.kind == "run")
    assert runs == ["K6 K7 K8", "R1 R2 R3 R4 R5 R6 R7"]


def test_a_cold_winning_check_leaves_the_run_solver_memo_empty() -> None:
    """is_winning on racks never seen fills no per-colour memo: its cost does not depend on
    what earlier calls computed (the bench's cold figure)."""
    rng = random.Random(31)
    evaluate.clear_caches()
    for i in range(200):
        rack, ok = (winning_rack, near_winning_rack)[i % 2](rng, i % 3)
        is_winning(rack, ok)
        rack, ok = random_rack(rng, 14)
        is_winning(rack, ok)
    assert not any(evaluate._memo14.values())
    assert not any(evaluate._scores13.values())
