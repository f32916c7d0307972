"""``manage.py serve``: the periodic full garbage collection, and the early one
after a socket was closed for flooding."""

from __future__ import annotations

import asyncio

import pytest

from games.management.commands import serve


def clock(events: list[str], stop_after: int, floods: list[int] | None = None):
    """An injected sleep: records each period, raises a flood when told, stops."""

    async def sleep(seconds: float) -> None:
        events.append(f"sleep {seconds:g}")
        n = sum(e.startswith("sleep") for e in events)
        if floods is not None and n in floods:
            floods_seen[0] += 1
        if n == stop_after:
            raise asyncio.CancelledError

    floods_seen = [0]
    return sleep, lambda: floods_seen[0]


@pytest.mark.django_db(transaction=True)  # like the other async tests (see test_channel_layer)
@pytest.mark.asyncio
async def test_a_full_collection_runs_after_each_period_not_before(monkeypatch):
    events: list[str] = []
    monkeypatch.setattr(serve.gc, "collect", lambda *a: events.append("collect") or 0)
    sleep, floods = clock(events, stop_after=7)
    with pytest.raises(asyncio.CancelledError):
        await serve.collect_garbage_periodically(every=30, sleep=sleep, check=10, floods=floods)
    assert events == ["sleep 10"] * 3 + ["collect"] + ["sleep 10"] * 3 + ["collect", "sleep 10"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_memory_is_released_soon_after_a_socket_is_closed_for_flooding(monkeypatch):
    events: list[str] = []
    monkeypatch.setattr(serve.gc, "collect", lambda *a: events.append("collect") or 0)
    # floods during the 2nd and 3rd periods; the 600 s period is far away
    sleep, floods = clock(events, stop_after=6, floods=[2, 3])
    with pytest.raises(asyncio.CancelledError):
        await serve.collect_garbage_periodically(every=600, sleep=sleep, check=10, floods=floods)
    assert events == ["sleep 10", "sleep 10", "collect", "sleep 10", "collect"] + ["sleep 10"] * 3
