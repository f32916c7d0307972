"""``manage.py rebuild_insights [--user NAME]``: recompute the Insights rows from the
stored hands."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from games.insights.actions import do_rebuild


class Command(BaseCommand):
    help = (
        "Delete the Insights rows (of one player with --user) and recompute them from the "
        "finished hands, the review's pars and its analyses."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--user", default="", help="only this player's rows (username)")

    def handle(self, *args: Any, **options: Any) -> None:
        user_id = None
        if options["user"]:
            user = get_user_model().objects.filter(username=options["user"]).first()
            if user is None:
                raise CommandError(f"no player named {options['user']!r}")
            user_id = user.pk
        hands, months = do_rebuild(user_id)
        if options["verbosity"]:
            self.stdout.write(f"stored {hands} hand rows and {months} month rows")
