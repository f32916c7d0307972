"""``manage.py restore_db FILE``: put a backup of ``backup_db`` back (games/ops/backup.py).
Stop the site first (docs/operators.md)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS, connections

from games.ops import backup


class Command(BaseCommand):
    help = (
        "Replace the database's contents with the backup in FILE (SQLite: copied back "
        "through the backup API; PostgreSQL: pg_restore --clean). Stop the site first."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="a file written by backup_db")
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS)
        parser.add_argument(
            "--noinput",
            "--no-input",
            action="store_false",
            dest="interactive",
            help="do not ask for confirmation",
        )

    def handle(self, *args, **options) -> None:
        source = Path(options["file"]).resolve()
        connection = connections[options["database"]]
        db = connection.settings_dict
        if options["interactive"]:
            answer = input(
                f"Every row of the database {db['NAME']} will be replaced by {source}.\n"
                "Stop the site first. Type 'yes' to go on: "
            )
            if answer.strip() != "yes":
                raise CommandError("restore cancelled")
        connection.close()  # this process holds no connection while the data is replaced
        try:
            backup.restore(db, source)
        except backup.BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"{backup.vendor(db)} database {db['NAME']} restored from {source}")
