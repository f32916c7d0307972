"""What runs where, and the gates that keep heavy pages from crowding out live tables
(games/common/heavy.py; docs/heavy-pages.md)."""

from __future__ import annotations

import asyncio
import sys
import threading

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from games import views
from games.common import heavy
from games.tournaments import actions
from tests.support.accounts import make_user
from tests.tournaments.conftest import in_person, register_names


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
    assert heavy._clients == {}  # and the client's place in line


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
    actions.do_seat_next_round(t.pk, organiser)
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

    def spy(language: str, slug: str, **kwargs: object):
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


# ------------------------------------------------------------------ shared per client first


def until(condition, timeout: float = 5.0) -> None:
    """Wait (without sleeping a fixed time) until ``condition()`` holds."""
    done = threading.Event()
    deadline = threading.Event()
    timer = threading.Timer(timeout, deadline.set)
    timer.start()
    try:
        while not condition():
            if deadline.is_set():
                pytest.fail("the condition did not come true")
            done.wait(0.001)
    finally:
        timer.cancel()


def test_turns_are_given_in_the_order_they_were_asked():
    turns = heavy.Turns(1)
    assert turns.acquire(timeout=0)
    order: list[int] = []

    def ask(i: int) -> None:
        assert turns.acquire(timeout=5)
        order.append(i)
        turns.release()

    threads = []
    for i in range(4):
        threads.append(threading.Thread(target=ask, args=(i,)))
        threads[-1].start()
        until(lambda n=i + 1: len(turns._queue) == n)
    turns.release()
    for t in threads:
        t.join(5)
    assert order == [0, 1, 2, 3]


@pytest.mark.parametrize("kind", ["page", "import"])
def test_a_flooding_client_waits_behind_its_own_request_not_in_front_of_others(kind, monkeypatch):
    """Client A sends five requests at once while its first holds the turn; client B asks
    after all of them and is served next: A's other four wait for A's own place in line."""
    monkeypatch.setattr(heavy, "SHARE", 1.0)  # no pause between imports here
    monkeypatch.setattr(heavy, "_next_start", 0.0)
    gate = heavy.SLOTS if kind == "page" else heavy.GATE
    release_first = threading.Event()
    order: list[str] = []

    def visit(client: str, name: str, hold: threading.Event | None = None) -> None:
        block = heavy.paced_page if kind == "page" else heavy.one_at_a_time
        with block(wait_s=5, client=client):
            order.append(name)
            if hold is not None:
                hold.wait(5)

    first = threading.Thread(target=visit, args=("ip:A|A", "A1", release_first))
    first.start()
    until(lambda: order == ["A1"])
    others = [threading.Thread(target=visit, args=("ip:A|A", f"A{i}")) for i in range(2, 6)]
    for t in others:
        t.start()
    until(lambda: heavy._clients["ip:A|A"].users == 5)  # four waiting behind A1
    b = threading.Thread(target=visit, args=("ip:B|B", "B"))
    b.start()
    until(lambda: len(gate._queue) == 1)  # B waits for the turn
    release_first.set()
    for t in [first, b, *others]:
        t.join(5)
    assert order[:2] == ["A1", "B"]
    assert sorted(order) == ["A1", "A2", "A3", "A4", "A5", "B"]
    assert heavy._clients == {}


def test_a_flooding_client_is_refused_by_its_own_share_others_are_not(monkeypatch):
    monkeypatch.setattr(heavy, "_clients", {})
    release = threading.Event()
    started = threading.Event()

    def hold() -> None:
        with heavy.paced_page(wait_s=5, client="ip:A|A"):
            started.set()
            release.wait(5)

    holder = threading.Thread(target=hold)
    holder.start()
    started.wait(5)
    try:
        with pytest.raises(heavy.Busy), heavy.paced_page(wait_s=0, client="ip:A|A"):
            pytest.fail("a second page of the same client ran beside its first")
    finally:
        release.set()
        holder.join(5)
    with heavy.paced_page(wait_s=1, client="ip:B|B"):
        pass  # the other client's page had its turn


def test_the_share_of_the_time_is_the_processes_not_each_clients(fake_time, monkeypatch, settings):
    """The tables' protection does not grow with the number of clients: after A's page
    of 20 ms, B's page too starts 60 ms later (while tables are live)."""
    settings.OKEY_PAGE_SHARE = 0.25
    monkeypatch.setattr(heavy, "_next_page", 0.0)
    monkeypatch.setattr(heavy, "tables_live", lambda: True)
    with heavy.paced_page(client="ip:A|A"):
        fake_time.now += 0.02
    with heavy.paced_page(client="ip:B|B"):
        pass
    assert fake_time.slept == [pytest.approx(0.06)]


def test_one_address_holds_a_few_shares_at_once(monkeypatch):
    """Sessions cost nothing to make: one address's clients hold at most IP_AT_ONCE
    places in line; the next is answered busy at once, another address is not."""
    monkeypatch.setattr(heavy, "_clients", {})
    monkeypatch.setattr(heavy, "IP_AT_ONCE", 2)
    release = threading.Event()
    inside: list[str] = []

    def hold(client: str) -> None:
        with heavy._share(client, 5):
            inside.append(client)
            release.wait(5)

    a, b = "198.51.100.7", "203.0.113.9"
    holders = [threading.Thread(target=hold, args=(f"s:{i}|{a}",)) for i in range(2)]
    holders += [threading.Thread(target=hold, args=(f"s:{i}|127.0.0.1",)) for i in range(3)]
    for t in holders:
        t.start()
    until(lambda: len(inside) == 5)  # loopback (a proxy, a benchmark) has no cap
    try:
        with pytest.raises(heavy.Busy), heavy._share(f"s:9|{a}", 5):
            pytest.fail("a third client of address A got a place in line")
        with heavy._share(f"s:9|{b}", 0):
            pass
    finally:
        release.set()
        for t in holders:
            t.join(5)
    assert heavy._ips == {}


@pytest.mark.django_db
def test_a_client_is_its_account_else_its_session_else_its_address(rf, django_user_model):
    from django.contrib.auth.models import AnonymousUser
    from django.contrib.sessions.backends.db import SessionStore

    request = rf.get("/", REMOTE_ADDR="203.0.113.5")
    request.user = django_user_model.objects.create_user("ayse", password="x-pass-123")
    assert heavy.client_of(request) == f"u:{request.user.pk}|203.0.113.5"

    request.user = AnonymousUser()
    store = SessionStore()
    store["guest"] = True
    store.create()
    request.session = SessionStore(store.session_key)
    assert heavy.client_of(request) == f"s:{store.session_key}|203.0.113.5"

    request.session = SessionStore("made-up-session-key-0123456789")  # no such session
    assert heavy.client_of(request) == "ip:203.0.113.5|203.0.113.5"
