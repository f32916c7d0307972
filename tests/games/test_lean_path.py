"""The lean action path gives what the plain ORM path gave.

The seats' read of every action is compiled to SQL once per connection
(``realtime.read_seats``); its seats, their table, user and profile must be the objects
``Seat.objects.select_related("table", "user__profile")`` gives, value for value.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games.engine.options import validate_options
from games.engine.rules import RULES
from games.live import actions, realtime
from games.live.actions import base as actions_base
from games.models import Seat, Table

pytestmark = pytest.mark.django_db(transaction=True)

T0 = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)


def _values(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def mixed_table():
    """An account with a display name, an account without a profile name, a guest who
    is away with a saved rack order, and a CPU."""
    users = get_user_model().objects
    ayse = users.create_user("ayse", password="pw-Ayse-123")
    ayse.profile.display_name = "Ayşe"
    ayse.profile.save()
    table = actions.do_create_table(
        variant="classic",
        options={},
        seats=[actions.SeatSpec("me")]
        + [actions.SeatSpec("human")] * 2
        + [actions.SeatSpec("cpu", "hard")],
        user=ayse,
    )
    actions.do_join_table(table.pk, user=users.create_user("bora", password="pw-Bora-123"))
    actions.do_join_table(table.pk, guest_key="guest-c")
    Seat.objects.filter(table=table, position=2).update(away_since=T0, rack_order=[3, None, 7])
    return table


@pytest.mark.parametrize("for_update", [False, True])
def test_the_compiled_seats_read_gives_the_orm_s_objects(for_update):
    table = mixed_table()
    expected = list(Seat.objects.filter(table_id=table.pk).select_related("table", "user__profile"))
    with transaction.atomic():
        seats = realtime.read_seats(table.pk, for_update=for_update)
        again = realtime.read_seats(table.pk, for_update=for_update)  # the compiled SQL
    assert [s.position for s in seats] == [0, 1, 2, 3]
    assert [_values(s) for s in seats] == [_values(s) for s in expected]
    assert [_values(s) for s in again] == [_values(s) for s in expected]
    assert all(s.table is seats[0].table for s in seats)  # one table object for all
    assert _values(seats[0].table) == _values(expected[0].table)
    assert seats[2].away_since == T0 and seats[2].rack_order == [3, None, 7]
    with CaptureQueriesContext(connection) as queries:  # users and profiles came along
        names = [s.display_name() for s in seats]
        users = [_values(s.user) if s.user_id else None for s in seats]
        profiles = [_values(s.user.profile) if s.user_id else None for s in seats]
    assert len(queries.captured_queries) == 0
    assert names == [s.display_name() for s in expected] and names[0] == "Ayşe"
    assert users == [_values(s.user) if s.user_id else None for s in expected]
    assert profiles == [_values(s.user.profile) if s.user_id else None for s in expected]
    assert not seats[0]._state.adding and seats[0]._state.db == "default"


def test_a_table_without_seats_reads_as_none():
    assert realtime.read_seats(10**9) == []
    assert realtime.read_table(10**9, None) is None
    with pytest.raises(Table.DoesNotExist), transaction.atomic():
        actions_base.lock_table(10**9)


def _guest_table_and_sessions() -> tuple[Table, list[str]]:
    """Four guests, one Django session each (as the load benchmark seats them)."""
    from django.contrib.sessions.backends.db import SessionStore

    keys = []
    for _ in range(4):
        s = SessionStore()
        s.create()
        keys.append(s.session_key)
    table = actions.do_create_table(
        variant="classic",
        options={},
        seats=[actions.SeatSpec("me")] + [actions.SeatSpec("human")] * 3,
        guest_key=keys[0],
    )
    for key in keys[1:]:
        actions.do_join_table(table.pk, guest_key=key)
    table.refresh_from_db()
    return table, keys


def _current_state(table_id: int):
    return realtime.snapshot(Table.objects.get(pk=table_id))[1]


@pytest.mark.asyncio
async def test_a_move_is_one_trip_to_the_database_thread_for_the_whole_table(monkeypatch):
    """The mover's frame applies the move and renders the four seats' frames in one
    call of the database thread; neither that frame nor the four ``table.changed``
    broadcasts that follow make another (channels' ``dispatch`` made one per message
    to close stale connections: six trips per move, each waiting behind the renders)."""
    import json
    import re

    from asgiref.sync import SyncToAsync, sync_to_async
    from channels.testing import WebsocketCommunicator

    from okeysite.asgi import application

    table, keys = await sync_to_async(_guest_table_and_sessions)()
    comms = []
    for key in keys:
        headers = [(b"origin", b"http://testserver"), (b"cookie", f"sessionid={key}".encode())]
        comm = WebsocketCommunicator(application, f"/ws/t/{table.code}/", headers=headers)
        assert (await comm.connect())[0]
        comms.append(comm)
    version = table.version
    for comm in comms:  # each first frame, with the version
        assert f'value="{version}"' in await comm.receive_from()
    # each seat was away until its socket opened (a seat nobody opened is away: services,
    # _open_table): the frames saying each is back come before the moves counted here
    for comm in comms:
        while not await comm.receive_nothing(timeout=0.3):
            await comm.receive_from()

    trips = []
    real_call = SyncToAsync.__call__

    async def counted(self, *args, **kwargs):
        trips.append(getattr(self.func, "__name__", repr(self.func)))
        return await real_call(self, *args, **kwargs)

    monkeypatch.setattr(SyncToAsync, "__call__", counted)
    moves = 6
    for _ in range(moves):
        state = await sync_to_async(_current_state)(table.pk)
        move = (
            {"action": "draw"}
            if state.phase == "draw"
            else {"action": "discard", "tile": state.racks[state.turn][0]}
        )
        await comms[state.turn].send_to(json.dumps({**move, "version": version}))
        version += 1
        for comm in comms:  # every seat has the move's frame (each its own rack)
            html = ""
            while f'value="{version}"' not in html:
                html = await comm.receive_from()
            assert "data-code" not in html
    # a frame each socket answers without the database: by its answer, each consumer
    # has also handled the broadcasts queued before it
    for comm in comms:
        await comm.send_to("not json")
        assert re.search(r'data-code="malformed_frame"', await comm.receive_from())
    monkeypatch.setattr(SyncToAsync, "__call__", real_call)
    assert [t for t in trips if t != "_current_state"] == ["act_and_render"] * moves
    for comm in comms:
        await comm.disconnect()


def _four_guests() -> Table:
    table = actions.do_create_table(
        variant="classic",
        options={},
        seats=[actions.SeatSpec("me")] + [actions.SeatSpec("human")] * 3,
        guest_key="g0",
    )
    for i in (1, 2, 3):
        actions.do_join_table(table.pk, guest_key=f"g{i}")
    table.refresh_from_db()
    return table


def _play(table: Table) -> Table:
    state = realtime.snapshot(table)[1]
    move = (
        {"type": "draw"}
        if state.phase == "draw"
        else {"type": "discard", "tile": state.racks[state.turn][0]}
    )
    return actions.do_submit_action(table.pk, state.turn, move, table.version)


def test_an_action_compiles_no_sql_once_its_statements_are_made(monkeypatch):
    """The read, the action's row and the table's update are SQL made once per
    connection: an action after the first compiles no query (it compiled three)."""
    from django.db.models.sql import compiler

    table = _play(_play(_four_guests()))  # a draw and a discard: both statements made
    compiled = []
    for cls in (compiler.SQLCompiler, compiler.SQLInsertCompiler, compiler.SQLUpdateCompiler):
        real = cls.as_sql

        def counting(self, *args, _real=real, **kwargs):
            compiled.append(type(self).__name__)
            return _real(self, *args, **kwargs)

        monkeypatch.setattr(cls, "as_sql", counting)
    for _ in range(4):
        table = _play(table)
    assert compiled == []


def test_the_stored_action_and_table_are_what_the_orm_would_store(monkeypatch):
    from games.models import HandAction, Table

    table = _four_guests()
    before = Table.objects.get(pk=table.pk)
    state = realtime.snapshot(table)[1]
    monkeypatch.setattr(actions_base, "now", lambda: T0)
    table = _play(table)
    row = HandAction.objects.get(hand__table=table)
    assert (row.index, row.seat, row.by_cpu) == (0, state.turn, False)
    assert row.payload == {"type": "discard", "tile": state.racks[state.turn][0], "seat": 0}
    assert row.created_at is not None and row.hand_id == table.current_hand.pk
    after = Table.objects.get(pk=table.pk)
    assert after.version == before.version + 1 == table.version
    assert after.updated_at == table.updated_at and after.updated_at > before.updated_at
    assert _values(after) == _values(table)


def test_a_listener_of_the_save_signals_still_hears_every_action():
    """Nothing listens to the action row's or the table's save signals today; one that
    is added is not skipped by the prepared statements (the ORM's save runs then)."""
    from django.db.models.signals import post_save

    from games.models import HandAction, Table

    heard = []

    def listener(sender, instance, **kwargs):
        heard.append((sender.__name__, kwargs.get("update_fields")))

    post_save.connect(listener, sender=HandAction, dispatch_uid="lean-test-action")
    post_save.connect(listener, sender=Table, dispatch_uid="lean-test-table")
    try:
        table = _play(_four_guests())
    finally:
        post_save.disconnect(sender=HandAction, dispatch_uid="lean-test-action")
        post_save.disconnect(sender=Table, dispatch_uid="lean-test-table")
    assert ("HandAction", None) in heard
    assert ("Table", frozenset(actions_base.ACTION_FIELDS)) in heard
    assert HandAction.objects.filter(hand__table=table).count() == 1


@pytest.mark.parametrize("variant", sorted(RULES))
def test_views_sharing_a_state_s_public_part_are_each_seat_s_own(variant):
    """``view_for`` makes what every seat sees alike once per state; each view is
    still exactly the one made from scratch, the seat's rack in its own view only."""
    import random

    from games.engine import apply, view
    from games.engine.simulate import choose
    from games.engine.state import new_hand

    rng = random.Random(7)
    options = validate_options(variant, {})
    state = new_hand(variant, options, "lean-views", starter=0)
    for _ in range(60):
        if state.over:
            break
        seats = [None, *range(state.n_players)]
        shared = [view.view_for(state, s) for s in seats]
        for s, got in zip(seats, shared, strict=True):
            view._PUBLIC.clear()
            assert got == view.view_for(state, s)
            racks = [t["id"] for t in got["rack"] or ()]
            assert racks == ([] if s is None else list(state.racks[s]))
        state = apply(state, choose(state, rng))[0]


def test_a_move_renders_each_changed_panel_once_for_the_whole_table(monkeypatch):
    """After a discard, the mover's panel is rendered once and reaches each of the
    other three seats at its own place on their screens; the whole table's frames of
    a move render a handful of fragments, not one set per seat."""
    import re
    from collections import Counter

    from games.live import consumers

    table = _four_guests()
    members = []
    for seat in table.seats.all():
        member = consumers.TableConsumer()
        member.scope, member.table_id, member.seat_id = {}, table.pk, seat.pk
        member.position, member._lang = seat.position, "en"
        members.append(member)
    realtime.render_all(members, None, realtime.read_table(table.pk, None))  # first frames
    rendered: Counter = Counter()
    real_render = realtime.render_leaf

    def counting(name, ctx, place=None):
        rendered[name] += 1
        return real_render(name, ctx, place)

    monkeypatch.setattr(realtime, "render_leaf", counting)
    mover = realtime.snapshot(table)[1].turn
    table = _play(table)  # the starter's discard
    frames = realtime.render_all(members, None, realtime.seats_read_with(table))
    assert rendered[f"opp-{mover}"] == 1
    places = {"left", "right", "top"}
    seen = set()
    for member, html in zip(members, frames, strict=True):
        if member.position == mover:
            assert f'id="opp-{mover}"' not in html
            continue
        found = re.search(rf'<div class="opp opp-(\w+)[^"]*" id="opp-{mover}"', html)
        assert found and found.group(1) in places
        seen.add(found.group(1))
    assert seen == places  # three seats, three places, one render
    # the move passed the turn: the scores (each seat's own line marked) for every
    # seat, the centre and the announcement for the seat to move and the others, and
    # one of each other changed fragment (the info chips among them: a table of people
    # has a turn clock, whose deadline each turn moves: docs/clock-and-presence.md)
    assert sum(rendered.values()) <= 15, rendered
