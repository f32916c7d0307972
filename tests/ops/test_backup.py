"""Backup then restore gives identical data: ``manage.py backup_db`` / ``restore_db`` run as
an operator runs them, on a database filled through the site's own actions (accounts,
tables, moves by players and CPUs, finished hands), SQLite and PostgreSQL alike. Every
table of the database is compared row by row."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import psycopg
import pytest

from tests.support import servers
from tests.support.servers import ROOT, postgres  # noqa: F401 (fixture)
from tests.support.waits import wait_until

# Two accounts, a table of four guests with moves, a CPU table played to its second hand.
FILL = """
from datetime import timedelta
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from games.live import actions, cpu, realtime
from games.live.actions import base
from games.models import Table
tag = {tag!r}
# fixed deals, so the CPU table's first hand ends the same way every run (with score lines)
base.seed_source = lambda table, number: f"backup-fill/{{tag}}/{{table.variant}}/{{number}}"
User = get_user_model()
me = User.objects.create_user(f"ana-{{tag}}", password="pw-long-enough-1")
User.objects.create_user(f"bo-{{tag}}", password="pw-long-enough-2")
keys = []
for _ in range(4):
    s = SessionStore(); s.create(); keys.append(s.session_key)
t = actions.do_create_table(variant="classic", options={{}},
    seats=[actions.SeatSpec("me")] + [actions.SeatSpec("human")] * 3, guest_key=keys[0])
for k in keys[1:]:
    actions.do_join_table(t.pk, guest_key=k)
for _ in range(9):
    t.refresh_from_db()
    _h, state, _g = realtime.snapshot(t)
    move = {{"type": "draw"}}
    if state.phase != "draw":
        move = {{"type": "discard", "tile": state.racks[state.turn][0]}}
    actions.do_submit_action(t.pk, state.turn, move, t.version)
c = actions.do_create_table(variant="classic", options={{}}, user=me,
    seats=[actions.SeatSpec("me")] + [actions.SeatSpec("cpu", "easy")] * 3)
at = actions.now()
for _ in range(3000):
    c.refresh_from_db()
    if c.hands.count() >= 2 or c.status != Table.Status.PLAYING:
        break
    at += timedelta(hours=1)
    if not actions.do_play_due(c.pk, at=at):
        _h, state, _g = realtime.snapshot(c)
        if state is None or state.over:
            actions.do_next_hand(c.pk, c.version, at=at)
        else:
            move = cpu.choose(state, state.turn, "easy")
            actions.do_submit_action(c.pk, state.turn, move, c.version, at=at)
print("FILLED", Table.objects.count(), c.hands.count())
"""

# Every table's rows, in a stable order, as JSON.
DUMP = """
import json
from django.db import connection
out = {}
with connection.cursor() as cursor:
    for name in sorted(connection.introspection.table_names()):
        cursor.execute(f'SELECT * FROM "{name}"')
        out[name] = sorted(json.dumps(list(row), default=str) for row in cursor.fetchall())
