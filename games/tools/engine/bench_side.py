"""Side-by-side timing of two versions of an evaluator module: the tile-efficiency module
(``efficiency.py``, its ``deficiency``) or the hand evaluator (``evaluate.py``, its
``is_winning``: ``--what is_winning``).

``python -m games.tools.engine.bench_side REV`` loads ``games/engine/efficiency.py`` as it is at
the git revision REV and as it is in the working tree, both in this one process (same
tables, same interpreter), and times ``deficiency`` (classic rules) on the same racks of
every rack set of the bench (``--what is_winning``: ``evaluate.py`` and ``is_winning`` on
the 14-tile sets), the two versions turn about, pass after pass; each version's
best pass counts (each version keeps its own memo tables between passes: a relative
figure, not a cold one). It checks the two give the same answers on every rack. On a shared
machine this is the figure to trust for a change: both versions see the same load, where
two bench runs minutes apart can differ by tens of percent.

Not a test: it prints calls per CPU second and the ratio.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import Any

from games.engine import efficiency, evaluate
from games.engine.rules import RULES
from games.tools.engine import bench

SOURCE = Path(efficiency.__file__)
SOURCES = {"deficiency": SOURCE, "is_winning": Path(evaluate.__file__)}


def load_version(path: Path, name: str, source: Path = SOURCE) -> ModuleType:
    """The module compiled from ``path``, reading the shipped tables (its ``__file__``
    points at the package's own ``source``, so the table files are found). It is in
    ``sys.modules`` under its own name while it runs (dataclasses look their module up)."""
    spec = importlib.util.spec_from_file_location(f"games.engine.{name}", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    mod.__file__ = str(source)
    return mod


def source_at(rev: str, source: Path = SOURCE) -> str:
    """The module's file (``efficiency.py`` unless said) as it is at the git revision ``rev``."""
    root = source.parents[2]
    rel = source.relative_to(root).as_posix()
    return subprocess.run(
        ["git", "show", f"{rev}:{rel}"], cwd=root, check=True, capture_output=True, text=True
    ).stdout


def _answer(mod: ModuleType, what: str) -> Callable[[list[int], int], Any]:
    """The function timed, as a call on (rack, okey kind), and its answer made comparable
    between two versions (an arrangement as its kind, melds and leftover: each version
    has its own ``Arrangement`` class)."""
    if what == "is_winning":

        def win(rack: list[int], ok: int) -> Any:
            a = mod.is_winning(rack, ok)
            return None if a is None else (a.kind, a.melds, a.leftover)

        return win
    classic = RULES["classic"]
    return lambda rack, ok: mod.deficiency(rack, ok, classic)


def compare(
    before: ModuleType,
    after: ModuleType,
    n_racks: int = 3000,
    passes: int = 5,
    seed: str = "side",
    what: str = "deficiency",
) -> list[dict]:
    """Per rack set: the best pass's calls per CPU second of each version and their
    ratio; raises AssertionError when the two versions' answers differ."""
    fns = {"before": _answer(before, what), "after": _answer(after, what)}
    makers: list[tuple[str, Callable[[random.Random], tuple[list[int], int]]]] = [
        ("random 14", lambda r: bench.random_rack(r, 14))
    ]
    if what != "is_winning":  # is_winning takes 14 tiles
        makers.append(("random 15", lambda r: bench.random_rack(r, 15)))
    for j in range(3):
        makers.append((f"winning, {j} okeys", partial(bench.winning_rack, n_okeys=j)))
    for j in range(3):
        makers.append((f"near-winning, {j} okeys", partial(bench.near_winning_rack, n_okeys=j)))
    rows = []
    for name, make in makers:
        rng = random.Random(f"{seed}/{name}")
        racks = [make(rng) for _ in range(n_racks)]
        answers = {}
        for label, fn in fns.items():
            answers[label] = [fn(r, ok) for r, ok in racks]
        assert answers["before"] == answers["after"], f"{name}: the versions' answers differ"
        best = {"before": 0.0, "after": 0.0}
        for _ in range(passes):
            for label, fn in fns.items():
                t = time.process_time()
                for r, ok in racks:
                    fn(r, ok)
                spent = time.process_time() - t
                best[label] = max(best[label], len(racks) / spent if spent > 0 else 0.0)
        ratio = best["after"] / best["before"] if best["before"] else 0.0
        rows.append({"racks": name, **{k: round(v) for k, v in best.items()}, "ratio": ratio})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.tools.engine.bench_side")
    parser.add_argument("rev", help="the git revision to compare the working tree with")
    parser.add_argument("--racks", type=int, default=3000)
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--what", choices=sorted(SOURCES), default="deficiency")
    args = parser.parse_args(argv)
    source = SOURCES[args.what]
    stem = source.stem
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / f"{stem}_before.py"
        old.write_text(source_at(args.rev, source))
        before = load_version(old, f"{stem}_before", source)
        after = load_version(source, f"{stem}_after", source)
        rows = compare(before, after, args.racks, args.passes, what=args.what)
    print(f"{args.what}, calls per CPU second: {args.rev} / working tree (best of {args.passes})")
    for row in rows:
        print(f"{row['racks']:<24}{row['before']:>10,}{row['after']:>10,}   x{row['ratio']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
