"""The precomputed run-solver tables behind ``best_arrangement`` (efftables/solved.py).

The tables must change nothing: every arrangement (melds, tiles, plays, leftover, total) and
every search score the CPU players read is the same as with the memoised solver alone (the
old path, kept as the oracle here), in every value mode and ace rule; and the shipped file
holds what that solver computes.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import evaluate
from games.engine.efftables import solved, table_vectors
from games.engine.evaluate import best_arrangement
from games.tools.engine.bench import near_winning_rack, random_rack, winning_rack

from .test_evaluate_oracle import check_shapes, random_rack_with_okeys

COMBOS = [(None, True), ("sum", True), ("sum", False), ("seventeen", False), ("seventeen", True)]


def _solver_only(monkeypatch, fn):
    """fn() with the tables switched off and the memo empty (the solver alone)."""
    with monkeypatch.context() as m:
        m.setattr(evaluate, "_SOLVED_BY", {})
        evaluate.clear_caches()
        try:
            return fn()
        finally:
            evaluate.clear_caches()


def _search_score(rack, ok, mode, ace_high):
    V = evaluate._pack(rack, ok)
    _vecs, masks, two, three = evaluate._masks(V)
    return evaluate._search(V, V >> evaluate._OK_SHIFT, mode, ace_high, False, masks, two, three)[0]


def _cases(seed: int, n: int):
    rng = random.Random(seed)
    out = []
    for i in range(n):
        kind = i % 4
        if kind == 0:
            rack, ok = random_rack_with_okeys(rng, rng.choice([5, 9, 13, 14, 15, 21]))
        elif kind == 1:
            rack, ok = winning_rack(rng, i % 3)
        elif kind == 2:
            rack, ok = near_winning_rack(rng, i % 3)
        else:
            rack, ok = random_rack(rng, 14)
        out.append((rack, ok))
    return out


@pytest.mark.parametrize("seed, values, ace_high", [(i, *c) for i, c in enumerate(COMBOS)])
def test_arrangements_are_those_of_the_solver_alone(monkeypatch, seed, values, ace_high) -> None:
    cases = _cases(seed, 400)
    mode = values or "sum"
    evaluate.clear_caches()
    new = [
        (
            best_arrangement(r, ok, ace_high=ace_high, values=values),
            best_arrangement(r, ok, ace_high=ace_high, values=values, pairs=False),
            _search_score(r, ok, mode, ace_high),
        )
        for r, ok in cases
    ]
    old = _solver_only(
        monkeypatch,
        lambda: [
            (
                best_arrangement(r, ok, ace_high=ace_high, values=values),
                best_arrangement(r, ok, ace_high=ace_high, values=values, pairs=False),
                _search_score(r, ok, mode, ace_high),
            )
            for r, ok in cases
        ],
    )
    for (rack, ok), a, b in zip(cases, new, old, strict=True):
        assert a == b, (rack, ok)
        check_shapes(a[0], rack, ok, ace_high)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    okey_kind=st.integers(0, 51),
    n_okeys=st.integers(0, 2),
    ids=st.lists(st.integers(0, 105), min_size=22, max_size=22, unique=True),
    size=st.integers(3, 22),
    combo=st.sampled_from(COMBOS),
)
def test_hypothesis_racks_match_the_solver_alone(okey_kind, n_okeys, ids, size, combo) -> None:
    values, ace_high = combo
    plain = [t for t in ids if t // 2 != okey_kind or t >= 104]
    rack = plain[: size - n_okeys] + [2 * okey_kind, 2 * okey_kind + 1][:n_okeys]
    evaluate.clear_caches()
    new = best_arrangement(rack, okey_kind, ace_high=ace_high, values=values)
    new_score = _search_score(rack, okey_kind, values or "sum", ace_high)
    saved = evaluate._SOLVED_BY
    evaluate._SOLVED_BY = {}
    evaluate.clear_caches()
    try:
        old = best_arrangement(rack, okey_kind, ace_high=ace_high, values=values)
        old_score = _search_score(rack, okey_kind, values or "sum", ace_high)
    finally:
        evaluate._SOLVED_BY = saved
        evaluate.clear_caches()
    assert new == old
    assert new_score == old_score


@pytest.mark.parametrize("mode, ace_high", solved.COMBOS)
def test_the_shipped_tables_are_the_solver(monkeypatch, mode, ace_high) -> None:
    """solver_tables.bin (written by games/tools/engine/efftables_gen.py) holds the solver's
    scores and plans: every vector of up to 3 tiles and a random sample of the rest up to
    SOLVED_TILES."""
    tab = evaluate._SOLVED_BY[(mode, ace_high)]
    vectors = table_vectors(solved.SOLVED_TILES)
    rng = random.Random(41)
    sample = [v for v in vectors if solved.tiles_in(v) <= 3] + rng.sample(vectors, 1500)
    monkeypatch.setattr(evaluate, "_SOLVED_BY", {})
    evaluate.clear_caches()
    try:
        for v in sample:
            want = evaluate._solve_colour(v, mode, ace_high)
            assert tab.outs[tab.out_idx[solved._rank(v)]] == want, v
            for u in range(3):
                entry = evaluate._colour_plan(v, u, mode, ace_high)
                plan = None if entry is None else evaluate._plan_list(entry[1])
                assert tab.plan(v, u) == plan, (v, u)
    finally:
        evaluate.clear_caches()
    thirteen = sum(1 << (2 * i) for i in range(13))  # R1 ... R13: more tiles, not stored
    assert tab.outs[tab.out_idx[solved._rank(thirteen)]] is None


def test_the_tables_are_generated_deterministically() -> None:
    from games.tools.engine import efftables_gen as gen

    a = gen.build_solved_combo("sum", True, max_tiles=4)
    assert a == gen.build_solved_combo("sum", True, max_tiles=4)
    assert solved.SOLVED_FILE.read_bytes().startswith(solved.SOLVED_MAGIC)


def test_a_cold_best_arrangement_runs_no_solver_on_small_colours() -> None:
    """Racks never seen, colours of up to SOLVED_TILES tiles: the arrangement comes from
    table reads, and the per-colour memo stays empty (the bench's cold figure)."""
    rng = random.Random(43)
    evaluate.clear_caches()
    for _ in range(200):
        rack, ok = random_rack(rng, 15)
        best_arrangement(rack, ok)
        best_arrangement(rack, ok, values="sum")
        best_arrangement(rack, ok, ace_high=False, values="seventeen")
    assert not any(evaluate._memo14.values())
    assert not any(evaluate._scores13.values())
