"""The lobby's kept parts (games/common/pagecache.py: the new-table form's fields, the live
list): the kept page is the fresh one, a table that opens, starts or moves on shows at
once, and each visitor's own parts (their tables, their name, their CSRF token) stay
theirs."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.forms import CreateTableForm
from games.live import actions
from games.models import Table
from tests.games.conftest import play_out_hand
from tests.review.test_pagecache_review import kept_fragments, without_tokens
from tests.watch.conftest import cpu_table, person

pytestmark = pytest.mark.django_db

LIVE = re.compile(r'data-testid="live-table" data-code="([\w-]+)"')


def waiting_table(guest_key: str) -> Table:
    return actions.do_create_table(
        variant="classic",
        options={},
        seats=[actions.SeatSpec("me"), actions.SeatSpec("human")] + [actions.SeatSpec("cpu")] * 2,
        guest_key=guest_key,
    )


def open_list(html: str) -> str:
    return re.search(r'data-testid="open-tables">(.*?)</ul>', html, re.S).group(1)


def test_the_kept_lobby_is_the_fresh_one_and_its_form_is_not_rendered_again(settings, monkeypatch):
    cpu_table(guest_key="g-live")
    rendered = []
    real = CreateTableForm.__init__
    monkeypatch.setattr(
        CreateTableForm, "__init__", lambda *a, **k: rendered.append(1) or real(*a, **k)
    )
    client = Client()
    first = client.get("/").content.decode()
    kept = client.get("/").content.decode()
    assert len(rendered) == 1
    settings.OKEY_PAGE_CACHE = False
    fresh = client.get("/").content.decode()
    assert without_tokens(kept) == without_tokens(fresh) == without_tokens(first)
    assert 'data-testid="create-submit"' in kept and LIVE.findall(kept)
    watch = Client().get("/watch/").content.decode()
    settings.OKEY_PAGE_CACHE = True
    assert without_tokens(Client().get("/watch/").content.decode()) == without_tokens(watch)


def test_a_table_that_opens_starts_or_moves_on_shows_at_once():
    client = Client()
    assert "No open tables right now." in client.get("/").content.decode()
    assert 'data-testid="live-empty"' in client.get("/watch/").content.decode()
    waiting = waiting_table("g-host")
    assert waiting.code in open_list(client.get("/").content.decode())
    playing = cpu_table(guest_key="g-live")
    assert LIVE.findall(client.get("/watch/").content.decode()) == [playing.code]
    assert LIVE.findall(client.get("/").content.decode()) == [playing.code]
    # the next hand dealt: its row says so at once
    played = play_out_hand(playing)
    actions.do_next_hand(played.pk, played.version)
    assert re.search(r'data-testid="live-hand">Hand 2<', client.get("/watch/").content.decode())
    Table.objects.filter(pk=playing.pk).update(status=Table.Status.FINISHED)
    assert 'data-testid="live-empty"' in client.get("/watch/").content.decode()


def test_each_visitor_has_their_own_tables_name_and_token():
    ayse, client_a = person("ayse")
    mine = cpu_table(ayse, public=False)
    _, client_b = person("baran")
    page_a = client_a.get("/").content.decode()
    page_b = client_b.get("/").content.decode()
    my_tables = re.compile(r'data-testid="my-tables">(.*?)</ul>', re.S)
    assert mine.code in my_tables.search(page_a).group(1)
    assert mine.code not in page_b
    assert re.search(r'data-testid="nav-user"[^>]*>Baran<', page_b) and ">Ayse<" not in page_b
    token = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
    assert set(token.findall(page_a)).isdisjoint(token.findall(page_b))
    for html in kept_fragments():
        assert "csrfmiddlewaretoken" not in html and "nav-user" not in html


def test_a_visitor_without_a_session_is_not_given_one_by_the_lobby():
    client = Client()
    response = client.get("/")
    assert response.status_code == 200 and "sessionid" not in response.cookies
