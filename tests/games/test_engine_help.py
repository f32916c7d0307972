"""No engine help where it counts: "Show me" at competitive tables (rated, tournament,
challenge runs: ``Table.competitive``) is refused by the server and not rendered; at a
casual table each use is stored once per turn with the hand (``Hand.hints``)."""

from __future__ import annotations

import json
import re

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import User
from django.test import Client

from games.live import actions
from games.models import Hand, Table
from tests.games.test_consumer import connect

pytestmark = [pytest.mark.django_db(transaction=True)]


async def frame_with(ws, text: str) -> str:
    """The next frame holding ``text`` (a presence change sends frames of its own)."""
    for _ in range(10):
        html = await ws.receive_from()
        if text in html:
            return html
    raise AssertionError(f"no frame with {text!r}")


def table_for_two(*, rated: bool) -> tuple[Table, list[Client]]:
    """A fifty-one table of four accounts (rated or casual), dealt; clients of seats 0, 1."""
    users = [
        User.objects.create_user(n, password=f"pw-{n}-123") for n in ("ana", "ben", "cem", "dil")
    ]
    table = actions.do_create_table(
        variant="fifty-one",
        options={},
        seats=[actions.SeatSpec("me")] + [actions.SeatSpec("human")] * 3,
        user=users[0],
        rated=rated,
    )
    for u in users[1:]:
        actions.do_join_table(table.pk, user=u)
    table.refresh_from_db()
    clients = []
    for u in users[:2]:
        c = Client()
        c.force_login(u)
        clients.append(c)
    return table, clients


@pytest.mark.asyncio
async def test_show_me_is_refused_and_not_rendered_at_a_rated_table():
    table, _clients = await sync_to_async(table_for_two)(rated=True)
    assert table.competitive
    starter = await sync_to_async(lambda: actions.load_state(table.current_hand).turn)()
    name = await sync_to_async(lambda: table.seats.get(position=starter).user.username)()
    c = Client()
    await sync_to_async(c.login)(username=name, password=f"pw-{name}-123")
    ws = await connect(table.code, c)
    first = await frame_with(ws, 'id="t-controls"')
    assert 'data-testid="show-me"' not in first  # the control is not there on its turn
    assert "No engine help" in first  # the rules line says so
    await ws.send_to(json.dumps({"action": "hint", "version": table.version}))
    html = await frame_with(ws, "data-code=")
    assert 'data-code="no_engine_help"' in html
    assert 'data-testid="hint"' not in html and not re.search(r'class="tile [^"]*hinted', html)
    hand = await sync_to_async(Hand.objects.get)(table=table)
    assert hand.hints == {}
    await ws.disconnect()


def test_every_competitive_table_refuses_the_service_itself():
    """Whatever sends it (a forged frame, another client), the service refuses at a
    tournament table (seated by an organiser) and at a challenge run."""
    users = [User.objects.create_user(n, password="x") for n in ("ana", "ben")]
    tournament = actions.do_seat_players(
        variant="rummy",
        options={"players": 2},
        seats=[actions.SeatSpec("player", user=u, name=u.username) for u in users],
        competitive=True,
    )
    challenge = actions.do_create_table(
        variant="seventeen",
        options={"clock": 0},
        seats=[actions.SeatSpec("me")] + [actions.SeatSpec("cpu", "hard")] * 3,
        user=users[0],
        kind=Table.Kind.SOLO,
        competitive=True,
    )
    for table in (tournament, challenge):
        turn = actions.load_state(table.current_hand).turn
        with pytest.raises(actions.ActionRefused) as e:
            actions.do_show_hint(table.pk, turn)
        assert e.value.code == "no_engine_help"
        assert Hand.objects.get(table=table).hints == {}


@pytest.mark.asyncio
async def test_a_casual_table_stores_each_show_me_once_per_turn_for_the_asking_seat():
    table, _clients = await sync_to_async(table_for_two)(rated=False)
    assert not table.competitive
    starter = await sync_to_async(lambda: actions.load_state(table.current_hand).turn)()
    turn_no = await sync_to_async(lambda: actions.load_state(table.current_hand).turn_no)()
    name = await sync_to_async(lambda: table.seats.get(position=starter).user.username)()
    c = Client()
    await sync_to_async(c.login)(username=name, password=f"pw-{name}-123")
    ws = await connect(table.code, c)
    await frame_with(ws, 'data-testid="show-me"')
    # asked twice (a replayed frame), and once naming another seat: the socket's own seat
    # is the one asking, and its turn is stored once
    other = (starter + 1) % 4
    for frame in (
        {"action": "hint", "version": table.version},
        {"action": "hint", "version": table.version},
        {"action": "hint", "version": 0, "seat": other},
    ):
        await ws.send_to(json.dumps(frame))
        await frame_with(ws, 'data-testid="hint"')
    hand = await sync_to_async(Hand.objects.get)(table=table)
    assert hand.hints == {str(starter): [turn_no]}
    await ws.disconnect()
