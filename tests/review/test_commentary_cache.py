"""The CPU commentary of a played hand is a cache kept by a table action
(``review_actions.do_note_hand_commentary``): one row per hand and seat, the first one
kept wins, whatever the order in which parallel requests compute it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games.review import actions as review_actions
from games.review import commentary
from games.review.models import HandCommentary
from games.review.replay import record_for_hand
from tests.review.conftest import cpu_table, play_out_hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def ayse(client):
    user = User.objects.create_user("ayse", password="pw-long-enough-1")
    client.force_login(user)
    return user


def test_two_requests_for_the_same_hand_and_seat_keep_one_commentary(client, ayse, monkeypatch):
    hand = play_out_hand(cpu_table("classic", user=ayse)).current_hand
    real = commentary.compute
    first = real(record_for_hand(hand), 0)

    def computed_while_another_request_stores(record, seat):
        # this request missed the cache; a parallel one stores its commentary meanwhile
        review_actions.do_note_hand_commentary(hand.pk, seat, first)
        return {**real(record, seat), "agree": -1}  # what this request would have kept

    monkeypatch.setattr(commentary, "compute", computed_while_another_request_stores)
    response = client.get(f"/review/hand/{hand.pk}/commentary/")
    assert response.status_code == 200
    kept = HandCommentary.objects.filter(hand=hand, seat=0)
    assert kept.count() == 1 and kept.get().data == first
    # the page shows the commentary that was kept, the same as the cache answers later
    monkeypatch.setattr(commentary, "compute", real)
    assert client.get(f"/review/hand/{hand.pk}/commentary/").content == response.content


def test_the_first_commentary_kept_for_a_hand_and_seat_stays(ayse):
    hand = play_out_hand(cpu_table("classic", user=ayse)).current_hand
    assert review_actions.do_note_hand_commentary(hand.pk, 0, {"by": "first"}) == {"by": "first"}
    assert review_actions.do_note_hand_commentary(hand.pk, 1, {"by": "other seat"}) == {
        "by": "other seat"
    }
    assert review_actions.do_note_hand_commentary(hand.pk, 0, {"by": "late"}) == {"by": "first"}
    rows = HandCommentary.objects.filter(hand=hand).order_by("seat")
    assert [(r.seat, r.data) for r in rows] == [(0, {"by": "first"}), (1, {"by": "other seat"})]
