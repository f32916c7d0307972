"""A tournament's page body and its matrix are rendered once per version and kept
(games/common/pagecache.py, views.page_version): the kept page is the fresh one, a new result
or a new round shows at once, and a player's own row is theirs alone."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.tournaments import actions, presenter
from games.tournaments.models import TournamentTable
from tests.review.test_pagecache_review import kept_fragments, without_tokens

from .conftest import CLASSIC_OK, in_person, make_user, register_accounts, register_names

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(organiser):
    t = in_person(organiser, published=True)
    register_accounts(t, organiser, ["ayse"])
    register_names(t, organiser, ["Baran", "Cem", "Deniz", "Emre", "Fatma", "Gül", "Hakan"])
    actions.do_seat_next_round(t.pk, organiser)
    return t


def points(html: str, name: str) -> str:
    row = re.search(rf'data-player="{name}".*?data-testid="standing-points">([^<]*)<', html, re.S)
    assert row, name
    return row.group(1)


def meetings(html: str) -> int:
    return sum(int(n) for n in re.findall(r'<td class="(?:met|repeat)">(\d+)</td>', html))


def test_the_kept_page_is_the_fresh_one_and_is_not_recomputed(client, club, settings, monkeypatch):
    url = reverse("tournaments:detail", args=[club.pk])
    built = []
    real = presenter.page_context
    monkeypatch.setattr(presenter, "page_context", lambda *a, **k: built.append(1) or real(*a, **k))
    first = client.get(url).content.decode()
    kept = client.get(url).content.decode()
    assert len(built) == 1
    settings.OKEY_PAGE_CACHE = False
    fresh = client.get(url).content.decode()
    assert without_tokens(kept) == without_tokens(fresh) == without_tokens(first)
    assert 'data-testid="standings"' in kept


def test_a_new_result_shows_at_once(client, club, organiser):
    url = reverse("tournaments:detail", args=[club.pk])
    matrix = reverse("tournaments:matrix", args=[club.pk])
    before = client.get(url).content.decode()
    assert 'data-done="1"' not in before
    assert meetings(client.get(matrix).content.decode()) == 24
    tt = TournamentTable.objects.filter(round__tournament=club).order_by("number").first()
    actions.do_enter_result(club.pk, organiser, tt.pk, CLASSIC_OK[0])
    after = client.get(url).content.decode()
    assert 'data-done="1"' in after
    seated = [entry for entry in tt.seats]
    first = club.entries.get(pk=int(seated[0])).name
    assert points(before, first) != points(after, first)
    # a new round: the page and the matrix show it at once
    for other in TournamentTable.objects.filter(round__tournament=club).exclude(pk=tt.pk):
        actions.do_enter_result(club.pk, organiser, other.pk, CLASSIC_OK[1])
    actions.do_seat_next_round(club.pk, organiser)
    page = client.get(url).content.decode()
    assert 'data-round="2"' in page
    # each of the 8 players met 3 others a round: 24 meetings counted, then 48
    assert meetings(client.get(matrix).content.decode()) == 48


def test_a_players_own_row_and_name_are_theirs_alone(client, club):
    url = reverse("tournaments:detail", args=[club.pk])
    client.force_login(club.entries.get(name="ayse").user)
    own = client.get(url).content.decode()
    assert re.search(r'data-player="ayse" data-rank="\d+" class="me"', own)
    assert 'data-testid="my-table"' in own and "Your table" in own
    client.logout()
    stranger = make_user("stranger")
    client.force_login(stranger)
    theirs = client.get(url).content.decode()
    assert 'class="me"' not in theirs and "Your table" not in theirs
    assert re.search(r'data-testid="nav-user"[^>]*>stranger<', theirs)
    assert not re.search(r'data-testid="nav-user"[^>]*>ayse<', theirs)
    client.logout()
    anonymous = client.get(url).content.decode()
    assert 'class="me"' not in anonymous and 'data-testid="nav-user"' not in anonymous
    for html in kept_fragments():
        assert "csrfmiddlewaretoken" not in html and "nav-user" not in html


def test_the_organisers_desk_link_is_the_organisers_only(client, club, organiser):
    url = reverse("tournaments:matrix", args=[club.pk])
    client.force_login(organiser)
    assert reverse("tournaments:desk", args=[club.pk]) in client.get(url).content.decode()
    client.logout()
    assert reverse("tournaments:desk", args=[club.pk]) not in client.get(url).content.decode()
