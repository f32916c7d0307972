"""What runs where, and the gates that keep heavy pages from crowding out live tables
(games/heavy.py; README "Heavy pages and live tables")."""

from __future__ import annotations

import asyncio
import sys
import threading

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from games import heavy, views
from games.tournaments import services
from tests.tournaments.conftest import in_person, make_user, register_names


class FakeTime:
    def __init__(self) -> None:
        self.now = 1000.0
        self.slept: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


@pytest.fixture
def fake_time(monkeypatch) -> FakeTime:
    fake = FakeTime()
    monkeypatch.setattr(heavy, "clock", fake.clock)
    monkeypatch.setattr(heavy, "sleep", fake.sleep)
    monkeypatch.setattr(heavy, "_next_start", 0.0)
    monkeypatch.setattr(heavy, "SHARE", 0.25)
    return fake


def test_heavy_work_takes_at_most_its_share_of_the_time(fake_time):
    with heavy.one_at_a_time():
        fake_time.now += 1.0  # the work took one second
    assert fake_time.slept == []
    with heavy.one_at_a_time():  # three seconds later: a quarter of the time
        pass
    assert fake_time.slept == [pytest.approx(1.0 * (1 / heavy.SHARE - 1))]


def test_heavy_work_that_would_wait_too_long_is_busy(fake_time):
    with heavy.one_at_a_time():
        fake_time.now += 2.0  # the next may start 6 s later: past WAIT_S
    with pytest.raises(heavy.Busy), heavy.one_at_a_time():
        pytest.fail("ran although it would have waited over WAIT_S")
    assert fake_time.slept == []
    assert heavy.GATE.acquire(timeout=0)  # the refusal released the gate
    heavy.GATE.release()


def test_the_interpreter_switches_threads_more_often_during_heavy_work(fake_time):
    before = sys.getswitchinterval()
    with heavy.one_at_a_time():
        assert sys.getswitchinterval() == pytest.approx(heavy.SWITCH_S)
    assert sys.getswitchinterval() == before


@pytest.mark.django_db
def test_pages_wait_for_a_turn_then_say_busy(client, monkeypatch):
    organiser = make_user("orga")
    t = in_person(organiser, published=True)
    register_names(t, organiser, ["Ayşe", "Baran", "Cem", "Deniz"])
    services.seat_next_round(t.pk, organiser)
    monkeypatch.setattr(heavy, "WAIT_S", 0)
    url = reverse("tournaments:matrix", args=[t.pk])
    held = [heavy.SLOTS.acquire(timeout=1) for _ in range(heavy.AT_ONCE)]
    try:
        assert all(held)
        response = client.get(url)
    finally:
        for _ in held:
            heavy.SLOTS.release()
    assert response.status_code == 503 and "busy" in response.content.decode()
    assert client.get(url).status_code == 200


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_sync_view_never_runs_on_the_thread_of_the_consumers_database_work(monkeypatch):
    """Django's ASGI handler gives each request its own ThreadSensitiveContext (its own
    thread); Channels' database_sync_to_async, outside one, uses asgiref's single
    process-wide thread. A page's work therefore never queues in front of a table's."""
    from django.core.asgi import get_asgi_application

    seen: dict[str, threading.Thread] = {}

    def spy(language: str, slug: str):
        seen["view"] = threading.current_thread()
        raise KeyError(slug)  # a 404: the thread is what this test is about

    monkeypatch.setattr(views, "load_page", spy)
    app = get_asgi_application()
    sent: list[dict] = []
    answered = asyncio.Event()
    requests = iter([{"type": "http.request", "body": b"", "more_body": False}])

    async def receive() -> dict:
        message = next(requests, None)
        if message is None:  # the body was read: the client stays until the answer
            await answered.wait()
            return {"type": "http.disconnect"}
        return message

    async def send(message: dict) -> None:
        sent.append(message)
        if message["type"] == "http.response.body" and not message.get("more_body"):
            answered.set()

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": "/rules/no-such-page",
        "raw_path": b"/rules/no-such-page",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 1),
        "server": ("testserver", 80),
    }
    consumers_thread = await database_sync_to_async(threading.current_thread)()
    await app(scope, receive, send)
    assert sent[0]["status"] == 404
    assert await database_sync_to_async(threading.current_thread)() is consumers_thread
    assert seen["view"] is not consumers_thread


def test_a_page_that_has_its_turn_may_import_in_it(fake_time):
    with heavy.in_turn(wait_s=0), heavy.one_at_a_time(wait_s=0):
        pass  # the same thread: no second turn needed
    assert heavy.SLOTS.acquire(timeout=0)  # every turn was given back
    heavy.SLOTS.release()
