"""/healthz in the multi-process layout: ``manage.py serve`` processes on PostgreSQL and
Redis (as tests/games/test_multiprocess.py runs them). Stopping PostgreSQL makes /healthz
answer 503 naming "database", stopping Redis names the channel layer and the cache, and
once each is started again /healthz answers 200 without restarting the site. The servers
here are this module's own, so the test can stop and start them."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import Message
from pathlib import Path

import pytest

from games.tools.site import servers as bench
from tests.support import servers
from tests.support.servers import _as_postgres, _pg_bin, free_port
from tests.support.waits import wait_for_port, wait_until

pytestmark = [pytest.mark.servers, pytest.mark.slow]


@dataclass
class Service:
    """A server process the test stops and starts again on the same port and data."""

    command: list[str]
    port: int
    log: Path
    stop_command: list[str] | None = None
    proc: subprocess.Popen | None = field(default=None)

    def start(self) -> None:
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(self.command, stdout=log, stderr=subprocess.STDOUT)
        try:
            wait_for_port(self.port, timeout=30, interval=0.05, proc=self.proc)
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n{self.log.read_text(errors='replace')}") from None

    def stop(self) -> None:
        """``stop_command`` (PostgreSQL's ``pg_ctl stop -m fast``: its clients are cut off at
        once), else SIGINT; then wait for the process."""
        if self.proc is not None and self.proc.poll() is None:
            if self.stop_command is not None:
                subprocess.run(self.stop_command, check=True, capture_output=True, timeout=60)
            else:
                self.proc.send_signal(signal.SIGINT)
            self.proc.wait(30)


@pytest.fixture(scope="module")
def pg() -> Iterator[Service]:
    base = Path(tempfile.mkdtemp(prefix="okey-ops-pg-"))
    if os.getuid() == 0:
        shutil.chown(base, "postgres")
    data = base / "data"
    subprocess.run(
        _as_postgres([_pg_bin("initdb"), "-D", str(data), "-A", "trust", "-U", "postgres"]),
        check=True,
        capture_output=True,
    )
    port = free_port()
    service = Service(
        _as_postgres(
            [_pg_bin("postgres"), "-D", str(data), "-p", str(port), "-k", str(base)]
            + ["-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"]
        ),
        port,
        Path(tempfile.gettempdir()) / f"okey-ops-pg-{port}.log",
        _as_postgres([_pg_bin("pg_ctl"), "stop", "-D", str(data), "-m", "fast", "-w"]),
    )
    service.start()
    try:
        yield service
    finally:
        service.stop()
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="module")
def rd() -> Iterator[Service]:
    exe = shutil.which("redis-server")
    assert exe, "Redis is missing: apt-get install -y redis-server (make test does)"
    port = free_port()
    service = Service(
        [exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        port,
        Path(tempfile.gettempdir()) / f"okey-ops-redis-{port}.log",
    )
    service.start()
    try:
        yield service
    finally:
        service.stop()


@pytest.fixture(scope="module")
def site(pg: Service, rd: Service) -> Iterator[list[int]]:
    """Two ``manage.py serve`` processes on the PostgreSQL and the Redis above, nginx (the
    site's configuration) in front; yields the processes' ports, then nginx's."""
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(
        DATABASE_URL=f"postgres://postgres@127.0.0.1:{pg.port}/postgres",
        REDIS_URL=f"redis://127.0.0.1:{rd.port}/0",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_SETTINGS_MODULE="okeysite.settings",
    )
    servers.manage(env, "migrate", "--noinput", "-v", "0")
    ports = [free_port(), free_port()]
    procs = [servers.serve(env, p) for p in ports]
    nginx = None
    try:
        for p in ports:
            servers.wait_for_http(f"http://127.0.0.1:{p}/healthz", proc=procs[ports.index(p)])
        nginx = bench.start_nginx(ports)
        yield [*ports, nginx.port]
    finally:
        if nginx is not None:
            bench.stop_nginx(nginx)
        for proc in procs:
            servers.stop(proc)


def healthz(port: int) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def wait_for(ports: list[int], status: int, failing: list[str]) -> None:
    for port in ports:

        def reached(port: int = port) -> bool:
            got, body = healthz(port)
            return got == status and body["failing"] == failing

        wait_until(reached, f":{port}/healthz {status} {failing}", timeout=60, interval=0.2)


def get(url: str, **headers: str) -> tuple[int, Message, bytes]:
    """Status, headers (looked up in any case) and body of a GET."""
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers, exc.read()


def test_through_nginx_metrics_is_refused_and_requests_carry_nginxs_id(site):
    *ports, proxy = site
    status, _headers, body = get(f"http://127.0.0.1:{ports[0]}/metrics")
    assert status == 200 and b"okey_actions_total" in body  # the scraper, at the process
    status, _headers, body = get(f"http://127.0.0.1:{proxy}/metrics")
    assert status == 404 and b"okey_" not in body
    status, headers, _body = get(f"http://127.0.0.1:{proxy}/healthz")
    assert status == 200
    rid = headers["X-Request-ID"]  # nginx's $request_id, 32 hex digits, sent back
    assert len(rid) == 32 and int(rid, 16) >= 0
    _status, again, _body = get(f"http://127.0.0.1:{proxy}/healthz", **{"X-Request-ID": rid})
    assert again["X-Request-ID"] != rid  # nginx sets its own id: a client's is not trusted


def test_healthz_names_a_stopped_postgresql_then_a_stopped_redis(site, pg, rd):
    ports = site[:-1]
    for port in ports:
        assert healthz(port) == (
            200,
            {
                "status": "ok",
                "checks": dict.fromkeys(["database", "channel_layer", "cache", "sweeper"], "ok"),
                "failing": [],
            },
        )
    pg.stop()
    wait_for(ports, 503, ["database"])
    # while it stays down, each answer still comes, within the pool's wait for a
    # connection (10 s, okeysite/settings.py) and the checks after it
    for port in ports:
        started = time.monotonic()
        assert healthz(port)[0] == 503
        took = time.monotonic() - started
        assert took < 15
    pg.start()
    wait_for(ports, 200, [])
    rd.stop()
    wait_for(ports, 503, ["channel_layer", "cache"])
    rd.start()
    wait_for(ports, 200, [])
