"""Hostile frames on the table websocket: none crashes the socket, refusals that
change nothing cost no database trip or table render, and a flood is closed."""

from __future__ import annotations

import json
import re

import pytest
from asgiref.sync import sync_to_async

from games.live import actions, consumers, realtime
from games.models import HandAction, Seat
from tests.games.test_consumer import connect, two_player_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

CODE = re.compile(r'data-code="(\w+)"')


async def answers(comm, timeout: float = 0.3) -> list[str]:
    """Every refusal code the socket was sent until it went quiet."""
    codes: list[str] = []
    while not await comm.receive_nothing(timeout=timeout):
        codes += CODE.findall(await comm.receive_from())
    return codes


async def seat_row(table, position: int) -> Seat:
    return await sync_to_async(lambda: Seat.objects.get(table=table, position=position))()


HOSTILE = [
    '{"action": "discard", "tile": Infinity, "version": 1}',  # OverflowError in int()
    '{"action": "discard", "tile": -Infinity, "version": 1}',
    '{"action": "discard", "tile": NaN, "version": 1}',
    '{"action": "discard", "tile": 1e400, "version": 1}',
    '{"action": "discard", "tile": 3.5, "version": 1}',
    '{"action": "discard", "tile": 1, "version": 1e300}',  # an integer too large for the database
    '{"action": "discard", "tile": 1, "version": ' + "9" * 4000 + "}",
    '{"action": "discard", "version": Infinity}',
    json.dumps({"action": "open", "version": 1, "melds": "[" * 3000 + "]" * 3000}),
    "[" * 4000 + "]" * 4000,  # RecursionError in the JSON decoder
    '{"a":' * 1300 + "1" + "}" * 1300,
    json.dumps({"action": "open", "version": 1, "melds": json.dumps([[[[[1]]]]])}),
    json.dumps({"action": "open", "version": 1, "melds": "7"}),
    json.dumps({"action": "reorder", "order": json.dumps([[1], [2]])}),
    json.dumps({"action": "draw", "version": 1, "x": [[[[[[]]]]]]}),
]


async def test_no_hostile_frame_closes_the_socket_or_leaks_presence():
    table, (a, _b) = await sync_to_async(two_player_table)()
    comm = await connect(table.code, a)
    await comm.receive_from()
    assert (await seat_row(table, 0)).connections == 1
    for frame in HOSTILE:
        await comm.send_to(frame)
        assert await answers(comm) == ["malformed_frame"], frame[:60]
    await comm.send_to(json.dumps({"action": "x" * 5000, "version": 1}))
    assert await answers(comm) == ["bad_action"]
    # still open and usable: a real move is played
    state = await sync_to_async(lambda: actions.load_state(table.current_hand))()
    await comm.send_to(
        json.dumps({"action": "discard", "tile": state.racks[0][0], "version": table.version})
    )
    html = await comm.receive_from()
    assert f'value="{table.version + 1}"' in html
    assert await sync_to_async(HandAction.objects.count)() == 1
    await comm.disconnect()
    seat = await seat_row(table, 0)
    assert seat.connections == 0 and seat.away_since is not None


async def test_an_exception_while_handling_a_frame_is_a_refusal_and_the_socket_stays(
    monkeypatch,
):
    table, (a, _b) = await sync_to_async(two_player_table)()
    comm = await connect(table.code, a)
    await comm.receive_from()

    def broken(*args, **kwargs):
        raise RuntimeError("a bug somewhere below the consumer")

    monkeypatch.setattr(actions, "do_sort_rack", broken)
    await comm.send_to(json.dumps({"action": "sort", "mode": "runs"}))
    assert await answers(comm) == ["internal_error"]
    monkeypatch.undo()
    await comm.send_to(json.dumps({"action": "sort", "mode": "pairs"}))
    assert await comm.receive_from()  # the socket still answers
    assert (await seat_row(table, 0)).connections == 1
    await comm.disconnect()
    assert (await seat_row(table, 0)).away_since is not None


