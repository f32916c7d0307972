"""Watchers: a visitor without a seat watches; the table's header counts them, live,
for everyone at the table; the count is read from rows every process shares and
reconciled by the sweeper's heartbeat."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.live import actions
from games.models import Table
from games.watch import actions as watch_actions
from games.watch.models import WatchConnection
from tests.watch.conftest import adb, cpu_table, frames, person, table_socket

COUNT = re.compile(r'data-testid="watchers" data-n="(\d+)"')


def counts(sent: list[str]) -> list[int]:
    return [int(n) for html in sent for n in COUNT.findall(html)]


def seated_table() -> tuple[Table, Client]:
    user, client = person("ayse")
    return cpu_table(user), client


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_watcher_count_is_live_in_the_header_of_every_socket():
    table, ayse = await adb(seated_table)()
    seat = await table_socket(table.code, ayse)
    assert counts([await seat.receive_from()]) == [0]
    one = await table_socket(table.code)  # a visitor without a seat watches
    assert counts([await one.receive_from()]) == [1]  # its first frame counts itself
    assert counts(await frames(seat)) == [1]
    two = await table_socket(table.code)
    assert counts([await two.receive_from()]) == [2]
    assert counts(await frames(one)) == [2] and counts(await frames(seat)) == [2]
    # the page says it too, at load
    page = await adb(Client().get)(f"/t/{table.code}/")
    assert COUNT.findall(page.content.decode()) == ["2"]
    assert "2 watching" in page.content.decode()
    await two.disconnect()
    assert counts(await frames(one)) == [1] and counts(await frames(seat)) == [1]
    assert await adb(WatchConnection.objects.count)() == 1
    await one.disconnect()
    assert counts(await frames(seat)) == [0]
    await seat.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_seated_player_is_not_a_watcher():
    table, ayse = await adb(seated_table)()
    seat = await table_socket(table.code, ayse)
    await seat.receive_from()
    assert await adb(WatchConnection.objects.count)() == 0
    await seat.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_private_table_is_watched_through_its_link_and_never_listed():
    table = await adb(cpu_table)(public=False)
    page = await adb(Client().get)(f"/t/{table.code}/")
    assert page.status_code == 200
    watcher = await table_socket(table.code)
    first = await watcher.receive_from()
    assert counts([first]) == [1] and 'id="t-rack"' in first and 'data-testid="rack"' not in first
    lobby = await adb(Client().get)("/watch/")
    assert table.code not in lobby.content.decode()
    await watcher.disconnect()


@pytest.mark.django_db
def test_watchers_held_by_other_processes_count_and_expire_when_nobody_vouches_for_them():
    """With Redis several processes serve one site: each holds its own sockets' rows
    and its sweeper vouches for them every heartbeat (``do_reconcile_watchers``)."""
    table = cpu_table()
    at = timezone.now()
    watch_actions.do_watch(table.pk, "here!1", at=at)  # a socket of this process
    WatchConnection.objects.create(table=table, process="other", channel="there!1", seen_at=at)
    assert watch_actions.watcher_count(table.pk) == 2
    # a heartbeat later this process vouches for its socket; the other process for its own
    later = at + actions.presence_ttl() - timedelta(seconds=1)
    watch_actions.do_reconcile_watchers({"here!1": table.pk}, at=later)
    watch_actions.do_reconcile_watchers({"there!1": table.pk}, at=later, process="other")
    assert watch_actions.watcher_count(table.pk) == 2
    # the other process dies (kill -9): its rows expire once the TTL has passed
    gone = later + actions.presence_ttl() + timedelta(seconds=1)
    assert watch_actions.do_reconcile_watchers({"here!1": table.pk}, at=gone) == 1
    assert watch_actions.watcher_count(table.pk) == 1


@pytest.mark.django_db
def test_a_socket_that_ended_without_saying_so_stops_counting_at_the_next_heartbeat():
    table = cpu_table()
    at = timezone.now()
    watch_actions.do_watch(table.pk, "here!1", at=at)
    watch_actions.do_watch(table.pk, "here!2", at=at)
    watch_actions.do_reconcile_watchers({"here!2": table.pk}, at=at)  # "here!1" crashed
    assert list(WatchConnection.objects.values_list("channel", flat=True)) == ["here!2"]
    # and a live socket whose row went (expired by another process) is counted again
    WatchConnection.objects.all().delete()
    watch_actions.do_reconcile_watchers({"here!2": table.pk}, at=at)
    assert watch_actions.watcher_count(table.pk) == 1


@pytest.mark.django_db
def test_the_sweepers_heartbeat_reconciles_the_watchers_too():
    from games.live import sweeper

    table = cpu_table()
    at = timezone.now()
    watch_actions.do_watch(table.pk, "here!1", at=at)
    watch_actions.do_watch(table.pk, "here!2", at=at)
    sweeper.sweep_once({}, {"here!2": table.pk})  # "here!1" ended without saying so
    assert watch_actions.watcher_count(table.pk) == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_changes_during_a_count_read_cost_one_more_read_not_one_each(monkeypatch):
    import asyncio

    from channels.layers import get_channel_layer

    from games.live import consumers, realtime
    from games.live.realtime import group_name

    table, ayse = await adb(seated_table)()
    seat = await table_socket(table.code, ayse)
    await seat.receive_from()
    watchers = [await table_socket(table.code) for _ in range(2)]
    for comm in (seat, *watchers):
        await frames(comm)
    gate, reads = asyncio.Event(), []
    real = consumers.read_watchers

    async def slow(table_id: int) -> int:
        reads.append(table_id)
        await gate.wait()  # the database is slow: the other sockets hear the changes
        return await real(table_id)

    monkeypatch.setattr(consumers, "read_watchers", slow)
    layer = get_channel_layer()
    for i in range(6):  # six changes, heard by each of the three sockets
        await layer.group_send(group_name(table.pk), {"type": "table.watchers", "nonce": f"n{i}"})
    hub = realtime.hub(table.pk)
    for _ in range(10_000):  # until every change was heard while the first read is under way
        if "n5" in hub.done:
            break
        await asyncio.sleep(0)
    assert reads and "n5" in hub.done and any(consumers._CHIP_READS.values())
    gate.set()
    sent = [counts(await frames(comm)) for comm in (seat, *watchers)]
    assert len(reads) == 2  # the first read, and one more for everything heard during it
    assert sent == [[2, 2]] * 3
    for comm in (seat, *watchers):
        await comm.disconnect()
