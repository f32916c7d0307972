"""okeysite.wsguard: what a socket, a session and an IP may have queued, how many
sockets they may hold, and how often they may open one."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from asgiref.testing import ApplicationCommunicator
from channels.testing import WebsocketCommunicator

from okeysite import wsguard
from okeysite.asgi import application
from okeysite.wsguard import CLOSE_FLOOD, CLOSE_TOO_MANY, WebsocketGuard
from tests.games.test_consumer import connect, two_player_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


class SlowApp:
    """A consumer that accepts, then reads nothing until ``gate`` opens."""

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.received: list[dict] = []

    async def __call__(self, scope, receive, send) -> None:
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        await self.gate.wait()
        while True:
            message = await receive()
            self.received.append(message)
            if message["type"] == "websocket.disconnect":
                return


def scope(session: str = "abc", ip: str = "10.0.0.1", path: str = "/ws/t/x/") -> dict:
    return {
        "type": "websocket",
        "path": path,
        "headers": [(b"cookie", f"sessionid={session}".encode())],
        "client": (ip, 4242),
    }


async def opened(app, sc: dict) -> ApplicationCommunicator:
    comm = ApplicationCommunicator(app, sc)
    await comm.send_input({"type": "websocket.connect"})
    assert (await comm.receive_output(1))["type"] == "websocket.accept"
    return comm


async def until_close(comm: ApplicationCommunicator) -> dict:
    while True:
        out = await comm.receive_output(1)
        if out["type"] == "websocket.close":
            return out


async def test_a_socket_past_its_queue_bound_is_closed_and_its_frames_dropped():
    inner = SlowApp()
    guard = WebsocketGuard(inner, max_pending_frames=10)
    comm = await opened(guard, scope())
    for i in range(11):
        await comm.send_input({"type": "websocket.receive", "text": f"frame {i}"})
    assert (await until_close(comm))["code"] == CLOSE_FLOOD
    inner.gate.set()  # the consumer reads again: it is told the socket is gone
    await comm.wait(1)
    assert inner.received == [{"type": "websocket.disconnect", "code": CLOSE_FLOOD}]
    assert guard.pending == {} and guard.open == {}


async def test_a_consumer_that_keeps_up_is_never_closed():
    inner = SlowApp()
    inner.gate.set()
    guard = WebsocketGuard(inner, max_pending_frames=4)
    comm = await opened(guard, scope())
    for i in range(50):
        await comm.send_input({"type": "websocket.receive", "text": f"frame {i}"})
        await asyncio.sleep(0)  # let the consumer read (not a wait on time)
        await asyncio.sleep(0)
    await comm.send_input({"type": "websocket.disconnect", "code": 1000})
    await comm.wait(1)
    assert len(inner.received) == 51 and inner.received[-1]["type"] == "websocket.disconnect"


async def test_the_bytes_queued_by_one_session_are_bounded_across_its_sockets():
    inner = SlowApp()
    guard = WebsocketGuard(inner, max_pending_bytes=800, max_key_pending_bytes=1000)
    first = await opened(guard, scope(ip="10.0.0.1"))  # (kept: a dropped one would end)
    second = await opened(guard, scope(ip="10.0.0.2"))  # same session, another address
    for _ in range(2):
        await first.send_input({"type": "websocket.receive", "text": "x" * 300})
    for _ in range(2):
        await second.send_input({"type": "websocket.receive", "text": "x" * 300})
    assert (await until_close(second))["code"] == CLOSE_FLOOD
    assert await first.receive_nothing(0.1)  # the first stays open
    assert guard.pending == {"s:abc": 600, "ip:10.0.0.1": 600}


async def test_sockets_per_session_and_per_ip_are_limited_with_a_message_and_4429():
    inner = SlowApp()
    guard = WebsocketGuard(inner, per_session=2, per_ip=3)
    a = await opened(guard, scope("s1", "10.0.0.1"))
    held = [await opened(guard, scope("s1", "10.0.0.2"))]  # (a dropped communicator ends)
    third = ApplicationCommunicator(guard, scope("s1", "10.0.0.3"))
    await third.send_input({"type": "websocket.connect"})
    assert (await third.receive_output(1))["type"] == "websocket.accept"
    notice = await third.receive_output(1)
    assert 'data-code="too_many_sockets"' in notice["text"] and "too many" in notice["text"]
    assert (await third.receive_output(1))["code"] == CLOSE_TOO_MANY
    # per IP: three sessions from one address, the fourth socket is refused
    held += [await opened(guard, scope(s, "10.0.0.1")) for s in ("s2", "s3")]
    fourth = ApplicationCommunicator(guard, scope("s4", "10.0.0.1"))
    await fourth.send_input({"type": "websocket.connect"})
    assert (await until_close(fourth))["code"] == CLOSE_TOO_MANY
    # a socket that ends frees its place
    inner.gate.set()
    await a.send_input({"type": "websocket.disconnect", "code": 1000})
    await a.wait(1)
    held.append(await opened(guard, scope("s1", "10.0.0.9")))


async def test_opening_sockets_too_often_is_refused_at_the_handshake():
    clock = [0.0]
    guard = WebsocketGuard(SlowApp(), per_session=1000, clock=lambda: clock[0])
    for _ in range(20):  # the session's burst
        comm = await opened(guard, scope("busy", "10.0.0.1"))
        await comm.send_input({"type": "websocket.disconnect", "code": 1000})
    refused = ApplicationCommunicator(guard, scope("busy", "10.0.0.1"))
    await refused.send_input({"type": "websocket.connect"})
    assert (await refused.receive_output(1)) == {"type": "websocket.close"}
    clock[0] += 2.0  # one more opening per two seconds
    await opened(guard, scope("busy", "10.0.0.1"))


async def test_a_ninth_table_socket_of_one_browser_gets_a_clear_message():
    table, (a, _b) = await sync_to_async(two_player_table)()
    socks = [await connect(table.code, a) for _ in range(8)]
    headers = [
        (b"origin", b"http://testserver"),
        (b"cookie", f"sessionid={a.cookies['sessionid'].value}".encode()),
    ]
    ninth = WebsocketCommunicator(application, f"/ws/t/{table.code}/", headers=headers)
    ok, _ = await ninth.connect()
    assert ok
    html = await ninth.receive_from()
    assert 'id="t-msg"' in html and 'data-code="too_many_sockets"' in html
    assert (await ninth.receive_output(1))["code"] == CLOSE_TOO_MANY
    for s in socks:
        await s.receive_from()
        await s.send_to(json.dumps({"action": "sort", "mode": "runs"}))
        assert await s.receive_from()  # the eight still play
        await s.disconnect()


async def test_the_address_is_the_proxys_client_and_loopback_has_no_ip_limits(settings):
    inner = SlowApp()
    guard = WebsocketGuard(inner, per_session=100, per_ip=1)
    held = [await opened(guard, scope(f"l{i}", "127.0.0.1")) for i in range(3)]  # no IP limit
    settings.TRUSTED_PROXIES = 1  # nginx in front: its X-Forwarded-For names the client

    def behind_proxy(session: str) -> dict:
        sc = scope(session, "127.0.0.1")
        sc["headers"].append((b"x-forwarded-for", b"6.6.6.6, 203.0.113.7"))
        return sc

    held.append(await opened(guard, behind_proxy("p1")))
    assert guard.open["ip:203.0.113.7"] == 1
    second = ApplicationCommunicator(guard, behind_proxy("p2"))
    await second.send_input({"type": "websocket.connect"})
    assert (await until_close(second))["code"] == CLOSE_TOO_MANY
    assert len(held) == 4


class FloodClosingApp:
    """A consumer that finds the socket flooding and closes it with 4008."""

    async def __call__(self, scope, receive, send) -> None:
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.close", "code": CLOSE_FLOOD})
        while (await receive())["type"] != "websocket.disconnect":
            pass


async def test_a_session_closed_for_flooding_waits_before_its_next_socket():
    clock = [0.0]
    guard = WebsocketGuard(FloodClosingApp(), clock=lambda: clock[0])
    comm = await opened(guard, scope("flooder", "10.0.0.5"))
    assert (await comm.receive_output(1))["code"] == CLOSE_FLOOD
    await comm.send_input({"type": "websocket.disconnect", "code": CLOSE_FLOOD})
    await comm.wait(1)
    again = ApplicationCommunicator(guard, scope("flooder", "10.0.0.6"))
    await again.send_input({"type": "websocket.connect"})
    assert await again.receive_output(1) == {"type": "websocket.close"}  # HTTP 403
    clock[0] += 10.0  # the penalty paid (the session's rate: one opening per 2 s)
    assert (await opened(guard, scope("flooder", "10.0.0.7"))) is not None
    other = await opened(guard, scope("honest", "10.0.0.8"))  # another session is not held up
    assert other is not None


async def test_the_too_many_sockets_message_is_in_the_pages_language():
    browser = scope("x")
    browser["headers"].append((b"accept-language", b"de-DE,de;q=0.9,en;q=0.5"))
    assert wsguard._language(browser) == "de"
    browser["headers"].append((b"cookie", b"django_language=tr"))  # the switcher's choice wins
    assert wsguard._language(browser) == "tr"
    assert wsguard._language(scope("x")) == "en"


# ------------------------------------------------------------------ the origin check


async def accept_all(scope, receive, send) -> None:
    """A websocket app that accepts every socket (the origin check is in front of it)."""
    assert (await receive())["type"] == "websocket.connect"
    await send({"type": "websocket.accept"})
    while (await receive())["type"] != "websocket.disconnect":
        pass


async def opens(origin: bytes | None, host: bytes | None, *extra: tuple[bytes, bytes]) -> bool:
    headers = [(b"origin", origin)] if origin is not None else []
    if host is not None:
        headers.append((b"host", host))
    headers.extend(extra)
    comm = WebsocketCommunicator(wsguard.OriginGuard(accept_all), "/ws/t/x/", headers=headers)
    ok, _ = await comm.connect()
    if ok:
        await comm.disconnect()
    return ok


async def test_the_site_checks_the_origin_in_front_of_everything():
    assert isinstance(application.application_mapping["websocket"], wsguard.OriginGuard)


@pytest.mark.parametrize(
    "origin",
    [
        b"http://localhost:1234",  # another port of the same host
        b"https://localhost:8000",  # another scheme
        b"http://localhost",  # the default port is another port
        b"http://127.0.0.1:8000",  # another host, though allowed
        b"http://localhost:8000/path",  # not an origin
        b"null",
        None,
    ],
)
async def test_a_socket_from_another_origin_than_the_sites_is_refused(origin, settings):
    settings.ALLOWED_HOSTS = ["localhost", "127.0.0.1"]
    assert not await opens(origin, b"localhost:8000")
    assert await opens(b"http://localhost:8000", b"localhost:8000")


async def test_the_sites_host_must_be_an_allowed_host(settings):
    """A name that resolves to the server (DNS rebinding) is not the site's origin."""
    settings.ALLOWED_HOSTS = ["localhost"]
    assert not await opens(b"http://evil.example:8000", b"evil.example:8000")


