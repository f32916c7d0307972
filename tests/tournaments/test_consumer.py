"""Live standings: a tournament page's websocket gets re-rendered standings
fragments (htmx swap-oob) when a result lands; unpublished tournaments stay closed."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client

from games.tournaments import actions
from games.tournaments.models import TournamentTable
from okeysite.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def connect(pk: int, client: Client | None = None, origin: bytes = b"http://testserver"):
    headers = [(b"origin", origin)]
    if client is not None:
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    comm = WebsocketCommunicator(application, f"/ws/tournament/{pk}/", headers=headers)
    ok, _ = await comm.connect()
    return comm, ok


def setup(published: bool = True):
    owner = User.objects.create_user("orga", password="pw-Orga-123")
    t = actions.do_create_tournament(
        owner,
        name="Live cup",
        date=dt.date(2026, 11, 29),
        variant="classic",
        options={"start_points": 10},
        rounds=2,
        mode="in_person",
        published=published,
        seed="live",
    )
    for name in ["Ayşe", "Baran", "Cem", "Deniz"]:
        actions.do_register_entry(t.pk, owner, name=name)
    actions.do_seat_next_round(t.pk, owner)
    table = TournamentTable.objects.get(round__tournament=t)
    return t, owner, table


def points(html: str) -> list[str]:
    return re.findall(r'data-testid="standing-points">([^<]*)<', html)


async def test_a_result_pushes_fresh_standings_to_open_pages():
    t, owner, table = await sync_to_async(setup)()
    viewer, ok = await connect(t.pk)
    assert ok
    first = await viewer.receive_from()
    assert 'id="tn-standings"' in first and 'hx-swap-oob="true"' in first
    assert points(first) == ["0", "0", "0", "0"]

    scores = [10, 4, 0, 2]
    await sync_to_async(actions.do_enter_result)(t.pk, owner, table.pk, scores)
    pushed = await viewer.receive_from(timeout=5)
    assert sorted(points(pushed), key=int, reverse=True) == ["4", "2", "1", "0"]
    assert 'id="tn-rounds"' in pushed and 'data-done="1"' in pushed
    names = await sync_to_async(lambda: {e.pid: e.name for e in t.entries.all()})()
    winner = names[table.seats[0]]
    assert re.search(rf'data-player="{winner}" data-rank="1"', pushed)
    await viewer.disconnect()


async def test_unpublished_tournament_socket_is_closed_to_the_public():
    t, owner, _table = await sync_to_async(setup)(published=False)
    comm, ok = await connect(t.pk)
    assert not ok
    org = Client()
    await sync_to_async(org.login)(username="orga", password="pw-Orga-123")
    comm, ok = await connect(t.pk, org)
    assert ok
    assert 'id="tn-standings"' in await comm.receive_from()
    await comm.disconnect()


async def test_foreign_origin_is_refused():
    t, _owner, _table = await sync_to_async(setup)()
    comm, ok = await connect(t.pk, origin=b"http://evil.example")
    assert not ok


async def test_frames_from_the_page_change_nothing():
    t, _owner, _table = await sync_to_async(setup)()
    comm, ok = await connect(t.pk)
    assert ok
    await comm.receive_from()
    await comm.send_to('{"action": "enter_result", "scores": [40, 0, 0, 0]}')
    again = await comm.receive_from()  # just a fresh copy
    assert points(again) == ["0", "0", "0", "0"]
    await comm.send_to("x" * 20_000)  # oversize: ignored
    assert await comm.receive_nothing(timeout=0.3)
    await comm.disconnect()
