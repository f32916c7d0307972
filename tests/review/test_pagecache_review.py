"""A finished hand's replay and commentary are rendered once and kept (games/common/pagecache.py):
the kept page is the page a fresh render gives, and nothing of one viewer (their seat,
their name, their CSRF token) reaches another's."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import caches

from games.common import pagecache
from games.live import actions, cpu
from games.models import Table
from games.review import views

pytestmark = pytest.mark.django_db

User = get_user_model()
CSRF = re.compile(r'(csrfmiddlewaretoken" value=|"X-CSRFToken": )"[^"]+"')


def without_tokens(html: str) -> str:
    """The page with its CSRF tokens blanked (each render masks the token afresh)."""
    return CSRF.sub(r'\1""', html)


def kept_fragments() -> list[str]:
    """Every fragment in the pages cache (there is at least one)."""
    store = caches[pagecache.ALIAS]
    found = [store.get(k.split(":", 2)[-1]) for k in list(store._cache)]
    assert found and all(found)
    return found


def two_player_hand() -> tuple[Table, object, object]:
    """A finished classic hand of two accounts (seats 0 and 1) and two CPUs."""
    ayse = User.objects.create_user("ayse", password="pw-long-enough-1")
    baran = User.objects.create_user("baran", password="pw-long-enough-2")
    specs = [actions.SeatSpec("me"), actions.SeatSpec("human")]
    specs += [actions.SeatSpec("cpu", "medium")] * 2
    table = actions.do_create_table(variant="classic", options={}, seats=specs, user=ayse)
    actions.do_join_table(table.pk, user=baran)
    for _ in range(3000):
        table.refresh_from_db()
        hand = table.current_hand
        if hand.result is not None:
            return table, ayse, baran
        state = actions.load_state(hand)
        if state.turn in (0, 1):
            action = cpu.choose(state, state.turn, "easy")
            actions.do_submit_action(table.pk, state.turn, action, table.version)
        else:
            assert actions.sweep() >= 1
    raise AssertionError("hand did not finish")


def test_the_kept_replay_is_the_fresh_one_and_is_not_replayed_again(client, settings, monkeypatch):
    table, ayse, _baran = two_player_hand()
    url = f"/review/hand/{table.current_hand.pk}/"
    client.force_login(ayse)
    replays = []
    real = views.build_replay
    monkeypatch.setattr(views, "build_replay", lambda *a, **k: replays.append(1) or real(*a, **k))
    first = client.get(url).content.decode()
    kept = client.get(url).content.decode()
    assert len(replays) == 1  # the second view read the kept body
    settings.OKEY_PAGE_CACHE = False
    fresh = client.get(url).content.decode()
    assert len(replays) == 2
    assert without_tokens(kept) == without_tokens(fresh) == without_tokens(first)
    assert 'id="replay-data"' in kept


def test_each_player_sees_their_own_seat_in_the_replay(client):
    table, ayse, baran = two_player_hand()
    url = f"/review/hand/{table.current_hand.pk}/"
    client.force_login(ayse)
    page_a = client.get(url).content.decode()
    client.force_login(baran)
    page_b = client.get(url).content.decode()
    mine = re.compile(r'class="rv-seat [^"]* me" data-seat="(\d)"')
    assert mine.findall(page_a) == ["0"] and mine.findall(page_b) == ["1"]
    # the header is each visitor's own: their name, never the other's
    assert 'data-testid="nav-user"' in page_b
    assert re.search(r'data-testid="nav-user"[^>]*>baran<', page_b)
    assert not re.search(r'data-testid="nav-user"[^>]*>ayse<', page_b)
    # the kept bodies hold no token, no session and no visitor's header
    for html in kept_fragments():
        assert "csrfmiddlewaretoken" not in html and "X-CSRFToken" not in html
        assert "nav-user" not in html and "sessionid" not in html


def test_the_commentary_of_each_seat_is_kept_for_that_seat(client):
    table, ayse, baran = two_player_hand()
    url = f"/review/hand/{table.current_hand.pk}/commentary/"
    client.force_login(ayse)
    own_a = client.get(url).content.decode()
    client.force_login(baran)
    own_b = client.get(url).content.decode()
    of_a = client.get(url, {"seat": 0}).content.decode()
    picked = re.compile(r'<option value="(\d)" selected>')
    assert picked.findall(own_a) == ["0"] and picked.findall(own_b) == ["1"]
    assert of_a == own_a  # the same hand and seat: the same fragment, whoever asks


def test_a_renamed_player_shows_at_once_in_a_kept_replay(client):
    table, ayse, _baran = two_player_hand()
    url = f"/review/hand/{table.current_hand.pk}/"
    client.force_login(ayse)
    assert "Ayşe Yılmaz" not in client.get(url).content.decode()
    ayse.profile.display_name = "Ayşe Yılmaz"
    ayse.profile.save()
    assert "Ayşe Yılmaz" in client.get(url).content.decode()
