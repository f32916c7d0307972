"""``manage.py serve``: the periodic full garbage collection."""

from __future__ import annotations

import asyncio

import pytest

from games.management.commands import serve


@pytest.mark.django_db(transaction=True)  # like the other async tests (see test_channel_layer)
@pytest.mark.asyncio
async def test_a_full_collection_runs_after_each_period_not_before(monkeypatch):
    events: list[str] = []
    monkeypatch.setattr(serve.gc, "collect", lambda *a: events.append("collect") or 0)

    async def sleep(seconds: float) -> None:  # the injected clock: three periods, then stop
        events.append(f"sleep {seconds:g}")
        if events.count("sleep 600") == 3:
            raise asyncio.CancelledError

    with pytest.raises(asyncio.CancelledError):
        await serve.collect_garbage_periodically(sleep=sleep)
    assert events == ["sleep 600", "collect", "sleep 600", "collect", "sleep 600"]
