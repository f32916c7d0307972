"""The engine bench's figures (games/tools/engine/bench.py): what each column measures."""

from __future__ import annotations

from games.tools.engine import bench
from games.tools.engine.bench import random_rack


def test_the_fresh_figure_never_sees_a_rack_twice_and_keeps_the_memo() -> None:
    """Fresh: racks the process has not timed before (new seeds each pass, also apart
    from the cold passes), and nothing cleared between the calls."""
    seen: list[tuple[int, ...]] = []

    def fn(rack, ok):
        seen.append((*sorted(rack), ok))

    cleared: list[str] = []
    bench._cold_rate(fn, lambda r: random_rack(r, 14), 0.0, 50, lambda: cleared.append("x"))
    n_cold = len(seen)
    rate = bench._fresh_rate(fn, lambda r: random_rack(r, 14), 0.0, 50, chunk=25)
    rate2 = bench._fresh_rate(fn, lambda r: random_rack(r, 14), 0.0, 50, chunk=25)
    assert rate > 0 and rate2 > 0
    assert len(seen) >= n_cold + 100 and len(set(seen)) == len(seen)
    assert len(cleared) == n_cold  # only the cold calls cleared anything


def test_the_tables_are_reported_with_their_size_and_load_time() -> None:
    tables = bench.table_figures()
    files = {"colour_tables.bin", "long_colour_tables.bin", "run_cover.bin", "solver_tables.bin"}
    assert files <= set(tables)
    for name, t in tables.items():
        # a file has its size; what is built from the files in memory (the pair forms of
        # efficiency) is listed with its build time and no size
        assert (t["bytes"] > 0) == (name in files) and t["load_seconds"] >= 0


def test_the_table_prints_cold_fresh_and_warm() -> None:
    row = {"racks": "random 14", "is_winning": 3, "is_winning_cold": 1, "is_winning_fresh": 2}
    figures = {
        "tables": {"run_cover.bin": {"bytes": 10, "load_seconds": 0.5}},
        "evaluator": [row],
        "lay_down": [],
        "hands_per_second": {"classic": 1.0},
        "peak_rss_mb": 1.0,
    }
    text = bench.format_table(figures)
    assert "cold / fresh / warm" in text
    assert "1 / 2 / 3" in text
    assert "run_cover.bin" in text and "load 0.500 s" in text


def test_the_phases_of_is_winning_are_is_winning_split_in_two() -> None:
    """The bench times the verdict and the laying-out apart: together they are
    is_winning, on winning racks with 0-2 okeys (seven pairs too) and on losing racks."""
    import random

    from games.engine.evaluate import is_winning, lay_out_win, winning_verdict

    rng = random.Random("phases-test")
    racks = [bench.winning_rack(rng, j) for j in (0, 1, 2) for _ in range(60)]
    racks += [random_rack(rng, 14) for _ in range(200)]
    # seven pairs: R1 R1 … R7 R7, okey kind black 13
    racks.append(([2 * k + c for k in range(7) for c in (0, 1)], 51))
    seen_pairs = 0
    for rack, ok in racks:
        found = winning_verdict(rack, ok)
        whole = is_winning(rack, ok)
        assert (found is None) == (whole is None)
        if found is not None:
            assert lay_out_win(found, rack, ok) == whole
            seen_pairs += whole.kind == "pairs"
    assert seen_pairs >= 1


def test_the_phases_are_measured_and_printed() -> None:
    rows = bench.is_winning_phases(0.0, 20)
    assert [r["racks"] for r in rows] == [f"winning, {j} okeys" for j in range(3)]
    for r in rows:
        assert min(r["pack_us"], r["verdict_us"], r["lay_out_us"], r["answer_us"]) > 0
    figures = {"evaluator": [], "hands_per_second": {}, "peak_rss_mb": None}
    text = bench.format_table({**figures, "is_winning_phases": rows})
    first = rows[0]
    total = first["verdict_us"] + first["lay_out_us"]
    assert "where the time goes" in text and f"{total:.1f}" in text
