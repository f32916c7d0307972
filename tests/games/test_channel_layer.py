"""The single-process channel layer (okeysite.channel_layers)."""

from __future__ import annotations

import pytest
from channels.layers import InMemoryChannelLayer

from okeysite.channel_layers import ThrottledInMemoryChannelLayer

# Marked like the other async tests (transactional database): without it, these tests
# failed when run after the Playwright tests in the same session ("Runner.run() cannot
# be called from a running event loop").


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_group_messages_still_reach_every_member():
    layer = ThrottledInMemoryChannelLayer()
    a, b = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("table.1", a)
    await layer.group_add("table.1", b)
    await layer.group_send("table.1", {"type": "table.changed", "version": 3})
    assert (await layer.receive(a))["version"] == 3
    assert (await layer.receive(b))["version"] == 3


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_expired_messages_are_swept_at_most_once_a_second(monkeypatch):
    sweeps = []
    monkeypatch.setattr(InMemoryChannelLayer, "_clean_expired", lambda self: sweeps.append(1))
    clock = [100.0]
    monkeypatch.setattr("okeysite.channel_layers.time.monotonic", lambda: clock[0])
    layer = ThrottledInMemoryChannelLayer()
    await layer.group_add("table.1", await layer.new_channel())
    for _ in range(5):
        await layer.group_send("table.1", {"type": "x"})
    assert len(sweeps) == 1  # the first send swept; the next four within the second did not
    clock[0] += 1.5
    await layer.group_send("table.1", {"type": "x"})
    assert len(sweeps) == 2
