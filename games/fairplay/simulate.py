"""The false-positive benchmark of the expert-match check: simulated players, engine only.

``python -m games.fairplay.simulate --players 200`` seats honest simulated players and a
few cheaters four to a table, plays hands with the engine (fixed seeds) until every
player has ``--decisions`` counted decisions, values each decision as the scan does
(``checks.check_hand``: the expert from the seat's view), and prints, as JSON, the
share of honest players the page would list (``stats.match_z`` ≥ ``--threshold`` against
the pool of every simulated player), the cheaters found, and the rate of fed finishes
per (hand, ordered neighbour pair) that ``stats.feed_rate`` takes as its prior.

Honest players are "people" made of CPU levels: each has a main level (easy, medium or
hard, a third each) and plays another level's move on a share of its decisions (the
noise, 5-35 %: a hard player then plays medium's move, a medium one easy's or hard's, an
easy one medium's). Cheaters play the expert's move (``--cheat`` share of their
decisions, and 100 % for half of them). Same arguments, same figures.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from games.engine.actions import apply, legal_actions
from games.engine.bots.core import decide
from games.engine.view import view_for

from . import checks, stats

MAX_ACTIONS = 3000


@dataclass(frozen=True)
class Player:
    name: str
    level: str  # the main level; "expert" for a cheater
    other: tuple[str, ...]  # the levels of its noise
    noise: float  # share of decisions played at another level
    honest: bool


def population(players: int, cheaters: int, cheat: float, seed: str) -> list[Player]:
    rng = random.Random(f"{seed}/population")
    out = []
    for i in range(players):
        level = ("easy", "medium", "hard")[i % 3]
        other = {"easy": ("medium",), "medium": ("easy", "hard"), "hard": ("medium",)}[level]
        out.append(Player(f"p{i}", level, other, round(rng.uniform(0.05, 0.35), 3), True))
    for i in range(cheaters):
        # half follow the expert always, half on ``cheat`` of their moves (else medium)
        share = 1.0 if i % 2 == 0 else cheat
        out.append(Player(f"c{i}", "expert", ("medium",), round(1 - share, 3), False))
    return out


def _play_table(job: tuple[list[Player], str, str, int]) -> dict[str, Any]:
    """Play hands at one table until each seat has ``decisions``; per player figures."""
    seats, variant, seed, decisions = job
    rng = random.Random(seed)
    totals = {p.name: {"m": 0, "n": 0, "loss": 0.0, "bits": ""} for p in seats}
    feeds = opportunities = 0
    hand = 0
    while min(t["n"] for t in totals.values()) < decisions:
        record: dict[str, Any] = {
            "variant": variant,
            "options": None,
            "seed": f"{seed}/{hand}",
            "starter": hand % len(seats),
            "actions": [],
        }
        state = checks.start_state(record)
        for _ in range(MAX_ACTIONS):
            if state.over:
                break
            seat = state.turn
            p = seats[seat]
            level = p.level
            if p.noise and rng.random() < p.noise:
                level = rng.choice(p.other)
            action = decide(view_for(state, seat), legal_actions(state, seat), level)
            record["actions"].append(action)
            state, _ = apply(state, action)
        people = {s: range(len(record["actions"])) for s in range(len(seats))}
        for s, row in checks.check_hand(record, people).items():
            t = totals[seats[s].name]
            t["m"] += row["matches"]
            t["n"] += row["decisions"]
            t["loss"] += row["loss"]
            t["bits"] += row["bits"]
            opportunities += 1
            feeds += int(row["fed"])
        hand += 1
    return {"players": totals, "hands": hand, "feeds": feeds, "opportunities": opportunities}


def run(
    players: int = 200,
    cheaters: int = 10,
    decisions: int = 300,
    variant: str = "classic",
    seed: str = "fairplay",
    threshold: float = 3.0,
    cheat: float = 0.7,
    workers: int = 1,
) -> dict[str, Any]:
    started = time.perf_counter()
    people = population(players, cheaters, cheat, seed)
    order = list(people)
    random.Random(f"{seed}/tables").shuffle(order)
    tables = [order[i : i + 4] for i in range(0, len(order), 4)]
    while len(tables[-1]) < 4:  # the last table is filled with honest extras (not counted)
        n = len(tables[-1])
        tables[-1].append(Player(f"x{n}", "medium", ("easy", "hard"), 0.2, True))
    jobs = [(t, variant, f"{seed}/table/{i}", decisions) for i, t in enumerate(tables)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            results = list(pool.map(_play_table, jobs))
    else:
        results = [_play_table(j) for j in jobs]
    figures: dict[str, dict[str, Any]] = {}
    for r in results:
        figures.update(r["players"])
    counted = [p for p in people]
    last = {p.name: figures[p.name]["bits"][-decisions:] for p in counted}
    mn = {name: (bits.count("1"), len(bits)) for name, bits in last.items()}
    rows = []
    for p in counted:
        others = [mn[q.name] for q in counted if q.name != p.name]
        pool = stats.pool_of(others)
        m, n = mn[p.name]
        rates = [a / b for a, b in others]
        rows.append(
            {
                "name": p.name,
                "honest": p.honest,
                "level": p.level,
                "noise": p.noise,
                "rate": round(m / n, 4),
                "loss": round(figures[p.name]["loss"] / max(1, figures[p.name]["n"]), 4),
                "z": round(stats.match_z(m, n, pool), 2),
                "raw_z": round(stats.raw_z(m, n, rates), 2),
            }
        )
    honest = [r for r in rows if r["honest"]]
    bad = [r for r in rows if not r["honest"]]
    flagged = [r for r in honest if r["z"] >= threshold]
    by_level = {}
    for level in ("easy", "medium", "hard"):
        rs = [r for r in honest if r["level"] == level]
        by_level[level] = {
            "players": len(rs),
            "rate_median": round(statistics.median(r["rate"] for r in rs), 4) if rs else None,
            "rate_max": max((r["rate"] for r in rs), default=None),
            "z_max": max((r["z"] for r in rs), default=None),
        }
    feeds = sum(r["feeds"] for r in results)
    opportunities = sum(r["opportunities"] for r in results)
    return {
        "variant": variant,
        "seed": seed,
        "decisions": decisions,
        "threshold": threshold,
        "honest_players": len(honest),
        "honest_flagged": len(flagged),
        "false_positive_rate": round(len(flagged) / max(1, len(honest)), 4),
        "honest_z_max": max(r["z"] for r in honest),
        "honest_raw_z_max": max(r["raw_z"] for r in honest),
        "by_level": by_level,
        "cheaters": [
            {k: r[k] for k in ("name", "noise", "rate", "loss", "z", "raw_z")} for r in bad
        ],
        "cheaters_found": sum(1 for r in bad if r["z"] >= threshold),
        "fed_finish_rate": round(feeds / max(1, opportunities), 4),
        "hands": sum(r["hands"] for r in results),
        "seconds": round(time.perf_counter() - started, 1),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--players", type=int, default=200)
    p.add_argument("--cheaters", type=int, default=10)
    p.add_argument("--decisions", type=int, default=300)
    p.add_argument("--variant", default="classic")
    p.add_argument("--seed", default="fairplay")
    p.add_argument("--threshold", type=float, default=3.0)
    p.add_argument("--cheat", type=float, default=0.7)
    p.add_argument("--workers", type=int, default=1)
    a = p.parse_args(argv)
    report = run(
        a.players, a.cheaters, a.decisions, a.variant, a.seed, a.threshold, a.cheat, a.workers
    )
    json.dump(report, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
