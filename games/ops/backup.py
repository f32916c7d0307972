"""Back up and restore the site's database (``manage.py backup_db`` / ``restore_db``).

- SQLite: sqlite3's online backup API (``Connection.backup``) copies the database page by
  page in a consistent snapshot, safe while the site runs and writes (WAL readers do not
  block it, and a write during the copy makes it start over from where it is consistent).
  The copy is written next to the target under a temporary name, checked
  (``PRAGMA quick_check``) and renamed into place, so a failed backup never leaves a
  half file under the backup's name. Restoring copies the backup back through the same
  API into the configured database, so the file keeps its path, mode and owner, and the
  WAL is reset with it.
- PostgreSQL: ``pg_dump --format=custom`` (compressed, restorable table by table), and
  ``pg_restore --clean --if-exists --no-owner --single-transaction``: every object of the
  dump is dropped and recreated in one transaction, so a failed restore changes nothing.
  The connection comes from ``DATABASE_URL`` (the password, if any, is passed in
  ``PGPASSWORD``, never on the command line).

Restore with the site stopped (docs/operators.md): the processes keep cached snapshots of
the live tables, which a restored database would contradict.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any


class BackupError(Exception):
    """The backup or restore could not be done; the message says why."""


def vendor(db: dict[str, Any]) -> str:
    engine = db["ENGINE"]
    if engine.endswith("sqlite3"):
        return "sqlite"
    if engine.endswith("postgresql"):
        return "postgresql"
    raise BackupError(f"no backup method for the database engine {engine}")


# ------------------------------------------------------------------ SQLite


def _sqlite_path(db: dict[str, Any]) -> str:
    name = str(db["NAME"])
    if name in ("", ":memory:") or "mode=memory" in name:
        raise BackupError("the database is in memory: there is no file to back up")
    return name


def sqlite_backup(db: dict[str, Any], target: Path) -> None:
    source = sqlite3.connect(_sqlite_path(db), timeout=30)
    partial = target.with_name(f".{target.name}.partial")
    partial.unlink(missing_ok=True)
    try:
        copy = sqlite3.connect(partial)
        try:
            with copy:
                source.backup(copy)
            if copy.execute("PRAGMA quick_check").fetchone() != ("ok",):
                raise BackupError("the copy failed its integrity check")
        finally:
            copy.close()
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    finally:
        source.close()
    partial.replace(target)


def _is_site_database(source: sqlite3.Connection) -> bool:
    """A SQLite file is this site's database (one ``backup_db`` wrote) when Django's
    migrations table records the games app's migrations: any other SQLite file (an empty
    one, another program's) would replace every row of the site with nothing of its own."""
    try:
        row = source.execute(
            "SELECT COUNT(*) FROM django_migrations WHERE app = 'games'"
        ).fetchone()
    except sqlite3.DatabaseError:
        return False
    return bool(row and row[0])


def sqlite_restore(db: dict[str, Any], source_file: Path) -> None:
    try:
        source = sqlite3.connect(f"file:{source_file}?mode=ro", uri=True)
        check = source.execute("PRAGMA quick_check").fetchone()
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{source_file} is not a SQLite database ({exc})") from exc
    try:
        if check != ("ok",):
            raise BackupError(f"{source_file} failed its integrity check")
        if not _is_site_database(source):
            raise BackupError(
                f"{source_file} is a SQLite database but not this site's"
                " (no migrations of its games app): nothing was restored"
            )
        target = sqlite3.connect(_sqlite_path(db), timeout=30)
        try:
            with target:
                source.backup(target)
        finally:
            target.close()
    finally:
        source.close()


# ------------------------------------------------------------------ PostgreSQL


def _pg_command(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(f"{name} is missing (Debian: apt-get install postgresql-client)")
    return found


def _pg_args(db: dict[str, Any]) -> tuple[list[str], dict[str, str]]:
    args = []
    for flag, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if db.get(key):
            args += [flag, str(db[key])]
    args += ["--dbname", str(db["NAME"])]
    env = dict(os.environ)
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])
    return args, env


def _run(cmd: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise BackupError(f"{Path(cmd[0]).name} failed: {done.stderr.strip()[-2000:]}")


def postgres_backup(db: dict[str, Any], target: Path) -> None:
    args, env = _pg_args(db)
    partial = target.with_name(f".{target.name}.partial")
    try:
        _run([_pg_command("pg_dump"), "--format=custom", "--file", str(partial), *args], env)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    partial.replace(target)


# A line of ``pg_restore --list`` naming a table of this site's (its schema then its name).
SITE_TABLE = re.compile(r"^\d+; \d+ \d+ TABLE \S+ (django_migrations|games_table) ", re.M)


def _is_site_dump(source_file: Path, env: dict[str, str]) -> bool:
    """A pg_dump file is this site's when its table of contents holds Django's migrations
    table and the games app's tables: another database's dump, restored with ``--clean``,
    would leave the site's rows as they were and add that database's tables beside them."""
    done = subprocess.run(
        [_pg_command("pg_restore"), "--list", str(source_file)],
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise BackupError(f"{source_file} is not a pg_dump file: {done.stderr.strip()[-500:]}")
    return {m.group(1) for m in SITE_TABLE.finditer(done.stdout)} == {
        "django_migrations",
        "games_table",
    }


def postgres_restore(db: dict[str, Any], source_file: Path) -> None:
    args, env = _pg_args(db)
    if not _is_site_dump(source_file, env):
        raise BackupError(
            f"{source_file} is a pg_dump file but not of this site's database"
            " (no django_migrations or games_table): nothing was restored"
        )
    flags = ["--clean", "--if-exists", "--no-owner", "--single-transaction", "--exit-on-error"]
    _run([_pg_command("pg_restore"), *flags, *args, str(source_file)], env)


def backup(db: dict[str, Any], target: Path) -> None:
    """Write a backup of the database ``db`` (a ``settings.DATABASES`` entry) to ``target``."""
    if vendor(db) == "sqlite":
        sqlite_backup(db, target)
    else:
        postgres_backup(db, target)


def restore(db: dict[str, Any], source_file: Path) -> None:
    """Replace every row of the database ``db`` with the backup in ``source_file``."""
    if not source_file.is_file():
        raise BackupError(f"{source_file} does not exist")
    if vendor(db) == "sqlite":
        sqlite_restore(db, source_file)
    else:
        postgres_restore(db, source_file)
