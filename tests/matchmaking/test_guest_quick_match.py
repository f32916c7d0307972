"""Quick match for a guest: casual quick-match tables, of guests only, never a rated one
(games/matchmaking/actions.py, "Guests play casual"; games/live/rated.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.urls import reverse

from games.live import actions as table_actions
from games.matchmaking import actions as quick
from games.models import Table
from tests.matchmaking.conftest import press

T0 = datetime(2026, 5, 4, 18, 0, tzinfo=UTC)
VARIANT = "classic"

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def clock():
    with time_machine.travel(T0, tick=False) as traveller:
        yield traveller


def guest_press(key: str, variant: str = VARIANT) -> quick.QuickMatch:
    """A guest's "Play now", and the table page it leads to, opened."""
    match = quick.do_quick_match(AnonymousUser(), variant, guest_key=key)
    table_actions.do_set_presence(match.seat.pk, True, channel=f"page-{match.seat.pk}")
    return match


def account(name: str):
    return get_user_model().objects.create_user(username=name, password="pw-" + name * 3)


def test_a_guests_press_opens_a_casual_quick_match_table_and_waits():
    match = guest_press("guest-a")
    table = match.table
    assert match.outcome == "opened"
    assert (table.rated, table.competitive, table.public, table.quick_match) == (
        False,
        False,
        True,
        True,
    )
    assert table.status == Table.Status.WAITING
    assert match.seat.position == 0 and match.seat.guest_key == "guest-a"
    assert match.seat.user is None
    # pressing again: back to the same wait, never a second seat
    assert guest_press("guest-a").outcome == "back"
    assert Table.objects.count() == 1


def test_guests_meet_at_one_casual_table_and_the_last_seat_starts_it():
    code = guest_press("guest-a").table.code
    assert guest_press("guest-b").table.code == code
    assert guest_press("guest-c").table.code == code
    last = guest_press("guest-d")
    assert last.outcome == "joined" and last.table.code == code
    table = Table.objects.get()
    assert table.status == Table.Status.PLAYING and not table.rated
    assert sorted(s.guest_key for s in table.seats.all()) == [f"guest-{c}" for c in "abcd"]


def test_casual_and_rated_quick_match_tables_never_mix():
    rated = press(account("ayse"), VARIANT).table  # an account waits at a rated table
    casual = guest_press("guest-a").table  # a guest is not seated there
    assert casual.pk != rated.pk and not casual.rated and rated.rated
    assert guest_press("guest-b").table.pk == casual.pk  # guests meet at the casual one
    # an account never joins the guests' table: it is seated at the rated one
    assert press(account("mehmet"), VARIANT).table.pk == rated.pk
    assert not rated.seats.filter(guest_key__startswith="guest-", user__isnull=True).exists()
    assert not casual.seats.filter(user__isnull=False).exists()


def test_a_guest_never_joins_a_waiting_rated_table_even_alone():
    rated = press(account("ayse"), VARIANT).table
    match = guest_press("guest-a")
    assert match.outcome == "opened" and match.table.pk != rated.pk
    rated.refresh_from_db()
    assert [s.is_open for s in rated.seats.order_by("position")] == [False, True, True, True]


def test_a_guest_leaves_the_wait_and_gets_their_table_back_on_the_next_press():
    table = guest_press("guest-a").table
    quick.do_leave_wait(table.pk, user=AnonymousUser(), guest_key="guest-a")
    table.refresh_from_db()
    assert table.status == Table.Status.ABANDONED
    again = guest_press("guest-a")
    assert again.outcome == "reopened" and again.table.pk == table.pk
    # another guest's key cannot leave it for them
    with pytest.raises(table_actions.ActionRefused) as refused:
        quick.do_leave_wait(table.pk, user=AnonymousUser(), guest_key="guest-z")
    assert refused.value.code == "not_waiting_here"


def test_a_waiting_guest_fills_with_cpus_after_the_minute(clock):
    table = guest_press("guest-a").table
    with pytest.raises(table_actions.ActionRefused) as refused:
        quick.do_quick_fill(table.pk, user=AnonymousUser(), guest_key="guest-a")
    assert refused.value.code == "too_early"
    clock.shift(timedelta(seconds=60))
    filled = quick.do_quick_fill(table.pk, user=AnonymousUser(), guest_key="guest-a")
    assert filled.status == Table.Status.PLAYING and not filled.rated
    assert sum(s.is_cpu for s in filled.seats.all()) == 3


def test_a_guest_pressing_play_now_is_seated_with_a_session_and_sees_a_casual_card():
    client = Client()
    response = client.post(reverse("matchmaking:play"), {"variant": VARIANT})
    table = Table.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("games:table", args=[table.code])
    key = client.session.session_key
    assert key and table.seats.get(position=0).guest_key == key and not table.rated
    card = client.get(reverse("matchmaking:waiting", args=[table.code])).content.decode()
    assert 'data-testid="quick-casual"' in card and 'data-testid="quick-leave"' in card
    assert 'data-testid="rated-rules"' not in card and 'title="Rating"' not in card
    # the lobby leads the guest back to the table they wait at
    home = client.get("/").content.decode()
    assert 'data-testid="quick-back"' in home and f"/t/{table.code}/" in home
    assert 'data-testid="quick-casual-note"' in home
    # and the guest leaves through the card's Leave
    client.post(reverse("matchmaking:leave", args=[table.code]))
    table.refresh_from_db()
    assert table.status == Table.Status.ABANDONED


def test_a_guests_presses_are_throttled_per_address(settings):
    settings.QUICK_MATCH_PRESS_LIMIT = 2
    for _ in range(2):  # two guests from one address, each a new session
        Client().post(reverse("matchmaking:play"), {"variant": VARIANT})
    table = Table.objects.get()  # the second met the first
    assert sum(not s.is_open for s in table.seats.all()) == 2
    refused = Client().post(reverse("matchmaking:play"), {"variant": VARIANT})
    assert refused.status_code == 302 and refused.url.endswith("#quick-match")
    assert sum(not s.is_open for s in table.seats.all()) == 2 and Table.objects.count() == 1