async def test_without_a_host_header_the_allowed_hosts_count_at_the_default_port(settings):
    """Never a browser's socket (HTTP/1.1 always sends Host): a test's communicator."""
    settings.ALLOWED_HOSTS = ["testserver"]
    assert await opens(b"http://testserver", None)
    assert not await opens(b"http://testserver:1234", None)
    assert not await opens(b"https://testserver", None)
    assert not await opens(b"http://elsewhere", None)


async def test_a_wss_socket_has_an_https_origin(settings):
    settings.ALLOWED_HOSTS = ["okey.example.org"]
    here = b"okey.example.org"
    guard = wsguard.OriginGuard(accept_all)
    for origin, ok in ((b"https://okey.example.org", True), (b"http://okey.example.org", False)):
        headers = [(b"origin", origin), (b"host", here)]
        comm = WebsocketCommunicator(guard, "/ws/t/x/", headers=headers)
        comm.scope["scheme"] = "wss"
        assert (await comm.connect())[0] is ok
        if ok:
            await comm.disconnect()


def scope_with(origin: str, host: str, *extra: tuple[bytes, bytes]) -> dict:
    headers = [(b"origin", origin.encode()), (b"host", host.encode()), *extra]
    return {"type": "websocket", "scheme": "ws", "headers": headers}


