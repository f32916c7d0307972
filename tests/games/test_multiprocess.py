"""Past one machine: PostgreSQL + Redis, two server processes, nginx in front.

Two `manage.py serve` processes share one PostgreSQL database and one Redis channel
layer, behind nginx with the site's own configuration (okeysite/deploy/nginx.conf,
included unchanged by games.tools.site.servers.start_nginx). The players go through nginx:
both seats of a table are held by one process (their SeatConnection rows name it, and
it is the process nginx's log says the table's path goes to), pages alternate between
the processes, and a seat with a second socket straight to the other process still
plays (the channel layer carries the moves both ways). Both processes sweep, and every
CPU move is played exactly once. The fixtures start throw-away PostgreSQL, Redis and
nginx servers from Debian's packages (`make test` installs them).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import Counter

import pytest

from games.tools.site import servers as bench
from tests.support import servers
from tests.support.servers import ROOT, free_port
from tests.support.waits import wait_until

VERSION = re.compile(r'id="act-version" name="version" value="(\d+)"')
STATUS = re.compile(r'data-testid="status">([^<]*)<')
RACK = re.compile(r'id="t-rack".*?</section>', re.S)
TILE = re.compile(r'data-id="(\d+)"')


SETUP = """
from django.contrib.sessions.backends.db import SessionStore
from games.live import actions as table_actions
keys = []
for _ in range(2):
    s = SessionStore(); s.create(); keys.append(s.session_key)
t = table_actions.do_create_table(variant="rummy", options={},
    seats=[table_actions.SeatSpec("me"), table_actions.SeatSpec("human"),
           table_actions.SeatSpec("cpu"), table_actions.SeatSpec("cpu")], guest_key=keys[0])
table_actions.do_join_table(t.pk, guest_key=keys[1])
print("SETUP", t.code, keys[0], keys[1])
"""
CHECK = """
from games.models import Hand, HandAction
from games.live import actions as table_actions
for h in Hand.objects.all():
    assert table_actions.rebuild_hand(h).to_json() == h.state
print("CHECK", HandAction.objects.filter(by_cpu=True).count(), HandAction.objects.count())
"""
# Which process holds each open socket of a table's seats (table_actions.PROCESS, per process).
HOLDERS = """
import json
from games.models import SeatConnection
rows = SeatConnection.objects.filter(seat__table__code={code!r})
print("HOLDERS", json.dumps(sorted([r.seat.position, r.process] for r in rows)))
"""


# What a consumer's or the sweeper's database trip sends to PostgreSQL: channels'
# database_sync_to_async closes old connections before and after every call.
TRIPS = """
import json
import psycopg
from django.db import close_old_connections
from games.models import Table
sent = []
real = psycopg.Cursor.execute
def execute(self, query, *args, **kwargs):
    sent.append(query if isinstance(query, str) else repr(query))
    return real(self, query, *args, **kwargs)
psycopg.Cursor.execute = execute
Table.objects.count()  # the connection is open and kept (CONN_MAX_AGE)
sent.clear()
for _ in range(3):
    close_old_connections()
    Table.objects.count()
    close_old_connections()
print("SENT", json.dumps(sent))
"""


# Two sweepers, each in a process of its own, on the same CPU tables: each sweeps as
# fast as it can with its own clock running ahead (every move is due at once), until
# every table has finished a hand (the sweepers then deal the next: nobody is at them).
SWEEP_SETUP = """
from games.live import actions as table_actions
for i in range({tables}):
    table_actions.do_create_table(variant="classic", options={{"players": 4}},
        seats=[table_actions.SeatSpec("cpu", "easy")] * 4, guest_key=f"sweep-{{i}}")
print("TABLES", {tables})
"""
SWEEPER = """
import datetime
from django.utils import timezone
from games.live import actions as table_actions
from games.models import Hand
base = timezone.now() + datetime.timedelta(days=1)
played = rounds = 0
def finished():
    return Hand.objects.filter(result__isnull=False).values("table").distinct().count()
while finished() < {tables} and rounds < 20000:
    played += table_actions.sweep(at=base + datetime.timedelta(seconds=30 * rounds))
    rounds += 1
print("PLAYED", played)
"""
SWEEP_CHECK = """
import json
from games.live import actions as table_actions
from games.models import Hand, HandAction
hands = list(Hand.objects.all())
same = all(
    table_actions.rebuild_hand(h).to_json() == table_actions.load_state(h).to_json() for h in hands
)
indexes = [list(HandAction.objects.filter(hand=h).order_by("pk").values_list("index", flat=True))
           for h in hands]
