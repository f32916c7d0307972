"""Presses of "Play now" at the same moment end at one table, never at two half-empty
ones: every press of a rule set takes that rule set's queue lock before it chooses
(games/matchmaking/actions.py).

The presses are real threads, each with its own database connection, released together
by a barrier, on a database as the site runs it: a migrated SQLite file (WAL, BEGIN
IMMEDIATE, okeysite/settings.py) and PostgreSQL (the throw-away server of
tests/games/test_multiprocess.py). They run in a ``manage.py shell`` process on that
database because pytest-django's SQLite test database is a shared-cache in-memory one,
where a second writer fails at once ("database table is locked") instead of waiting
for the lock as it does on a file.

Each press, once it has read the waiting tables, waits (briefly) for the other presses
to have read them too: without the lock they all read "no table" and each opens its own,
so a missing or misplaced lock fails the test every time rather than now and then.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.support.servers import ROOT

RACE = """
import json, threading
from django.contrib.auth import get_user_model
from django.db import connection
from games.matchmaking import actions as quick
from games.models import Table

choose = quick.choose_table
results = {}
for round_no, n in enumerate([2, 4, 2, 4, 3]):
    Table.objects.filter(quick_match=True).delete()
    users = [get_user_model().objects.create_user(username=f"r{round_no}p{i}")
             for i in range(n)]
    start, read = threading.Barrier(n), threading.Barrier(n, timeout=0.5)

    def widened(*args, **kwargs):
        table = choose(*args, **kwargs)
        try:
            read.wait()  # the others have read too (only possible without the lock)
        except threading.BrokenBarrierError:
            pass
        return table

    quick.choose_table = widened
    got = [None] * n

    def press(i):
        try:
            start.wait(timeout=30)
            m = quick.do_quick_match(users[i], "classic")
            got[i] = [m.table.pk, m.outcome]
        except Exception as exc:
            got[i] = ["error", repr(exc)]
        finally:
            connection.close()

    threads = [threading.Thread(target=press, args=(i,)) for i in range(n)]
    for t in threads: t.start()
    for t in threads: t.join(60)
    tables = list(Table.objects.filter(quick_match=True))
    results[round_no] = {
        "n": n, "presses": got,
        "tables": [[t.pk, t.status, sorted(s.user_id for s in t.seats.all() if s.user_id)]
                   for t in tables],
        "users": sorted(u.pk for u in users),
    }
quick.choose_table = choose
print("RACE " + json.dumps(results))
"""


def _manage(env: dict[str, str], *args: str) -> str:
    out = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout


def race_on(database_url: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_ALLOW_ASYNC_UNSAFE"}}
    env.update(DATABASE_URL=database_url, DJANGO_SETTINGS_MODULE="okeysite.settings")
    _manage(env, "migrate", "--noinput", "-v", "0")
    line = next(x for x in _manage(env, "shell", "-c", RACE).splitlines() if x.startswith("RACE"))
    return json.loads(line[len("RACE ") :])


def assert_one_table_per_round(results: dict) -> None:
    for round_no, r in results.items():
        errors = [p for p in r["presses"] if p[0] == "error"]
        assert not errors, (round_no, errors)
        assert len(r["tables"]) == 1, (round_no, r)
        (pk, status, seated) = r["tables"][0]
        assert {p[0] for p in r["presses"]} == {pk}
        assert sorted(p[1] for p in r["presses"]) == ["joined"] * (r["n"] - 1) + ["opened"]
        assert seated == r["users"]
        assert status == ("playing" if r["n"] == 4 else "waiting")


@pytest.mark.slow
def test_presses_at_once_end_at_one_table_on_sqlite(tmp_path):
    assert_one_table_per_round(race_on(f"sqlite:///{tmp_path / 'race.sqlite3'}"))


@pytest.mark.slow
def test_presses_at_once_end_at_one_table_on_postgresql(postgres):
    assert_one_table_per_round(race_on(postgres))
