"""Bounds on every websocket, before the consumers (and before any database work).

daphne hands each incoming frame to the application through an unbounded queue,
and a consumer reads that queue one frame at a time: a client that sends faster
than its consumer answers makes the server hold everything it sent. The guard
sits between daphne and the consumers (``okeysite.asgi``) and:

- reads the server's queue as frames arrive, into a queue of its own whose size
  is bounded per socket (frames and bytes) and per guest session and per IP
  (bytes, all their sockets together). A socket past a bound is closed with 4008
  (the application's "policy violation": autobahn, under daphne, sends only 1000
  and 3000-4999; the htmx ws extension reconnects only after 1006/1011/1012/1013,
  so a flooding page is not reconnected in a loop) and what it had queued is
  dropped; its consumer gets the disconnect at once.
- limits the open sockets per guest session (``PER_SESSION``) and per IP
  (``PER_IP``). One more is accepted, shown a message (on a table page, in its
  message line) and closed with ``CLOSE_TOO_MANY`` (4429, "too many sockets";
  not reconnected either): close another tab, then reload.
- limits how often a session or an IP may open sockets (``CONNECT_*``; a socket
  closed for flooding costs ``FLOOD_PENALTY`` more). Past it the handshake is
  refused (HTTP 403, seen by the page as 1006): the htmx ws extension retries
  with a growing delay, so an honest page gets back in.

The counts are per server process (several processes behind nginx each apply
them; nginx's ``limit_conn`` bounds the whole). The session is the session
cookie as sent (no database read); a client without one is bounded by its IP
(``client_ip``: through ``TRUSTED_PROXIES`` like the log-in throttles; a
loopback peer has no IP limits).

``OriginGuard`` (in front of the guard) is the websockets' CSRF defence: a socket is
opened only from a page of the site itself, scheme, host and port alike, or from one
of ``CSRF_TRUSTED_ORIGINS`` (docs/security.md "Websocket origins").
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import ipaddress
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from http.cookies import SimpleCookie
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext

from okeysite.limits import LRU, TokenBucket

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

PER_SESSION = 8  # open sockets of one guest session (tabs, tables, tournament pages)
PER_IP = 64  # open sockets of one address (a club behind one NAT)
MAX_PENDING_FRAMES = 32  # frames of one socket its consumer has not read yet
MAX_PENDING_BYTES = 128 * 1024  # ... and their size
MAX_KEY_PENDING_BYTES = 512 * 1024  # unread bytes of all sockets of one session / IP
CONNECT_SESSION_BURST, CONNECT_SESSION_RATE = 20.0, 0.5  # socket openings, per second
CONNECT_IP_BURST, CONNECT_IP_RATE = 120.0, 4.0
# A socket closed for flooding leaves its session (and IP) this far in debt:
# the flooder's next socket waits 10 s (an IP's, 1 s), whoever closed it.
FLOOD_PENALTY = 4.0
CLOSE_FLOOD = 4008
CLOSE_TOO_MANY = 4429
FLOOD_REASON = "too many messages"


_FLOODS = [0]  # sockets closed for flooding in this process (guard and consumers)


def note_flood() -> None:
    _FLOODS[0] += 1


def floods_seen() -> int:
    """How many sockets this process has closed for flooding (``manage.py serve``
    releases memory soon after one)."""
    return _FLOODS[0]


def _cookies(scope: Scope) -> SimpleCookie:
    cookies = SimpleCookie()
    for name, value in scope.get("headers") or ():
        if name == b"cookie":
            with contextlib.suppress(Exception):  # a malformed header counts as none
                cookies.load(value.decode("latin-1"))
    return cookies


def scope_keys(scope: Scope) -> list[str]:
    """The keys a socket is counted under: its session cookie and its address."""
    keys = []
    cookies = _cookies(scope)
    morsel = cookies.get(settings.SESSION_COOKIE_NAME)
    if morsel is not None and morsel.value:
        keys.append("s:" + morsel.value[:64])
    ip = client_ip(scope)
    if ip is not None:
        keys.append(f"ip:{ip}")
    return keys


def client_ip(scope: Scope) -> str | None:
    """The address a socket is counted under, as the log-in throttles count it
    (``accounts.throttle.client_ip``: ``TRUSTED_PROXIES`` and X-Forwarded-For; an
    IPv6 client by its /64). None for a loopback peer, which is this machine: a
    proxy in front (without ``TRUSTED_PROXIES`` every client would look alike),
    a benchmark or a developer; its sockets are still bounded per session."""
    from accounts.throttle import client_ip as request_ip

    client = scope.get("client")
    if not client:
        return None
    meta = {"REMOTE_ADDR": str(client[0])}
    for name, value in scope.get("headers") or ():
        if name == b"x-forwarded-for":
            meta["HTTP_X_FORWARDED_FOR"] = value.decode("latin-1")
    ip = request_ip(SimpleNamespace(META=meta))
    with contextlib.suppress(ValueError):
        if ipaddress.ip_network(ip, strict=False).network_address.is_loopback:
            return None
    return ip


def _language(scope: Scope) -> str:
    """A page's language as the consumers choose it (the language cookie, then the
    browser's Accept-Language), without the profile: no database work here."""
    from accounts.middleware import language_for_scope

    cookies = {name: morsel.value for name, morsel in _cookies(scope).items()}
    return language_for_scope({**scope, "user": None, "cookies": cookies})


