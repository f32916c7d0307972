"""``loadbench --soak`` and ``--with-pages`` (games/tools/site/soak.py, games/tools/site/pages.py).

A soak is judged on errors, presence rows left once every socket closed and the servers'
RSS at the end against its level after five minutes; the page client asks for the
heaviest pages of data the bench makes through the site's services. The figures
themselves are in docs/benchmarks.md; these tests check the judging and that
the runs do what they say, on small numbers.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Hand, Seat, SeatConnection
from games.tools.site import pages, soak
from games.tools.site.load import soak_verdict
from games.tools.site.servers import create_tables
from tests.support.servers import ROOT


def samples(*rows: tuple[float, float]) -> list[dict]:
    return [{"t_s": t, "rss_mb": [mb]} for t, mb in rows]


def test_the_rss_is_compared_with_its_level_after_five_minutes():
    grown = samples((0, 80.0), (60, 110.0), (300, 120.0), (1200, 126.0), (1800, 133.0))
    change = soak.rss_change(grown)
    assert change["at_baseline_mb"] == [120.0] and change["at_end_mb"] == [133.0]
    assert change["pct"] == [10.8]  # the ramp of the first minutes does not count
    assert soak.rss_change(samples((0, 80.0), (240, 120.0)))["pct"] is None  # too short


def result(rss: list[dict], *, errors=0, tracebacks=0, leaked=0, hands=100) -> dict:
    return {
        "rss_samples": rss,
        "errors": errors,
        "server_tracebacks": tracebacks,
        "presence": {"leaked": leaked},
        "hands_completed": hands,
    }


def test_a_soak_passes_only_without_errors_leaks_or_growth():
    flat = samples((0, 80.0), (300, 120.0), (1800, 129.0))  # +7.5%
    assert soak_verdict(result(flat), 300)["passed"]
    assert not soak_verdict(result(flat, errors=1), 300)["passed"]
    assert not soak_verdict(result(flat, tracebacks=1), 300)["passed"]
    assert not soak_verdict(result(flat, leaked=2), 300)["passed"]
    assert not soak_verdict(result(flat, hands=0), 300)["passed"]  # hands must go on
    grown = samples((0, 80.0), (300, 120.0), (1800, 133.0))  # +10.8%
    assert not soak_verdict(result(grown), 300)["passed"]
    assert not soak_verdict(result(samples((0, 80.0))), 300)["passed"]  # no comparison


@pytest.mark.django_db
def test_a_presence_row_nobody_removes_is_a_leak():
    (spec,) = create_tables(1, "classic")
    seat = Seat.objects.get(table_id=spec.table_id, position=2)
    row = SeatConnection.objects.create(
        seat=seat, process="gone", channel="specific.x!1", seen_at=timezone.now()
    )
    left = soak.presence_left([spec.table_id], settle_s=0)
    assert left["leaked"] == 1 and left["left"]["seat_connections"] == 1
    row.delete()
    assert soak.presence_left([spec.table_id], settle_s=0)["leaked"] == 0


@pytest.mark.slow
@pytest.mark.django_db
def test_the_page_client_gets_every_heavy_page():
    """The long hand is played to the empty pile (98 actions in classic, RULES.md §1
    [D4]) and finished; every page of the loop answers 200 to the client's cookies."""
    site = pages.make_site("classic", 1)
    assert Hand.objects.get(pk=site.hand_id).result is not None
    assert site.hand_actions == 98
    for name, path, cookies in pages.page_plan(site):
        client = Client()
        for key, value in cookies.items():
            client.cookies[key] = value
        response = client.get(path)
        assert response.status_code == 200, (name, path)
    assert pages.page_errors({"x": {"statuses": {200: 5}}}) == 0
    assert pages.page_errors({"x": {"statuses": {200: 5, 503: 1, 0: 2}}}) == 3


def loadbench(*args: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["DJANGO_SETTINGS_MODULE"] = "okeysite.settings"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "loadbench", *args, "--json"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


@pytest.mark.slow
@pytest.mark.servers  # loadbench starts its own ``manage.py serve`` processes
def test_a_short_soak_deals_hand_after_hand_and_leaves_no_presence():
    """Two tables for 40 s at full speed: hands go on being dealt (more than one per
    table), the RSS is sampled every 5 s, and once every player has closed its socket no
    presence row is left."""
    r = loadbench(
        *("--tables", "2", "--soak", "0.67", "--think", "0"),
        *("--sample", "5", "--soak-baseline", "10"),
    )
    k = r["soak"]
    assert k["errors"] == 0 and k["leaked_presence"] == 0, k
    assert r["presence"]["at_close"]["seat_connections"] <= 8
    assert k["hands_completed"] > 2, k  # the tables went on to further hands
    assert len(r["rss_samples"]) >= 8 and k["rss"]["pct"] is not None
    assert not r["finished"]  # a soak runs for its time, not until its tables are done
