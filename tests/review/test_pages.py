"""My games (filters, pages), the replay page and the CPU commentary."""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest
import time_machine
from django.contrib.auth.models import User

from games.live import actions as table_actions
from games.models import Table
from games.review import commentary, views
from games.review.models import HandCommentary
from games.review.replay import record_for_hand
from tests.review.conftest import cpu_table, play_out_hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def ayse(client):
    user = User.objects.create_user("ayse", password="pw-long-enough-1")
    client.force_login(user)
    return user


def test_replay_page_embeds_every_step(client, ayse):
    table = play_out_hand(cpu_table("classic", user=ayse))
    hand = table.current_hand
    response = client.get(f"/review/hand/{hand.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    start = html.index('id="replay-data"')
    payload = html[html.index(">", start) + 1 : html.index("</script>", start)]
    data = json.loads(payload)
    n = hand.actions.count()
    assert len(data["frames"]) == n + 1 and len(data["events"]) == n
    assert html.count('data-step="') >= n + 1  # the timeline, one entry per action
    assert f'Move <b data-testid="rv-step">0</b> of {n}' in html
    assert 'hx-trigger="load"' in html  # commentary comes after the page
    assert html.count('class="tile ') >= 106  # the tile partials to clone
    assert "/static/js/review.js" in html
    # the okey is named in words, never in notation ("K6" reads as red to a Turkish player)
    okey = re.search(r"okey: <b>([^<]*)</b>", html)
    assert okey, "the indicator row names the okey"
    assert re.fullmatch(r"(red|yellow|blue|black) \d{1,2}", okey.group(1)), okey.group(1)


def test_commentary_is_cached_and_summarised(client, ayse, monkeypatch):
    table = play_out_hand(cpu_table("classic", user=ayse))
    hand = table.current_hand
    response = client.get(f"/review/hand/{hand.pk}/commentary/")
    assert response.status_code == 200
    cached = HandCommentary.objects.get(hand=hand, seat=0)
    data = cached.data
    mine = [a for a in hand.actions.all() if a.seat == 0 and a.payload["type"] != "timeout"]
    assert data["total"] == len(mine) > 0
    assert data["agree"] == sum(1 for it in data["items"] if it["same"])
    assert b"agreed on" in response.content

    def boom(*args, **kwargs):
        raise AssertionError("the cache should answer")

    monkeypatch.setattr(commentary, "compute", boom)
    again = client.get(f"/review/hand/{hand.pk}/commentary/")
    assert again.content == response.content


def test_commentary_marks_differences_with_a_reason():
    # a human that plays at random disagrees with the hard CPU somewhere
    from games.engine import apply as engine_apply
    from games.engine import legal_actions, new_hand
    from games.engine.bots import choose_action

    state = new_hand("classic", None, "commentary-1", 0)
    actions = []
    while not state.over and len(actions) < 400:
        seat = state.turn
        if seat == 0:
            legal = [a for a in legal_actions(state, 0) if a["type"] in ("draw", "discard")]
            action = legal[-1]  # draw, then always the last tile of the list
        else:
            action = choose_action(state, seat, "easy")
        state, _ = engine_apply(state, action)
        actions.append(action)
    data = commentary.compute(state.record(), 0)
    differs = [it for it in data["items"] if not it["same"]]
    assert differs, "a silly player should disagree with the hard CPU"
    shown = commentary.present(data)
    for it in shown["items"]:
        assert it["mine_text"] and it["cpu_text"] and it["reason_text"]
    assert any(it["reason_text"] != "Same choice as the hard CPU." for it in shown["items"])
    assert data["percent"] == round(100 * data["agree"] / data["total"])


@time_machine.travel(dt.datetime(2026, 12, 1, 23, 30, tzinfo=dt.UTC), tick=False)
def test_my_games_lists_filters_and_pages(client, ayse):
    fifty = play_out_hand(cpu_table("fifty-one", user=ayse))  # over after one hand
    classic = play_out_hand(cpu_table("classic", user=ayse))  # one finished hand, goes on
    unplayed = cpu_table("seventeen", user=ayse)  # no finished hand: not listed
    other = User.objects.create_user("mehmet", password="pw-long-enough-2")
    foreign = play_out_hand(cpu_table("fifty-one", user=other))

    page = client.get("/games/").content.decode()
    assert fifty.code in page and classic.code in page
    assert unplayed.code not in page and foreign.code not in page
    assert client.get("/games/?variant=classic").content.decode().count('class="card rv-game"') == 1
    won = table_actions.game_for(fifty).winners() == [0]
    by_result = client.get(f"/games/?result={'won' if won else 'lost'}").content.decode()
    assert fifty.code in by_result and classic.code not in by_result  # unfinished: no result
    other_result = client.get(f"/games/?result={'lost' if won else 'won'}").content.decode()
    assert fifty.code not in other_result
    # Dates are whole days in the site's time zone: the game of 1 December (23:30) is in
    # "from 1 December" and "until 1 December", not in "from 2 December" or "until 30 November".
    for query, listed in [
        ("date_from=2026-12-01", True),
        ("date_to=2026-12-01", True),
        ("date_from=2026-12-02", False),
        ("date_to=2026-11-30", False),
    ]:
        assert (fifty.code in client.get(f"/games/?{query}").content.decode()) is listed, query


def test_my_games_pages(client, ayse, monkeypatch):
    monkeypatch.setattr(views, "PER_PAGE", 1)
    a = play_out_hand(cpu_table("fifty-one", user=ayse))
    b = play_out_hand(cpu_table("fifty-one", user=ayse))
    first = client.get("/games/?variant=fifty-one").content.decode()
    second = client.get("/games/?variant=fifty-one&page=2").content.decode()
    assert "Page 1 of 2" in first and "variant=fifty-one&page=2" in first
    assert (b.code in first) != (a.code in first)
    assert (a.code in second) != (b.code in second)


def test_record_for_hand_carries_the_rummy_context(ayse):
    table = play_out_hand(cpu_table("rummy", user=ayse, players=3))
    rec = record_for_hand(table.current_hand)
    assert rec["context"] == {"totals": [0, 0, 0]}
    assert Table.objects.filter(pk=table.pk).exists()


def test_admin_lists_the_review_models(client):
    admin = User.objects.create_superuser("root", "root@example.org", "pw-long-enough-9")
    client.force_login(admin)
    for model in ("handcommentary", "sharelink", "importedrecord"):
        assert client.get(f"/admin/review/{model}/").status_code == 200


def test_ending_labels_are_translated_words():
    from games.review.templatetags.review_tags import ending_label

    assert ending_label("okey_close") == "closed with an okey"
    assert ending_label("something_new") == "something new"
