"""A flooding socket against a real ``manage.py serve``: what daphne holds for one
socket is bounded (games/management/commands/serve.py, okeysite/wsguard.py)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from games.management.commands.serve import (
    FRAMES_AFTER_CLOSE,
    SERVER_QUEUE_LIMIT,
    bounded_protocol,
)
from tests.support.servers import ROOT, free_port
from tests.support.waits import wait_for_port


class FakeDaphneProtocol:
    """What ``bounded_protocol`` relies on in daphne's WebSocketProtocol."""

    STATE_OPEN = 3
    STATE_CLOSING = 4

    def __init__(self) -> None:
        self.state = self.STATE_OPEN
        self.application_queue: asyncio.Queue = asyncio.Queue()
        self.aborted = False

    def dropConnection(self, abort: bool = False) -> None:  # noqa: N802
        self.aborted = abort

    def sendClose(self, code: int | None = None, reason: str | None = None) -> None:  # noqa: N802
        self.closed = (code, reason)
        self.state = self.STATE_CLOSING

    def handle_reply(self, message: dict) -> None:
        if message["type"] == "websocket.close":
            self.sendClose(code=message.get("code"))  # daphne: the reason is dropped

    def onMessage(self, payload: bytes, isBinary: bool) -> None:  # noqa: N802, N803
        self.application_queue.put_nowait(payload)


def test_frames_nobody_reads_are_bounded_then_the_connection_is_dropped():
    proto = bounded_protocol(FakeDaphneProtocol)()
    for _ in range(SERVER_QUEUE_LIMIT):
        proto.onMessage(b"x", False)
    assert not proto.aborted
    proto.onMessage(b"x", False)
    assert proto.aborted and proto.application_queue.qsize() == SERVER_QUEUE_LIMIT


def test_frames_after_the_servers_close_are_dropped_and_a_flood_aborts():
    proto = bounded_protocol(FakeDaphneProtocol)()
    proto.state = proto.STATE_CLOSING
    for _ in range(FRAMES_AFTER_CLOSE):
        proto.onMessage(b"x", False)
    assert proto.application_queue.qsize() == 0 and not proto.aborted
    proto.onMessage(b"x", False)
    assert proto.aborted


def test_a_close_tells_the_client_why():
    proto = bounded_protocol(FakeDaphneProtocol)()
    proto.handle_reply({"type": "websocket.close", "code": 4429, "reason": "too many sockets"})
    assert proto.closed == (4429, "too many sockets")


CREATE = """
from django.contrib.sessions.backends.db import SessionStore
from games.live import actions
keys = []
for _ in range(2):
    s = SessionStore(); s.create(); keys.append(s.session_key)
t = actions.do_create_table(variant="rummy", options={"players": 2},
    seats=[actions.SeatSpec("me"), actions.SeatSpec("human")], guest_key=keys[0])
actions.do_join_table(t.pk, guest_key=keys[1])
print("CODE", t.code, "KEY", keys[0])
"""


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


@pytest.mark.slow
@pytest.mark.servers
def test_a_socket_that_floods_without_reading_is_cut_off_and_memory_stays_bounded(tmp_path):
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    env = {
        **{k: v for k, v in os.environ.items() if k not in {"REDIS_URL"}},
        "DATABASE_URL": f"sqlite:///{tmp_path / 'flood.sqlite3'}",
        "DJANGO_SETTINGS_MODULE": "okeysite.settings",
        "ALLOWED_HOSTS": "127.0.0.1",
        "DEBUG": "0",
    }
    run = {"cwd": ROOT, "env": env, "capture_output": True, "text": True, "timeout": 120}
    assert (
        subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], **run).returncode == 0
    )
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", CREATE], **run).stdout
    found = re.search(r"CODE (\S+) KEY (\S+)", out)
    assert found, out
    code, key = found.groups()
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--port", str(port), "--no-sweeper"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        url, origin = f"ws://127.0.0.1:{port}/ws/t/{code}/", f"http://127.0.0.1:{port}"
        wait_for_port(port, timeout=60)
        headers = {"Cookie": f"sessionid={key}"}
        with connect(url, origin=origin, additional_headers=headers) as ws:
            ws.recv(timeout=30)  # the table
            before = rss_mb(server.pid)
            frame, sent = "x" * 8000, 0
            with pytest.raises((ConnectionClosed, OSError)):
                while sent < 400 * 2**20:  # never reading what the server sends
                    ws.send(frame)
                    sent += len(frame)
        assert sent < 40 * 2**20, f"the server took {sent / 2**20:.0f} MB before cutting it off"
        assert rss_mb(server.pid) < before + 60
    finally:
        os.kill(server.pid, signal.SIGKILL)
        server.wait(10)
