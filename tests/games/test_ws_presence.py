"""Presence cannot leak: a socket that ends without its disconnect running, or
whose process died, stops counting for its seat, and the seat's CPU takes over."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from asgiref.sync import sync_to_async

from games.live import actions, consumers
from games.models import Seat, SeatConnection, Table
from tests.games.test_consumer import connect, two_player_table

T0 = datetime(2026, 3, 2, 18, 30, tzinfo=UTC)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_socket_whose_disconnect_never_runs_stops_counting(monkeypatch):
    async def never(self, code):  # e.g. the consumer died before its disconnect ran
        return None

    monkeypatch.setattr(consumers.TableConsumer, "disconnect", never)
    table, (a, _b) = await sync_to_async(two_player_table)()
    comm = await connect(table.code, a)
    await comm.receive_from()
    seat = await sync_to_async(Seat.objects.get)(table=table, position=0)
    assert seat.connections == 1 and seat.away_since is None
    assert list(consumers.live_connections().values()) == [seat.pk]
    await comm.disconnect()
    seat = await sync_to_async(Seat.objects.get)(pk=seat.pk)
    assert seat.connections == 0 and seat.away_since is not None
    assert consumers.live_connections() == {}
    assert not await sync_to_async(SeatConnection.objects.exists)()


def _seated_turn_seat() -> tuple[Table, Seat]:
    table, _clients = two_player_table()
    state = actions.load_state(table.current_hand)
    return table, table.seats.get(position=state.turn)


@pytest.mark.django_db
def test_the_connections_of_a_killed_process_expire_and_the_cpu_takes_over(settings):
    settings.OKEY_PRESENCE_TTL_S = 45
    table, seat = _seated_turn_seat()
    # a socket held by another process, which was then killed (kill -9): it
    # never deletes its row nor refreshes it
    actions.do_set_presence(seat.pk, True, at=T0, channel="dead-process!chan")
    SeatConnection.objects.filter(channel="dead-process!chan").update(process="dead-process")
    seat.refresh_from_db()
    assert seat.connections == 1 and seat.away_since is None
    # within the TTL the row is believed
    assert actions.do_reconcile_presence({}, at=T0 + timedelta(seconds=44), process="me") == 0
    seat.refresh_from_db()
    assert seat.connections == 1
    # past it, the seat is away from the moment of the reconcile and its CPU is due
    # after the grace period
    at = T0 + timedelta(seconds=46)
    assert actions.do_reconcile_presence({}, at=at, process="me") == 1
    seat.refresh_from_db()
    table.refresh_from_db()
    assert seat.connections == 0 and seat.away_since == at
    assert table.cpu_due_at == at + actions.grace()
    actions.sweep(at=at + actions.grace())
    table.refresh_from_db()
    assert table.current_hand.actions.filter(by_cpu=True).exists()


@pytest.mark.django_db
def test_this_process_drops_its_own_dead_sockets_at_once_and_keeps_the_live_ones():
    table, seat = _seated_turn_seat()
    actions.do_set_presence(seat.pk, True, at=T0, channel="me!live")
    actions.do_set_presence(seat.pk, True, at=T0, channel="me!gone")
    SeatConnection.objects.update(process="me")
    seat.refresh_from_db()
    assert seat.connections == 2
    at = T0 + timedelta(seconds=100)  # long past the TTL: the live one is refreshed first
    actions.do_reconcile_presence({"me!live": seat.pk}, at=at, process="me")
    seat.refresh_from_db()
    assert seat.connections == 1 and seat.away_since is None
    assert list(SeatConnection.objects.values_list("channel", "seen_at")) == [("me!live", at)]
    actions.do_reconcile_presence({}, at=at + timedelta(seconds=1), process="me")
    seat.refresh_from_db()
    assert seat.connections == 0 and seat.away_since == at + timedelta(seconds=1)


@pytest.mark.django_db
def test_a_live_socket_expired_by_another_process_is_counted_again():
    table, seat = _seated_turn_seat()
    actions.do_set_presence(seat.pk, False, at=T0)  # away, no rows
    actions.do_reconcile_presence({"me!back": seat.pk}, at=T0, process="me")
    seat.refresh_from_db()
    assert seat.connections == 1 and seat.away_since is None


@pytest.mark.django_db
def test_a_count_left_from_before_rows_existed_is_corrected():
    table, seat = _seated_turn_seat()
    Seat.objects.filter(pk=seat.pk).update(connections=3, away_since=None)
    actions.do_reconcile_presence({}, at=T0, process="me")
    seat.refresh_from_db()
    assert seat.connections == 0 and seat.away_since == T0
