"""The bot stream's bounds, against a real server (``limits_server``: at most two streams
per account, a stream closed after 16 kB, away seats played after one second): too many
streams answer 429; a client that never reads is closed after the byte cap and its seats go
away, so their stand-ins play; an open stream keeps its seats present and closing it makes
them away, as a table page's socket does."""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request
from urllib.parse import urlsplit

import pytest

from tests.support.waits import wait_until

pytestmark = pytest.mark.e2e


def open_stream(server, token: str):
    req = urllib.request.Request(f"{server.url}/api/v1/bot/stream")
    req.add_header("Authorization", f"Bearer {token}")
    return urllib.request.urlopen(req, timeout=30)


def post(server, token: str, path: str, body: dict) -> dict:
    req = urllib.request.Request(
        f"{server.url}/api/v1{path}", data=json.dumps(body).encode(), method="POST"
    )
    req.add_header("Authorization", f"Bearer {token}")
    req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.loads(resp.read())


def seats_of(server, username: str) -> list[tuple[int, bool, int]]:
    """(connections, away, stand-in moves) of each seat of ``username``, read in the
    server's database."""
    out = server.shell(
        "import json\n"
        "from games.models import HandAction, Seat\n"
        f"rows = Seat.objects.filter(user__username={username!r}).order_by('pk')\n"
        "print(json.dumps([(s.connections, s.away_since is not None, HandAction.objects.filter("
        "hand__table=s.table, seat=s.position, by_cpu=True).count()) for s in rows]))"
    )
    return [tuple(r) for r in json.loads(out.strip().splitlines()[-1])]


def test_a_third_stream_of_one_account_is_refused_with_429(limits_server):
    token = limits_server.accounts(("many", True))["many"]
    first, second = open_stream(limits_server, token), open_stream(limits_server, token)
    assert json.loads(first.readline())["type"] == "hello"
    assert json.loads(second.readline())["type"] == "hello"
    with pytest.raises(urllib.error.HTTPError) as e:
        open_stream(limits_server, token)
    assert e.value.code == 429
    assert e.value.headers["Retry-After"]
    assert json.loads(e.value.read())["code"] == "too_many_streams"
    first.close()

    def reopened():
        try:
            return open_stream(limits_server, token)
        except urllib.error.HTTPError:
            return None

    third = wait_until(reopened, "a stream to open once one closed", timeout=20, interval=0.3)
    assert json.loads(third.readline())["type"] == "hello"
    second.close()
    third.close()


def test_an_open_stream_keeps_the_seat_present_and_closing_it_makes_it_away(limits_server):
    token = limits_server.accounts(("present", True))["present"]
    post(limits_server, token, "/tables", {"variant": "classic", "options": {}})
    stream = open_stream(limits_server, token)
    lines = iter(stream.readline, b"")
    assert next(lines) and json.loads(next(lines))["type"] == "table"
    assert wait_until(
        lambda: seats_of(limits_server, "present")[0][:2] == (1, False),
        "the stream to count as the seat's connection",
        timeout=30,
        interval=0.3,
    )
    stream.close()
    wait_until(
        lambda: seats_of(limits_server, "present")[0][:2] == (0, True),
        "the seat to be away once its stream closed",
        timeout=30,
        interval=0.3,
    )


def test_a_client_that_never_reads_is_closed_and_its_tables_play_on(limits_server):
    token = limits_server.accounts(("quiet", True))["quiet"]
    for _ in range(6):  # six tables: their first lines alone pass the 16 kB cap
        post(limits_server, token, "/tables", {"variant": "classic", "options": {}})
    where = urlsplit(limits_server.url)
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect((where.hostname, where.port))
    sock.sendall(
        (
            "GET /api/v1/bot/stream HTTP/1.1\r\n"
            f"Host: {where.netloc}\r\nAuthorization: Bearer {token}\r\n\r\n"
        ).encode()
    )
    try:
        # nothing is read; the server closes the stream: the seats are away, and each
        # table's stand-in plays the bot's turns
        wait_until(
            lambda: all(
                c == 0 and away and moves > 0 for c, away, moves in seats_of(limits_server, "quiet")
            ),
            "the quiet bot's stand-ins to play",
            timeout=60,
            interval=0.5,
        )
        sock.settimeout(10)
        data = b""
        while not data.endswith(b"\r\n0\r\n\r\n"):  # the response's last chunk
            data += sock.recv(65536)
    finally:
        sock.close()
    body = data.split(b"\r\n\r\n", 1)[1]
    assert b'{"type":"closed","reason":"max_bytes"}' in body
    # what it held for the client: the cap and the headers and chunk sizes around it
    assert len(body) < 16000 + 8000
