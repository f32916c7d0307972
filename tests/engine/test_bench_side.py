"""The side-by-side timing tool (games/tools/engine/bench_side.py): it times two versions of the
tile-efficiency module on the same racks and refuses to time versions that disagree."""

from __future__ import annotations

import pytest

from games.tools.engine import bench_side


def test_two_copies_of_the_module_are_timed_on_every_rack_set() -> None:
    a = bench_side.load_version(bench_side.SOURCE, "efficiency_side_a")
    b = bench_side.load_version(bench_side.SOURCE, "efficiency_side_b")
    rows = bench_side.compare(a, b, n_racks=15, passes=1)
    assert [r["racks"] for r in rows][:2] == ["random 14", "random 15"]
    assert len(rows) == 8
    assert all(r["before"] > 0 and r["after"] > 0 and r["ratio"] > 0 for r in rows)


def test_versions_that_disagree_are_not_timed() -> None:
    a = bench_side.load_version(bench_side.SOURCE, "efficiency_side_c")
    b = bench_side.load_version(bench_side.SOURCE, "efficiency_side_d")
    real = b.deficiency
    b.deficiency = lambda *args, **kw: real(*args, **kw) + 1
    with pytest.raises(AssertionError, match="answers differ"):
        bench_side.compare(a, b, n_racks=5, passes=1)


def test_the_working_tree_is_compared_with_a_revision(capsys, monkeypatch) -> None:
    asked = []

    def source_at(rev: str, source=bench_side.SOURCE) -> str:  # here the working tree's own
        asked.append((rev, source.name))
        return source.read_text()

    monkeypatch.setattr(bench_side, "source_at", source_at)
    assert bench_side.main(["abc123", "--racks", "5", "--passes", "1"]) == 0
    assert asked == [("abc123", "efficiency.py")]
    out = capsys.readouterr().out
    assert out.startswith("deficiency, calls per CPU second: abc123 / working tree")
    assert "near-winning, 2 okeys" in out


def test_is_winning_is_compared_between_two_versions_of_the_evaluator(capsys, monkeypatch):
    """``--what is_winning``: evaluate.py at a revision against the working tree's, on the
    14-tile rack sets; versions whose arrangements differ are not timed."""
    asked = []

    def source_at(rev: str, source=bench_side.SOURCE) -> str:
        asked.append((rev, source.name))
        return source.read_text()

    monkeypatch.setattr(bench_side, "source_at", source_at)
    argv = ["abc123", "--what", "is_winning", "--racks", "5", "--passes", "1"]
    assert bench_side.main(argv) == 0
    assert asked == [("abc123", "evaluate.py")]
    out = capsys.readouterr().out
    assert out.startswith("is_winning, calls per CPU second: abc123 / working tree")
    assert "winning, 2 okeys" in out and "random 15" not in out

    src = bench_side.SOURCES["is_winning"]
    a = bench_side.load_version(src, "evaluate_side_a", src)
    b = bench_side.load_version(src, "evaluate_side_b", src)
    b.is_winning = lambda rack, ok: None  # wrong on every winning rack
    with pytest.raises(AssertionError, match="answers differ"):
        bench_side.compare(a, b, n_racks=5, passes=1, what="is_winning")
