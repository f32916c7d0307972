"""``manage.py serve``: daphne plus the sweeper loop, in one process.

This is what ``make run`` starts. The sweeper runs on daphne's own asyncio
loop, so CPU seats and turn clocks keep playing with no browser connected and
resume after a restart (their due times are in the database).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import os
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from django.core.management.base import BaseCommand

GC_THRESHOLDS = (5_000, 50, 1_000)

# How long a thread may hold the interpreter before another gets its turn. Page views run in
# threads of their own while the tables' frames wait in the event loop and the database
# thread: at Python's 5 ms a heavy page (a tournament's standings, ~60 ms to render) holds
# every table back in 5 ms slices. At 0.5 ms the tables' p99 during a 100-table run with a
# client looping over the heaviest pages fell from 54-95 ms to 41 ms (alone: 13-19 ms),
# with no cost at 250 tables (3.4 ms CPU per action, p99 33 ms; docs/benchmarks.md).
SWITCH_INTERVAL_S = 0.0005


def switch_interval() -> float:
    """``OKEY_SWITCH_INTERVAL_S`` from the environment (seconds), else the default."""
    value = os.environ.get("OKEY_SWITCH_INTERVAL_S", "")
    try:
        return float(value) if value and float(value) > 0 else SWITCH_INTERVAL_S
    except ValueError:
        return SWITCH_INTERVAL_S


# Websocket limits at the server, before the application sees a byte. autobahn
# buffers a message whole before handing it over: anything over 64 KB (a table
# frame is at most games.live.consumers.MAX_FRAME_BYTES, 8 KB; the 8-64 KB between
# get a polite refusal) fails the connection with 1009 instead. A client must
# finish the opening handshake within 5 s and the application accept within 10 s.
# What one socket, session or IP may have queued for the application is bounded
# by okeysite.wsguard.
WEBSOCKET_OPTIONS: dict[str, Any] = {
    "websocket_timeout": 86400,
    "websocket_max_message_size": 64 * 1024,
    "websocket_max_frame_size": 64 * 1024,
    "websocket_handshake_timeout": 5,
    "websocket_connect_timeout": 10,
}
# Frames daphne may hold for one socket that its application has not taken. The
# guard (okeysite.wsguard) takes them as they come, so this is reached only when
# nothing reads any more: the application ended, or closed the socket while the
# client sends on without reading the close (a flood). The connection is then
# dropped at the TCP level; before, daphne queued such frames without end.
SERVER_QUEUE_LIMIT = 64
FRAMES_AFTER_CLOSE = 64
# What the server may hold for a client that does not read what it is sent: once the
# kernel's send buffer is full, Twisted keeps every further frame in the transport without
# end. Past this many unsent bytes (a table frame is a few KB, a whole view a few tens;
# a slow phone catches up long before) the connection is dropped instead of sending more.
MAX_UNSENT_BYTES = 1024 * 1024
FULL_COLLECTION_EVERY_S = 600.0
AFTER_FLOOD_S = 10.0


# The largest request body the site takes: an import file (at most 3 MB,
# games.tournaments.exchange.MAX_BYTES) in its form. daphne (twisted.web) stores a whole
# body, however large, in a temporary file before the application sees a byte, and Django
# copies an upload once more: without a bound, one client could fill the disk.
MAX_REQUEST_BODY = 4 * 1024 * 1024
TOO_LARGE_RESPONSE = (
    b"HTTP/1.1 413 Content Too Large\r\nContent-Type: text/plain; charset=utf-8\r\n"
    b"Content-Length: 37\r\nConnection: close\r\n\r\n"
    b"The upload is too large (over 4 MB).\n"
)


def bounded_request(base: type) -> type:
    """daphne's HTTP request, refusing a body over ``MAX_REQUEST_BODY`` (declared or
    sent) with 413 and closing the connection, before storing more of it."""

    class BoundedWebRequest(base):  # type: ignore[misc, valid-type]
        body_bytes = 0
        refused = False

        def gotLength(self, length: int | None) -> None:  # noqa: N802
            if length is not None and length > MAX_REQUEST_BODY:
                self.refuse_too_large()
            super().gotLength(0 if self.refused else length)

        def handleContentChunk(self, data: bytes) -> None:  # noqa: N802
            if self.refused:
                return
            self.body_bytes += len(data)
            if self.body_bytes > MAX_REQUEST_BODY:
                self.refuse_too_large()
                return
            super().handleContentChunk(data)

        def requestReceived(self, command: bytes, path: bytes, version: bytes) -> None:  # noqa: N802
            if not self.refused:
                super().requestReceived(command, path, version)

        def refuse_too_large(self) -> None:
            if not self.refused:
                self.refused = True
                self.channel.transport.write(TOO_LARGE_RESPONSE)
                self.channel.transport.loseConnection()

    return BoundedWebRequest


def unsent_bytes(transport: Any) -> int:
    """The bytes a Twisted transport holds that the kernel has not taken yet
    (``twisted.internet.abstract.FileDescriptor``: its buffer past ``offset``, and the
    writes since its last attempt)."""
    if transport is None:
        return 0
    held = len(getattr(transport, "dataBuffer", b"")) - int(getattr(transport, "offset", 0))
    return held + int(getattr(transport, "_tempDataLen", 0))


def bounded_protocol(base: type) -> type:
    """daphne's websocket protocol, with what one socket may have queued bounded
    and the reason of a close sent on.

    A frame that arrives after the server sent its close is dropped (the RFC
    allows no more data), and past ``FRAMES_AFTER_CLOSE`` of them, or past
    ``SERVER_QUEUE_LIMIT`` unread frames, the connection is aborted. So is a client
    that reads nothing while frames for it pile up past ``MAX_UNSENT_BYTES``."""

    class BoundedWebSocketProtocol(base):  # type: ignore[misc, valid-type]
        frames_after_close = 0

        def onMessage(self, payload: bytes, isBinary: bool) -> None:  # noqa: N802, N803
            queue = getattr(self, "application_queue", None)
            if self.state != self.STATE_OPEN:
                self.frames_after_close += 1
                if self.frames_after_close > FRAMES_AFTER_CLOSE:
                    self.dropConnection(abort=True)
                return
            if queue is not None and queue.qsize() >= SERVER_QUEUE_LIMIT:
                self.dropConnection(abort=True)
                return
            super().onMessage(payload, isBinary)

        def handle_reply(self, message: dict[str, Any]) -> None:
            if (
                message.get("type") == "websocket.send"
                and unsent_bytes(getattr(self, "transport", None)) > MAX_UNSENT_BYTES
            ):
                self.dropConnection(abort=True)  # its consumer gets the disconnect
                return
            # daphne drops a close's reason; the client is told why (e.g. 4429
            # "too many sockets", 4008 "too many messages").
            reason = message.get("reason")
            if (
                message.get("type") == "websocket.close"
                and reason
                and self.state == self.STATE_OPEN
            ):
                self.sendClose(code=message.get("code") or 1000, reason=str(reason)[:120])
                return
            super().handle_reply(message)

    return BoundedWebSocketProtocol


def release_memory() -> None:
    """A full collection, then hand the freed heap pages back to the OS (glibc's
    ``malloc_trim``; elsewhere the collection alone)."""
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)


async def collect_garbage_periodically(
    every: float = FULL_COLLECTION_EVERY_S,
    sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    check: float = AFTER_FLOOD_S,
    floods: Callable[[], int] | None = None,
) -> None:
    """With the thresholds above the collector almost never runs a full collection
    by itself; one every ten minutes keeps memory bounded (reference cycles that
    reached the oldest generation are freed) at the cost of one short pause. A
    socket closed for flooding leaves its buffers behind: within ``check``
    seconds of one, memory is released early (at most once per ``check``)."""
    if floods is None:
        from okeysite.wsguard import floods_seen as floods
    waited, seen = 0.0, floods()
    while True:
        await sleep(check)
        waited += check
        now = floods()
        if waited >= every or now != seen:
            seen, waited = now, 0.0
            release_memory()


class Command(BaseCommand):
    help = "Serve the app with daphne and run the CPU/clock sweeper in the same process."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--no-sweeper", action="store_true")

    def handle(self, *args: Any, **opts: Any) -> None:
        from daphne.endpoints import build_endpoint_description_strings
        from daphne.server import Server  # installs the asyncio reactor
        from django.conf import settings
        from twisted.internet import reactor

        from games.live import actions, sweeper
        from okeysite import metrics
        from okeysite.asgi import application

        if not getattr(settings, "REDIS_URL", ""):
            # One process serves every socket: nobody is connected before it starts.
            # (With Redis and several processes, counts are kept across restarts.)
            actions.do_reset_presence()

        # Fewer, cheaper garbage collections: everything loaded at start-up (Django,
        # templates, the engine) is frozen out of the collector's scans, and young
        # objects are collected in larger batches. A full collection over a busy
        # server's heap paused every table for 100+ ms in the load benchmark.
        sys.setswitchinterval(switch_interval())
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        reactor.callWhenRunning(lambda: asyncio.ensure_future(collect_garbage_periodically()))
        if opts["no_sweeper"]:
            metrics.sweeper.enabled = False  # /healthz does not wait for its passes
        else:

            def start() -> None:
                actions.attach_event_loop(asyncio.get_event_loop())
                asyncio.ensure_future(sweeper.run_forever())

            reactor.callWhenRunning(start)
        from daphne import http_protocol, ws_protocol

        ws_protocol.WebSocketFactory.protocol = bounded_protocol(ws_protocol.WebSocketProtocol)
        http_protocol.WebRequest = bounded_request(http_protocol.WebRequest)
        self.stdout.write(f"Serving on http://{opts['host']}:{opts['port']}/")
        Server(
            application=application,
            endpoints=build_endpoint_description_strings(host=opts["host"], port=opts["port"]),
            application_close_timeout=10,
            **WEBSOCKET_OPTIONS,
            verbosity=1,
        ).run()
