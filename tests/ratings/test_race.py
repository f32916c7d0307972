"""Two rated games that finish at the same moment and share a new player both count, one
after the other: the player's rating row is made once (the second insert waits and does
nothing) and locked in user order (games/ratings/api.py).

Real threads with their own connections, on a migrated SQLite file and on PostgreSQL (the
throw-away server of tests/games/test_multiprocess.py), in a ``manage.py shell`` process as
in tests/matchmaking/test_race.py. Each game, once it has read the ratings, waits (briefly)
for the other to have read them too: without the row made first, both read "no rating" and
the second insert fails on the unique rating per player and rule set."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.support.servers import ROOT

RACE = """
import json, threading
from datetime import datetime, timezone
from django.contrib.auth import get_user_model
from django.db import connection
from games.models import Table
from games.ratings import api
from games.ratings.models import Rating, RatingChange

User = get_user_model()
shared = User.objects.create_user(username="shared")
others = [User.objects.create_user(username=f"o{i}") for i in range(6)]
tables = [Table.objects.create(variant="classic", options={}, rated=True, status="finished")
          for _ in range(2)]
matches = [
    [([shared.pk], 1), ([others[0].pk], 2), ([others[1].pk], 2), ([others[2].pk], 4)],
    [([others[3].pk], 1), ([others[4].pk], 2), ([shared.pk], 3), ([others[5].pk], 4)],
]
at = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)
start, read = threading.Barrier(2), threading.Barrier(2, timeout=0.5)
model = api.MODEL

class Waiting:
    create_rating = staticmethod(model.create_rating)

    @staticmethod
    def rate(*args, **kwargs):
        try:
            read.wait()  # the other game has read the ratings too (possible only in a race)
        except threading.BrokenBarrierError:
            pass
        return model.rate(*args, **kwargs)

api.MODEL = Waiting
got = [None, None]

def finish(i):
    try:
        start.wait(timeout=30)
        got[i] = api._rate(tables[i], "classic", matches[i], at=at)
    except Exception as exc:
        got[i] = "error " + repr(exc)
    finally:
        connection.close()

threads = [threading.Thread(target=finish, args=(i,)) for i in range(2)]
for t in threads: t.start()
for t in threads: t.join(60)
api.MODEL = model
row = Rating.objects.get(user=shared, variant="classic")
chain = [[c.mu_before, c.mu_after] for c in RatingChange.objects.filter(user=shared).order_by("id")]
print("RACE " + json.dumps({"got": got, "games": row.games, "mu": row.mu, "chain": chain,
                            "changes": RatingChange.objects.count()}))
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


def assert_both_count_in_turn(r: dict) -> None:
    assert r["got"] == [True, True], r
    assert r["games"] == 2 and r["changes"] == 8
    (first_before, first_after), (second_before, second_after) = r["chain"]
    assert first_before == 25.0  # a new player
    assert second_before == first_after  # the second game started from the first's result
    assert r["mu"] == second_after


@pytest.mark.slow
def test_games_finishing_at_once_both_count_on_sqlite(tmp_path):
    assert_both_count_in_turn(race_on(f"sqlite:///{tmp_path / 'race.sqlite3'}"))


@pytest.mark.slow
def test_games_finishing_at_once_both_count_on_postgresql(postgres):
    assert_both_count_in_turn(race_on(postgres))
