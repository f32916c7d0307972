"""Seating benchmarks: ``manage.py seatingbench`` or ``python -m games.tools.site.seating``.

Prints figures, asserts nothing:

* 16 players × 5 rounds at tables of four: repeated pairs per schedule over several
  seeds, with the affine-plane continuation (the default) and with the search alone
  (``construction=False``);
* 200 players × 10 rounds, ``avoid_repeats`` and Swiss (the ranking of each round comes
  from random table results through ``compute_standings``): seconds per round,
  repeated pairs, spread of seat-0 starts;
* 20/24/32/12 players with ``rounds_total``: repeated pairs and the slowest round;
* 13 players with three-player tables: repeats and how the short tables rotate;
* 22 players × 6 rounds with CPU seats, a family of three and three couples who must not
  meet: repeats, pairs seated together (must be 0), CPU tables per player.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter

from games.tournaments.seating import cpu_table_counts, repeat_pairs, seat_round, start_counts
from games.tournaments.standings import TableResult, compute_standings

# The rule set whose standings rank the Swiss rounds (its higher totals win, as the random
# results' higher scores do).
STANDINGS_VARIANT = "rummy"


def _schedule(players, rounds, seed, **kw):
    past, times = [], []
    for r in range(1, rounds + 1):
        t0 = time.perf_counter()
        tables = seat_round(players, past, seed=seed, round_no=r, **kw)
        times.append(time.perf_counter() - t0)
        past.append([t.seats for t in tables])
    return past, times


def sixteen(seeds: int) -> None:
    players = [f"p{i}" for i in range(16)]
    for construction in (True, False):
        reps, worst = [], 0.0
        for k in range(seeds):
            past, times = _schedule(players, 5, f"bench-{k}", construction=construction)
            reps.append(repeat_pairs(past))
            worst = max(worst, max(times))
        label = "affine-plane continuation" if construction else "search alone"
        print(
            f"16 players x 5 rounds ({label}): {reps.count(0)}/{seeds} schedules with no "
            f"repeated pair; repeats per schedule max {max(reps)}; slowest round {worst:.2f} s"
        )


def big(method: str, n: int = 200, rounds: int = 10) -> None:
    players = [f"p{i}" for i in range(n)]
    rng = random.Random(f"bench-{method}")
    past: list = []
    results: list[TableResult] = []
    times = []
    for r in range(1, rounds + 1):
        ranking = None
        if method == "swiss":
            rows = compute_standings(players, results, variant=STANDINGS_VARIANT, draw_seed="bench")
            ranking = [row.player for row in rows]
        t0 = time.perf_counter()
        tables = seat_round(
            players, past, seed="bench-200", round_no=r, method=method, ranking=ranking
        )
        times.append(time.perf_counter() - t0)
        past.append([t.seats for t in tables])
        for t in tables:
            scores = tuple(rng.randrange(0, 14) for _ in t.seats)
            results.append(TableResult(r, t.number, t.seats, scores))
    starts = start_counts(past)
    spread = [starts.get(p, 0) for p in players]
    print(
        f"{n} players x {rounds} rounds ({method}): seconds per round max {max(times):.2f}, "
        f"mean {statistics.mean(times):.2f}; repeated pairs {repeat_pairs(past)}; "
        f"seat-0 starts per player {min(spread)}-{max(spread)}"
    )
    print("  per round: " + " ".join(f"{t:.2f}" for t in times))


def three_player_tables(n: int = 13, rounds: int = 5) -> None:
    players = [f"p{i}" for i in range(n)]
    past, times = _schedule(players, rounds, "bench-trio", min_table_size=3)
    short = Counter(p for rnd in past for t in rnd if len(t) == 3 for p in t)
    per = [short[p] for p in players]
    print(
        f"{n} players x {rounds} rounds, three-player tables allowed: repeated pairs "
        f"{repeat_pairs(past)}; three-player tables per player {min(per)}-{max(per)}; "
        f"slowest round {max(times):.2f} s"
    )


def mid_sizes() -> None:
    for n, rounds in ((20, 4), (24, 5), (32, 7), (12, 4)):
        players = [f"p{i}" for i in range(n)]
        past, times = _schedule(players, rounds, "bench-mid", rounds_total=rounds)
        print(
            f"{n} players x {rounds} rounds (rounds_total={rounds}): repeated pairs "
            f"{repeat_pairs(past)}; slowest round {max(times):.2f} s"
        )


def constrained(n: int = 22, rounds: int = 6) -> None:
    players = [f"p{i}" for i in range(n)]
    pairs = [("p0", "p1"), ("p0", "p2"), ("p1", "p2"), ("p3", "p4"), ("p5", "p6"), ("p7", "p8")]
    past, times = _schedule(players, rounds, "bench-apart", keep_apart=pairs)
    together = sum(1 for rnd in past for t in rnd for a, b in pairs if a in t and b in t)
    cpu = cpu_table_counts(past)
    per = [cpu.get(p, 0) for p in players]
    print(
        f"{n} players x {rounds} rounds, CPU seats, {len(pairs)} must-not-meet pairs: "
        f"repeated pairs {repeat_pairs(past)}; pairs seated together {together}; "
        f"CPU tables per player {min(per)}-{max(per)}; slowest round {max(times):.2f} s"
    )


def run(seeds: int = 10) -> None:
    """Print every figure (``seeds``: how many 16-player schedules to try)."""
    sixteen(seeds)
    big("avoid_repeats")
    big("swiss")
    mid_sizes()
    three_player_tables()
    constrained()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10, help="16-player schedules to try")
    run(parser.parse_args(argv).seeds)


if __name__ == "__main__":
    main()
