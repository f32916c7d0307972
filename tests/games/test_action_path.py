"""The action path's cost: one accepted action is five SQL queries (BEGIN, the table
locked and read with its seats, the action's row, the table's changed columns,
COMMIT), the hand's state is written only as a snapshot (games/models.py
``SNAPSHOT_EVERY``), and the frames rendered after an action reuse the action's read."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.live import actions as table_actions
from games.live import realtime
from games.models import SNAPSHOT_EVERY, HandAction, Table

pytestmark = pytest.mark.django_db(transaction=True)


def guest_table() -> Table:
    """Four guests (no CPU): the first hand is dealt, nobody plays but the test."""
    table = table_actions.do_create_table(
        variant="classic",
        options={},
        seats=[table_actions.SeatSpec("me")] + [table_actions.SeatSpec("human")] * 3,
        guest_key="g0",
    )
    for i in (1, 2, 3):
        table_actions.do_join_table(table.pk, guest_key=f"g{i}")
    table.refresh_from_db()
    return table


def _move(table: Table) -> dict:
    """The mover's draw or the first tile of its rack to discard."""
    _hand, state, _game = realtime.snapshot(table)
    if state.phase == "draw":
        return {"type": "draw"}
    return {"type": "discard", "tile": state.racks[state.turn][0]}


def _play_one(table: Table) -> Table:
    _hand, state, _game = realtime.snapshot(table)
    return table_actions.do_submit_action(table.pk, state.turn, _move(table), table.version)


def test_an_accepted_action_is_five_queries_with_begin_and_commit():
    table = _play_one(guest_table())  # the snapshot cache holds this process's latest
    _hand, state, _game = realtime.snapshot(table)
    move, turn = _move(table), state.turn
    with CaptureQueriesContext(connection) as queries:
        after = table_actions.do_submit_action(table.pk, turn, move, table.version)
    sql = [q["sql"] for q in queries.captured_queries]
    assert after.version == table.version + 1
    assert len(sql) <= 5, "\n".join(sql)
    assert not any("games_hand" in q and q.startswith("UPDATE") for q in sql), sql
    assert HandAction.objects.filter(hand__table=table).count() == 2


def test_the_frames_after_an_action_reuse_its_read_of_the_table_and_seats():
    table = _play_one(guest_table())
    found = realtime.seats_read_with(table)
    assert found is not None
    same, seats = found
    assert same is table and [s.position for s in seats] == [0, 1, 2, 3]
    with CaptureQueriesContext(connection) as queries:
        assert [s.table for s in seats] == [table] * 4
        assert [s.display_name() for s in seats]  # names came with the read
    assert len(queries.captured_queries) == 0


def test_the_state_is_written_only_every_snapshot_interval_and_read_back_whole():
    table = guest_table()
    for _ in range(SNAPSHOT_EVERY + 3):
        table = _play_one(table)
    hand = table.current_hand
    _h, live, _g = realtime.snapshot(table)
    assert len(hand.snapshot["actions"]) == SNAPSHOT_EVERY  # not rewritten after that
    assert len(live.actions) == SNAPSHOT_EVERY + 3
    # a process without the cache reads the snapshot and replays the three after it
    assert realtime.load_state(hand).to_json() == live.to_json()
    assert table_actions.rebuild_hand(hand).to_json() == live.to_json()
    assert hand.state == live.to_json()


def test_a_table_reloaded_without_the_cache_continues_like_a_restarted_process():
    table = guest_table()
    for _ in range(SNAPSHOT_EVERY + 5):
        table = _play_one(table)
    expected = realtime.snapshot(table)[1].to_json()
    realtime._SNAPSHOTS.clear()  # a restart: no process has seen this table
    table = Table.objects.get(pk=table.pk)
    assert realtime.snapshot(table)[1].to_json() == expected
    # the restarted process goes on playing; a stale move is still refused
    table = _play_one(table)
    with pytest.raises(table_actions.ActionRefused) as refused:
        table_actions.do_submit_action(table.pk, 0, {"type": "draw"}, table.version - 5)
    assert refused.value.code == "stale_state"
    realtime._SNAPSHOTS.clear()
    table = Table.objects.get(pk=table.pk)
    assert table_actions.rebuild_hand(table.current_hand).to_json() == (
        realtime.snapshot(table)[1].to_json()
    )
