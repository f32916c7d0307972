"""Heavy work takes turns, shared per client first, so that live tables keep their share
of the CPU and one client's flood cannot slow another client's pages.

What runs where (Django 5.2, asgiref 3.13, Channels 4.3; docs/heavy-pages.md): Django's
ASGI handler enters a fresh ``asgiref.sync.ThreadSensitiveContext`` for every HTTP
request, so each request's sync view runs in a one-thread executor of its own. The
websocket consumers' ``database_sync_to_async`` calls (and the sweeper's) run outside any
such context, in asgiref's one process-wide ``SyncToAsync.single_thread_executor``. A
page therefore never occupies the live tables' thread, but every thread of the process
shares one interpreter lock: a page that computes for a second slows every table move of
that second, and four such pages at once slow them four times as much.

Three gates, passed in this order (docs/security.md "Heavy pages, per client"):

1. **The client's own place in line** (:func:`client_of`: the account, else the session,
   else the IP address as ``accounts.throttle.client_ip`` counts it). A client has at
   most one heavy request in the gates at a time; its next one waits for it (up to
   ``WAIT_S`` seconds, then "busy", 503, nothing changed). One address holds at most
   ``IP_AT_ONCE`` clients' places at a time (sessions are cheap to make; a further one
   is answered "busy" at once); a loopback address has no such cap (as in
   ``okeysite.wsguard``: a proxy in front without ``TRUSTED_PROXIES``, a benchmark).
2. **Imports** (the review and tournament imports, real work on untrusted input, through
   :func:`one_at_a_time`): one at a time in the process (SQLite has one writer), in the
   order they asked; they use at most ``SHARE`` of the time (after an import of d
   seconds the next starts d × (1/SHARE − 1) later), and while one runs the interpreter
   hands over between threads every ``SWITCH_S`` (0.5 ms instead of Python's 5 ms), so
   a table move waiting for the interpreter lock waits less.
3. **The turn** (:func:`in_turn`): at most ``AT_ONCE`` (one) heavy computation, pages and
   imports together, runs at a time in the process; the others wait, in the order they
   asked (a waiting thread costs no CPU), so a flood competes with the tables' threads
   as one thread, not as many as there are requests. While the process serves live
   tables (a table socket is open in it) the heavy pages use at most ``PAGE_SHARE`` of
   the time: after a page of d seconds the next starts d × (1/PAGE_SHARE − 1) later at
   the earliest (docs/heavy-pages.md). A process without live tables (a
   pages-only process, a quiet one) serves them back to back.

The shares of the time are the process's (the tables' protection does not grow with the
number of clients), and the clients share them: since a client has one request in line
at a time and the turns are given in order, a client's request waits behind at most one
request (and its pause) of each other client, whatever one of them sends; N requests of
one client no longer queue ahead of everybody else's, and the flooder waits behind its
own requests.

The heavy pages (a hand's replay and its commentary, a tournament's page and its
who-met-whom matrix, the lobby, the live tables; their inner parts are kept rendered,
``games.common.pagecache``) go through :func:`page`.
"""

from __future__ import annotations

import functools
import ipaddress
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

WAIT_S = 5.0
SHARE = 0.25
PAGE_SHARE = 0.25  # settings.OKEY_PAGE_SHARE overrides it (1 turns the pacing off)
SWITCH_S = 0.0005
AT_ONCE = 1
IP_AT_ONCE = 4  # clients of one address holding a place in line at once

# injectable for tests (a fake clock): the pacing's clock and sleep
clock: Callable[[], float] = time.monotonic
sleep: Callable[[float], None] = time.sleep
_next_start = 0.0  # the time the next import may start
_next_page = 0.0  # the time the next heavy page may start while tables are live


class Busy(Exception):
    """The request's turn, or the start it may have, is more than its budget away."""


class Turns:
    """At most ``n`` holders at once, given in the order they asked (first come, first
    served: ``threading.Semaphore`` lets a newcomer overtake a waiter that was woken)."""

    def __init__(self, n: int) -> None:
        self._n = n
        self._held = 0
        self._queue: deque[object] = deque()
        self._cond = threading.Condition()

    def acquire(self, timeout: float | None = None) -> bool:
        deadline = None if timeout is None else time.monotonic() + timeout
        me = object()
        with self._cond:
            self._queue.append(me)
            try:
                while self._queue[0] is not me or self._held >= self._n:
                    left = None if deadline is None else deadline - time.monotonic()
                    if left is not None and left <= 0:
                        return False
                    self._cond.wait(left)
                self._held += 1
                return True
            finally:
                self._queue.remove(me)
                self._cond.notify_all()  # the next in line may go (or is now the head)

    def release(self) -> None:
        with self._cond:
            if self._held <= 0:
                raise ValueError("Turns released too many times")
            self._held -= 1
            self._cond.notify_all()


GATE = Turns(1)  # imports
SLOTS = Turns(AT_ONCE)  # every heavy computation


@dataclass
class _Client:
    """One client's place in line, and how many of its requests want it."""

    lock: threading.Lock
    users: int = 0


_clients: dict[str, _Client] = {}  # clients with a request in the gates (then forgotten)
_ips: dict[str, int] = {}  # address -> clients of it holding their place now
_registry = threading.Lock()
_held = threading.local()  # the client whose share this thread holds, and how deep


def client_of(request: Any) -> str:
    """Who a request comes from, for the shares: ``u:<pk>`` for an account, else
    ``s:<key>`` for an existing session (a made-up session cookie is not one: the
    session is loaded, and an unknown key is dropped), else ``ip:<address>``; each with
    ``|<address>`` so that :data:`IP_AT_ONCE` can count an address's clients."""
    from accounts.throttle import client_ip

    ip = client_ip(request)
    user = getattr(request, "user", None)
    if user is not None and getattr(user, "is_authenticated", False):
        return f"u:{user.pk}|{ip}"
    session = getattr(request, "session", None)
    if session is not None and session.session_key:
        session.get("_auth_user_id")  # loads it: an unknown key becomes None
        if session.session_key:
            return f"s:{session.session_key}|{ip}"
    return f"ip:{ip}|{ip}"


