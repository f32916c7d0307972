"""A table waiting for players shows a waiting felt, not a hand: who is seated, the seats
still free ("Free seat", never a "Guest" panel), "Waiting for players…" with the seats
to fill, and no pile, drop zone, rack or move buttons until the hand is dealt. Its
fragments follow live as players sit down, and the deal replaces them with the hand."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.live import actions, consumers, realtime
from games.models import Table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_leaves():
    """Shared leaves are kept per table pk, which the test database reuses."""
    realtime._LEAVES.clear()


def waiting_table(client: Client) -> Table:
    """A table for four humans, opened by the client's guest session."""
    client.get("/")
    key = client.session.session_key
    if key is None:
        client.session.save()
        key = client.session.session_key
    return actions.do_create_table(
        variant="classic",
        options={},
        seats=[actions.SeatSpec("me")] + [actions.SeatSpec("human")] * 3,
        guest_key=key,
    )


def guest_client() -> Client:
    c = Client()
    session = c.session
    session.save()
    c.cookies["sessionid"] = session.session_key
    return c


def conn(table: Table, position: int) -> consumers.TableConsumer:
    m = consumers.TableConsumer()
    seat = table.seats.get(position=position)
    m.scope, m.table_id, m.seat_id, m.position, m._lang = {}, table.pk, seat.pk, position, "en"
    return m


def test_the_waiting_page_shows_the_seats_and_nothing_of_a_hand():
    client = guest_client()
    table = waiting_table(client)
    html = client.get(reverse("games:table", args=[table.code])).content.decode()
    felt = re.search(r'<section id="t-felt".*?</section>', html, re.S).group(0)
    assert "Waiting for players…" in felt
    assert 'data-testid="seats-to-fill">3 seats still to fill.<' in felt
    # the free seats say so; the one "Guest" is the guest's own seat
    assert felt.count("Free seat") == 3 and felt.count("Guest") == 1
    assert re.search(
        r'data-testid="my-seat"><div class="opp-head"><span class="opp-name">Guest<', felt
    )
    for absent in ('data-testid="discard-zone"', 'data-drop="discard"', 'data-act="draw"'):
        assert absent not in html
    assert 'id="rack-grid"' not in html and "data-sort=" not in html
    scores = re.search(r'<ol class="scoreboard".*?</ol>', html, re.S).group(0)
    assert scores.count("Free seat") == 3 and "total-" not in scores  # no totals yet


def test_the_waiting_felt_follows_the_players_and_gives_way_to_the_hand():
    client = guest_client()
    table = waiting_table(client)
    mine = conn(table, 0)
    mine.render_view()
    actions.do_join_table(table.pk, guest_key="second-guest")
    frame = mine.render_view()
    # the new player's seat and the count, sent live
    assert 'data-testid="seats-to-fill">2 seats still to fill.<' in frame
    assert re.search(r'id="opp-1"[^>]*data-testid="seat-1"', frame)
    assert 'id="opp-2"' not in frame  # still free: not sent again
    assert 'data-testid="discard-zone"' not in frame
    for key in ("third-guest", "fourth-guest"):
        actions.do_join_table(table.pk, guest_key=key)
    table = Table.objects.get(pk=table.pk)
    assert table.status == Table.Status.PLAYING
    frame = mine.render_view()
    # dealt: the waiting felt, the free seats and the player's own seat give way
    assert "Waiting for players…" not in frame and 'data-testid="my-seat"' not in frame
    assert 'data-testid="discard-zone"' in frame and 'id="rack-grid"' in frame
    assert 'data-act="draw"' in frame and 'data-testid="total-0"' in frame
    assert "opp-waiting" not in frame
