"""The table websocket: per-seat fragments, refusals, bad frames, a whole hand."""

from __future__ import annotations

import json
import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client

from games.live import actions as table_actions
from games.live import cpu
from games.models import HandAction, Seat, Table
from okeysite.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

TILE_ID = re.compile(r'data-id="(\d+)"')


def rack_ids(html: str) -> set[int]:
    m = re.search(r'id="t-rack".*?</section>', html, re.S)
    return {int(x) for x in TILE_ID.findall(m.group(0))} if m else set()


async def connect(code: str, client: Client | None = None) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://testserver")]
    if client is not None:
        cookie = f"sessionid={client.cookies['sessionid'].value}"
        headers.append((b"cookie", cookie.encode()))
    comm = WebsocketCommunicator(application, f"/ws/t/{code}/", headers=headers)
    ok, _ = await comm.connect()
    assert ok
    return comm


def two_player_table():
    """A rummy table for two signed-in players (no CPU)."""
    alice = User.objects.create_user("alice", password="pw-Alice-123")
    bob = User.objects.create_user("bob", password="pw-Bob-123")
    table = table_actions.do_create_table(
        variant="rummy",
        options={"players": 2},
        seats=[table_actions.SeatSpec("me"), table_actions.SeatSpec("human")],
        user=alice,
    )
    table_actions.do_join_table(table.pk, user=bob)
    # present from the start, as seats were before a seat nobody opened counted as away
    # (games/live/actions/, do_join_table): these tests are about each socket's own frames,
    # and a frame telling the table that a seat is back would come in between
    Seat.objects.filter(table=table).update(away_since=None)
    clients = []
    for name, pw in (("alice", "pw-Alice-123"), ("bob", "pw-Bob-123")):
        c = Client()
        assert c.login(username=name, password=pw)
        clients.append(c)
    table.refresh_from_db()
    return table, clients


async def test_two_seats_receive_different_racks():
    table, (a, b) = await sync_to_async(two_player_table)()
    ca, cb = await connect(table.code, a), await connect(table.code, b)
    ha, hb = await ca.receive_from(), await cb.receive_from()
    ra, rb = rack_ids(ha), rack_ids(hb)
    assert len(ra) == 15 and len(rb) == 14
    assert not ra & rb
    # neither page carries any tile of the other rack
    assert not rb & {int(x) for x in TILE_ID.findall(ha)}
    assert not ra & {int(x) for x in TILE_ID.findall(hb)}
    await ca.disconnect()
    await cb.disconnect()


async def test_refused_move_changes_nothing_and_connection_stays_usable():
    table, (a, b) = await sync_to_async(two_player_table)()
    cb = await connect(table.code, b)
    await cb.receive_from()
    await cb.send_to(json.dumps({"action": "draw", "version": table.version}))
    html = await cb.receive_from()
    assert 'data-code="not_your_turn"' in html
    t = await sync_to_async(Table.objects.get)(pk=table.pk)
    assert t.version == table.version
    assert await sync_to_async(HandAction.objects.count)() == 0
    for bad in [
        "not json",
        "[]",
        json.dumps({"version": 1}),
        "x" * 9000,
        json.dumps({"action": "discard", "tile": "abc", "version": 1}),
        json.dumps({"action": "explode", "version": table.version}),
    ]:
        await cb.send_to(bad)
        html = await cb.receive_from()
        assert re.search(r'data-code="(malformed_frame|frame_too_large|bad_action)"', html), bad
    assert await sync_to_async(HandAction.objects.count)() == 0
    await cb.disconnect()


async def test_spectator_cannot_act_and_sees_no_rack():
    table, _ = await sync_to_async(two_player_table)()
    comm = await connect(table.code)  # anonymous, not seated
    html = await comm.receive_from()
    assert rack_ids(html) == set()
    await comm.send_to(json.dumps({"action": "draw", "version": table.version}))
    assert 'data-code="not_seated"' in await comm.receive_from()
    await comm.disconnect()


async def test_stale_version_gets_refusal_and_fresh_view():
    table, (a, b) = await sync_to_async(two_player_table)()
    ca = await connect(table.code, a)
    await ca.receive_from()
    state = await sync_to_async(lambda: table_actions.load_state(table.current_hand))()
    tile = state.racks[0][0]
    frame = json.dumps({"action": "discard", "tile": tile, "version": table.version})
    await ca.send_to(frame)
    html = await ca.receive_from()  # broadcast of the accepted discard
    assert f'value="{table.version + 1}"' in html
    await ca.send_to(frame)  # replayed (a double click): applied once, no refusal
    html = await ca.receive_from()
    assert "data-code" not in html
    other = json.dumps({"action": "discard", "tile": state.racks[0][1], "version": table.version})
    await ca.send_to(other)  # another move on the version the table has left
    html = await ca.receive_from()
    assert 'data-code="stale_state"' in html
    assert await sync_to_async(HandAction.objects.count)() == 1
    await ca.disconnect()


async def test_unknown_table_is_closed():
    comm = WebsocketCommunicator(
        application, "/ws/t/nope/", headers=[(b"origin", b"http://testserver")]
    )
    ok, _ = await comm.connect()
    assert not ok