@functools.lru_cache(maxsize=16)
def too_many_fragment(lang: str) -> str:
    """The table page's message line saying why the socket was closed."""
    with translation.override(lang):
        text = gettext(
            "This browser has too many tables or pages of this site open. "
            "Close one, then reload this page."
        )
        return render_to_string(
            "games/table.html#message", {"error": {"code": "too_many_sockets", "message": text}}
        )


class WebsocketGuard:
    """ASGI middleware bounding every websocket (see the module's docstring)."""

    def __init__(
        self,
        app: App,
        *,
        per_session: int = PER_SESSION,
        per_ip: int = PER_IP,
        max_pending_frames: int = MAX_PENDING_FRAMES,
        max_pending_bytes: int = MAX_PENDING_BYTES,
        max_key_pending_bytes: int = MAX_KEY_PENDING_BYTES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.app = app
        self.per_session, self.per_ip = per_session, per_ip
        self.max_pending_frames = max_pending_frames
        self.max_pending_bytes = max_pending_bytes
        self.max_key_pending_bytes = max_key_pending_bytes
        self.clock = clock
        self.open: Counter[str] = Counter()  # open sockets per key
        self.pending: Counter[str] = Counter()  # unread bytes per key
        # each key's bucket of socket openings; the least recently used forgotten past 10,000
        self.rates: LRU[str, TokenBucket] = LRU(maxsize=10_000)
        self.closed_for_flood = 0
        self.refused_too_many = 0
        self.refused_rate = 0

    def _rate(self, key: str) -> TokenBucket:
        rate = self.rates.get(key)
        if rate is None:
            if key.startswith("s:"):
                rate = TokenBucket(CONNECT_SESSION_RATE, CONNECT_SESSION_BURST, self.clock)
            else:
                rate = TokenBucket(CONNECT_IP_RATE, CONNECT_IP_BURST, self.clock)
            self.rates[key] = rate
        return rate

    def _penalise(self, keys: list[str]) -> None:
        for k in keys:
            self._rate(k).owe(FLOOD_PENALTY)

    def _limit(self, key: str) -> int:
        return self.per_session if key.startswith("s:") else self.per_ip

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        keys = scope_keys(scope)
        if not all([self._rate(k).take() for k in keys]):
            self.refused_rate += 1
            if (await receive())["type"] == "websocket.connect":
                await send({"type": "websocket.close"})  # before accept: HTTP 403
            return
        if any(self.open[k] >= self._limit(k) for k in keys):
            self.refused_too_many += 1
            await self._refuse_too_many(scope, receive, send)
            return
        for k in keys:
            self.open[k] += 1
        try:
            await self._guarded(scope, receive, send, keys)
        finally:
            for k in keys:
                self.open[k] -= 1
                if self.open[k] <= 0:
                    del self.open[k]

    async def _refuse_too_many(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (await receive())["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        if scope.get("path", "").startswith("/ws/t/"):
            await send({"type": "websocket.send", "text": too_many_fragment(_language(scope))})
        await send(
            {"type": "websocket.close", "code": CLOSE_TOO_MANY, "reason": "too many sockets"}
        )

    async def _guarded(self, scope: Scope, receive: Receive, send: Send, keys: list[str]) -> None:
        queue: asyncio.Queue[tuple[dict[str, Any], int]] = asyncio.Queue()
        mine = {"frames": 0, "bytes": 0}

        def account(size: int, sign: int) -> None:
            mine["frames"] += sign
            mine["bytes"] += sign * size
            for k in keys:
                self.pending[k] += sign * size
                if self.pending[k] <= 0:
                    del self.pending[k]

        def drop_queued() -> None:
            while not queue.empty():
                _msg, size = queue.get_nowait()
                if size:
                    account(size, -1)

        def over(size: int) -> bool:
            return (
                mine["frames"] + 1 > self.max_pending_frames
                or mine["bytes"] + size > self.max_pending_bytes
                or any(self.pending[k] + size > self.max_key_pending_bytes for k in keys)
            )

        async def pump() -> None:
            try:
                await read()
            except Exception:  # the consumer must not wait for frames that never come
                queue.put_nowait(({"type": "websocket.disconnect", "code": 1011}, 0))
                raise

        async def read() -> None:
            while True:
                message = await receive()
                kind = message["type"]
                if kind == "websocket.receive":
                    size = len(message.get("text") or "") + len(message.get("bytes") or b"")
                    size = max(size, 1)
                    if over(size):
                        self.closed_for_flood += 1
                        note_flood()
                        self._penalise(keys)
                        drop_queued()
                        await send(
                            {"type": "websocket.close", "code": CLOSE_FLOOD, "reason": FLOOD_REASON}
                        )
                        queue.put_nowait(({"type": "websocket.disconnect", "code": CLOSE_FLOOD}, 0))
                        while (await receive())["type"] != "websocket.disconnect":
                            pass  # frames still in flight before the close lands
                        return
                    account(size, +1)
                    queue.put_nowait((message, size))
                else:
                    queue.put_nowait((message, 0))
                    if kind == "websocket.disconnect":
                        return

        async def app_receive() -> dict[str, Any]:
            message, size = await queue.get()
            if size:
                account(size, -1)
            return message

        async def app_send(message: dict[str, Any]) -> None:
            if message.get("type") == "websocket.close" and message.get("code") == CLOSE_FLOOD:
                self._penalise(keys)  # the consumer found it flooding
            await send(message)

        task = asyncio.ensure_future(pump())
        try:
            await self.app(scope, app_receive, app_send)
        finally:
            task.cancel()
            drop_queued()


# ------------------------------------------------------------------ the origin check

DEFAULT_PORTS = {"http": 80, "https": 443}


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers") or ():
        if key == name:
            return value.decode("latin-1")
    return None


def _origin_tuple(origin: str) -> tuple[str, str, int] | None:
    """``scheme://host[:port]`` as (scheme, host, port), the port filled in; None when
    it is not an http(s) origin (``null``, a path, a bad port)."""
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        return None
    return scheme, parts.hostname.lower(), port or DEFAULT_PORTS[scheme]


def _allowed_hosts() -> list[str]:
    hosts = list(settings.ALLOWED_HOSTS)
    if settings.DEBUG and not hosts:  # Django's own default in DEBUG (HttpRequest.get_host)
        hosts = [".localhost", "127.0.0.1", "[::1]"]
    return hosts


def _secure(scope: Scope) -> bool:
    """Did the browser reach us over TLS? The socket's own scheme (wss), or the word of
    the proxy in front, read as Django reads it (``SECURE_PROXY_SSL_HEADER``)."""
    if scope.get("scheme") in ("wss", "https"):
        return True
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy:
        meta_name, wanted = proxy
        name = meta_name.removeprefix("HTTP_").lower().replace("_", "-").encode()
        sent = _header(scope, name)
        return sent is not None and sent.split(",")[0].strip() == wanted
    return False


def own_origin(scope: Scope) -> tuple[str, str, int] | None:
    """The origin of the site as this socket reached it: the scheme (``_secure``), and
    the host and port of the ``Host`` header, which must be one of ``ALLOWED_HOSTS``
    (else a page of a name that resolves to us, DNS rebinding, would be its own origin).
    None when there is no such host."""
    host = _header(scope, b"host")
    if host is None:
        return None
    domain, port = split_domain_port(host.lower())
    if not domain or not validate_host(domain, _allowed_hosts()):
        return None
    scheme = "https" if _secure(scope) else "http"
    return scheme, domain.strip("[]"), int(port) if port else DEFAULT_PORTS[scheme]


def _trusted(origin: tuple[str, str, int]) -> bool:
    """Is ``origin`` one of ``CSRF_TRUSTED_ORIGINS`` (Django's form: exact origins, or
    ``https://*.example.org`` for its subdomains), scheme and port included?"""
    scheme, host, port = origin
    for entry in getattr(settings, "CSRF_TRUSTED_ORIGINS", ()):
        wildcard = "://*." in entry
        trusted = _origin_tuple(entry.replace("://*.", "://", 1))
        if trusted is None or trusted[0] != scheme or trusted[2] != port:
            continue
        if host == trusted[1] or (wildcard and host.endswith("." + trusted[1])):
            return True
    return False


def origin_allowed(scope: Scope) -> bool:
    """May this websocket be opened? Its ``Origin`` must be the site's own, scheme, host
    and port alike (``own_origin``), or one of ``CSRF_TRUSTED_ORIGINS``. A socket
    without a ``Host`` header (never a browser's: a test's communicator) is compared
    with ``ALLOWED_HOSTS`` at the default port of its scheme. No Origin, or ``null``:
    refused (a browser always sends one with a websocket)."""
    sent = _header(scope, b"origin")
    origin = _origin_tuple(sent) if sent is not None else None
    if origin is None:
        return False
    if _trusted(origin):
        return True
    if _header(scope, b"host") is None:
        scheme, host, port = origin
        secure = _secure(scope)
        name = f"[{host}]" if ":" in host else host
        return (
            scheme == ("https" if secure else "http")
            and port == DEFAULT_PORTS[scheme]
            and validate_host(name, _allowed_hosts())
        )
    return origin == own_origin(scope)


class OriginGuard:
    """The websocket's CSRF defence, in front of everything (``okeysite.asgi``): a socket
    whose Origin is not the site's own (``origin_allowed``) is refused at the handshake
    (HTTP 403), before any other work. Channels' ``AllowedHostsOriginValidator`` compared
    the origin's host name alone, so any scheme and port of an allowed host passed
    (another program on the same machine, a plain-http page of an https site)."""

    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("type") == "websocket" and not origin_allowed(scope):
            from channels.security.websocket import WebsocketDenier

            await WebsocketDenier.as_asgi()(scope, receive, send)
            return
        await self.app(scope, receive, send)
