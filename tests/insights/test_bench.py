"""The Insights bench runs (small numbers) and prints its figures."""

from __future__ import annotations

import subprocess
import sys

from tests.support.servers import ROOT


def test_the_bench_prints_the_receiver_and_page_times():
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "games.tools.site.insights_bench",
            "--hands",
            "60",
            "--months",
            "3",
            "--requests",
            "2",
            "--record-hands",
            "2",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "do_record_hand (4 accounts, fifty-one, 2 hands): median" in done.stdout
    assert "player: 60 hands" in done.stdout
    assert done.stdout.count("GET insights") == 5