async def test_behind_a_tls_proxy_the_origin_is_https_as_the_proxy_says(settings):
    settings.ALLOWED_HOSTS = ["okey.example.org"]
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    tls = (b"x-forwarded-proto", b"https")
    assert wsguard.origin_allowed(scope_with("https://okey.example.org", "okey.example.org", tls))
    assert not wsguard.origin_allowed(
        scope_with("http://okey.example.org", "okey.example.org", tls)
    )
    assert not wsguard.origin_allowed(scope_with("https://okey.example.org", "okey.example.org"))


async def test_trusted_origins_count_with_their_scheme_and_port(settings):
    settings.ALLOWED_HOSTS = ["okey.example.org"]
    settings.CSRF_TRUSTED_ORIGINS = ["https://*.example.org", "http://lan.test:8080"]
    here = "okey.example.org"
    assert wsguard.origin_allowed(scope_with("https://play.example.org", here))
    assert wsguard.origin_allowed(scope_with("http://lan.test:8080", here))
    assert not wsguard.origin_allowed(scope_with("https://play.example.org:8443", here))
    assert not wsguard.origin_allowed(scope_with("http://play.example.org", here))
    assert not wsguard.origin_allowed(scope_with("https://example.org.evil.test", here))
    assert not wsguard.origin_allowed(scope_with("http://lan.test:8081", here))
