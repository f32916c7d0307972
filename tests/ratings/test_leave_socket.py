"""Leaving a rated game over the table's socket (games/live/consumers.py, the "leave" frame)."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from tests.games.test_consumer import connect
from tests.ratings.conftest import play_to_end
from tests.ratings.test_leavers import rated_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_leave_over_the_socket_forfeits_the_seat_of_that_socket_only():
    """The table page's "Leave this game" is a frame of the seat's own socket; the table
    moves on for everyone (a new version), and the seat's moves are refused from then."""
    table, users = await sync_to_async(rated_table)(hands=3)
    await sync_to_async(play_to_end)(table, stop_after_hand=True)
    c = Client()
    await sync_to_async(c.force_login)(users[2])
    ws = await connect(table.code, c)
    await ws.receive_from()
    await ws.send_to(json.dumps({"action": "leave", "seat": 0}))
    for _ in range(10):
        if 'data-testid="left-note"' in await ws.receive_from():
            break
    else:
        raise AssertionError("no frame says the seat left")
    seats = await sync_to_async(lambda: {s.position: s.forfeited_at for s in table.seats.all()})()
    assert seats[2] is not None and all(seats[p] is None for p in (0, 1, 3))
    await ws.disconnect()
