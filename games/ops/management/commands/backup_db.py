"""``manage.py backup_db FILE``: a backup of the site's database (games/ops/backup.py)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS, connections

from games.ops import backup


class Command(BaseCommand):
    help = (
        "Back up the database to FILE: SQLite through the online backup API (safe while "
        "the site runs), PostgreSQL with pg_dump --format=custom."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="where to write the backup (replaced if it exists)")
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS)

    def handle(self, *args, **options) -> None:
        target = Path(options["file"]).resolve()
        if not target.parent.is_dir():
            raise CommandError(f"{target.parent} is not a directory")
        db = connections[options["database"]].settings_dict
        try:
            backup.backup(db, target)
        except backup.BackupError as exc:
            raise CommandError(str(exc)) from exc
        size = target.stat().st_size
        self.stdout.write(f"{backup.vendor(db)} backup written to {target} ({size} bytes)")
