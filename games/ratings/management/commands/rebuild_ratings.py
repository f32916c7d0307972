"""``manage.py rebuild_ratings``: recompute every rating from the stored games."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.ratings.api import do_rebuild


class Command(BaseCommand):
    help = (
        "Delete every rating and rating change and recompute them from the finished rated "
        "tables, in finishing order."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        n = do_rebuild()
        if options["verbosity"]:
            self.stdout.write(f"rated {n} games")
