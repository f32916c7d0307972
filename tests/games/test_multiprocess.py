"""Past one machine: PostgreSQL + Redis, two server processes.

Two `manage.py serve` processes share one PostgreSQL database and one Redis
channel layer. Two players of one table connect to different processes and see
each other's moves at once; both processes sweep, and every CPU move is played
exactly once. The fixtures start throw-away PostgreSQL and Redis servers from
Debian's packages (`make test` installs them).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import glob
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import ROOT, free_port

VERSION = re.compile(r'id="act-version" name="version" value="(\d+)"')
STATUS = re.compile(r'data-testid="status">([^<]*)<')
RACK = re.compile(r'id="t-rack".*?</section>', re.S)
TILE = re.compile(r'data-id="(\d+)"')


def _pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    assert found, "PostgreSQL is missing: apt-get install -y postgresql (make test does)"
    return found[-1]


def _as_postgres(cmd: list[str]) -> list[str]:
    return cmd if os.getuid() != 0 else ["runuser", "-u", "postgres", "--", *cmd]


@pytest.fixture(scope="module")
def postgres():
    # not under pytest's tmp dirs: those are private to root, and PostgreSQL
    # refuses to run as root, so it runs as the postgres user in its own dir
    base = Path(tempfile.mkdtemp(prefix="okey-pg-"))
    data, sock = base / "data", base
    if os.getuid() == 0:
        shutil.chown(base, "postgres")
    subprocess.run(
        _as_postgres([_pg_bin("initdb"), "-D", str(data), "-A", "trust", "-U", "postgres"]),
        check=True,
        capture_output=True,
    )
    port = free_port()
    proc = subprocess.Popen(
        _as_postgres(
            [
                _pg_bin("postgres"),
                "-D",
                str(data),
                "-p",
                str(port),
                "-k",
                str(sock),
                "-c",
                "listen_addresses=127.0.0.1",
                "-c",
                "fsync=off",
            ]
        ),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"postgres://postgres@127.0.0.1:{port}/postgres"
    for _ in range(100):
        if (
            subprocess.run(
                [_pg_bin("pg_isready"), "-h", "127.0.0.1", "-p", str(port)], capture_output=True
            ).returncode
            == 0
        ):
            break
        time.sleep(0.1)
    yield url
    proc.terminate()
    proc.wait(20)
    shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="module")
def redis():
    exe = shutil.which("redis-server")
    assert exe, "Redis is missing: apt-get install -y redis-server (make test does)"
    port = free_port()
    proc = subprocess.Popen(
        [exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while True:  # wait until Redis accepts connections
        try:
            socket.create_connection(("127.0.0.1", port), 1).close()
            break
        except OSError:
            assert proc.poll() is None and time.monotonic() < deadline, "Redis did not start"
            time.sleep(0.05)
    yield f"redis://127.0.0.1:{port}/0"
    proc.terminate()
    proc.wait(10)


SETUP = """
from django.contrib.sessions.backends.db import SessionStore
from games import services
keys = []
for _ in range(2):
    s = SessionStore(); s.create(); keys.append(s.session_key)
t = services.create_table(variant="rummy", options={},
    seats=[services.SeatSpec("me"), services.SeatSpec("human"),
           services.SeatSpec("cpu"), services.SeatSpec("cpu")], guest_key=keys[0])
services.join_table(t.pk, guest_key=keys[1])
print("SETUP", t.code, keys[0], keys[1])
"""
CHECK = """
from games.models import Hand, HandAction
from games import services
for h in Hand.objects.all():
    assert services.rebuild_hand(h).to_json() == h.state
print("CHECK", HandAction.objects.filter(by_cpu=True).count(), HandAction.objects.count())
"""


def _manage(env, *args):
    out = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout


def _serve(env, port):
    log = open(Path(tempfile.gettempdir()) / f"okey-serve-{port}.log", "wb")  # noqa: SIM115
    return subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )


def _wait_http(port):
    for _ in range(200):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1)
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError("server did not start")


class Player:
    def __init__(self, port: int, key: str, code: str) -> None:
        self.port, self.key, self.code = port, key, code
        self.version, self.status, self.rack = -1, "", []

    async def connect(self):
        import websockets

        self.ws = await websockets.connect(
            f"ws://127.0.0.1:{self.port}/ws/t/{self.code}/",
            origin=f"http://127.0.0.1:{self.port}",
            additional_headers={"Cookie": f"sessionid={self.key}"},
        )
        await self.read()

    async def read(self, timeout: float = 5.0) -> str:
        html = await asyncio.wait_for(self.ws.recv(), timeout)
        self.version = int(VERSION.search(html).group(1))
        m = STATUS.search(html)
        self.status = m.group(1) if m else ""
        r = RACK.search(html)
        self.rack = [int(x) for x in TILE.findall(r.group(0))] if r else []
        return html

    async def until(self, version: int, timeout: float = 5.0) -> float:
        start = time.monotonic()
        while self.version < version:
            await self.read(timeout)
        return time.monotonic() - start

    async def until_my_turn(self, timeout: float) -> bool:
        """Read frames until it is this player's turn (True) or the hand is over."""
        end = time.monotonic() + timeout
        while "Your turn" not in self.status:
            html = await self.read(max(0.1, end - time.monotonic()))
            if "t-result show" in html:
                return False
        return True

    async def send(self, **frame) -> None:
        await self.ws.send(json.dumps({**frame, "version": self.version}))


@pytest.mark.slow
def test_two_processes_share_a_table(postgres, redis):
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(
        DATABASE_URL=postgres,
        REDIS_URL=redis,
        OKEY_CPU_DELAY_MS="50",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_SETTINGS_MODULE="okeysite.settings",
    )
    _manage(env, "migrate", "--noinput", "-v", "0")
    _, code, key_a, key_b = _manage(env, "shell", "-c", SETUP).split()[-4:]
    p1, p2 = free_port(), free_port()
    servers = [_serve(env, p1), _serve(env, p2)]
    try:
        _wait_http(p1)
        _wait_http(p2)

        async def play() -> list[float]:
            a, b = Player(p1, key_a, code), Player(p2, key_b, code)
            await a.connect()
            await b.connect()
            lags = []
            for _turn in range(6):
                # seat 0 (on process 1): discard (drawing first after its first turn)
                if "draw" in a.status:
                    await a.send(action="draw")
                    await a.until(a.version + 1)
                await a.send(action="discard", tile=a.rack[0])
                target = a.version + 1
                lags.append(await b.until(target))  # seen at once on process 2
                # seat 1 (on process 2): draw and discard; process 1 sees it
                await b.send(action="draw")
                await b.until(b.version + 1)
                await b.send(action="discard", tile=b.rack[0])
                lags.append(await a.until(b.version + 1))
                # the two CPUs play, swept by either process, each move once
                if not await a.until_my_turn(timeout=60):
                    break  # the hand ended
            await a.ws.close()
            await b.ws.close()
            return lags

        # its own thread: an earlier Playwright test may leave an event loop in this one
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            lags = pool.submit(asyncio.run, play()).result()
    finally:
        for s in servers:
            s.terminate()
        for s in servers:
            try:
                s.wait(10)
            except subprocess.TimeoutExpired:
                s.kill()
                s.wait(10)
    assert max(lags) < 1.0, lags
    cpu_moves, total = map(int, _manage(env, "shell", "-c", CHECK).split()[-2:])
    assert cpu_moves >= 4 and total >= 8  # at least one full round, every move once