async def test_a_whole_hand_against_cpus_over_the_socket():
    user = await sync_to_async(User.objects.create_user)("carol", password="pw-Carol-123")
    client = Client()
    await sync_to_async(client.login)(username="carol", password="pw-Carol-123")
    table = await sync_to_async(table_actions.do_create_table)(
        variant="classic",
        options={},
        seats=[table_actions.SeatSpec("me")] + [table_actions.SeatSpec("cpu")] * 3,
        user=user,
    )
    comm = await connect(table.code, client)
    await comm.receive_from()
    # the seat was away until this socket opened: the frame saying it is back comes next
    while not await comm.receive_nothing(timeout=0.3):
        await comm.receive_from()

    def step() -> str | None:
        t = Table.objects.get(pk=table.pk)
        hand = t.current_hand
        if hand.result is not None:
            return "over"
        state = table_actions.load_state(hand)
        if state.turn != 0:
            table_actions.sweep()
            return None
        return json.dumps(
            {
                **cpu.choose(state, 0, "medium"),
                "version": t.version,
                "action": cpu.choose(state, 0, "medium")["type"],
            }
        )

    for _ in range(3000):
        frame = await sync_to_async(step)()
        if frame == "over":
            break
        if frame is not None:
            data = json.loads(frame)
            if "melds" in data:
                data["melds"] = json.dumps(data["melds"])
            await comm.send_to(json.dumps(data))
        await comm.receive_from()
    else:
        pytest.fail("hand did not finish")
    # drain and check the final view shows the result
    while not await comm.receive_nothing(timeout=0.2):
        await comm.receive_from()
    t = await sync_to_async(Table.objects.get)(pk=table.pk)
    final = await sync_to_async(lambda: table_actions.load_state(t.current_hand))()
    assert final.over
    await comm.disconnect()


async def test_sort_and_reorder_are_private_to_the_seat_and_change_no_version():
    table, (a, b) = await sync_to_async(two_player_table)()
    ca, cb = await connect(table.code, a), await connect(table.code, b)
    await ca.receive_from()
    await cb.receive_from()
    await ca.send_to(json.dumps({"action": "sort", "mode": "pairs"}))
    html = await ca.receive_from()
    assert f'value="{table.version}"' in html  # no game change
    assert await cb.receive_nothing(timeout=0.3)  # the other seat hears nothing
    seat = await sync_to_async(lambda: table.seats.get(position=0))()
    state = await sync_to_async(lambda: table_actions.load_state(table.current_hand))()
    order = [t for t in seat.rack_order if t is not None]
    assert sorted(order) == sorted(state.racks[0]) and len(seat.rack_order) == 32
    # identical tiles sit side by side after a pairs sort
    kinds = [t >> 1 for t in order]
    for k in set(kinds):
        idx = [i for i, x in enumerate(kinds) if x == k]
        assert idx == list(range(idx[0], idx[0] + len(idx)))
    # a reorder is saved as sent, also silently
    new = [None] * 32
    for i, t in enumerate(order):
        new[31 - i] = t
    await ca.send_to(json.dumps({"action": "reorder", "order": json.dumps(new)}))
    assert await ca.receive_nothing(timeout=0.3)
    seat = await sync_to_async(lambda: table.seats.get(position=0))()
    assert seat.rack_order == new
    await ca.disconnect()
    await cb.disconnect()


async def test_forged_rack_order_is_refused_and_changes_nothing():
    table, (a, _b) = await sync_to_async(two_player_table)()
    ca = await connect(table.code, a)
    await ca.receive_from()
    before = await sync_to_async(lambda: table.seats.get(position=0).rack_order)()
    other = await sync_to_async(lambda: table_actions.load_state(table.current_hand).racks[1][0])()
    for bad in ([other], ["x"], list(range(40)), {"a": 1}):
        await ca.send_to(json.dumps({"action": "reorder", "order": json.dumps(bad)}))
        html = await ca.receive_from()
        assert re.search(r'data-code="(bad_action|tile_not_in_rack|malformed_frame)"', html)
    after = await sync_to_async(lambda: table.seats.get(position=0).rack_order)()
    assert after == before
    await ca.disconnect()


async def test_show_me_hint_is_private_legal_and_changes_nothing():
    table, (a, b) = await sync_to_async(two_player_table)()
    ca, cb = await connect(table.code, a), await connect(table.code, b)
    await ca.receive_from()
    await cb.receive_from()
    await cb.send_to(json.dumps({"action": "hint", "version": table.version}))
    assert 'data-code="not_your_turn"' in await cb.receive_from()
    await ca.send_to(json.dumps({"action": "hint", "version": table.version}))
    html = await ca.receive_from()
    assert 'data-testid="hint"' in html and "Discard" in html  # the starter's turn: a discard
    assert re.search(r'class="tile [^"]*hinted', html)
    assert await cb.receive_nothing(timeout=0.3)
    t = await sync_to_async(Table.objects.get)(pk=table.pk)
    assert t.version == table.version
    assert await sync_to_async(HandAction.objects.count)() == 0
    await ca.disconnect()
    await cb.disconnect()
