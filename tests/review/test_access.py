"""Privacy: nothing of a hand in progress; players see their own games, shared links
(until revoked), and nothing else."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games.live import actions
from games.models import Table
from games.review.models import ShareLink
from tests.review.conftest import cpu_table, play_out_hand
from tests.support.accounts import make_user

pytestmark = pytest.mark.django_db


def login(client, name: str) -> User:
    """A new account named ``name``, logged in on ``client``."""
    user = make_user(name)
    client.force_login(user)
    return user


def finished_game(user) -> Table:
    """A fifty-one game of one hand: over after its first hand."""
    table = play_out_hand(cpu_table("fifty-one", user=user))
    assert table.status == Table.Status.FINISHED
    return table


HAND_URLS = ["/review/hand/{}/", "/review/hand/{}/commentary/", "/review/hand/{}/export/"]


def test_hand_in_progress_is_refused_to_everyone_even_its_player(client):
    ayse = login(client, "ayse")
    table = cpu_table("classic", user=ayse)
    hand = table.current_hand
    assert hand.result is None
    for url in HAND_URLS:
        response = client.get(url.format(hand.pk))
        assert response.status_code == 403
        assert b"still being played" in response.content
    assert client.get(f"/review/game/{table.code}/export/").status_code == 403
    response = client.post(f"/review/game/{table.code}/share/")
    assert response.status_code == 403
    assert not ShareLink.objects.exists()


def test_finished_hand_of_an_unfinished_game_is_reviewable_but_the_next_is_not(client):
    ayse = login(client, "ayse")
    table = play_out_hand(cpu_table("classic", user=ayse))
    first = table.current_hand
    actions.do_next_hand(table.pk, table.version)
    table.refresh_from_db()
    second = table.current_hand
    assert client.get(f"/review/hand/{first.pk}/").status_code == 200
    assert client.get(f"/review/hand/{second.pk}/").status_code == 403
    doc = client.get(f"/review/game/{table.code}/export/").json()
    assert len(doc["hands"]) == 1  # only the finished hand
    page = client.get(f"/review/game/{table.code}/").content.decode()
    assert "no review until it is over" in page


def test_other_users_games_are_not_visible(client):
    ayse = login(client, "ayse")
    table = finished_game(ayse)
    hand = table.current_hand
    client.logout()
    login(client, "mehmet")
    for url in HAND_URLS:
        response = client.get(url.format(hand.pk))
        assert response.status_code == 404
        assert b"no such game among yours" in response.content
    assert client.get(f"/review/game/{table.code}/").status_code == 404
    assert client.get(f"/review/game/{table.code}/export/").status_code == 404
    assert client.post(f"/review/game/{table.code}/share/").status_code == 404
    assert table.code not in client.get("/games/").content.decode()
    client.logout()  # anonymous: nothing either
    assert client.get(f"/review/hand/{hand.pk}/").status_code == 404
    assert client.get("/review/hand/999999/").status_code == 404


def test_guest_sees_the_games_of_their_session_only(client):
    client.get("/")
    key = client.session.session_key
    table = play_out_hand(cpu_table("fifty-one", guest_key=key))
    hand = table.current_hand
    assert client.get(f"/review/hand/{hand.pk}/").status_code == 200
    assert table.code in client.get("/games/").content.decode()
    other = client.__class__()
    other.get("/")
    assert other.get(f"/review/hand/{hand.pk}/").status_code == 404
    assert table.code not in other.get("/games/").content.decode()


def test_share_link_shows_the_game_to_anyone_until_revoked(client):
    ayse = login(client, "ayse")
    table = finished_game(ayse)
    response = client.post(f"/review/game/{table.code}/share/")
    assert response.status_code == 302
    link = ShareLink.objects.get()
    assert len(link.token) >= 22 and link.created_by == ayse
    assert link.token in client.get(f"/review/game/{table.code}/").content.decode()

    stranger = client.__class__()
    assert stranger.get(f"/review/s/{link.token}/").status_code == 200
    page = stranger.get(f"/review/s/{link.token}/hand/1/")
    assert page.status_code == 200 and b'id="replay-data"' in page.content
    assert stranger.get(f"/review/s/{link.token}/hand/1/commentary/?seat=2").status_code == 200
    assert stranger.get(f"/review/s/{link.token}/export/").json()["format"] == "okey-review/1"
    assert stranger.get(f"/review/s/{link.token}/hand/2/").status_code == 404
    assert stranger.get("/review/s/not-a-token/").status_code == 404
    # a stranger cannot revoke it, nor see the game's own pages
    assert stranger.post(f"/review/share/{link.pk}/revoke/").status_code == 404
    assert stranger.get(f"/review/hand/{table.current_hand.pk}/").status_code == 404

    assert client.post(f"/review/share/{link.pk}/revoke/").status_code == 302
    link.refresh_from_db()
    assert link.revoked_at is not None
    for url in ["/review/s/{}/", "/review/s/{}/hand/1/", "/review/s/{}/export/"]:
        response = stranger.get(url.format(link.token))
        assert response.status_code == 404
        assert b"revoked" in response.content


def test_share_links_need_a_post(client):
    ayse = login(client, "ayse")
    table = finished_game(ayse)
    assert client.get(f"/review/game/{table.code}/share/").status_code == 405