print("DUMP" + json.dumps(out))
"""


def manage(env: dict[str, str], *args: str) -> str:
    return servers.manage(env, *args, timeout=300)


def dump(env: dict[str, str]) -> dict[str, list[str]]:
    return json.loads(manage(env, "shell", "-c", DUMP).split("DUMP", 1)[1])


def digest(rows: dict[str, list[str]]) -> str:
    return hashlib.sha256(json.dumps(rows, sort_keys=True).encode()).hexdigest()


def base_env(database_url: str) -> dict[str, str]:
    env = {
        k: v for k, v in os.environ.items() if k not in {"DJANGO_ALLOW_ASYNC_UNSAFE", "REDIS_URL"}
    }
    env.update(DJANGO_SETTINGS_MODULE="okeysite.settings", DATABASE_URL=database_url)
    return env


def backup_and_restore(env: dict[str, str], backup_file: Path) -> None:
    manage(env, "migrate", "--noinput", "-v", "0")
    assert "FILLED" in manage(env, "shell", "-c", FILL.format(tag="first"))
    before = dump(env)
    assert len(before["games_handaction"]) > 9 and len(before["auth_user"]) == 2
    assert len(before["games_hand"]) == 3 and before["games_scoreline"]  # a finished hand
    assert "backup written" in manage(env, "backup_db", str(backup_file))
    # the site goes on: more accounts, tables and moves, and a deleted account
    manage(env, "shell", "-c", FILL.format(tag="second"))
    manage(
        env,
        "shell",
        "-c",
        "from django.contrib.auth.models import User; "
        "User.objects.filter(username='bo-first').delete()",
    )
    changed = dump(env)
    assert digest(changed) != digest(before)
    assert "restored from" in manage(env, "restore_db", "--noinput", str(backup_file))
    after = dump(env)
    assert sorted(after) == sorted(before)
    for name in before:
        assert after[name] == before[name], name
    # and the restored site works on: a new account and a new table are accepted
    assert "FILLED" in manage(env, "shell", "-c", FILL.format(tag="third"))


@pytest.mark.slow
def test_sqlite_backup_then_restore_gives_identical_data(tmp_path):
    db = tmp_path / "site.sqlite3"
    env = base_env(f"sqlite:///{db}")
    backup_file = tmp_path / "backups" / "okey.sqlite3"
    backup_file.parent.mkdir()
    backup_and_restore(env, backup_file)
    copy = sqlite3.connect(backup_file)  # a plain SQLite database any tool can open
    assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    copy.close()


def test_sqlite_restore_refuses_a_file_that_is_not_a_backup(tmp_path):
    env = base_env(f"sqlite:///{tmp_path / 'site.sqlite3'}")
    manage(env, "migrate", "--noinput", "-v", "0")
    bogus = tmp_path / "notes.txt"
    bogus.write_text("not a database\n" * 100)
    done = subprocess.run(
        [sys.executable, "manage.py", "restore_db", "--noinput", str(bogus)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0 and "is not a SQLite database" in done.stderr
    assert "django_migrations" in dump(env)  # untouched


@pytest.mark.parametrize("tables", [[], ["CREATE TABLE notes (body TEXT)"]])
def test_sqlite_restore_refuses_a_sqlite_file_that_is_not_the_sites(tmp_path, tables):
    """An empty SQLite file, or another program's, passes the integrity check; restored,
    it would leave the site without a row. It is refused and the site's data kept."""
    env = base_env(f"sqlite:///{tmp_path / 'site.sqlite3'}")
    manage(env, "migrate", "--noinput", "-v", "0")
    manage(
        env,
        "shell",
        "-c",
        "from django.contrib.auth.models import User; "
        "User.objects.create_user('kept', password='pw-long-enough-1')",
    )
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as con:
        for sql in tables:
            con.execute(sql)
    con.close()
    done = subprocess.run(
        [sys.executable, "manage.py", "restore_db", "--noinput", str(other)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0 and "not this site's" in done.stderr
    assert len(dump(env)["auth_user"]) == 1  # untouched


@pytest.mark.slow
def test_postgres_backup_then_restore_gives_identical_data(postgres, tmp_path):  # noqa: F811
    with psycopg.connect(postgres, autocommit=True) as conn:
        conn.execute("DROP DATABASE IF EXISTS ops_backup")
        conn.execute("CREATE DATABASE ops_backup")
    env = base_env(postgres.rsplit("/", 1)[0] + "/ops_backup")
    backup_file = tmp_path / "okey.dump"
    backup_and_restore(env, backup_file)
    assert backup_file.read_bytes()[:5] == b"PGDMP"  # pg_dump's custom format


@pytest.mark.slow
def test_postgres_restore_refuses_another_database_s_dump(postgres, tmp_path):  # noqa: F811
    """pg_restore takes any pg_dump file; another database's would add its tables beside the
    site's. Only a dump holding the site's tables is restored."""
    server = postgres.rsplit("/", 1)[0]
    with psycopg.connect(postgres, autocommit=True) as conn:
        for name in ("ops_site", "ops_other"):
            conn.execute(f"DROP DATABASE IF EXISTS {name}")
            conn.execute(f"CREATE DATABASE {name}")
    with psycopg.connect(server + "/ops_other", autocommit=True) as conn:
        conn.execute("CREATE TABLE notes (body text)")
    other_env = base_env(server + "/ops_other")
    other = tmp_path / "other.dump"
    assert "backup written" in manage(other_env, "backup_db", str(other))
    env = base_env(server + "/ops_site")
    manage(env, "migrate", "--noinput", "-v", "0")
    done = subprocess.run(
        [sys.executable, "manage.py", "restore_db", "--noinput", str(other)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0 and "not of this site's database" in done.stderr
    assert "notes" not in dump(env) and "django_migrations" in dump(env)


def test_a_sqlite_backup_taken_while_the_site_writes_is_whole(tmp_path):
    """The site's SQLite settings (WAL) and a writer committing all the while: the backup
    is a consistent database holding every row of the transactions committed before it
    was taken, each transaction whole (its two rows or neither)."""
    from games.ops import backup

    path = tmp_path / "busy.sqlite3"
    setup = sqlite3.connect(path)
    setup.execute("PRAGMA journal_mode=WAL")
    setup.execute("CREATE TABLE moves (n INTEGER, half INTEGER)")
    setup.commit()
    setup.close()
    stop = threading.Event()
    committed = [0]

    def write() -> None:
        conn = sqlite3.connect(path, timeout=20)
        n = 0
        while not stop.is_set() or n < 200:
            with conn:  # one transaction of two rows
                conn.execute("INSERT INTO moves VALUES (?, 0)", (n,))
                conn.execute("INSERT INTO moves VALUES (?, 1)", (n,))
            n += 1
            committed[0] = n
        conn.close()

    writer = threading.Thread(target=write)
    writer.start()
    try:
        wait_until(lambda: committed[0] >= 50, "the writer to commit", timeout=30)
        before = committed[0]
        backup.sqlite_backup({"NAME": str(path)}, tmp_path / "copy.sqlite3")
    finally:
        stop.set()
        writer.join(30)
    copy = sqlite3.connect(tmp_path / "copy.sqlite3")
    assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    rows = copy.execute("SELECT n, COUNT(*) FROM moves GROUP BY n ORDER BY n").fetchall()
    copy.close()
    assert [n for n, _ in rows] == list(range(len(rows)))  # no gap
    assert all(count == 2 for _, count in rows)  # no half transaction
    assert before <= len(rows) <= committed[0]
