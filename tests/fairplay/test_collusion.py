"""A colluding pair, scripted through the table websocket, is listed by the feeding check;
the honest pairs at the same table are not."""

from __future__ import annotations

import itertools
import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from games.fairplay import report
from games.fairplay.models import HandCheck
from games.fairplay.scan import do_scan
from games.live import actions, consumers
from games.models import Table
from okeysite.asgi import application

from .conftest import make_users, rated_table, tick
from .policies import feeding, noisy, taking

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def connect(code: str, client: Client) -> WebsocketCommunicator:
    headers = [
        (b"origin", b"http://testserver"),
        (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()),
    ]
    comm = WebsocketCommunicator(application, f"/ws/t/{code}/", headers=headers)
    ok, _ = await comm.connect()
    assert ok
    return comm


async def drain(comm: WebsocketCommunicator) -> None:
    while not await comm.receive_nothing(timeout=0):
        await comm.receive_from()


def logged_in(users: list) -> list[Client]:
    clients = []
    for u in users:
        c = Client()
        c.force_login(u)
        clients.append(c)
    return clients


async def play_over_sockets(table: Table, clients: list[Client], policies: dict) -> None:
    """Play the table's game to its end: seats 0 and 1 send their moves over their own
    sockets (each waits for its move to be applied), seats 2 and 3 play through the
    actions."""
    sockets = {s: await connect(table.code, c) for s, c in enumerate(clients)}

    def step():
        """Play one move of seat 2 or 3, or deal the next hand, or say what seat 0 or 1
        plays now: (seat, frame, version); "over" at the game's end."""
        t = Table.objects.get(pk=table.pk)
        if t.status == Table.Status.FINISHED:
            return "over"
        hand = t.current_hand
        if hand.result is not None:
            actions.do_next_hand(t.pk, t.version, at=tick())
            return None
        state = actions.load_state(hand)
        action = policies[state.turn](state, state.turn)
        if state.turn not in sockets:
            actions.do_submit_action(t.pk, state.turn, action, t.version, at=tick())
            return None
        frame = {**action, "action": action["type"], "version": t.version}
        if "melds" in frame:
            frame["melds"] = json.dumps(frame["melds"])
        return state.turn, json.dumps(frame), t.version

    def version() -> int:
        return Table.objects.get(pk=table.pk).version

    for _ in range(20000):
        todo = await sync_to_async(step)()
        if todo == "over":
            break
        if todo is not None:
            seat, frame, was = todo
            await sockets[seat].send_to(frame)
            while await sync_to_async(version)() == was:  # until the move is applied
                html = await sockets[seat].receive_from(timeout=5)
                assert 'data-code="' not in html, html[:300]
        for comm in sockets.values():
            await drain(comm)
    else:
        pytest.fail("the game did not end")
    for comm in sockets.values():
        await comm.disconnect()


@pytest.mark.slow
async def test_a_pair_feeding_each_other_is_listed(monkeypatch):
    # people move at a person's pace: a second passes between two looks at the clock of
    # the sockets' rate limit (games/live/consumers.py), whatever this machine's speed
    seconds = itertools.count(1000)
    monkeypatch.setattr(consumers, "_clock", lambda: float(next(seconds)))
    users = await sync_to_async(make_users)("ada", "bora", "cem", "deniz")
    clients = await sync_to_async(logged_in)(users[:2])
    # ada (seat 0) sees bora's rack and throws what bora needs; bora (seat 1, after her)
    # takes it whenever it helps; cem and deniz play on their own
    policies = {
        0: feeding(partner=1),
        1: taking(feeder=0),
        2: noisy("hard", "medium", 0.25, "cem"),
        3: noisy("hard", "medium", 0.25, "deniz"),
    }
    for _game in range(2):
        table = await sync_to_async(rated_table)(users, start_points=20)
        await play_over_sockets(table, clients, policies)

    await sync_to_async(do_scan)(limit=1000)
    feeds = await sync_to_async(report.feed_rows)("classic")
    rows = {(r["feeder"]["username"], r["finisher"]["username"]): r for r in feeds["rows"]}
    assert [pair for pair, r in rows.items() if r["flagged"]] == [("ada", "bora")]
    pair = rows[("ada", "bora")]
    assert pair["fed"] > 2 * pair["expected"] and pair["z"] >= 3
    # the figures are the stored checks': bora's finishes with a tile of ada's
    fed = await sync_to_async(
        HandCheck.objects.filter(user__username="bora", feeder__username="ada", fed=True).count
    )()
    assert pair["fed"] == fed
