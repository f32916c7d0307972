"""``manage.py heavybench``: a live table's move latency while the heaviest pages are hammered.

Examples::

    .venv/bin/python manage.py heavybench
    .venv/bin/python manage.py heavybench --seconds 30 --clients 4 --pages matrix replay
    .venv/bin/python manage.py heavybench --json

A fresh SQLite file in a temp dir is used (never the project's db.sqlite3), one server on
127.0.0.1. See games/tools/site/heavy.py for what is measured.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "A live table's move latency alone, then while heavy pages are requested in a loop."

    def add_arguments(self, parser: Any) -> None:
        from games.tools.site.heavy import PAGES, REFERENCE
        from games.tools.site.players import DEFAULT_VARIANT, VARIANTS

        parser.add_argument("--seconds", type=float, default=20.0, help="length of each phase")
        parser.add_argument("--tables", type=int, default=4)
        parser.add_argument("--think", type=float, default=300.0, metavar="MS")
        parser.add_argument("--clients", type=int, default=4, help="concurrent clients per page")
        parser.add_argument(
            "--reference-clients",
            type=int,
            default=None,
            help="concurrent clients per ordinary page (home, rules; default: --clients)",
        )
        parser.add_argument(
            "--server-root",
            default=None,
            help="serve the site from this checkout of the project (default: this one)",
        )
        parser.add_argument("--pages", nargs="+", choices=PAGES + REFERENCE, default=list(PAGES))
        parser.add_argument(
            "--variant",
            choices=VARIANTS,
            default=DEFAULT_VARIANT,
            help="the rule set of the tables, the review file and the tournament",
        )
        parser.add_argument("--json", action="store_true", help="print the result as JSON")

    def handle(self, *args: Any, **opts: Any) -> None:
        try:
            import websockets  # noqa: F401
        except ImportError as e:
            raise CommandError("heavybench needs websockets (requirements-dev.txt)") from e
        from games.tools.site.heavy import HeavyConfig, format_summary, run

        if opts["tables"] < 1 or opts["clients"] < 0:
            raise CommandError("--tables must be at least 1 and --clients at least 0")
        cfg = HeavyConfig(
            seconds=opts["seconds"],
            tables=opts["tables"],
            think_ms=opts["think"],
            clients=opts["clients"],
            reference_clients=opts["reference_clients"],
            pages=tuple(opts["pages"]),
            variant=opts["variant"],
        )

        if opts["server_root"]:
            from pathlib import Path

            from games.tools.site import servers

            root = Path(opts["server_root"]).resolve()
            if not (root / "manage.py").is_file():
                raise CommandError(f"{root} has no manage.py")
            servers.ROOT = root

        def log(msg: str) -> None:
            print(f"heavybench: {msg}", file=sys.stderr, flush=True)

        try:
            result = run(cfg, log)
        except (ValueError, RuntimeError) as e:
            raise CommandError(str(e)) from e
        if opts["json"]:
            self.stdout.write(json.dumps(result, indent=2))
        else:
            self.stdout.write(format_summary(result))
