"""The evaluator's fast paths against the evaluator before them (test_evaluate_before.py).

``best_arrangement`` must give exactly the arrangement it gave before (melds in the same
order, the same tiles, plays, leftover and total: the CPU players' choices and the arena
figures depend on it), and so must the scored search the CPU players read
(``evaluate._search``). ``is_winning`` may lay a winning rack out differently, so it must
give the same verdict, the same kind (pairs when both, evaluate.py's module doc) and a
complete, valid arrangement. Racks: random, built winning and near-winning ones (one tile
swapped) with 0-2 okeys and false jokers, in every rule set's (value mode, ace rule), each
call with the lazy memos cleared (the bench's cold figure) and again with them kept.
"""

from __future__ import annotations

import random

import pytest

from games.engine import evaluate
from games.engine.rules import RULES
from games.engine.tiles import make_kind
from games.tools.engine.bench import near_winning_rack, random_rack, winning_rack

from . import test_evaluate_before as before
from .test_evaluate_oracle import check_shapes, random_rack_with_okeys

# (values, ace rule) of every rule set, and the whole-rack pair (None, True) with pairs
COMBOS = sorted({(r.values, r.ace_high) for r in RULES.values()}, key=repr)


def _racks(seed: int | str, n: int, ace_high: bool, size: int = 14) -> list[tuple[list[int], int]]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        kind, j = i % 4, i // 4 % 3
        if kind == 0:
            out.append(winning_rack(rng, j, ace_high=ace_high))
        elif kind == 1:
            out.append(near_winning_rack(rng, j))
        elif kind == 2:
            out.append(random_rack_with_okeys(rng, size))
        else:
            out.append(random_rack(rng, size))
    return out


def _fields(arr) -> tuple:
    return (arr.kind, arr.melds, arr.leftover, arr.opening_total)


def _search_score(mod, rack: list[int], ok: int, mode: str, ace_high: bool):
    V = mod._pack(rack, ok)
    _vecs, masks, two, three = mod._masks(V)
    return mod._search(V, V >> mod._OK_SHIFT, mode, ace_high, False, masks, two, three)


@pytest.mark.parametrize("values, ace_high", COMBOS)
@pytest.mark.parametrize("cold", [True, False])
def test_best_arrangement_is_the_one_before(values, ace_high, cold: bool) -> None:
    racks = _racks(f"best/{values}/{ace_high}/{cold}", 1200, ace_high)
    racks += _racks(7, 60, ace_high, size=21)  # 101's deal
    mode = values or "sum"
    evaluate.clear_caches()
    before.clear_caches()
    for rack, ok in racks:
        if cold:
            evaluate.clear_caches()
            before.clear_caches()
        for pairs in (True, False):
            new = evaluate.best_arrangement(rack, ok, ace_high=ace_high, values=values, pairs=pairs)
            old = before.best_arrangement(rack, ok, ace_high=ace_high, values=values, pairs=pairs)
            assert _fields(new) == _fields(old), (rack, ok, pairs)
        assert _search_score(evaluate, rack, ok, mode, ace_high) == _search_score(
            before, rack, ok, mode, ace_high
        ), (rack, ok)


@pytest.mark.parametrize("ace_high", [True, False])
@pytest.mark.parametrize("cold", [True, False])
def test_is_winning_gives_the_verdict_before_with_a_valid_arrangement(
    ace_high: bool, cold: bool
) -> None:
    racks = _racks(101 + ace_high + 2 * cold, 4000, ace_high)
    wins = 0
    for rack, ok in racks:
        if cold:
            evaluate.clear_caches()
        new = evaluate.is_winning(rack, ok, ace_high=ace_high)
        old = before.is_winning(rack, ok, ace_high=ace_high)
        assert (new is None) == (old is None), (rack, ok)
        if new is not None:
            wins += 1
            assert new.kind == old.kind and not new.leftover and new.opening_total is None
            check_shapes(new, rack, ok, ace_high)
    assert wins > 1000  # the built winning racks, and some near ones that still win


def test_okeys_the_cover_masks_cannot_place_one_by_one_still_win() -> None:
    """Two black 1s, one playing after 13: an okey placed next to them would make three 1s,
    beyond what the high cover table holds, so the layout falls back to the run-by-run walk
    (evaluate._okey_runs gives None) and still returns a valid winning arrangement."""
    ok = make_kind(3, 2)  # black 2: the two black 2s are the okeys, F plays black 2
    rack = [2 * make_kind(3, n) + c for n, c in ((1, 0), (1, 1), (4, 0), (5, 0))]
    rack += [2 * make_kind(3, n) for n in range(7, 14)] + [104, 2 * ok, 2 * ok + 1]
    vec = evaluate._pack(rack, ok) & evaluate._M26
    w = vec - 1 + (1 << 26)  # one of the 1s high
    assert evaluate._okey_runs(w, 2, evaluate._COVER_HIGH, 14) is None
    arr = evaluate.is_winning(rack, ok)
    assert arr is not None and arr.kind == "melds" and not arr.leftover
    check_shapes(arr, rack, ok, True)
