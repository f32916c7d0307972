"""Following a seat (games/live/follow.py): a watcher picks a seat to sit behind; it
shows that seat's rack of the finished hand in the outcome, and nothing of it while a
hand is played. (The frame-by-frame check over a whole hand in every rule set is
tests/games/test_online.py::test_no_frame_carries_a_tile_the_seat_may_not_see.)"""

from __future__ import annotations

import json
import re

import pytest

from games.live import actions
from games.models import Table
from tests.games.conftest import play_out_hand
from tests.watch.conftest import adb, cpu_table, frames, person, table_socket

TILE_ID = re.compile(r'data-id="(\d+)"')
FOLLOWED = re.compile(r'data-testid="followed" data-seat="(\d+)".*?</div>', re.S)


def follow(seat: int | str) -> str:
    return json.dumps({"action": "follow", "seat": seat})


def racks(table: Table) -> list[list[int]]:
    return [list(r) for r in actions.load_state(Table.objects.get(pk=table.pk).current_hand).racks]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_after_the_hand_a_watcher_sees_the_followed_seats_finished_rack():
    table = await adb(cpu_table)()
    await adb(play_out_hand)(table)
    watcher = await table_socket(table.code)
    first = await watcher.receive_from()
    assert 'data-testid="follow"' in first and 'data-testid="followed"' not in first
    assert 'data-testid="review-hand"' not in first  # the replay is for the players
    await watcher.send_to(follow(2))
    (sent,) = await frames(watcher)
    shown = FOLLOWED.search(sent)
    assert shown and shown.group(1) == "2"
    final = await adb(racks)(table)
    assert [int(x) for x in TILE_ID.findall(shown.group(0))] == final[2]
    assert 'aria-pressed="true" data-testid="follow-2"' in sent
    await watcher.send_to(follow(""))  # stop following
    (sent,) = await frames(watcher)
    assert 'data-testid="follow"' in sent and not FOLLOWED.search(sent)
    await watcher.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_while_a_hand_is_played_following_changes_nothing_a_watcher_is_sent():
    table = await adb(cpu_table)()
    plain, follower = await table_socket(table.code), await table_socket(table.code)
    await plain.receive_from()
    await follower.receive_from()
    await frames(plain)  # the follower's arrival: the watcher count
    await follower.send_to(follow(0))
    sent = await frames(follower)
    hidden = set((await adb(racks)(table))[0])
    for html in sent:
        assert not hidden & {int(x) for x in TILE_ID.findall(html)}
        assert 'data-testid="follow' not in html
    # a move: the follower's frame is the plain watcher's, byte for byte
    state = await adb(lambda: actions.load_state(table.current_hand))()
    await adb(actions.do_submit_action)(
        table.pk, 0, {"type": "discard", "tile": state.racks[0][0]}, table.version
    )
    a, b = await frames(plain), await frames(follower)
    assert a and a == b
    for comm in (plain, follower):
        await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_seated_player_follows_nobody():
    user, client = await adb(person)("ayse")
    table = await adb(cpu_table)(user)
    seat = await table_socket(table.code, client)
    await seat.receive_from()
    await seat.send_to(follow(1))
    (sent,) = await frames(seat)
    assert 'data-code="bad_action"' in sent
    await seat.disconnect()
