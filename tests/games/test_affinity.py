"""Table affinity: nginx, with the site's own configuration (okeysite/deploy/nginx.conf,
included unchanged by games.tools.site.servers.start_nginx), sends every socket of a table to
one process and spreads the pages.

Real nginx (Debian's package; ``make test`` installs it) in front of small HTTP servers
in this process, each answering with its name and the headers it was sent: what is
checked is nginx's own routing, not a re-implementation of its hash. The same file in
front of real ``manage.py serve`` processes: tests/games/test_multiprocess.py.
"""

from __future__ import annotations

import http.server
import json
import random
import re
import string
import threading
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator

import pytest
from django.test import RequestFactory

from accounts.throttle import client_ip
from games.tools.site import servers
from okeysite.routing import websocket_urlpatterns

pytestmark = pytest.mark.servers  # nginx processes

CODES = 100  # table codes per check; each process's share of the ring is about 1/n


class Backend:
    """A stand-in for one ``manage.py serve`` process: answers any GET with its name
    and the request's headers (JSON)."""

    def __init__(self, name: str) -> None:
        self.name = name

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802
                body = json.dumps({"name": name, "headers": dict(self.headers)}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer((servers.HOST, 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="module")
def backends() -> Iterator[list[Backend]]:
    assert servers.nginx_binary(), "nginx is missing: apt-get install -y nginx (make test does)"
    made = [Backend(name) for name in "ABC"]
    yield made
    for b in made:
        b.close()


@pytest.fixture(scope="module")
def nginx(backends: list[Backend]) -> Iterator[servers.Nginx]:
    """nginx in front of processes A and B."""
    n = servers.start_nginx([b.port for b in backends[:2]])
    yield n
    servers.stop_nginx(n)


def get(nginx: servers.Nginx, path: str, **headers: str) -> dict:
    req = urllib.request.Request(f"http://{servers.HOST}:{nginx.port}{path}", headers=headers)
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def answered_by(nginx: servers.Nginx, path: str) -> str:
    return get(nginx, path)["name"]


def table_codes(n: int, seed: int) -> list[str]:
    """Codes shaped like the site's (games.models.new_code: ten URL-safe characters)."""
    rng = random.Random(seed)
    alphabet = string.ascii_letters + string.digits + "-_"
    return ["".join(rng.choice(alphabet) for _ in range(10)) for _ in range(n)]


def routing(nginx: servers.Nginx, codes: list[str]) -> dict[str, str]:
    return {code: answered_by(nginx, f"/ws/t/{code}/") for code in codes}


def test_every_socket_of_a_table_reaches_the_same_process(nginx):
    """Each table's sockets (its seats', its watchers', a reconnect's), asked for one
    after another with a page between, go to one process; and the tables spread over
    both."""
    codes = table_codes(CODES, seed=1)
    seen: dict[str, set[str]] = {}
    for code in codes:
        seen[code] = set()
        for _socket in range(3):
            seen[code].add(answered_by(nginx, f"/ws/t/{code}/"))
            answered_by(nginx, f"/t/{code}/")
    assert all(len(names) == 1 for names in seen.values()), seen
    spread = Counter(next(iter(names)) for names in seen.values())
    assert set(spread) == {"A", "B"} and min(spread.values()) >= CODES // 5, spread


def test_the_route_is_the_codes_not_the_order_or_the_nginx(nginx, backends):
    """Another nginx, with the processes listed the other way round, sends every table to
    the same process: the hash is over the table code and the processes' addresses, so
    restarts, reloads and a reordered okey-servers.conf move no table."""
    codes = table_codes(CODES, seed=2)
    before = routing(nginx, codes)
    other = servers.start_nginx([backends[1].port, backends[0].port])
    try:
        assert routing(other, codes) == before
    finally:
        servers.stop_nginx(other)


def test_a_new_process_takes_tables_only_to_itself(nginx, backends):
    """Consistent hashing: with a third process, the tables that move all move to it
    (about a third of them); no table moves between the two that were there."""
    codes = table_codes(CODES, seed=3)
    before = routing(nginx, codes)
    three = servers.start_nginx([b.port for b in backends])
    try:
        after = routing(three, codes)
    finally:
        servers.stop_nginx(three)
    moved = {code for code in codes if after[code] != before[code]}
    assert {after[code] for code in moved} == {"C"}
    assert CODES // 6 <= len(moved) <= CODES // 2, len(moved)


def test_pages_static_files_and_the_lobby_socket_go_round_robin(nginx):
    for path in ("/", "/t/abc123/", "/static/css/site.css", "/ws/lobby/"):
        names = [answered_by(nginx, path) for _ in range(6)]
        assert Counter(names) == {"A": 3, "B": 3}, (path, names)


def sample_path(route: str, value: str) -> str:
    """A websocket route of okeysite/routing.py with each of its parameters set to ``value``
    (digits for an ``int`` one)."""
    return "/" + re.sub(
        r"<(?:(\w+):)?\w+>",
        lambda m: str(sum(map(ord, value))) if m.group(1) == "int" else value,
        route,
    )


def test_every_websocket_route_of_the_site_is_routed_on_purpose(nginx):
    """Each websocket route of okeysite/routing.py: one with a parameter (a table's code, a
    tournament's id) is hashed by it (each value to one process, the values over both);
    one without (the lobby) is spread like a page. A new route lands in one of the two
    on purpose, not in whatever nginx does by default."""
    routes = [str(p.pattern) for p in websocket_urlpatterns]
    assert "ws/t/<str:code>/" in routes and "ws/lobby/" in routes
    for route in routes:
        if "<" not in route:
            names = [answered_by(nginx, "/" + route) for _ in range(4)]
            assert Counter(names) == {"A": 2, "B": 2}, route
            continue
        by_value = {}
        for value in table_codes(40, seed=4):
            path = sample_path(route, value)
            names = {answered_by(nginx, path) for _ in range(2)}
            assert len(names) == 1, (path, names)
            by_value[path] = names.pop()
        assert set(by_value.values()) == {"A", "B"}, route


def test_sockets_are_upgraded_and_the_client_address_is_appended(nginx, settings):
    """The upgrade reaches the process for every socket route; nginx appends the address
    it saw to X-Forwarded-For and overwrites X-Forwarded-Proto, so with TRUSTED_PROXIES=1
    (docs/deployment.md) the site counts the real client, not an address the client
    wrote."""
    for path in ("/ws/t/abc123/", "/ws/tournament/7/", "/ws/lobby/"):
        sent = get(nginx, path, Upgrade="websocket", Connection="Upgrade")["headers"]
        assert sent["Upgrade"] == "websocket" and sent["Connection"] == "upgrade", path
    page = get(nginx, "/", **{"X-Forwarded-For": "6.6.6.6", "X-Forwarded-Proto": "https"})
    headers = page["headers"]
    assert "Upgrade" not in headers  # a page goes on a kept-alive connection
    assert headers["X-Forwarded-For"] == "6.6.6.6, 127.0.0.1"
    assert headers["X-Forwarded-Proto"] == "http"  # what nginx was reached by
    assert headers["Host"] == f"{servers.HOST}:{nginx.port}"  # as the browser sent it

    settings.TRUSTED_PROXIES = 1
    request = RequestFactory().get(
        "/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=headers["X-Forwarded-For"]
    )
    assert client_ip(request) == "127.0.0.1"  # nginx's view of the client, not 6.6.6.6


def test_nginx_logs_which_process_answered(backends):
    """What the multi-process test and loadbench read to see where nginx sent a socket:
    its log names, for each path, the process that answered (a space in the path
    included)."""
    n = servers.start_nginx([b.port for b in backends[:2]])
    try:
        name_of = {b.port: b.name for b in backends}
        paths = ["/ws/t/abc123/", "/t/a%20b/", "/ws/lobby/", "/"]
        answers = [(path, answered_by(n, path)) for path in paths]
        end = time.monotonic() + 10
        while len(n.routed()) < len(paths):  # a line is written as each request ends
            assert time.monotonic() < end, n.routed()
            time.sleep(0.05)
        logged = [(uri, name_of[port]) for uri, status, port in n.routed() if status == 200]
    finally:
        servers.stop_nginx(n)
    assert logged == [(path.replace("%20", " "), name) for path, name in answers]
