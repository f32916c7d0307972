"""Pressing "Play now" and leaving in a loop keeps one table, and presses are throttled
per player (games/matchmaking/actions.py "Pressing after leaving")."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from games.matchmaking import actions as quick
from games.models import Seat, Table
from tests.matchmaking.test_leave_and_urls import flashed
from tests.matchmaking.test_quick_match import VARIANT, clock, player  # noqa: F401

pytestmark = pytest.mark.django_db


def present(user) -> None:
    """``user``'s table page is open (a seat taken by a press counts as away until then,
    and a table where everyone is away is passed over)."""
    Seat.objects.filter(user=user).update(away_since=None)


def test_pressing_and_leaving_twenty_times_keeps_one_table():
    ayse = player("ayse")
    tables = set()
    for _ in range(20):
        match = quick.do_quick_match(ayse, VARIANT)
        tables.add(match.table.pk)
        quick.do_leave_wait(match.table.pk, user=ayse)
    assert len(tables) == 1
    assert Table.objects.filter(quick_match=True).count() == 1


def test_the_table_left_is_waiting_again_with_its_wait_counted_from_the_new_press(clock):  # noqa: F811
    ayse = player("ayse")
    first = quick.do_quick_match(ayse, VARIANT)
    quick.do_leave_wait(first.table.pk, user=ayse)
    clock.shift(timedelta(seconds=50))
    again = quick.do_quick_match(ayse, VARIANT)
    assert again.outcome == "reopened" and again.table.pk == first.table.pk
    table = Table.objects.get(pk=first.table.pk)
    assert table.status == Table.Status.WAITING
    assert [s.user for s in table.seats.all() if not s.is_open] == [ayse]
    assert table.created_at == quick.table_actions.now()  # the window and the minute start anew
    assert table.version > first.table.version  # the others' pages hear it


def test_a_waiting_table_of_someone_else_comes_before_the_table_left():
    ayse, mehmet = player("ayse"), player("mehmet")
    mine = quick.do_quick_match(ayse, VARIANT).table
    quick.do_leave_wait(mine.pk, user=ayse)
    theirs = quick.do_quick_match(mehmet, VARIANT).table  # mehmet reopens nothing: a new one
    present(mehmet)
    assert theirs.pk != mine.pk
    assert quick.do_quick_match(ayse, VARIANT).table.pk == theirs.pk


def test_a_table_that_was_played_is_not_reopened():
    ayse = player("ayse")
    first = quick.do_quick_match(ayse, VARIANT).table
    present(ayse)
    for name in ("b", "c", "d"):
        quick.do_quick_match(player(name), VARIANT)
    first.refresh_from_db()
    assert first.status != Table.Status.WAITING and first.hands.exists()
    assert quick.do_quick_match(ayse, VARIANT).table.pk != first.pk


def test_presses_are_throttled_per_player_and_a_refused_press_changes_nothing(client, settings):
    settings.QUICK_MATCH_PRESS_LIMIT = 3
    ayse = player("ayse")
    client.force_login(ayse)
    url = reverse("matchmaking:play")
    for _ in range(3):
        assert client.post(url, {"variant": VARIANT}).status_code == 302
        quick.do_leave_wait(quick.waiting_seat(ayse).table.pk, user=ayse)
    before = list(Table.objects.values_list("pk", "status", "version"))
    refused = client.post(url, {"variant": VARIANT}, follow=True)
    assert any("Wait a minute" in m for m in flashed(refused))
    assert list(Table.objects.values_list("pk", "status", "version")) == before
    assert quick.waiting_seat(ayse) is None
    # another player presses as usual
    client.force_login(player("mehmet"))
    assert client.post(url, {"variant": VARIANT})["Location"].startswith("/t/")
