"""The measuring tools' command line: ``python -m games.tools.engine <command> …``.

The engine's own command line (``games/engine/cli.py``: parsing, JSON output, errors as
``{"error": code, "message": text}`` with exit status 2), with the tools' commands in
place of the engine's:

``bench [--seconds S] [--json] [--phases]``
    Evaluator and engine throughput figures (``bench.py``).

``arena --variant V --a hard --b medium --deals N --seed S [--first F] [--workers W] [--sums]``
    Duplicate-deal match between two bot levels (``arena.py``).
"""

from __future__ import annotations

import argparse
from typing import Any

from games.engine import cli
from games.engine.cli import CliError, command

TOOLS: cli.Commands = {}
PROG = "python -m games.tools.engine"


# ------------------------------------------------------------------ bench


def _bench_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seconds", type=float, default=1.0, help="time per figure (default 1)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument(
        "--phases", action="store_true", help="only where is_winning's time goes (a minute)"
    )


@command("bench", "evaluator and engine throughput", _bench_args, TOOLS)
def cmd_bench(args: argparse.Namespace) -> dict | str:
    from .bench import format_table, is_winning_phases, run_bench

    if args.seconds <= 0:
        raise CliError("bad_arguments", "--seconds must be positive")
    if args.phases:
        figures: dict[str, Any] = {"evaluator": [], "hands_per_second": {}, "peak_rss_mb": None}
        figures["is_winning_phases"] = is_winning_phases(args.seconds)
    else:
        figures = run_bench(args.seconds)
    return figures if args.json else format_table(figures)


# ------------------------------------------------------------------ arena


def _arena_args(p: argparse.ArgumentParser) -> None:
    from .arena import add_arguments

    add_arguments(p)


@command("arena", "duplicate-deal bot match (games.tools.engine.arena)", _arena_args, TOOLS)
def cmd_arena(args: argparse.Namespace) -> dict:
    if args.deals < 1:
        raise CliError("bad_arguments", "--deals must be at least 1")
    from .arena import arena

    report = arena(args.variant, args.a, args.b, args.deals, args.seed,
                   first=args.first, workers=args.workers)  # fmt: skip
    if not args.sums:
        report.pop("sums")
    return report


def main(argv: list[str] | None = None) -> int:
    """Run one tool command; print its JSON object (or text table); return the exit status."""
    return cli.main(argv, TOOLS, PROG)
