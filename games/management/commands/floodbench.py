"""``manage.py floodbench``: flooding guest sockets against one server, while an
honest table plays.

Examples::

    .venv/bin/python manage.py floodbench                       # 20 flooders, 60 s
    .venv/bin/python manage.py floodbench --flooders 1 --seconds 8 --json

Always a fresh SQLite file in a temp dir and a server on 127.0.0.1 only, stopped
at the end. See games/tools/site/flood.py for what is sent and measured.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Flood benchmark: hostile websockets against one server while an honest table plays."

    def add_arguments(self, parser: Any) -> None:
        from games.tools.site.players import DEFAULT_VARIANT, HUMAN_THINK_MS, VARIANTS

        parser.add_argument("--flooders", type=int, default=20, help="flooding sockets")
        parser.add_argument("--tables", type=int, default=5, help="honest tables of four")
        parser.add_argument("--seconds", type=float, default=60.0, help="how long to flood")
        parser.add_argument(
            "--settle", type=float, default=20.0, help="seconds to wait before the memory reading"
        )
        parser.add_argument("--think", type=float, default=HUMAN_THINK_MS, metavar="MS")
        parser.add_argument(
            "--variant", choices=VARIANTS, default=DEFAULT_VARIANT, help="the tables' rule set"
        )
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--json", action="store_true", help="print the result as JSON")

    def handle(self, *args: Any, **opts: Any) -> None:
        from games.tools.site.flood import FloodConfig, format_flood, run_floodbench

        if not 1 <= opts["flooders"] <= 200 or not 1 <= opts["tables"] <= 50:
            raise CommandError("--flooders 1-200 and --tables 1-50")
        if not 0 < opts["seconds"] <= 600 or not 0 <= opts["settle"] <= 300:
            raise CommandError("--seconds up to 600 and --settle up to 300")
        cfg = FloodConfig(
            flooders=opts["flooders"],
            tables=opts["tables"],
            seconds=opts["seconds"],
            settle=opts["settle"],
            think_ms=opts["think"],
            variant=opts["variant"],
            seed=opts["seed"],
        )

        def log(msg: str) -> None:
            print(f"floodbench: {msg}", file=sys.stderr, flush=True)

        try:
            result = run_floodbench(cfg, log)
        except (ValueError, RuntimeError) as e:
            raise CommandError(str(e)) from e
        if opts["json"]:
            self.stdout.write(json.dumps(result, indent=2))
        else:
            self.stdout.write(format_flood(result))