over = {h.table_id for h in hands if h.result is not None}
print("SWEPT", json.dumps({"tables": len({h.table_id for h in hands}), "over": len(over),
    "hands": len(hands),
    "actions": HandAction.objects.filter(by_cpu=True).count(), "same": same,
    "numbered": all(v == list(range(len(v))) for v in indexes)}))
"""


# Page requests as daphne serves them: each view in a thread of its own (asgiref), with
# the collector held off (manage.py serve collects rarely); then the connections open.
PAGE_THREADS = """
import gc, threading
from django.core.signals import request_finished, request_started
from django.db import connection
from games.models import Table
def request():
    request_started.send(sender=None)
    Table.objects.count()
    request_finished.send(sender=None)
def open_connections():
    with connection.cursor() as c:
        c.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()")
        return c.fetchone()[0]
gc.disable()
before = open_connections()
for _ in range(40):
    t = threading.Thread(target=request)
    t.start()
    t.join()
print("OPENED", open_connections() - before)
"""


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
        """One frame; a frame carries only the fragments that changed, so the status and
        the rack are the last ones sent."""
        html = await asyncio.wait_for(self.ws.recv(), timeout)
        self.version = int(VERSION.search(html).group(1))
        m = STATUS.search(html)
        if m:
            self.status = m.group(1)
        r = RACK.search(html)
        if r:
            self.rack = [int(x) for x in TILE.findall(r.group(0))]
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


@pytest.fixture(scope="module")
def site(postgres, redis):
    """Two `manage.py serve` processes on one database and one Redis, nginx in front."""
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(
        DATABASE_URL=postgres,
        REDIS_URL=redis,
        OKEY_CPU_DELAY_MS="50",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        TRUSTED_PROXIES="1",
        DJANGO_SETTINGS_MODULE="okeysite.settings",
    )
    servers.manage(env, "migrate", "--noinput", "-v", "0")
    ports = [free_port(), free_port()]
    procs = [servers.serve(env, p) for p in ports]
    nginx = None
    try:
        for p in ports:
            servers.wait_for_http(f"http://127.0.0.1:{p}/")
        nginx = bench.start_nginx(ports)
        yield env, ports, nginx
    finally:
        if nginx is not None:
            bench.stop_nginx(nginx)
        for s in procs:
            s.terminate()
        for s in procs:
            try:
                s.wait(10)
            except subprocess.TimeoutExpired:
                s.kill()
                s.wait(10)


def test_a_database_trip_sends_only_its_own_queries(site):
    """Three trips of one query each on a kept connection are three statements: no
    "SELECT 1" health check before each (a sixth round trip on every move)."""
    env, _ports, _nginx = site
    sent = json.loads(servers.manage(env, "shell", "-c", TRIPS).split("SENT", 1)[1])
    assert len(sent) == 3, sent
    assert not any(q.strip() == "SELECT 1" for q in sent), sent


def test_page_requests_do_not_pile_up_database_connections(site):
    """Forty requests, each in a thread of its own, leave at most the pool's connections
    open (a kept connection per thread stayed open until collected: 1,000 pages ran
    PostgreSQL out of connections)."""
    env, _ports, _nginx = site
    out = servers.manage(env, "shell", "-c", PAGE_THREADS)
    assert int(out.split("OPENED", 1)[1]) <= 10, out  # the pool's size


@pytest.mark.slow
def test_pages_alternate_between_the_processes(site):
    _env, ports, nginx = site
    for _ in range(4):
        with urllib.request.urlopen(f"http://127.0.0.1:{nginx.port}/", timeout=10) as r:
            assert r.status == 200
    pages = wait_until(
        lambda: (
            (found := [port for uri, _s, port in nginx.routed() if uri == "/"])
            and len(found) == 4
            and found
        ),
        "nginx's log of the four pages",
    )
    assert Counter(pages) == {ports[0]: 2, ports[1]: 2}


@pytest.mark.slow
def test_two_processes_share_a_table(site):
    """Seat 0 and seat 1 go through nginx and land on the table's process; seat 0 also
    has a socket straight to the other process and plays half its moves from there. Every
    socket sees every move at once, and the two CPU seats, swept by both processes, move
    once each per turn."""
    env, ports, nginx = site
    _, code, key_a, key_b = servers.manage(env, "shell", "-c", SETUP).split()[-4:]
    path = f"/ws/t/{code}/"
    with pytest.raises(urllib.error.HTTPError):  # a socket's path, asked as a page: 404
        urllib.request.urlopen(f"http://127.0.0.1:{nginx.port}{path}", timeout=10)
    (home,) = wait_until(
        lambda: [port for uri, _s, port in nginx.routed() if uri == path],
        "nginx's log of the table's path",
    )
    (other,) = set(ports) - {home}

    def holders() -> dict[int, list[str]]:
        out = servers.manage(env, "shell", "-c", HOLDERS.format(code=code)).split("HOLDERS", 1)[1]
        by_seat: dict[int, list[str]] = {}
        for seat, process in json.loads(out):
            by_seat.setdefault(seat, []).append(process)
        return by_seat

    async def play() -> tuple[list[float], dict, dict]:
        a, b = Player(nginx.port, key_a, code), Player(nginx.port, key_b, code)
        await a.connect()
        await b.connect()
        via_nginx = await asyncio.to_thread(holders)
        a2 = Player(other, key_a, code)  # seat 0's second socket, on the other process
        await a2.connect()
        split = await asyncio.to_thread(holders)
        lags = []
        for turn in range(6):
            # seat 0: discard (drawing first after its first turn), from either socket
            mover, mirror = (a2, a) if turn % 2 == 0 else (a, a2)
            await mover.until(max(a.version, a2.version))
            if "draw" in mover.status:
                await mover.send(action="draw")
                await mover.until(mover.version + 1)
            await mover.send(action="discard", tile=mover.rack[0])
            target = mover.version + 1
            lags.append(await b.until(target))  # the other seat, on the table's process
            lags.append(await mirror.until(target))  # seat 0's other socket
            # seat 1 (through nginx): draw and discard; both sockets of seat 0 see it
            await b.send(action="draw")
            await b.until(b.version + 1)
            await b.send(action="discard", tile=b.rack[0])
            lags.append(await a.until(b.version + 1))
            lags.append(await a2.until(b.version + 1))
            # the two CPUs play, swept by either process, each move once
            if not await a.until_my_turn(timeout=60):
                break  # the hand ended
        for p in (a, a2, b):
            await p.ws.close()
        return lags, via_nginx, split

    # its own thread: an earlier Playwright test may leave an event loop in this one
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        lags, via_nginx, split = pool.submit(asyncio.run, play()).result()

    # through nginx, both seats are held by one process ...
    assert sorted(via_nginx) == [0, 1] and len(via_nginx[0]) == len(via_nginx[1]) == 1
    (table_process,) = set(via_nginx[0]) | set(via_nginx[1])
    # ... and seat 0's direct socket to the other port by the other one
    assert table_process in split[0] and len(set(split[0])) == 2
    assert split[1] == [table_process]
    # nginx sent both sockets to the table's process (logged as they closed)
    sockets = wait_until(
        lambda: (
            (found := [port for uri, st, port in nginx.routed() if uri == path and st == 101])
            and len(found) == 2
            and found
        ),
        "nginx's log of the two sockets",
    )
    assert sockets == [home, home]
    assert max(lags) < 1.0, lags
    cpu_moves, total = map(int, servers.manage(env, "shell", "-c", CHECK).split()[-2:])
    assert cpu_moves >= 4 and total >= 8  # at least one full round, every move once


def _fresh_database(postgres: str, name: str) -> dict[str, str]:
    """The environment of a process on a new, migrated database ``name``."""
    import psycopg

    with psycopg.connect(postgres, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name}")
        conn.execute(f"CREATE DATABASE {name}")
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_ALLOW_ASYNC_UNSAFE",)}
    env.pop("REDIS_URL", None)
    env.update(
        DATABASE_URL=postgres.rsplit("/", 1)[0] + "/" + name,
        DJANGO_SETTINGS_MODULE="okeysite.settings",
    )
    servers.manage(env, "migrate", "--noinput", "-v", "0")
    return env


@pytest.mark.slow
def test_two_sweeping_processes_play_every_cpu_move_once(postgres):
    """Two processes sweep the same eight CPU tables at once: every table finishes a
    hand; the moves the two sweepers say they played (and the hands they dealt) are
    exactly the moves stored, none twice, none lost; each hand's actions are numbered
    without gap or repeat; the state rebuilt from the seed equals the stored one; and
    both sweepers played (they raced)."""
    env = _fresh_database(postgres, "sweeponce")
    tables = 8
    servers.manage(env, "shell", "-c", SWEEP_SETUP.format(tables=tables))
    sweepers = [
        subprocess.Popen(
            [sys.executable, "manage.py", "shell", "-c", SWEEPER.format(tables=tables)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    played = []
    for proc in sweepers:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err[-3000:]
        played.append(int(out.split("PLAYED", 1)[1]))
    swept = json.loads(servers.manage(env, "shell", "-c", SWEEP_CHECK).split("SWEPT", 1)[1])
    assert swept["tables"] == swept["over"] == tables, swept
    assert swept["same"] and swept["numbered"], swept
    # a sweep that plays is a CPU move, or the next hand dealt at a table nobody sits at
    assert sum(played) == swept["actions"] + swept["hands"] - tables, (played, swept)
    assert min(played) > 0, played


CLOCK_SETUP = """
from games.live import actions as table_actions
from games.models import Seat
for i in range({tables}):
    t = table_actions.do_create_table(variant="classic", options={{"players": 4, "clock": 15}},
        seats=[table_actions.SeatSpec("me"), table_actions.SeatSpec("human"),
               table_actions.SeatSpec("cpu", "easy"), table_actions.SeatSpec("cpu", "easy")],
        guest_key=f"clock-{{i}}-a")
    table_actions.do_join_table(t.pk, guest_key=f"clock-{{i}}-b")
    for s in Seat.objects.filter(table=t, is_cpu=False):
        table_actions.do_set_presence(s.pk, True, channel=f"page-{{s.pk}}")  # there, never moving
