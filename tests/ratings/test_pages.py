"""Rating pages: the board lists opted-in players only; the profile's and the public
player page's history chart has a point per rated game."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from games.ratings import api
from games.ratings.chart import history_chart
from games.ratings.models import Rating, RatingChange
from tests.ratings.conftest import make_users, play_rated_game

pytestmark = pytest.mark.django_db


def _points(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'data-testid="chart-point" data-number="(\d+)"', html)]


def test_the_board_lists_only_opted_in_players(client):
    shown = make_users("ana", "ben", public=True)
    hidden = make_users("cem", "dia")
    play_rated_game(shown + hidden)
    html = client.get(reverse("ratings:board", args=["fifty-one"])).content.decode()
    assert html.count('data-testid="rating-row"') == 2
    assert "ana" in html and "ben" in html
    assert "cem" not in html and "dia" not in html
    # opting out hides the row at once
    shown[0].profile.public_records = False
    shown[0].profile.save()
    html = client.get(reverse("ratings:board", args=["fifty-one"])).content.decode()
    assert html.count('data-testid="rating-row"') == 1 and ">ana<" not in html


def test_the_board_shows_number_uncertainty_games_and_provisional_mark(client):
    users = make_users("ana", "ben", "cem", "dia", public=True)
    play_rated_game(users)
    r = Rating.objects.get(user=users[0])
    html = client.get(reverse("ratings:board", args=["fifty-one"])).content.decode()
    s = api.shown(r.mu, r.sigma, r.games)
    assert f'data-testid="rating-number">{s.number}<' in html
    assert f"± {s.uncertainty}" in html
    assert html.count('data-testid="provisional"') == 4  # one game each, fewer than ten


def test_established_players_come_before_provisional_ones(client):
    ana, ben = make_users("ana", "ben", public=True)
    Rating.objects.create(
        user=ana, variant="classic", mu=40, sigma=3, games=3, updated_at=timezone.now()
    )
    Rating.objects.create(
        user=ben, variant="classic", mu=26, sigma=2, games=12, updated_at=timezone.now()
    )
    html = client.get(reverse("ratings:board", args=["classic"])).content.decode()
    assert html.index(">ben<") < html.index(">ana<")
    assert html.count('data-testid="provisional"') == 1


def test_an_unknown_rule_set_has_no_board(client):
    assert client.get("/ratings/no-such-game/").status_code == 404
    assert client.get("/ratings/").status_code == 302


def test_the_chart_has_a_point_per_game_after_the_start():
    users = make_users("ana", "ben", "cem", "dia")
    play_rated_game(users)
    play_rated_game(users)
    changes = api.history(users[0], "fifty-one")
    chart = history_chart(changes)
    assert [p.number for p in chart.points] == [1500] + [round(60 * c.mu_after) for c in changes]
    assert len(chart.line.split()) == 3
    assert history_chart([]) is None


def test_the_profile_shows_ratings_chart_and_recent_games(client):
    users = make_users("ana", "ben", "cem", "dia")
    t1 = play_rated_game(users)
    t2 = play_rated_game(users)
    client.force_login(users[0])
    html = client.get(reverse("accounts:profile")).content.decode()
    changes = RatingChange.objects.filter(user=users[0]).order_by("created_at", "id")
    assert _points(html) == [1500] + [round(60 * c.mu_after) for c in changes]
    assert "<svg" in html and "style=" not in html.split("<svg", 1)[1].split("</svg>")[0]
    assert html.count('data-testid="recent-row"') == 2
    for t in (t1, t2):
        assert reverse("review:game", args=[t.code]) in html


def test_the_public_player_page_is_for_opted_in_players_only(client):
    ana, ben, cem, dia = make_users("ana", "ben", "cem", "dia")
    ana.profile.public_records = True
    ana.profile.save()
    table = play_rated_game([ana, ben, cem, dia])
    page = client.get(reverse("ratings:player", args=["ana"]))
    assert page.status_code == 200
    html = page.content.decode()
    assert len(_points(html)) == 2
    assert reverse("games:sheet", args=[table.code]) in html
    assert client.get(reverse("ratings:player", args=["ben"])).status_code == 404


def test_a_player_without_games_shows_the_default(client):
    (ana,) = make_users("ana")
    assert api.current_rating(ana, "classic") == api.DEFAULT
    client.force_login(ana)
    html = client.get(reverse("accounts:profile")).content.decode()
    assert 'data-testid="rating-chart"' not in html
    assert "No rated games yet" in html


def test_the_profiles_opt_in_names_every_public_board_it_covers(client):
    """The one opt-in governs the record board, the ratings boards and the player page:
    its label and help say so."""
    (ana,) = make_users("ana")
    client.force_login(ana)
    html = client.get(reverse("accounts:profile")).content.decode()
    assert "show me on the public boards (records and ratings)" in html.lower()
    assert "the ratings boards and your own player page" in html
    assert "show me on the public record board" not in html.lower()