def _address(client: str) -> str | None:
    """The address whose clients :data:`IP_AT_ONCE` counts; None for none or loopback."""
    address = client.rpartition("|")[2] if "|" in client else ""
    try:
        network = ipaddress.ip_network(address, strict=False)
    except ValueError:
        return address or None
    return None if network.network_address.is_loopback else address


@contextmanager
def _share(client: str | None, budget: float) -> Iterator[None]:
    """Hold ``client``'s one place in line (waiting up to ``budget`` seconds), or
    :class:`Busy`. A thread that holds one keeps it in nested blocks (a page that
    imports), whatever ``client`` is given there."""
    if getattr(_held, "state", None) is not None:
        yield
        return
    key = client or "process"
    address = _address(key)
    with _registry:
        state = _clients.get(key)
        if state is None:
            state = _clients[key] = _Client(lock=threading.Lock())
        state.users += 1
    try:
        if not state.lock.acquire(timeout=budget):
            raise Busy
        try:
            with _registry:
                crowded = address is not None and _ips.get(address, 0) >= IP_AT_ONCE
                if address is not None and not crowded:
                    _ips[address] = _ips.get(address, 0) + 1
            if crowded:
                raise Busy
            try:
                _held.state = state
                try:
                    yield
                finally:
                    _held.state = None
            finally:
                if address is not None:
                    with _registry:
                        _ips[address] -= 1
                        if not _ips[address]:
                            del _ips[address]
        finally:
            state.lock.release()
    finally:
        with _registry:
            state.users -= 1
            if state.users == 0:
                del _clients[key]


def _wait_until(start_at: float, asked: float, budget: float) -> None:
    """Sleep until ``start_at`` (the pacing), or :class:`Busy` when that is past the
    request's budget."""
    delay = start_at - clock()
    if delay > 0:
        if clock() + delay - asked > budget:
            raise Busy
        sleep(delay)


def _left(asked: float, budget: float) -> float:
    return max(0.0, budget - (clock() - asked))


@contextmanager
def one_at_a_time(wait_s: float | None = None, client: str | None = None) -> Iterator[None]:
    """Run the block as an import (the module's docstring), or raise :class:`Busy`.
    ``client``: :func:`client_of` the request (inside a page, the page's client)."""
    global _next_start
    budget = WAIT_S if wait_s is None else wait_s
    asked = clock()
    with _share(client, budget):
        if not GATE.acquire(timeout=_left(asked, budget)):
            raise Busy
        try:
            _wait_until(_next_start, asked, budget)
            with in_turn(_left(asked, budget)):
                interval = sys.getswitchinterval()
                sys.setswitchinterval(SWITCH_S)
                started = clock()
                try:
                    yield
                finally:
                    sys.setswitchinterval(interval)
                    took = clock() - started
                    _next_start = clock() + took * (1 / SHARE - 1)
        finally:
            GATE.release()


_turns = threading.local()  # how deep this thread is in in_turn blocks


@contextmanager
def in_turn(wait_s: float | None = None) -> Iterator[None]:
    """Run the block as one of at most ``AT_ONCE`` heavy computations (pages and imports
    together), or raise :class:`Busy` after waiting ``WAIT_S`` seconds for a turn. A
    thread that has its turn keeps it in nested blocks (a page that imports)."""
    depth = getattr(_turns, "depth", 0)
    if depth == 0 and not SLOTS.acquire(timeout=WAIT_S if wait_s is None else wait_s):
        raise Busy
    _turns.depth = depth + 1
    try:
        yield
    finally:
        _turns.depth = depth
        if depth == 0:
            SLOTS.release()


def tables_live() -> bool:
    """Does this process serve a live table (an open table socket, ``realtime.hub``)?"""
    from games.live import realtime

    return bool(realtime._HUBS)


def page_share() -> float:
    from django.conf import settings

    return float(getattr(settings, "OKEY_PAGE_SHARE", PAGE_SHARE))


@contextmanager
def paced_page(wait_s: float | None = None, client: str | None = None) -> Iterator[None]:
    """Run the block as a heavy page of ``client``: in the client's place in line, then
    in its turn (:func:`in_turn`) and, while the process serves live tables, at most
    ``page_share()`` of the time (the module's docstring); :class:`Busy` when the turn,
    or the start it may have, is more than ``WAIT_S`` away."""
    global _next_page
    budget = WAIT_S if wait_s is None else wait_s
    asked = clock()
    with _share(client, budget), in_turn(_left(asked, budget)):
        share = page_share()
        pacing = share < 1 and tables_live()
        if pacing:
            _wait_until(_next_page, asked, budget)
        started = clock()
        try:
            yield
        finally:
            if pacing:
                took = clock() - started
                _next_page = clock() + took * (1 / share - 1)


def page(view: Callable[..., Any]) -> Callable[..., Any]:
    """A view that runs as :func:`paced_page` of its client; a 503 "busy" page when no
    turn came."""

    @functools.wraps(view)
    def wrapped(request: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            with paced_page(client=client_of(request)):
                return view(request, *args, **kwargs)
        except Busy:
            return busy_response()

    return wrapped


def busy_response() -> Any:
    from django.http import HttpResponse
    from django.utils.translation import gettext as _

    text = _("The server is busy. Try again in a moment.")
    return HttpResponse(text, status=503, content_type="text/plain; charset=utf-8")
