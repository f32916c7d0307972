"""The outcome dialog of a finished rated game shows what it did to each player's rating
("1500 → 1523 (+23)", provisional marked), read from the RatingChange rows written in
the transaction that finished the game (games/ratings/api.py: table_changes)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from games.live import actions, presenter, realtime
from games.models import Table
from games.ratings import api
from games.ratings.models import RatingChange
from tests.ratings.conftest import make_users, play_rated_game, play_to_end

pytestmark = pytest.mark.django_db

CHANGE = re.compile(
    r'data-testid="rating-change-(\d)"><span class="name">([^<]*)</span>.*?'
    r'<span class="rating-number">(\d+) → (\d+)</span> <span class="rating-(?:up|down)">'
    r"\(([+-]?\d+)\)</span>( <abbr)?",
    re.S,
)


def dialog_changes(html: str) -> dict[int, tuple[str, int, int, int, bool]]:
    """Seat -> (name, before, after, delta, provisional mark) as the dialog shows them."""
    return {
        int(m[1]): (m[2], int(m[3]), int(m[4]), int(m[5]), bool(m[6]))
        for m in CHANGE.finditer(html)
    }


def expected(table: Table) -> dict[int, tuple[str, int, int, int, bool]]:
    seats = {s.user_id: s for s in table.seats.select_related("user__profile")}
    out = {}
    for c in RatingChange.objects.filter(table=table):
        before, after = round(api.SCALE * c.mu_before), round(api.SCALE * c.mu_after)
        seat = seats[c.user_id]
        out[seat.position] = (seat.display_name(), before, after, after - before, True)
    return out


def test_the_outcome_of_a_rated_game_shows_every_players_rating_change(client):
    users = make_users("ana", "ben", "cem", "dia")
    table = play_rated_game(users)
    want = expected(table)
    assert [v[1] for v in want.values()] == [1500] * 4  # new players
    assert any(v[3] > 0 for v in want.values()) and any(v[3] < 0 for v in want.values())
    client.force_login(users[1])
    html = client.get(reverse("games:table", args=[table.code])).content.decode()
    assert 'data-testid="outcome-ratings"' in html
    assert dialog_changes(html) == want  # each one provisional after a first game
    # the winner's gain reads with its sign, e.g. "1500 → 1523 (+23)"
    best = max(want.values(), key=lambda v: v[3])
    assert f'{best[1]} → {best[2]}</span> <span class="rating-up">(+{best[3]})' in html
    # ordered as the places: first place first
    order = [int(n) for n in re.findall(r'data-testid="rating-change-(\d)"', html)]
    places = {c.user_id: c.place for c in RatingChange.objects.filter(table=table)}
    by_seat = {s.position: places[s.user_id] for s in table.seats.all()}
    assert [by_seat[s] for s in order] == sorted(by_seat.values())
    # the viewer's own line is marked
    me = table.seats.get(user=users[1]).position
    assert re.search(rf'<li class="me" data-testid="rating-change-{me}">', html)


def test_the_live_frame_that_ends_a_rated_game_carries_the_rating_changes():
    """The outcome arrives over the websocket with the move that ends the game: the frame
    rendered for a seat at the finishing version holds the changes, and the outcome's key
    differs from the one of the frame before (the version moved)."""
    users = make_users("ana", "ben", "cem", "dia")
    table = play_rated_game(users)
    seat = table.seats.get(user=users[0])
    ctx = presenter.table_context(table, seat)
    html, keys = realtime.live_frame(ctx, None, "en")
    assert dialog_changes(html) == expected(table)
    older = {**keys, "result": (table.version - 1, False, None)}
    again, _ = realtime.live_frame(presenter.table_context(table, seat), older, "en")
    assert 'data-testid="outcome-ratings"' in again


def test_a_watcher_sees_the_rating_changes_too(client):
    users = make_users("ana", "ben", "cem", "dia")
    table = play_rated_game(users)
    html = client.get(reverse("games:table", args=[table.code])).content.decode()
    assert dialog_changes(html) == expected(table)
    assert '<li class="me"' not in html


def test_a_casual_game_shows_no_rating_changes(client):
    ana, ben = make_users("ana", "ben")
    seats = [actions.SeatSpec("me"), actions.SeatSpec("human")]
    seats += [actions.SeatSpec("human")] * 2
    table = actions.do_create_table(
        variant="fifty-one", options={"hands": 1}, seats=seats, user=ana, rated=True
    )
    actions.do_join_table(table.pk, user=ben)
    actions.do_fill_with_cpus(table.pk, user=ana)  # CPUs: the table turns casual
    table = play_to_end(Table.objects.get(pk=table.pk))
    client.force_login(ana)
    html = client.get(reverse("games:table", args=[table.code])).content.decode()
    assert 'data-testid="outcome"' in html and "Game over" in html
    assert 'data-testid="outcome-ratings"' not in html
    assert api.table_changes(table) == []


def test_a_hand_over_before_the_games_end_shows_no_rating_changes(client):
    users = make_users("ana", "ben", "cem", "dia")
    seats = [actions.SeatSpec("me")] + [actions.SeatSpec("human")] * 3
    table = actions.do_create_table(
        variant="fifty-one", options={"hands": 3}, seats=seats, user=users[0], rated=True
    )
    for u in users[1:]:
        actions.do_join_table(table.pk, user=u)
    table = play_to_end(table, stop_after_hand=True)
    assert table.status == Table.Status.PLAYING and table.current_hand.result is not None
    client.force_login(users[0])
    html = client.get(reverse("games:table", args=[table.code])).content.decode()
    assert 'data-testid="outcome"' in html
    assert 'data-testid="outcome-ratings"' not in html


def test_provisional_until_the_tenth_rated_game_of_the_rule_set():
    users = make_users("ana", "ben", "cem", "dia")
    # nine earlier rated fifty-one games of Ana's (rows alone: only their count matters)
    earlier = timezone.now().replace(year=2020)
    for i in range(api.PROVISIONAL_GAMES - 1):
        old = Table.objects.create(variant="fifty-one", options={}, rated=True)
        RatingChange.objects.create(
            user=users[0],
            table=old,
            variant="fifty-one",
            mu_before=25,
            sigma_before=8,
            mu_after=25,
            sigma_after=8,
            place=1,
            created_at=earlier.replace(day=1 + i),
        )
    table = play_rated_game(users)
    marks = {c.user_id: c.provisional for c in api.table_changes(table)}
    assert marks == {users[0].pk: False, users[1].pk: True, users[2].pk: True, users[3].pk: True}
