"""The idle-streams bench (games/tools/site/bot_streams.py) runs with small numbers: every
stream opens (it raises otherwise), the server keeps answering pages meanwhile, and the
streams' threads are counted."""

from __future__ import annotations

import pytest

from games.tools.site import bot_streams

pytestmark = pytest.mark.e2e


def test_the_bench_opens_its_streams_and_reads_the_servers_memory():
    report = bot_streams.run(streams=8, heartbeat=1.0)
    assert report["streams"] == 8 and report["bots"] == 2
    assert report["rss_mb"]["open"] > 0 and report["page_ms"]["streams_open"] > 0
    assert report["threads"]["streams_open"] >= report["threads"]["before"]
