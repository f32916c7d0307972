"""Hostile input found by probing the running site: each test is a hole that was open."""

from __future__ import annotations

import copy
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from games.common import heavy
from games.tournaments.models import Entry, Tournament
from tests.support.accounts import make_user
from tests.tournaments.test_import_limits import big_file

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_pause_between_imports(monkeypatch):
    """games.common.heavy spaces imports out; these tests import one after another."""
    monkeypatch.setattr(heavy, "SHARE", 1.0)
    monkeypatch.setattr(heavy, "_next_start", 0.0)


@pytest.mark.parametrize("value", ["", "yes", 1, [], {"a": 1}])
def test_a_tournament_file_whose_three_player_switch_is_not_true_or_false_is_refused(client, value):
    organiser = make_user("orga")
    client.force_login(organiser)
    doc = copy.deepcopy(big_file(organiser, 4))
    doc["tournament"]["three_player_tables"] = value
    upload = SimpleUploadedFile("t.json", json.dumps(doc).encode(), "application/json")
    response = client.post(reverse("tournaments:import"), {"file": upload})
    assert response.status_code == 400
    assert "import-error" in response.content.decode()
    assert (Tournament.objects.count(), Entry.objects.count()) == (0, 0)


class _Transport:
    """What ``serve.unsent_bytes`` reads of a Twisted TCP transport."""

    def __init__(self) -> None:
        self.dataBuffer, self.offset, self._tempDataLen = b"", 0, 0

    def write(self, data: bytes) -> None:  # the kernel's buffer is full: Twisted keeps it
        self._tempDataLen += len(data)


class _Protocol:
    """daphne's WebSocketProtocol as ``bounded_protocol`` uses it when sending."""

    STATE_OPEN = 3

    def __init__(self) -> None:
        self.state, self.transport, self.aborted = self.STATE_OPEN, _Transport(), False

    def dropConnection(self, abort: bool = False) -> None:  # noqa: N802
        self.aborted = abort

    def handle_reply(self, message: dict) -> None:
        self.transport.write(message["text"].encode())


def test_a_client_that_reads_nothing_is_dropped_once_its_unsent_frames_pile_up():
    from games.management.commands.serve import MAX_UNSENT_BYTES, bounded_protocol

    proto = bounded_protocol(_Protocol)()
    frame = {"type": "websocket.send", "text": "x" * 4096}
    sent = 0
    while not proto.aborted and sent < 2 * MAX_UNSENT_BYTES // 4096:
        proto.handle_reply(frame)
        sent += 1
    assert proto.aborted
    held = proto.transport._tempDataLen
    assert MAX_UNSENT_BYTES < held <= MAX_UNSENT_BYTES + 4096  # nothing more was queued


def test_a_client_that_reads_keeps_its_socket():
    from games.management.commands.serve import MAX_UNSENT_BYTES, bounded_protocol

    proto = bounded_protocol(_Protocol)()
    for _ in range(4 * MAX_UNSENT_BYTES // 4096):
        proto.handle_reply({"type": "websocket.send", "text": "x" * 4096})
        proto.transport._tempDataLen = 0  # the kernel took it
    assert not proto.aborted


@pytest.fixture
def served(tmp_path):
    """A real ``manage.py serve`` (no sweeper) on a free port; its base address."""
    import os
    import subprocess
    import sys

    from tests.support.servers import ROOT, free_port
    from tests.support.waits import wait_for_port

    env = {
        **{k: v for k, v in os.environ.items() if k not in {"REDIS_URL"}},
        "DATABASE_URL": f"sqlite:///{tmp_path / 'served.sqlite3'}",
        "DJANGO_SETTINGS_MODULE": "okeysite.settings",
        "ALLOWED_HOSTS": "127.0.0.1",
        "DEBUG": "0",
    }
    migrate = [sys.executable, "manage.py", "migrate", "-v", "0"]
    assert subprocess.run(migrate, cwd=ROOT, env=env, timeout=120).returncode == 0
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--port", str(port), "--no-sweeper"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_port(port, timeout=60)
        yield port
    finally:
        server.kill()
        server.wait(10)


def _post_body(port: int, chunks, headers: str) -> tuple[bytes, int]:
    """Send a POST to /review/import/ chunk by chunk; the status line the server
    answered and how many body bytes it took before it did."""
    import socket

    with socket.create_connection(("127.0.0.1", port), 10) as sock:
        sock.sendall(f"POST /review/import/ HTTP/1.1\r\nHost: 127.0.0.1\r\n{headers}\r\n".encode())
        sent = 0
        try:
            for chunk in chunks:
                sock.sendall(chunk)
                sent += len(chunk)
        except OSError:  # the server closed the connection: it takes no more
            pass
        sock.settimeout(10)
        try:
            answer = sock.recv(200)
        except OSError:
            answer = b""
        return answer.split(b"\r\n")[0], sent


@pytest.mark.servers
def test_a_request_body_over_the_largest_upload_is_refused_before_it_is_stored(served):
    from games.management.commands.serve import MAX_REQUEST_BODY

    size = 64 * MAX_REQUEST_BODY
    status, _sent = _post_body(served, [], f"Content-Length: {size}\r\n")
    assert status == b"HTTP/1.1 413 Content Too Large"
    # no length declared: refused once it has sent more than the bound
    chunk = b"x" * 65536
    body = (b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(size // len(chunk)))
    status, sent = _post_body(served, body, "Transfer-Encoding: chunked\r\n")
    assert status == b"HTTP/1.1 413 Content Too Large"
    assert sent < size // 2


@pytest.mark.servers
def test_a_request_body_within_the_bound_reaches_the_site(served):
    status, _sent = _post_body(served, [b"x" * 100_000], "Content-Length: 100000\r\n")
    assert status == b"HTTP/1.1 403 Forbidden"  # the site's answer: no CSRF token
