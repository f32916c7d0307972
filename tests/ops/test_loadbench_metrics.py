"""The servers' own counters move with a load bench run: ``manage.py loadbench`` reads each
server's /metrics before play and after it (games/tools/site/load.py), and the moves the
scripted players had accepted are exactly the moves the servers counted, each with one
latency observation, and the table sockets they opened."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.support.servers import ROOT


@pytest.mark.slow
@pytest.mark.servers  # loadbench starts its own ``manage.py serve`` process
def test_the_action_counter_and_histogram_move_by_the_number_of_moves():
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["DJANGO_SETTINGS_MODULE"] = "okeysite.settings"
    args = ("--tables", "2", "--hands", "1", "--seconds", "60", "--think", "0", "--json")
    proc = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "loadbench", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    r = json.loads(proc.stdout)
    assert r["finished"] and r["errors"] == 0 and r["actions"] > 0, r
    moved = r["metrics"]
    # the guests' tables have no CPU seat: every stored move is a player's accepted one
    assert moved["okey_actions_total"] == r["actions"]
    assert moved["okey_action_seconds_count"] == r["actions"]
    assert 0 < moved["okey_action_seconds_sum"] < r["elapsed_s"]
    assert moved["okey_table_sockets_opened_total"] == r["sockets"] == 8
    assert moved["okey_errors_total"] == 0
