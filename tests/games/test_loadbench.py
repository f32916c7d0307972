"""The load benchmark runs end to end: 2 tables, a few seconds.

Not a timed test: it only checks that the bench drives real websocket players
against a real ``manage.py serve`` process and measures accepted actions with
no refusals. The figures themselves are in the README ("Load benchmark").
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from games.loadbench import parse_frame, percentile
from tests.conftest import ROOT

pytest.importorskip("websockets")


def test_frame_parsing():
    html = (
        '<section id="t-status"><p class="t-status-text" data-testid="status">'
        "Your turn: discard a tile to end it.</p></section>"
        '<section id="t-felt"><span class="tile" data-id="99"></span></section>'
        '<section id="t-rack" class="rack-wrap my-turn" hx-swap-oob="true">'
        '<span class="tile" data-id="7"></span><span class="tile" data-id="12"></span></section>'
        '<div id="t-msg" class="t-msg show" role="alert" hx-swap-oob="true" '
        'data-testid="message"><span data-code="not_your_turn">No.</span></div>'
        '<input type="hidden" id="act-version" name="version" value="42" hx-swap-oob="true">'
    )
    f = parse_frame(html)
    assert f.version == 42
    assert f.status.startswith("Your turn: discard")
    assert f.rack == [7, 12]
    assert f.error == "not_your_turn"


def test_a_frame_without_status_or_rack_keeps_what_the_player_knew():
    first = parse_frame(
        '<p class="t-status-text" data-testid="status">Waiting for the other players.</p>'
        '<section id="t-rack"><span class="tile" data-id="3"></span></section>'
        '<input type="hidden" id="act-version" name="version" value="7" hx-swap-oob="true">'
    ).merged(None)
    later = parse_frame(
        '<div id="center"><span class="tile" data-id="50"></span></div>'
        '<input type="hidden" id="act-version" name="version" value="8" hx-swap-oob="true">'
    )
    assert later.status is None and later.rack is None
    f = later.merged(first)
    assert (f.version, f.status, f.rack) == (8, "Waiting for the other players.", [3])


def test_percentile_nearest_rank():
    xs = [float(x) for x in range(1, 101)]
    assert percentile(xs, 50) == 50.0
    assert percentile(xs, 99) == 99.0
    assert percentile(xs, 100) == 100.0
    assert percentile([], 99) == 0.0


@pytest.mark.slow
def test_two_tables_play_with_no_errors():
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["DJANGO_SETTINGS_MODULE"] = "okeysite.settings"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "loadbench", "--tables", "2"]
        + ["--seconds", "6", "--think", "0", "--json"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(proc.stdout)
    assert result["sockets"] == 8
    assert result["actions"] > 0, result
    assert result["errors"] == 0, result
    assert result["latency_ms"]["count"] == result["actions"]
    assert result["latency_ms"]["p99"] > 0
    assert result["servers"] and result["servers"][0]["peak_rss_mb"] > 0
    assert result["config"]["database_url"] == "sqlite3"  # never the project's database
