"""While a process serves live tables, the heavy pages use at most their share of its
time (games/common/heavy.py ``paced_page``; docs/heavy-pages.md), so a client asking for
them without pause cannot crowd out the tables' frames; without live tables they run
back to back."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from games.common import heavy
from tests.review.test_heavy import FakeTime
from tests.support.accounts import make_user
from tests.tournaments.conftest import in_person, register_names
from tests.watch.conftest import cpu_table, table_socket


@pytest.fixture
def fake_time(monkeypatch) -> FakeTime:
    fake = FakeTime()
    monkeypatch.setattr(heavy, "clock", fake.clock)
    monkeypatch.setattr(heavy, "sleep", fake.sleep)
    monkeypatch.setattr(heavy, "_next_page", 0.0)
    return fake


@pytest.fixture
def live(monkeypatch):
    monkeypatch.setattr(heavy, "tables_live", lambda: True)


def test_with_live_tables_a_page_waits_until_the_last_one_had_its_share(fake_time, live, settings):
    settings.OKEY_PAGE_SHARE = 0.25
    with heavy.paced_page():
        fake_time.now += 0.02  # a page of 20 ms
    assert fake_time.slept == []
    with heavy.paced_page():  # at once: it waits three times as long as the last took
        fake_time.now += 0.01
    assert fake_time.slept == [pytest.approx(0.06)]
    fake_time.now += 1.0  # a second later: no wait
    with heavy.paced_page():
        pass
    assert fake_time.slept == [pytest.approx(0.06)]


def test_without_live_tables_pages_run_back_to_back(fake_time, monkeypatch, settings):
    settings.OKEY_PAGE_SHARE = 0.25
    monkeypatch.setattr(heavy, "tables_live", lambda: False)
    for _ in range(3):
        with heavy.paced_page():
            fake_time.now += 0.5
    assert fake_time.slept == []


def test_a_share_of_one_turns_the_pacing_off(fake_time, live, settings):
    settings.OKEY_PAGE_SHARE = 1
    for _ in range(3):
        with heavy.paced_page():
            fake_time.now += 0.5
    assert fake_time.slept == []


def test_a_page_that_would_wait_too_long_is_busy_and_frees_its_turn(fake_time, live, settings):
    settings.OKEY_PAGE_SHARE = 0.25
    with heavy.paced_page():
        fake_time.now += 2.0  # the next may start 6 s later: past WAIT_S
    with pytest.raises(heavy.Busy), heavy.paced_page():
        pytest.fail("ran although it would have waited over WAIT_S")
    assert heavy.SLOTS.acquire(timeout=0)
    heavy.SLOTS.release()


@pytest.mark.django_db
def test_a_paced_page_says_busy_with_a_503(client, fake_time, live, settings, monkeypatch):
    settings.OKEY_PAGE_SHARE = 0.25
    organiser = make_user("orga")
    t = in_person(organiser, published=True)
    register_names(t, organiser, ["Ayşe", "Baran", "Cem", "Deniz"])
    url = reverse("tournaments:detail", args=[t.pk])
    assert client.get(url).status_code == 200
    monkeypatch.setattr(heavy, "_next_page", fake_time.now + heavy.WAIT_S + 1)
    response = client.get(url)
    assert response.status_code == 503 and "busy" in response.content.decode()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_an_open_table_socket_makes_the_process_serve_live_tables():
    table = await database_sync_to_async(cpu_table)(guest_key="g-live")
    assert not heavy.tables_live()
    comm = await table_socket(table.code)
    try:
        assert heavy.tables_live()
    finally:
        await comm.disconnect()
    assert not heavy.tables_live()
