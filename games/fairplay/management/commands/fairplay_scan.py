"""``manage.py fairplay_scan``: one bounded batch of the fair-play scan (cron it)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.core.management.base import BaseCommand

from games.fairplay.scan import do_scan


class Command(BaseCommand):
    help = (
        "Check finished hands of competitive tables not yet checked (expert-match rate, "
        "value lost, fed finishes) and finished games (placings), at most --limit of each."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--limit", type=int, default=None, help="default FAIRPLAY_SCAN_BATCH")

    def handle(self, *args: Any, **opts: Any) -> None:
        report = do_scan(opts["limit"])
        self.stdout.write(" ".join(f"{k}={v}" for k, v in asdict(report).items()))