async def test_refusals_that_change_nothing_touch_no_database_and_render_no_table(monkeypatch):
    monkeypatch.setattr(consumers, "_clock", lambda: 500.0)  # the whole burst at one instant
    table, (a, _b) = await sync_to_async(two_player_table)()
    comm = await connect(table.code, a)
    await comm.receive_from()
    work: list[str] = []
    monkeypatch.setattr(realtime, "read_table", lambda *a: work.append("read"))
    monkeypatch.setattr(
        consumers.TableConsumer, "render_view", lambda self, *a, **k: work.append("render")
    )
    monkeypatch.setattr(actions, "do_submit_action", lambda *a, **k: work.append("submit"))
    frames = ["x" * (consumers.MAX_FRAME_BYTES + 1), "not json", '{"action": "fly"}']
    for i in range(30):  # (sent at once: fewer than the guard lets one socket queue)
        await comm.send_to(frames[i % 3])
    codes = await answers(comm)
    # the socket's burst of 16 frames is answered one by one, then only the first
    # refusal of the rate-limited rest: 14 frames, one answer
    assert len(codes) == 17 and codes[-1] == "rate_limited"
    assert set(codes[:16]) == {"frame_too_large", "malformed_frame", "bad_action"}
    assert work == []


async def test_rate_limited_frames_are_answered_once_a_second_at_most(monkeypatch):
    now = [500.0]
    monkeypatch.setattr(consumers, "_clock", lambda: now[0])
    table, (a, _b) = await sync_to_async(two_player_table)()
    comm = await connect(table.code, a)
    await comm.receive_from()
    for _ in range(int(consumers.RATE_BURST)):
        await comm.send_to("{}")
    assert len(await answers(comm)) == consumers.RATE_BURST  # each read and refused
    for _ in range(5):
        await comm.send_to("{}")
    assert await answers(comm) == ["rate_limited"]
    now[0] += 0.05  # still limited (less than one token refilled): quiet
    for _ in range(5):
        await comm.send_to("{}")
    assert await answers(comm) == []
    now[0] += 0.95  # a second after the answer: 8 tokens back, then refused again
    for _ in range(12):
        await comm.send_to("{}")
    codes = await answers(comm)
    assert codes == ["malformed_frame"] * 8 + ["rate_limited"]
    await comm.disconnect()


async def test_a_socket_that_keeps_flooding_is_closed_with_4008(monkeypatch):
    monkeypatch.setattr(consumers, "_clock", lambda: 500.0)
    table, (a, _b) = await sync_to_async(two_player_table)()
    comm = await connect(table.code, a)
    await comm.receive_from()
    for _ in range(int(consumers.RATE_BURST + consumers.FLOOD_BURST) + 1):
        await comm.send_to("{}")
    outputs = []
    while True:
        out = await comm.receive_output(timeout=2)
        outputs.append(out)
        if out["type"] == "websocket.close":
            break
    assert out["code"] == consumers.CLOSE_FLOOD  # 4008: the htmx ws extension does not reconnect
    assert out["reason"] == "too many messages"
    assert await comm.receive_nothing(timeout=0.2)
    await comm.disconnect()
    seat = await seat_row(table, 0)
    assert seat.connections == 0 and seat.away_since is not None


async def test_sockets_of_one_session_share_a_rate(monkeypatch):
    monkeypatch.setattr(consumers, "_clock", lambda: 700.0)
    table, (a, _b) = await sync_to_async(two_player_table)()
    socks = [await connect(table.code, a) for _ in range(3)]
    for s in socks:
        await s.receive_from()
    passed = 0
    for s in socks:  # 3 x 16 frames: each socket's own bucket allows them all
        for _ in range(int(consumers.RATE_BURST)):
            await s.send_to('{"action": "fly"}')
        passed += (await answers(s)).count("bad_action")
    assert passed == consumers.SESSION_BURST  # the session's 32, then rate_limited
    for s in socks:
        await s.disconnect()
