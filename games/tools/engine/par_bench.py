"""Par's cost per hand and seat, per rule set (``python -m games.tools.engine.par_bench``).

For every rule set of the registry it plays ``--deals`` fresh deals (seeds
``par-bench/<variant>/<i>``, used by no test; starter ``i % n``) and computes the par of
``--seats`` seats of each (``games.engine.par.par_for_seat``: the expert in that seat,
hard CPUs elsewhere), timing each with ``time.process_time`` (CPU seconds of this process,
one core): the deal and the luck of the deal included, as the site computes them. It
prints the mean, the median, the 95th percentile and the worst per rule set, with the
targets (1 s classic, 3 s 101), and ``uptime``'s load average before and after.

The process keeps its memo tables from one par to the next, as the site's long-running
pool does; ``--cold`` clears the engine's caches before each par (the worst case: a
freshly started process).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

from games.engine import efficiency, evaluate
from games.engine.par import par_for_seat
from games.engine.rules import RULES
from games.engine.state import new_hand

TARGETS = {"classic": 1.0, "101": 3.0}


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def bench(variant: str, deals: int, seats: int, cold: bool = False) -> dict:
    times: list[float] = []
    actions: list[int] = []
    for i in range(deals):
        seed = f"par-bench/{variant}/{i}"
        n = new_hand(variant, None, seed, 0).n_players
        for k in range(min(seats, n)):
            seat = (i + k) % n
            if cold:
                efficiency.clear_caches()
                evaluate.clear_caches()
            t0 = time.process_time()
            result = par_for_seat(new_hand(variant, None, seed, i % n), seat)
            times.append(time.process_time() - t0)
            actions.append(len(result.actions))
    target = TARGETS.get(variant)
    return {
        "variant": variant,
        "pars": len(times),
        "mean_s": round(statistics.fmean(times), 3),
        "median_s": round(statistics.median(times), 3),
        "p95_s": round(_pct(times, 0.95), 3),
        "max_s": round(max(times), 3),
        "mean_actions": round(statistics.fmean(actions), 1),
        "target_s": target,
        "meets_target": None if target is None else _pct(times, 0.95) <= target,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=25)
    parser.add_argument("--seats", type=int, default=2, help="pars per deal (seats)")
    parser.add_argument("--variant", action="append", help="rule set (default: every one)")
    parser.add_argument("--cold", action="store_true", help="clear the caches before each par")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    load_before = [round(x, 2) for x in os.getloadavg()]
    rows = [bench(v, args.deals, args.seats, args.cold) for v in args.variant or list(RULES)]
    load_after = [round(x, 2) for x in os.getloadavg()]
    if args.json:
        print(json.dumps({"rows": rows, "load_before": load_before, "load_after": load_after}))
        return 0
    print(f"par: CPU seconds per hand and seat ({args.deals} deals x {args.seats} seats,")
    print(f"     {'cold caches' if args.cold else 'caches kept as in the site pool'})")
    head = ("rule set", "pars", "mean", "median", "p95", "max", "actions")
    print("{:<10} {:>5} {:>7} {:>7} {:>7} {:>7} {:>8}  target".format(*head))
    for r in rows:
        target = ""
        if r["target_s"] is not None:
            verdict = "met" if r["meets_target"] else "MISSED"
            target = f"p95 <= {r['target_s']:.0f} s: {verdict}"
        figures = (r["variant"], r["pars"], r["mean_s"], r["median_s"], r["p95_s"], r["max_s"])
        line = "{:<10} {:>5} {:>7.3f} {:>7.3f} {:>7.3f} {:>7.3f}".format(*figures)
        print(f"{line} {r['mean_actions']:>8.1f}  {target}")
    print(f"load average (1, 5, 15 min): {load_before} before, {load_after} after")
    return 0


if __name__ == "__main__":
    sys.exit(main())
