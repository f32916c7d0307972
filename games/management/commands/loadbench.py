"""``manage.py loadbench``: N tables of four scripted websocket players against daphne.

Examples::

    .venv/bin/python manage.py loadbench --tables 10
    .venv/bin/python manage.py loadbench --tables 100 --seconds 120 --json
    .venv/bin/python manage.py loadbench --tables 10 --variant seventeen --language tr
    .venv/bin/python manage.py loadbench --tables 100 --soak 30
    .venv/bin/python manage.py loadbench --tables 100 --seconds 60 --with-pages
    DATABASE_URL=postgres://... REDIS_URL=redis://... \\
        .venv/bin/python manage.py loadbench --tables 100 --processes 2

Without ``DATABASE_URL`` a fresh SQLite file in a temp dir is used (never the
project's db.sqlite3). See games/tools/site/load.py for what is measured.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Load benchmark: concurrent tables of scripted websocket players against daphne."

    def add_arguments(self, parser: Any) -> None:
        from games.tools.site.pages import PAGES
        from games.tools.site.players import DEFAULT_VARIANT, HUMAN_THINK_MS, VARIANTS

        parser.add_argument("--tables", type=int, default=100)
        parser.add_argument(
            "--processes",
            type=int,
            default=1,
            metavar="N",
            help="server processes; more than one: behind nginx (needs PostgreSQL and Redis)",
        )
        parser.add_argument("--hands", type=int, default=1, help="hands per table")
        parser.add_argument("--seconds", type=float, default=120.0, help="stop after this long")
        parser.add_argument(
            "--variant", choices=VARIANTS, default=DEFAULT_VARIANT, help="the tables' rule set"
        )
        parser.add_argument(
            "--language",
            choices=[code for code, _name in settings.LANGUAGES],
            default="",
            help="the language of the players' pages (default: the site's)",
        )
        parser.add_argument(
            "--think",
            type=float,
            default=HUMAN_THINK_MS,
            metavar="MS",
            help=(
                "mean think time before each action (uniform 0.5x-1.5x); default "
                f"{HUMAN_THINK_MS:g} ms (a brisk human: a turn in about 4 s); "
                "0 = as fast as the server answers (a throughput test)"
            ),
        )
        parser.add_argument("--debug", action="store_true", help="servers with DEBUG=1")
        parser.add_argument(
            "--profile",
            default="",
            metavar="FILE",
            help="record the server with py-spy during play (.svg flamegraph, .json speedscope,"
            " .txt raw collapsed stacks)",
        )
        parser.add_argument(
            "--soak",
            type=float,
            default=0,
            metavar="MINUTES",
            help="a soak of this many minutes: hands go on being dealt, the servers' RSS is"
            " sampled every minute, and errors, leaked presence rows and the RSS at the end"
            " against after five minutes are judged (sets --seconds)",
        )
        parser.add_argument(
            "--with-pages",
            action="store_true",
            help="two phases of --seconds on the same servers: the tables alone, then other"
            " tables while one client loops over the heaviest pages (a long hand's review,"
            " a 256-player 30-round tournament's standings and matrix, the lobby, the live"
            " tables); prints both and the ratio of their p99",
        )
        parser.add_argument(
            "--pages",
            nargs="+",
            choices=PAGES,
            default=list(PAGES),
            metavar="PAGE",
            help="with --with-pages: the pages the client loops over (default: all of them)",
        )
        parser.add_argument(
            "--sample",
            type=float,
            default=60.0,
            metavar="S",
            help="sample the servers' RSS every S seconds (default 60)",
        )
        parser.add_argument(
            "--soak-baseline",
            type=float,
            default=300.0,
            metavar="S",
            help="the soak compares the RSS at the end with the RSS after S seconds (300)",
        )
        parser.add_argument(
            "--against-one",
            action="store_true",
            help="with --processes N: first the same run on one process (same database, Redis"
            " and tables), then on N behind nginx; prints both and the ratio of their"
            " actions/s (with --think 0, the saturated throughput)",
        )
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--json", action="store_true", help="print the result as JSON")

    def handle(self, *args: Any, **opts: Any) -> None:
        try:
            import websockets  # noqa: F401
        except ImportError as e:
            raise CommandError("loadbench needs websockets (requirements-dev.txt)") from e
        from games.tools.site.load import BenchConfig, format_summary, run_bench

        if opts["tables"] < 1:
            raise CommandError("--tables must be at least 1")
        cfg = BenchConfig(
            tables=opts["tables"],
            processes=opts["processes"],
            hands=max(1, opts["hands"]),
            seconds=opts["soak"] * 60 if opts["soak"] > 0 else opts["seconds"],
            variant=opts["variant"],
            language=opts["language"],
            think_ms=opts["think"],
            database_url=os.environ.get("DATABASE_URL", ""),
            redis_url=os.environ.get("REDIS_URL", ""),
            debug=opts["debug"],
            profile=os.path.abspath(opts["profile"]) if opts["profile"] else "",
            seed=opts["seed"],
            soak=opts["soak"] > 0,
            sample_s=opts["sample"],
            soak_baseline_s=opts["soak_baseline"],
            with_pages=opts["with_pages"],
            page_names=tuple(opts["pages"]),
        )

        def log(msg: str) -> None:
            print(f"loadbench: {msg}", file=sys.stderr, flush=True)

        try:
            if opts["against_one"]:
                if cfg.processes < 2:
                    raise ValueError("--against-one needs --processes N with N > 1")
                log("the same run on one process first")
                one = run_bench(dataclasses.replace(cfg, processes=1), log)
                result = run_bench(cfg, log)
                result["against_one"] = {
                    "one": one,
                    "ratio": round(result["actions_per_s"] / one["actions_per_s"], 2)
                    if one["actions_per_s"]
                    else None,
                }
            else:
                result = run_bench(cfg, log)
        except (ValueError, RuntimeError) as e:
            raise CommandError(str(e)) from e
        if opts["json"]:
            self.stdout.write(json.dumps(result, indent=2))
        else:
            if "against_one" in result:
                self.stdout.write(format_summary(result["against_one"]["one"]) + "\n")
            self.stdout.write(format_summary(result))
            if "against_one" in result:
                self.stdout.write(
                    f"  {cfg.processes} processes / one process: "
                    f"{result['actions_per_s']} / {result['against_one']['one']['actions_per_s']}"
                    f" actions/s = {result['against_one']['ratio']}x"
                )
