"""`kill -9` of the server mid-hand, then start it again: every accepted action
is there (the stored actions replay to the stored state) and the CPUs carry on
by themselves, with no browser connected."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.servers import ROOT, free_port

CREATE = """
from games.live import actions as table_actions
t = table_actions.do_create_table(variant="classic", options={},
    seats=[table_actions.SeatSpec("cpu", "medium")] * 4)
print("CODE", t.code)
"""
CHECK = """
from games.models import Hand
from games.live import actions as table_actions
n = 0
for h in Hand.objects.all():
    assert table_actions.rebuild_hand(h).to_json() == h.state, h
    n += h.actions.count()
print("REPLAY-OK", n)
"""


def manage(env: dict, *args: str) -> str:
    out = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


def actions(db: Path) -> int:
    with sqlite3.connect(db) as c:
        return c.execute("select count(*) from games_handaction").fetchone()[0]


def wait_for(db: Path, n: int, timeout: float = 60) -> int:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = actions(db)
        if got >= n:
            return got
        time.sleep(0.1)
    raise AssertionError(f"only {actions(db)} actions, wanted {n}")


def serve(env: dict) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--port", str(free_port())],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


@pytest.mark.slow
@pytest.mark.servers
def test_kill_9_mid_hand_loses_nothing_and_cpus_carry_on(tmp_path):
    db = tmp_path / "restart.sqlite3"
    env = {
        **{
            k: v
            for k, v in os.environ.items()
            if k not in {"REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}
        },
        "DATABASE_URL": f"sqlite:///{db}",
        "OKEY_CPU_DELAY_MS": "40",
        "DJANGO_SETTINGS_MODULE": "okeysite.settings",
    }
    manage(env, "migrate", "--noinput", "-v", "0")
    assert "CODE" in manage(env, "shell", "-c", CREATE)
    first = serve(env)
    try:
        wait_for(db, 12)
    finally:
        os.kill(first.pid, signal.SIGKILL)  # no clean shutdown
        first.wait(10)
    before = actions(db)
    assert f"REPLAY-OK {before}" in manage(env, "shell", "-c", CHECK)
    assert actions(db) == before  # nothing moves while the server is down
    second = serve(env)
    try:
        wait_for(db, before + 12)
    finally:
        os.kill(second.pid, signal.SIGKILL)
        second.wait(10)
    after = actions(db)
    assert f"REPLAY-OK {after}" in manage(env, "shell", "-c", CHECK)
