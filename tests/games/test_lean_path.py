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

from games import realtime, services
from games.models import Seat

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
    table = services.create_table(
        variant="classic",
        options={},
        seats=[services.SeatSpec("me")]
        + [services.SeatSpec("human")] * 2
        + [services.SeatSpec("cpu", "hard")],
        user=ayse,
    )
    services.join_table(table.pk, user=users.create_user("bora", password="pw-Bora-123"))
    services.join_table(table.pk, guest_key="guest-c")
    Seat.objects.filter(table=table, position=2).update(away_since=T0, rack_order=[3, None, 7])
    return table


@pytest.mark.parametrize("for_update", [False, True])
def test_the_compiled_seats_read_gives_the_orm_s_objects(for_update):
    table = mixed_table()
    expected = list(
        Seat.objects.filter(table_id=table.pk).select_related("table", "user__profile")
    )
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
    with pytest.raises(services.Table.DoesNotExist), transaction.atomic():
        services._lock(10**9)