print("TABLES", {tables})
"""
CLOCK_CHECK = """
import json
from games.models import Seat
print("TIMEOUTS", json.dumps(sorted(Seat.objects.filter(is_cpu=False).values_list(
    "timeouts", flat=True))))
"""


@pytest.mark.slow
def test_two_sweeping_processes_count_every_time_out_once(postgres):
    """Two processes sweep the same clocks: tables of two people who are there and never
    move (and two CPUs). Each person's clock runs out twice, then their stand-in plays
    (docs/clock-and-presence.md): every person's count of time-outs is exactly 2, none
    counted twice by the racing sweepers; every move is stored once and numbered without
    gap; no table deals a second hand (its people are there to press "Next hand")."""
    env = _fresh_database(postgres, "clockonce")
    tables = 6
    servers.manage(env, "shell", "-c", CLOCK_SETUP.format(tables=tables))
    sweepers = [
        subprocess.Popen(
            [sys.executable, "manage.py", "shell", "-c", SWEEPER.format(tables=tables)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    played = []
    for proc in sweepers:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err[-3000:]
        played.append(int(out.split("PLAYED", 1)[1]))
    swept = json.loads(servers.manage(env, "shell", "-c", SWEEP_CHECK).split("SWEPT", 1)[1])
    assert swept["tables"] == swept["over"] == swept["hands"] == tables, swept
    assert swept["same"] and swept["numbered"], swept
    assert sum(played) == swept["actions"], (played, swept)
    timeouts = json.loads(servers.manage(env, "shell", "-c", CLOCK_CHECK).split("TIMEOUTS", 1)[1])
    assert timeouts == [2] * (2 * tables), timeouts
    assert min(played) > 0, played


@pytest.mark.slow
def test_the_load_benchmark_plays_through_nginx(postgres, redis):
    """``loadbench --processes 2`` puts nginx (the site's configuration) in front of its two
    processes and connects every player to it: every table's four sockets are held by one
    process, every action is accepted, and nginx's CPU is measured with the servers'."""
    import psycopg

    with psycopg.connect(postgres, autocommit=True) as conn:
        conn.execute("DROP DATABASE IF EXISTS loadbench")
        conn.execute("CREATE DATABASE loadbench")
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(
        DATABASE_URL=postgres.rsplit("/", 1)[0] + "/loadbench",
        REDIS_URL=redis.rsplit("/", 1)[0] + "/1",
        DJANGO_SETTINGS_MODULE="okeysite.settings",
    )
    tables = 6
    args = ("--tables", str(tables), "--processes", "2", "--think", "0", "--seconds", "90")
    r = json.loads(servers.manage(env, "loadbench", *args, "--json"))
    assert r["finished"] and r["tables_done"] == tables and r["errors"] == 0, r
    assert len(r["servers"]) == 2 and r["proxy"]["cpu_s"] >= 0
    held = r["proxy"]["sockets_by_port"]
    assert set(held) <= {str(s["port"]) for s in r["servers"]}
    assert sum(held.values()) == 4 * tables
    assert all(n % 4 == 0 for n in held.values())  # whole tables on each process
    assert r["proxy"]["tables_split"] == 0
