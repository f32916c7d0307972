"""``manage.py build_hand_month YYYY-MM``: build (or build again) one month of the open
hand database (docs/hand-database.md). Run it once a month for the month before, e.g.
from cron: ``15 3 1 * * cd /srv/okey && .venv/bin/python manage.py build_hand_month
$(date -u -d 'last month' +\\%Y-\\%m)``."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from games.handdb import actions, export


class Command(BaseCommand):
    help = "Build one month (YYYY-MM, UTC) of the open hand database: its file and its row."

    def add_arguments(self, parser) -> None:
        parser.add_argument("month", help="the month, YYYY-MM (UTC)")

    def handle(self, *args, month: str, **options) -> None:
        try:
            built = actions.do_build_month(month)
        except export.BadMonth:
            raise CommandError(
                f"{month!r} is not a month: write it YYYY-MM, e.g. 2026-03"
            ) from None
        except actions.MonthNotOver:
            raise CommandError(
                f"{month} is not over yet (UTC): build it once it has ended"
            ) from None
        row = built.row
        self.stdout.write(
            f"{row.file_name}: {row.games} games, {row.hands} hands, {row.size} bytes, "
            f"sha256 {row.sha256}"
        )
        held = built.skipped.get("embargoed", 0)
        if held:
            self.stdout.write(
                f"{held} tables left out: their deals are still played at another table of "
                "a duplicate round; build the month again once the round is over"
            )
