"""Quick match's loose ends: a waiting player leaves the wait ("Leave"), and the table
page's ordinary URLs neither seat a visitor past the rating window ("Take a seat") nor
fill a quick-match table with CPUs before its minute ("Start now")
(games/matchmaking/actions.py, games/live/actions/)."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse

from games.live import actions as table_actions
from games.live import realtime
from games.live.messages import refusal_text
from games.matchmaking import actions as quick
from games.models import Seat, Table
from tests.matchmaking.conftest import press
from tests.matchmaking.test_quick_match import T0, VARIANT, player

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def clock():
    """Time stands still at T0 unless a test moves it (tables store their opening time)."""
    with time_machine.travel(T0, tick=False) as traveller:
        yield traveller


@pytest.fixture
def broadcasts(monkeypatch) -> list[tuple[int, int]]:
    """The (table id, version) of every broadcast sent, once its transaction commits."""
    sent: list[tuple[int, int]] = []
    monkeypatch.setattr(
        realtime, "broadcast", lambda table_id, version, **kw: sent.append((table_id, version))
    )
    return sent


def flashed(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


# --------------------------------------------------------------------------- leave


def test_leaving_frees_the_seat_and_the_others_hear_it(
    broadcasts, django_capture_on_commit_callbacks
):
    ayse, mehmet = player("ayse"), player("mehmet")
    table = press(ayse, VARIANT).table
    press(mehmet, VARIANT)
    table.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        left = quick.do_leave_wait(table.pk, user=mehmet)
    assert left.status == Table.Status.WAITING  # Ayşe still waits there
    assert left.version == table.version + 1
    assert broadcasts == [(table.pk, left.version)]  # her page is told, after commit
    assert not table.seats.filter(user=mehmet).exists()
    assert [s.user for s in table.seats.all() if not s.is_open] == [ayse]
    assert quick.waiting_seat(mehmet) is None
    # the seat is offered again: the next press within the window takes it
    assert press(player("can"), VARIANT).table.pk == table.pk


def test_the_last_player_to_leave_abandons_the_table():
    ayse = player("ayse")
    table = press(ayse, VARIANT).table
    quick.do_leave_wait(table.pk, user=ayse)
    table.refresh_from_db()
    assert table.status == Table.Status.ABANDONED
    assert all(s.is_open for s in table.seats.all())
    # nobody is seated at an abandoned table: the next press opens a new one
    again = press(player("mehmet"), VARIANT)
    assert again.outcome == "opened" and again.table.pk != table.pk
    assert press(ayse, VARIANT).table.pk == again.table.pk


def test_a_freed_seat_is_a_new_row_so_a_socket_left_open_on_it_never_sees_the_next_rack():
    ayse, mehmet = player("ayse"), player("mehmet")
    table = press(ayse, VARIANT).table
    old = quick.do_quick_match(mehmet, VARIANT).seat
    table_actions.do_set_presence(old.pk, True, channel="mehmet-tab")
    quick.do_leave_wait(table.pk, user=mehmet)
    # the connection row went with the old seat (the new occupant is not counted present
    # for a tab of Mehmet's); the table consumer finds a watcher's view for that socket
    assert not Seat.objects.filter(pk=old.pk).exists()
    can = player("can")
    seat = quick.do_quick_match(can, VARIANT).seat
    assert seat.position == old.position and seat.pk != old.pk
    assert seat.connections == 0 and not seat.live_connections.exists()


def test_once_the_game_has_started_there_is_no_wait_to_leave():
    users = [player(n) for n in ("ayse", "mehmet", "can", "ece")]
    for u in users:
        table = press(u, VARIANT).table
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    with pytest.raises(table_actions.ActionRefused) as refused:
        quick.do_leave_wait(table.pk, user=users[1])
    assert refused.value.code == "game_started"
    assert table.seats.filter(user=users[1]).exists()
    assert refusal_text("game_started", "") == "The game has started: there is no wait to leave."


def test_only_a_waiting_player_leaves():
    table = press(player("ayse"), VARIANT).table
    with pytest.raises(table_actions.ActionRefused) as refused:
        quick.do_leave_wait(table.pk, user=player("stranger"))
    assert refused.value.code == "not_waiting_here"
    assert table.seats.filter(user__isnull=False).count() == 1


def test_the_card_offers_leave_to_a_waiting_player_and_leaving_goes_back_to_the_lobby(client):
    ayse, mehmet = player("ayse"), player("mehmet")
    table = press(ayse, VARIANT).table
    press(mehmet, VARIANT)
    client.force_login(mehmet)
    page = client.get(reverse("games:table", args=[table.code])).content.decode()
    assert 'data-testid="quick-leave"' in page
    assert reverse("matchmaking:leave", args=[table.code]) in page
    response = client.post(reverse("matchmaking:leave", args=[table.code]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("home") + "#quick-match"
    assert "You have left the quick match." in flashed(response)
    assert 'data-testid="quick-back"' not in response.content.decode()
    # Ayşe's card (fetched again after the frame her page got) counts one player again
    client.force_login(ayse)
    card = client.get(reverse("matchmaking:waiting", args=[table.code])).content.decode()
    assert card.count('data-testid="quick-player"') == 1
    assert "Waiting for 3 more players." in card


def test_a_visitor_is_offered_no_leave(client):
    table = press(player("ayse"), VARIANT).table
    client.force_login(player("mehmet"))
    card = client.get(reverse("matchmaking:waiting", args=[table.code])).content.decode()
    assert 'data-testid="quick-leave"' not in card
    response = client.post(reverse("matchmaking:leave", args=[table.code]), follow=True)
    assert "You are not waiting at this table." in flashed(response)
    table.refresh_from_db()
    assert table.status == Table.Status.WAITING


def test_the_host_leaving_does_not_stop_the_others_from_filling_with_cpus(clock):
    ayse, mehmet = player("ayse"), player("mehmet")
    table = press(ayse, VARIANT).table
    press(mehmet, VARIANT)
    quick.do_leave_wait(table.pk, user=ayse)  # seat 0, who opened the table
    clock.shift(quick.FILL_AFTER)
    quick.do_quick_fill(table.pk, user=mehmet)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and not table.rated
    seats = list(table.seats.all())
    assert seats[1].user == mehmet and seats[0].is_cpu


# ------------------------------------------------------- the table page's own URLs


def test_take_a_seat_does_not_bypass_the_rating_window(client):
    table = press(player("ayse", 1500), VARIANT).table
    zeynep = player("zeynep", 1900)  # far outside the ±150 of a table just opened
    client.force_login(zeynep)
    response = client.post(reverse("games:join", args=[table.code]), follow=True)
    assert flashed(response) == [
        "Seats at a quick-match table go to players close in rating: press “Play now” to be"
        " matched."
    ]
    assert not table.seats.filter(user=zeynep).exists()
    # "Play now" is what the card offers her: it gives her a table of her own
    assert press(zeynep, VARIANT).table.pk != table.pk


def test_take_a_seat_is_refused_even_within_the_window():
    """Quick match alone seats players at its tables (its queue lock, its closest-first
    choice); a direct join is refused whatever the ratings."""
    table = press(player("ayse", 1500), VARIANT).table
    with pytest.raises(table_actions.ActionRefused) as refused:
        table_actions.do_join_table(table.pk, user=player("mehmet", 1500))
    assert refused.value.code == "quick_match_only"


def test_start_now_does_not_fill_a_quick_match_table_before_its_minute(client, clock):
    ayse = player("ayse")
    table = press(ayse, VARIANT).table
    client.force_login(ayse)  # seat 0: the ordinary "Start now" URL's host
    clock.shift(timedelta(seconds=20))
    response = client.post(reverse("games:fill", args=[table.code]), follow=True)
    assert flashed(response) == [
        "CPUs can take the free seats once the table has waited a minute: in 40 s."
    ]
    table.refresh_from_db()
    assert table.status == Table.Status.WAITING and table.rated
    assert not table.seats.filter(is_cpu=True).exists()
    clock.shift(timedelta(seconds=40))
    client.post(reverse("games:fill", args=[table.code]))
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and not table.rated


def test_a_part_second_left_counts_as_a_second(clock):
    ayse = player("ayse")
    table = press(ayse, VARIANT).table
    clock.shift(timedelta(seconds=59, milliseconds=500))
    with pytest.raises(table_actions.ActionRefused) as refused:
        table_actions.do_fill_with_cpus(table.pk, user=ayse)
    assert refused.value.code == "too_early"
    assert refused.value.message.detail == {"seconds": 1}  # a part second counts as one
    assert refusal_text("too_early", refused.value.message).endswith("in 1 s.")


def test_quick_fill_before_the_minute_says_the_seconds_too(clock):
    ayse = player("ayse")
    table = press(ayse, VARIANT).table
    clock.shift(timedelta(seconds=45))
    with pytest.raises(table_actions.ActionRefused) as refused:
        quick.do_quick_fill(table.pk, user=ayse)
    assert refused.value.code == "too_early"
    assert refusal_text("too_early", refused.value.message).endswith("in 15 s.")
