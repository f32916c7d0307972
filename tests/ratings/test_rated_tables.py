"""Which tables are rated: accounts only, no CPU seat (games/ratings/rules.py)."""

from __future__ import annotations

import pytest

from games.live import actions
from games.models import Table
from games.ratings.models import Rating
from tests.ratings.conftest import make_users, play_to_end

pytestmark = pytest.mark.django_db

PEOPLE = [actions.SeatSpec("me")] + [actions.SeatSpec("human")] * 3
WITH_CPU = [actions.SeatSpec("me")] + [actions.SeatSpec("human")] * 2 + [actions.SeatSpec("cpu")]


def test_a_rated_table_with_a_cpu_seat_is_refused():
    (ana,) = make_users("ana")
    with pytest.raises(actions.ActionRefused) as e:
        actions.do_create_table(
            variant="fifty-one", options={}, seats=WITH_CPU, user=ana, rated=True
        )
    assert e.value.code == "not_rated"
    assert not Table.objects.exists()


def test_a_guest_cannot_open_or_join_a_rated_table():
    with pytest.raises(actions.ActionRefused):
        actions.do_create_table(
            variant="fifty-one", options={}, seats=PEOPLE, guest_key="g-1", rated=True
        )
    (ana,) = make_users("ana")
    table = actions.do_create_table(
        variant="fifty-one", options={}, seats=PEOPLE, user=ana, rated=True
    )
    assert table.rated
    with pytest.raises(actions.ActionRefused) as e:
        actions.do_join_table(table.pk, guest_key="g-2")
    assert e.value.code == "not_rated"
    assert table.seats.filter(guest_key="g-2").count() == 0


def test_filling_with_cpus_makes_the_table_casual_and_its_game_unrated():
    ana, ben = make_users("ana", "ben")
    table = actions.do_create_table(
        variant="fifty-one", options={"hands": 1}, seats=PEOPLE, user=ana, rated=True
    )
    actions.do_join_table(table.pk, user=ben)
    actions.do_fill_with_cpus(table.pk, user=ana)
    table.refresh_from_db()
    assert not table.rated and table.status == Table.Status.PLAYING
    play_to_end(table)
    assert table.status == Table.Status.FINISHED
    assert not Rating.objects.exists()


def _post_new_table(client, **extra):
    data = {"variant": "fifty-one", "seat_1": "human", "seat_2": "human", "seat_3": "human"}
    data.update(extra)
    return client.post("/tables/new/", data, follow=True)


def test_the_form_opens_a_rated_table_for_an_account(client):
    (ana,) = make_users("ana")
    client.force_login(ana)
    page = _post_new_table(client, rated="on")
    table = Table.objects.get()
    assert table.rated
    assert 'data-testid="rated-mark">Rated<' in page.content.decode()


def test_the_form_opens_a_casual_table_with_a_cpu_and_says_why(client):
    (ana,) = make_users("ana")
    client.force_login(ana)
    page = _post_new_table(client, rated="on", seat_3="cpu:medium")
    table = Table.objects.get()
    assert not table.rated
    html = page.content.decode()
    assert "A table with a computer player is casual" in html
    assert 'data-testid="rated-mark">Casual<' in html


def test_the_form_opens_a_casual_table_for_a_guest_and_says_why(client):
    page = _post_new_table(client, rated="on")
    assert not Table.objects.get().rated
    assert "Rated tables are for players with an account" in page.content.decode()


def test_a_dropped_players_cpu_stand_in_keeps_the_game_rated_for_them(settings):
    """A person who leaves a rated game keeps the seat; their CPU plays it meanwhile and
    the placing counts for them (games/ratings/rules.py)."""
    from games.models import HandAction
    from games.ratings.models import RatingChange

    settings.OKEY_AWAY_GRACE_S = 0
    users = make_users("ana", "ben", "cem", "dia")
    table = actions.do_create_table(
        variant="fifty-one", options={"hands": 1}, seats=PEOPLE, user=users[0], rated=True
    )
    for u in users[1:]:
        actions.do_join_table(table.pk, user=u)
    dia_seat = table.seats.get(user=users[3])
    actions.do_set_presence(dia_seat.pk, True, channel="dia-1")
    actions.do_set_presence(dia_seat.pk, False, channel="dia-1")  # dia leaves
    table = play_to_end(table, away=frozenset({dia_seat.position}))
    assert table.rated
    assert HandAction.objects.filter(hand__table=table, seat=dia_seat.position, by_cpu=True)
    assert RatingChange.objects.filter(table=table).count() == 4
    assert RatingChange.objects.filter(table=table, user=users[3]).exists()
