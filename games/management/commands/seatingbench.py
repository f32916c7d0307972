"""``manage.py seatingbench``: the tournament seating search's figures (pure Python).

Example::

    .venv/bin/python manage.py seatingbench --seeds 30

The same as ``python -m games.tools.site.seating``; see games/tools/site/seating.py.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Seating benchmark: repeated pairs and seconds per round of the seating search."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--seeds", type=int, default=10, help="16-player schedules to try")

    def handle(self, *args: Any, **opts: Any) -> None:
        from games.tools.site.seating import run

        run(opts["seeds"])
