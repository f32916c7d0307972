"""Quick match: "Play now" seats a player at a waiting rated table of people close to
their rating, or opens one; "Fill with CPUs" after a minute makes it casual
(games/matchmaking/actions.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from games.engine.rules import RULES
from games.live import actions as table_actions
from games.matchmaking import actions as quick
from games.models import Table
from games.ratings.api import SCALE
from games.ratings.models import Rating
from tests.matchmaking.conftest import press

T0 = datetime(2026, 5, 4, 18, 0, tzinfo=UTC)
VARIANT = "classic"

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def clock():
    """Time stands still at T0 unless a test moves it (tables store their opening time)."""
    with time_machine.travel(T0, tick=False) as traveller:
        yield traveller


def player(name: str, rating: int | None = None, variant: str = VARIANT):
    """An account with a shown rating of ``rating`` in ``variant`` (None: a new player,
    who shows 1500)."""
    user = get_user_model().objects.create_user(username=name, password="pw-" + name * 3)
    if rating is not None:
        Rating.objects.create(
            user=user, variant=variant, mu=rating / SCALE, sigma=3.0, games=12, updated_at=T0
        )
    return user


def test_the_window_widens_with_the_wait_and_stops_at_its_maximum():
    assert quick.window_for(timedelta(0)) == 150
    assert quick.window_for(timedelta(seconds=9)) == 150
    assert quick.window_for(timedelta(seconds=10)) == 200
    assert quick.window_for(timedelta(seconds=60)) == 450
    assert quick.window_for(timedelta(minutes=10)) == 600


def test_the_first_press_opens_a_rated_public_quick_match_table_and_waits():
    ayse = player("ayse", 1500)
    match = press(ayse, VARIANT)
    table = match.table
    assert match.outcome == "opened"
    assert (table.rated, table.public, table.quick_match) == (True, True, True)
    assert table.status == Table.Status.WAITING and table.variant == VARIANT
    seats = list(table.seats.all())
    assert seats[0].user == ayse
    assert [s.is_open for s in seats[1:]] == [True] * (len(seats) - 1)
    assert not any(s.is_cpu for s in seats)


def test_a_player_close_in_rating_joins_the_waiting_table():
    first = press(player("ayse", 1500), VARIANT).table
    second = press(player("mehmet", 1600), VARIANT)
    assert second.outcome == "joined" and second.table.pk == first.pk
    assert Table.objects.count() == 1


def test_a_player_far_in_rating_opens_their_own_table_until_the_window_has_widened(clock):
    first = press(player("ayse", 1500), VARIANT).table
    far = press(player("zeynep", 1800), VARIANT)
    assert far.outcome == "opened" and far.table.pk != first.pk
    # 300 apart: too far at first (±150); after a minute of waiting the first table's
    # window is ±450 and a third player 300 away is seated there
    clock.shift(timedelta(seconds=60))
    later = press(player("can", 1200), VARIANT)
    assert later.outcome == "joined" and later.table.pk == first.pk


def test_the_closest_table_comes_first():
    low = press(player("ayse", 1400), VARIANT).table
    high = press(player("mehmet", 1600), VARIANT).table
    assert low.pk != high.pk
    assert press(player("can", 1530), VARIANT).table.pk == high.pk
    assert press(player("ece", 1460), VARIANT).table.pk == low.pk


def test_every_seated_player_must_be_within_the_window():
    table = press(player("ayse", 1400), VARIANT).table
    assert press(player("mehmet", 1540), VARIANT).table.pk == table.pk
    # 1680 is within 150 of 1540 but 280 from 1400: a table of its own
    assert press(player("can", 1680), VARIANT).table.pk != table.pk


def test_a_table_whose_players_have_all_left_is_passed_over(clock):
    ayse = player("ayse")
    left = quick.do_quick_match(ayse, VARIANT)
    table_actions.do_set_presence(left.seat.pk, True, channel="a")
    table_actions.do_set_presence(left.seat.pk, False, channel="a")  # Ayşe closed the page
    clock.shift(table_actions.grace())  # ... longer ago than a drop's grace
    assert press(player("mehmet"), VARIANT).table.pk != left.table.pk
    # back on the page: her table is offered again
    table_actions.do_set_presence(left.seat.pk, True, channel="b")
    assert press(player("can"), VARIANT).table.pk == left.table.pk


def test_rule_sets_do_not_mix():
    table = press(player("ayse"), VARIANT).table
    other = next(name for name in RULES if name != VARIANT)
    assert press(player("mehmet"), other).table.pk != table.pk


def test_pressing_again_goes_back_to_the_same_table_with_one_seat():
    ayse = player("ayse", 1500)
    first = press(ayse, VARIANT)
    again = press(ayse, VARIANT)
    assert again.outcome == "back" and again.table.pk == first.table.pk
    assert again.seat.pk == first.seat.pk
    # the rule set does not matter: one wait at a time
    other = next(name for name in RULES if name != VARIANT)
    assert press(ayse, other).table.pk == first.table.pk
    assert Table.objects.count() == 1
    assert first.table.seats.filter(user=ayse).count() == 1


def test_the_last_free_seat_starts_a_rated_game_of_people():
    users = [player(n, 1500) for n in ("ayse", "mehmet", "can", "ece")]
    tables = {press(u, VARIANT).table.pk for u in users}
    assert len(tables) == 1
    table = Table.objects.get()
    assert table.status == Table.Status.PLAYING and table.rated
    assert sorted(s.user.username for s in table.seats.all()) == sorted(u.username for u in users)
    # a full table takes no one else: the next press opens a new one
    assert press(player("deniz", 1500), VARIANT).outcome == "opened"


def test_a_press_without_an_account_or_a_session_is_refused():
    with pytest.raises(table_actions.ActionRefused) as refused:
        press(AnonymousUser(), VARIANT)
    assert refused.value.code == "no_session"
    assert not Table.objects.exists()


def test_an_unknown_rule_set_is_refused(client):
    client.force_login(player("ayse"))
    response = client.post(reverse("matchmaking:play"), {"variant": "chess"}, follow=True)
    assert "There is no such rule set." in response.content.decode()
    assert not Table.objects.exists()


def test_play_now_takes_the_player_to_the_table(client):
    client.force_login(player("ayse"))
    response = client.post(reverse("matchmaking:play"), {"variant": VARIANT})
    table = Table.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("games:table", args=[table.code])


def test_fill_with_cpus_after_a_minute_starts_a_casual_game(clock):
    ayse, mehmet = player("ayse", 1500), player("mehmet", 1520)
    table = press(ayse, VARIANT).table
    press(mehmet, VARIANT)
    with pytest.raises(table_actions.ActionRefused) as early:
        quick.do_quick_fill(table.pk, user=mehmet)
    assert early.value.code == "too_early"
    clock.shift(quick.FILL_AFTER)
    # any player waiting there may fill it, not only the one who opened it
    quick.do_quick_fill(table.pk, user=mehmet)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert not table.rated
    seats = list(table.seats.all())
    assert [s.user for s in seats[:2]] == [ayse, mehmet]
    assert all(s.is_cpu for s in seats[2:])


def test_only_a_waiting_player_fills_the_table(clock):
    table = press(player("ayse"), VARIANT).table
    clock.shift(quick.FILL_AFTER)
    with pytest.raises(table_actions.ActionRefused) as refused:
        quick.do_quick_fill(table.pk, user=player("stranger"))
    assert refused.value.code == "not_waiting_here"
    table.refresh_from_db()
    assert table.status == Table.Status.WAITING and table.rated


def test_the_table_page_shows_who_waits_with_ratings_and_the_fill_button_after_a_minute(
    client, clock
):
    ayse, mehmet = player("ayse", 1510), player("mehmet", 1590)
    table = press(ayse, VARIANT).table
    press(mehmet, VARIANT)
    client.force_login(ayse)
    page = client.get(reverse("games:table", args=[table.code])).content.decode()
    assert 'data-testid="quick-wait"' in page
    assert "ayse" in page and "1510" in page and "mehmet" in page and "1590" in page
    assert "Waiting for 2 more players." in page
    assert 'data-testid="quick-fill"' not in page
    assert 'data-testid="quick-fill-later"' in page
    assert "load delay:60s" in page  # the card asks again when the button is due
    clock.shift(quick.FILL_AFTER)
    card = client.get(reverse("matchmaking:waiting", args=[table.code])).content.decode()
    assert 'data-testid="quick-fill"' in card
    assert "load delay" not in card


def test_the_fill_button_makes_the_table_casual_and_the_card_goes(client, clock):
    ayse = player("ayse")
    table = press(ayse, VARIANT).table
    client.force_login(ayse)
    clock.shift(quick.FILL_AFTER + timedelta(seconds=1))
    response = client.post(reverse("matchmaking:fill", args=[table.code]))
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and not table.rated
    page = client.get(reverse("games:table", args=[table.code])).content.decode()
    assert 'data-testid="quick-wait"' not in page
    card = client.get(reverse("matchmaking:waiting", args=[table.code])).content.decode()
    assert "hx-get" not in card  # a started table's card is empty and asks no more


def test_a_visitor_of_a_waiting_quick_match_table_is_offered_play_now(client):
    table = press(player("ayse"), VARIANT).table
    client.force_login(player("mehmet"))
    page = client.get(reverse("games:table", args=[table.code])).content.decode()
    assert reverse("matchmaking:play") in page
    assert 'data-testid="quick-fill' not in page


def test_the_lobby_has_play_now_for_every_registered_rule_set(client):
    page = client.get(reverse("home")).content.decode()
    for name in RULES:
        assert f'data-testid="play-now-{name}"' in page
    assert page.count('name="variant" value=') >= len(RULES)


def test_the_lobby_leads_a_waiting_player_back_to_their_table(client):
    ayse = player("ayse")
    client.force_login(ayse)
    assert 'data-testid="quick-back"' not in client.get(reverse("home")).content.decode()
    table = press(ayse, VARIANT).table
    page = client.get(reverse("home")).content.decode()
    assert 'data-testid="quick-back"' in page
    assert reverse("games:table", args=[table.code]) in page
