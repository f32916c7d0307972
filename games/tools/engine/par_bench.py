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

``--contention SECONDS`` measures instead what a par does to the rest of its process: the
latency of a stand-in table request (a little engine work between 1 ms waits, as a request
waits on its database) alone, while pars are computed one after another in a thread of
the same process (they take its interpreter lock), and while they are computed in a
worker process (the site's default, ``games/review/par.py``).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor

from games.engine import efficiency, evaluate
from games.engine.actions import legal_actions
from games.engine.par import par_for_seat, par_of_record
from games.engine.rules import RULES
from games.engine.state import new_hand

TARGETS = {"classic": 1.0, "101": 3.0}


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


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


# ------------------------------------------------------------------ contention


def _request(state) -> float:
    """A stand-in for a table's request: a little engine work between short waits (the
    database round trips, which release the interpreter lock); its wall time."""
    t0 = time.perf_counter()
    for _ in range(3):
        legal_actions(state, state.turn)
        time.sleep(0.001)
    return time.perf_counter() - t0


def _pars_forever(stop: threading.Event, in_process: bool) -> int:
    """Compute pars one after another until ``stop``: here (a thread of this process,
    as the pool's thread does with ``OKEY_PAR_PROCESS = False``) or in a worker
    process (the site's default); returns how many were made."""
    done = 0
    pool = (
        ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        if in_process
        else None
    )
    try:
        while not stop.is_set():
            record = {"variant": "classic", "seed": f"par-bench/load/{done}", "starter": 0}
            if pool is not None:
                pool.submit(par_of_record, record, done % 4).result()
            else:
                par_of_record(record, done % 4)
            done += 1
    finally:
        if pool is not None:
            pool.shutdown()
    return done


def _count_into(made: list[int], stop: threading.Event, in_process: bool) -> None:
    made.append(_pars_forever(stop, in_process))


def contention(seconds: float) -> list[dict]:
    """The stand-in request's latency alone, while pars run in a thread of the same
    process, and while they run in a worker process."""
    state = new_hand("classic", None, "par-bench/request", 0)
    rows = []
    for label, mode in (("alone", None), ("pars in a thread", False), ("pars in a process", True)):
        stop = threading.Event()
        made: list[int] = []
        worker = None
        if mode is not None:
            worker = threading.Thread(target=_count_into, args=(made, stop, mode))
            worker.start()
            if mode:
                time.sleep(1.5)  # the worker process starts and imports the engine
        lat: list[float] = []
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            lat.append(_request(state) * 1000)
        stop.set()
        if worker is not None:
            worker.join()
        rows.append(
            {
                "mode": label,
                "requests": len(lat),
                "p50_ms": round(statistics.median(lat), 2),
                "p99_ms": round(_pct(lat, 0.99), 2),
                "pars": made[0] if made else 0,
            }
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=25)
    parser.add_argument("--seats", type=int, default=2, help="pars per deal (seats)")
    parser.add_argument("--variant", action="append", help="rule set (default: every one)")
    parser.add_argument("--cold", action="store_true", help="clear the caches before each par")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--contention",
        type=float,
        metavar="SECONDS",
        help="instead: a stand-in request's latency alone, with pars in a thread, in a process",
    )
    args = parser.parse_args(argv)
    load_before = [round(x, 2) for x in os.getloadavg()]
    if args.contention:
        rows = contention(args.contention)
        print("a stand-in table request (3 x legal_actions + 1 ms wait), wall ms:")
        for r in rows:
            print(f"{r['mode']:<18} {r['requests']:>6} requests  p50 {r['p50_ms']:>6.2f}"
                  f"  p99 {r['p99_ms']:>6.2f}  ({r['pars']} pars made meanwhile)")  # fmt: skip
        print(f"load average (1, 5, 15 min): {load_before} before, {_load()} after")
        return 0
    rows = [bench(v, args.deals, args.seats, args.cold) for v in args.variant or list(RULES)]
    load_after = _load()
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
