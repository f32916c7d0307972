"""Duplicate-deal arena: ``arena(variant, a, b, deals, seed) -> dict``.

Each deal (seed ``f"{seed}/{i}"``, starter ``i % n``) is played twice: level A
in seats {0, 2} and B in {1, 3}, then the levels swapped, so both sides get the
same tiles. A side's score for a hand is the mean hand total of its two seats.
``advantage`` is A's edge per hand in "better" units whatever the rule set's
direction (``Rules.higher_wins``: classic, rummy score points, higher is better;
fifty-one, seventeen, 101 score penalties, lower is better), averaged over the two
halves of each deal; ``ci95`` is its normal 95% interval over the deals. Any rule
set of the registry (``games.engine.rules.RULES``) can be played, at any of its
table sizes (``options={"players": n}``).

CLI: ``python -m games.tools.engine arena --variant V --a hard --b medium --deals N --seed S``
(or ``python -m games.tools.engine.arena …``) prints the JSON report.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from games.engine.actions import apply, legal_actions
from games.engine.bots import expert  # noqa: F401 - registers the expert level
from games.engine.bots.core import LEVELS, decide
from games.engine.options import validate_options
from games.engine.rules import RULES, rules_for
from games.engine.state import new_hand
from games.engine.view import view_for

MAX_ACTIONS = 3000


def play_hand(
    variant: str,
    levels: list[str],
    seed: Any,
    starter: int = 0,
    options: dict | None = None,
    timings: dict[str, list[float]] | None = None,
    max_actions: int = MAX_ACTIONS,
    chooser: Callable[[Any, int, str], dict | None] | None = None,
):
    """Play one hand with ``levels[seat]`` bots to its end; return the final state.

    ``chooser(state, seat, level)``, when given, is asked first and its action played
    unless it returns None: a measuring tool's hook (``ceiling.py`` lets a seat look at
    another rack, which no level may); the levels themselves decide from the view."""
    state = new_hand(variant, options, seed, starter)
    for _ in range(max_actions):
        if state.over:
            break
        seat = state.turn
        t0 = time.perf_counter()
        action = chooser(state, seat, levels[seat]) if chooser is not None else None
        if action is None:
            action = decide(view_for(state, seat), legal_actions(state, seat), levels[seat])
        if timings is not None:
            timings.setdefault(levels[seat], []).append((time.perf_counter() - t0) * 1000)
        state, _ = apply(state, action)
    return state


def _pct(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    xs = sorted(xs)
    return round(xs[min(len(xs) - 1, int(q * len(xs)))], 3)


def _play_deals(job: tuple) -> dict[str, Any]:
    """Play deals ``first .. first+count-1``; return raw sums (mergeable)."""
    variant, a, b, first, count, seed, opts, *rest = job
    chooser = rest[0] if rest else None
    n = opts["players"]
    sign = 1 if rules_for(variant).higher_wins else -1
    side_a = [s for s in range(n) if s % 2 == 0]
    side_b = [s for s in range(n) if s % 2 == 1]
    timings: dict[str, list[float]] = {}
    endings: dict[str, int] = {}
    sum_a = sum_b = 0.0
    edges: list[float] = []
    for i in range(first, first + count):
        deal_seed = f"{seed}/{i}"
        starter = i % n
        edge = 0.0
        for swap in (False, True):
            levels = [(b if s % 2 == 0 else a) if swap else (a if s % 2 == 0 else b)
                      for s in range(n)]  # fmt: skip
            state = play_hand(variant, levels, deal_seed, starter, opts, timings, chooser=chooser)
            totals = state.hand_totals()
            seats_a, seats_b = (side_b, side_a) if swap else (side_a, side_b)
            sa = sum(totals[s] for s in seats_a) / len(seats_a)
            sb = sum(totals[s] for s in seats_b) / len(seats_b)
            sum_a += sa
            sum_b += sb
            edge += sign * (sa - sb) / 2
            ending = state.result["ending"] if state.over else "unfinished"
            endings[ending] = endings.get(ending, 0) + 1
        edges.append(edge)
    return {"sum_a": sum_a, "sum_b": sum_b, "edges": edges, "endings": endings,
            "timings": timings}  # fmt: skip


def arena(
    variant: str,
    a: str,
    b: str,
    deals: int,
    seed: Any = 0,
    *,
    options: dict | None = None,
    first: int = 0,
    workers: int = 1,
    chooser: Callable[[Any, int, str], dict | None] | None = None,
) -> dict[str, Any]:
    """Play ``deals`` duplicate deals of level ``a`` against level ``b``; return the report.

    Deal i (``first <= i < first + deals``) uses the seed ``f"{seed}/{i}"``, so
    reports over disjoint ranges of the same seed add up (``merge``).
    ``workers`` > 1 plays the deals in that many processes (same results).
    ``chooser``: see ``play_hand`` (a module-level function, so that workers get it).
    """
    for lv in (a, b):
        if lv not in LEVELS:
            raise ValueError(f"unknown level {lv!r} (choose from {LEVELS})")
    opts = validate_options(variant, options)
    t_start = time.perf_counter()
    workers = max(1, min(workers, deals or 1))
    if workers == 1:
        parts = [_play_deals((variant, a, b, first, deals, seed, opts, chooser))]
    else:
        import multiprocessing

        size = -(-deals // (workers * 4))
        jobs = [(variant, a, b, i, min(size, first + deals - i), seed, opts, chooser)
                for i in range(first, first + deals, size)]  # fmt: skip
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            parts = pool.map(_play_deals, jobs)
    return _report(variant, a, b, seed, first, parts, time.perf_counter() - t_start)


def _report(variant, a, b, seed, first, parts, seconds) -> dict[str, Any]:
    edges = [e for p in parts for e in p["edges"]]
    timings: dict[str, list[float]] = {}
    endings: dict[str, int] = {}
    for p in parts:
        for lv, xs in p["timings"].items():
            timings.setdefault(lv, []).extend(xs)
        for k, v in p["endings"].items():
            endings[k] = endings.get(k, 0) + v
    hands = 2 * len(edges)
    mean = statistics.fmean(edges) if edges else 0.0
    sd = statistics.stdev(edges) if len(edges) > 1 else 0.0
    half = 1.96 * sd / math.sqrt(len(edges)) if len(edges) > 1 else 0.0
    sum_a = sum(p["sum_a"] for p in parts)
    sum_b = sum(p["sum_b"] for p in parts)
    return {
        "variant": variant,
        "a": a,
        "b": b,
        "deals": len(edges),
        "seed": seed,
        "first": first,
        "hands": hands,
        "higher_is_better": rules_for(variant).higher_wins,
        "mean_score_a": round(sum_a / hands, 4) if hands else 0.0,
        "mean_score_b": round(sum_b / hands, 4) if hands else 0.0,
        "advantage": round(mean, 4),
        "ci95": [round(mean - half, 4), round(mean + half, 4)],
        "endings": dict(sorted(endings.items())),
        "decision_ms": {
            lv: {"p50": _pct(xs, 0.5), "p99": _pct(xs, 0.99), "n": len(xs)}
            for lv, xs in sorted(timings.items())
        },
        "seconds": round(seconds, 1),
        "sums": {"sum_a": sum_a, "sum_b": sum_b, "edges": [round(e, 6) for e in edges]},
    }


def merge(reports: list[dict]) -> dict[str, Any]:
    """One report from reports of disjoint deal ranges (same variant, levels, seed)."""
    r0 = reports[0]
    parts = []
    for r in reports:
        if (r["variant"], r["a"], r["b"]) != (r0["variant"], r0["a"], r0["b"]):
            raise ValueError("reports of different matches")
        parts.append({**r["sums"], "endings": r["endings"], "timings": {}})
    out = _report(r0["variant"], r0["a"], r0["b"], r0["seed"], min(r["first"] for r in reports),
                  parts, sum(r["seconds"] for r in reports))  # fmt: skip
    # decision times: keep the per-run percentiles (the raw samples are not kept)
    out["decision_ms"] = {
        lv: {
            "p50": statistics.median(r["decision_ms"][lv]["p50"] for r in reports
                                     if lv in r["decision_ms"]),
            "p99": max(r["decision_ms"][lv]["p99"] for r in reports if lv in r["decision_ms"]),
            "n": sum(r["decision_ms"][lv]["n"] for r in reports if lv in r["decision_ms"]),
        }
        for lv in sorted({lv for r in reports for lv in r["decision_ms"]})
    }  # fmt: skip
    return out


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", required=True, choices=sorted(RULES))
    p.add_argument("--a", required=True, choices=LEVELS)
    p.add_argument("--b", required=True, choices=LEVELS)
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--seed", default="0")
    p.add_argument("--first", type=int, default=0, help="index of the first deal")
    p.add_argument("--workers", type=int, default=1, help="processes (same results)")
    p.add_argument("--sums", action="store_true", help="keep per-deal edges (for merging)")


def run(args: argparse.Namespace) -> int:
    first, workers = getattr(args, "first", 0), getattr(args, "workers", 1)
    report = arena(args.variant, args.a, args.b, args.deals, args.seed,
                   first=first, workers=workers)  # fmt: skip
    if not getattr(args, "sums", False):
        report.pop("sums")
    print(json.dumps(report, indent=2))
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="arena", description="duplicate-deal bot arena")
    add_arguments(p)
    return run(p.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
