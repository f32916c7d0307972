"""Load benchmark: N tables of four scripted websocket players against real servers.

``manage.py loadbench`` (games/management/commands/loadbench.py) drives this module:

1. a fresh database (a SQLite file in a temp dir, or ``DATABASE_URL``), migrated;
2. N four-seat tables whose seats are guests (one Django session per player), so
   the first hand is dealt before anyone connects and no CPU plays;
3. one or two ``manage.py serve`` processes (daphne + sweeper) on free loopback
   ports (two need ``REDIS_URL`` and PostgreSQL; a table's seats alternate
   between the processes);
4. 4·N websocket players on one asyncio loop (``websockets`` client library):
   each reads every frame (version, status line, rack, refusal code); on its turn
   it draws, then discards the first tile of its rack; a hand ends by exhaustion
   (or a close); with ``hands > 1`` seat 0 sends ``next_hand``.

For every accepted action the latency is measured from sending it to the moment
the *last* of the four seats has received a frame carrying the new version.
Nothing but 127.0.0.1 is contacted; the servers are always stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import platform
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TextIO

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
CONNECT_ATTEMPTS = 5  # like the browser's reconnect: daphne drops handshakes not accepted in 5 s

VERSION_RE = re.compile(r'id="act-version" name="version" value="(\d+)"')
STATUS_RE = re.compile(r'data-testid="status">([^<]*)<')
RACK_RE = re.compile(r'id="t-rack".*?</section>', re.S)
TILE_RE = re.compile(r'data-id="(\d+)"')
ERROR_RE = re.compile(r'id="t-msg"[^>]*>\s*<span data-code="([^"]+)"')

DRAW_TURN = "Your turn: draw from the pile"
DISCARD_TURN = "Your turn: discard a tile"
HAND_OVER = "The hand is over."
GAME_OVER = "The game is over."


# Players at a real table think. Decision (README, Load benchmark): the target (100
# tables, p99 < 250 ms) is measured at a brisk human pace, a draw and a discard in
# about 4 s (turn clocks are
# 15-60 s). With no think time the 400 players form a closed loop that keeps the
# server saturated, and the latency is the queue (tables / actions per second).
HUMAN_THINK_MS = 2000.0


@dataclass
class BenchConfig:
    tables: int = 100
    processes: int = 1
    hands: int = 1
    seconds: float = 120.0
    variant: str = "classic"
    think_ms: float = 0.0  # mean think time before each action (uniform 0.5x..1.5x)
    database_url: str = ""  # empty: a fresh SQLite file in a temp dir
    redis_url: str = ""
    debug: bool = False  # run the servers with DEBUG=1 (query log, template debug)
    profile: str = ""  # py-spy output file (speedscope/flamegraph/raw by extension)
    connect_concurrency: int = 10  # handshakes in flight at once (a ramp, not a storm)
    seed: int = 1


@dataclass
class Frame:
    version: int | None
    status: str | None  # None: not in this frame (unchanged since the last one)
    rack: list[int] | None
    error: str | None

    def merged(self, last: Frame | None) -> Frame:
        """A frame carries only the fragments that changed: what a player knows
        is the last status and rack it was sent."""
        if last is None:
            return Frame(self.version, self.status or "", self.rack or [], self.error)
        return Frame(
            self.version,
            last.status if self.status is None else self.status,
            last.rack if self.rack is None else self.rack,
            self.error,
        )


def parse_frame(html: str) -> Frame:
    """What a scripted player reads from one HTML fragment."""
    v = VERSION_RE.search(html)
    s = STATUS_RE.search(html)
    r = RACK_RE.search(html)
    e = ERROR_RE.search(html)
    return Frame(
        version=int(v.group(1)) if v else None,
        status=s.group(1).strip() if s else None,
        rack=[int(x) for x in TILE_RE.findall(r.group(0))] if r else None,
        error=e.group(1) if e else None,
    )


def percentile(sorted_values: list[float], p: float) -> float:
    """Nearest-rank percentile of an already sorted list (0 for an empty one)."""
    if not sorted_values:
        return 0.0
    k = max(0, min(len(sorted_values) - 1, int(-(-p * len(sorted_values) // 100)) - 1))
    return sorted_values[k]


def summarize(latencies_s: list[float]) -> dict[str, float]:
    xs = sorted(x * 1000 for x in latencies_s)
    return {
        "count": len(xs),
        "p50": round(percentile(xs, 50), 2),
        "p95": round(percentile(xs, 95), 2),
        "p99": round(percentile(xs, 99), 2),
        "max": round(xs[-1], 2) if xs else 0.0,
        "mean": round(sum(xs) / len(xs), 2) if xs else 0.0,
    }


# ------------------------------------------------------------------ set-up


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def use_fresh_sqlite(path: Path) -> str:
    """Point this process's default connection at a new SQLite file; the URL for servers."""
    from django.db import connections

    conn = connections["default"]
    conn.close()
    conn.settings_dict["NAME"] = str(path)
    return f"sqlite:///{path}"


def migrate() -> None:
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)


@dataclass
class TableSpec:
    table_id: int
    code: str
    keys: list[str]  # session key of each seat, by position


def create_tables(n: int, variant: str) -> list[TableSpec]:
    """N tables of four guest seats; the last join deals the first hand."""
    from django.contrib.sessions.backends.db import SessionStore

    from games import services

    specs = []
    for _ in range(n):
        keys = []
        for _seat in range(4):
            s = SessionStore()
            s.create()
            keys.append(s.session_key)
        table = services.create_table(
            variant=variant,
            options={"players": 4},
            seats=[services.SeatSpec("me")] + [services.SeatSpec("human")] * 3,
            guest_key=keys[0],
        )
        for key in keys[1:]:
            services.join_table(table.pk, guest_key=key)
        specs.append(TableSpec(table.pk, table.code, keys))
    return specs


def retire_tables(specs: list[TableSpec]) -> None:
    """On a shared database: stop the sweeper from playing for the bench's players."""
    from games.models import Table

    Table.objects.filter(pk__in=[s.table_id for s in specs]).update(
        status=Table.Status.ABANDONED, cpu_due_at=None, turn_deadline=None
    )


# ------------------------------------------------------------------ servers


@dataclass
class Server:
    port: int
    proc: subprocess.Popen
    log_path: Path
    log: TextIO
    cpu_start: float = 0.0
    cpu_end: float = 0.0
    peak_rss_kb: int = 0
    spy: subprocess.Popen | None = None

    @property
    def pid(self) -> int:
        return self.proc.pid


def server_env(cfg: BenchConfig, db_url: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "DATABASE_URL": db_url,
            "DEBUG": "1" if cfg.debug else "0",
            "ALLOWED_HOSTS": f"{HOST},localhost",
            "OKEY_SEED_PREFIX": f"loadbench{cfg.seed}-",
            "PYTHONUNBUFFERED": "1",
        }
    )
    if cfg.redis_url:
        env["REDIS_URL"] = cfg.redis_url
    else:
        env.pop("REDIS_URL", None)
    return env


def start_server(env: dict[str, str], log_dir: Path, index: int) -> Server:
    port = free_port()
    log_path = log_dir / f"server-{index}.log"
    log = open(log_path, "w")  # noqa: SIM115 (closed in stop_server)
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "manage.py"), "serve", "--host", HOST, "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
    )
    return Server(port=port, proc=proc, log_path=log_path, log=log)


def wait_listening(server: Server, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if server.proc.poll() is not None:
            raise RuntimeError(f"server exited early:\n{tail(server.log_path)}")
        with contextlib.suppress(OSError), socket.create_connection((HOST, server.port), 0.5):
            return
        time.sleep(0.1)
    raise RuntimeError(f"server did not listen on {server.port}:\n{tail(server.log_path)}")


def tail(path: Path, lines: int = 30) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def proc_status_kb(pid: int, field: str) -> int | None:
    """A memory figure of /proc/<pid>/status in kB ("VmRSS", "VmHWM"); None without it."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return None


def peak_rss_kb(pid: int) -> int:
    """Peak resident set size (VmHWM); psutil's current RSS where /proc is missing."""
    peak = proc_status_kb(pid, "VmHWM")
    if peak is not None:
        return peak
    try:
        import psutil

        return int(psutil.Process(pid).memory_info().rss // 1024)
    except Exception:
        return 0


def start_profiler(server: Server, out: str) -> None:
    exe = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(exe).exists():
        raise RuntimeError("--profile needs py-spy (pip install py-spy)")
    fmt = "speedscope" if out.endswith(".json") else "raw" if out.endswith(".txt") else "flamegraph"
    args = ["record", "--pid", str(server.pid), "--output", out, "--format", fmt]
    args += ["--rate", "200", "--nonblocking"]
    if os.environ.get("LOADBENCH_SPY_IDLE"):  # wall-clock view: idle threads too
        args.append("--idle")
    server.spy = subprocess.Popen(
        [exe, *args],
        stdout=subprocess.DEVNULL,
        stderr=server.log,
    )


def stop_server(server: Server) -> None:
    if server.spy is not None and server.spy.poll() is None:
        server.spy.send_signal(signal.SIGINT)
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.spy.wait(30)
    if server.proc.poll() is None:
        server.peak_rss_kb = peak_rss_kb(server.pid)
        server.proc.terminate()
        try:
            server.proc.wait(10)
        except subprocess.TimeoutExpired:
            server.proc.kill()
            server.proc.wait(10)
    if server.spy is not None and server.spy.poll() is None:
        server.spy.kill()
        server.spy.wait(10)
    server.log.close()


# ------------------------------------------------------------------ players


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    by_kind: dict[str, list[float]] = field(default_factory=dict)
    sent: Counter = field(default_factory=Counter)
    refusals: Counter = field(default_factory=Counter)
    connect_errors: list[str] = field(default_factory=list)
    connect_retries: int = 0
    frames: int = 0
    frame_bytes: int = 0
    first_send: float | None = None
    last_accept: float | None = None


class TableRun:
    """One table's four players and the actions still waiting for all four seats."""

    def __init__(self, spec: TableSpec, stats: Stats, hands: int) -> None:
        self.spec = spec
        self.stats = stats
        self.hands = hands
        self.seen = [-1, -1, -1, -1]
        self.pending: dict[int, tuple[float, str]] = {}  # new version -> (sent at, kind)
        self.hands_done = 0
        self.failed = False  # a seat could not connect: the table cannot play
        self.finished = False  # the last hand is over
        self.done = asyncio.Event()

    def sent(self, version: int, kind: str, at: float) -> None:
        self.pending[version + 1] = (at, kind)
        self.stats.sent[kind] += 1
        if self.stats.first_send is None:
            self.stats.first_send = at

    def refused(self, version: int) -> None:
        self.pending.pop(version + 1, None)

    def saw(self, seat: int, version: int, at: float) -> None:
        self.seen[seat] = max(self.seen[seat], version)
        low = min(self.seen)
        for v in [v for v in self.pending if v <= low]:
            sent_at, kind = self.pending.pop(v)
            self.stats.latencies.append(at - sent_at)
            self.stats.by_kind.setdefault(kind, []).append(at - sent_at)
            self.stats.last_accept = at
        self.maybe_done()

    def finish(self) -> None:
        self.finished = True
        self.maybe_done()

    def maybe_done(self) -> None:
        """Done once the last hand is over and every seat has the last action's frame."""
        if self.finished and not self.pending:
            self.done.set()


class _Pace:
    """The server's token bucket (``games.consumers.Bucket``) mirrored on the client, a
    little slower, so the benchmark's players are never rate limited."""

    def __init__(self) -> None:
        from games.consumers import RATE_BURST, RATE_PER_SECOND

        self.rate, self.burst = RATE_PER_SECOND * 0.9, RATE_BURST - 1
        self.tokens, self.stamp = self.burst, time.monotonic()

    async def wait(self) -> None:
        while True:
            t = time.monotonic()
            self.tokens = min(self.burst, self.tokens + (t - self.stamp) * self.rate)
            self.stamp = t
            if self.tokens >= 1:
                self.tokens -= 1
                return
            await asyncio.sleep((1 - self.tokens) / self.rate)


class Player:
    def __init__(
        self, run: TableRun, seat: int, url: str, origin: str, cfg: BenchConfig, go: asyncio.Event
    ) -> None:
        self.run, self.seat, self.url, self.origin = run, seat, url, origin
        self.cfg, self.go = cfg, go
        self.ws: Any = None
        self.frame: Frame | None = None
        self.acted_on: int | None = None  # version of the last frame we acted on
        self.skip = 0  # rack tiles to skip after a refused discard
        self.over = False
        self.rng = random.Random(cfg.seed * 1000003 + run.spec.table_id * 7 + seat)
        # An honest client keeps to the server's per-connection rate (the consumer's token
        # bucket): with no think time a seat would otherwise act ~25 times a second.
        self.pace = _Pace()
        self.ready = asyncio.Event()
        self.task: asyncio.Task | None = None

    # The address the socket connects from (None: the system's choice); the flood benchmark's
    # honest players use another loopback address than its flooders.
    local_addr: tuple[str, int] | None = None

    async def connect(self) -> None:
        from websockets.asyncio.client import connect

        extra = {"local_addr": self.local_addr} if self.local_addr else {}
        self.ws = await connect(
            self.url,
            origin=self.origin,
            additional_headers={"Cookie": f"sessionid={self.run.spec.keys[self.seat]}"},
            open_timeout=60,
            close_timeout=5,
            ping_interval=None,
            max_size=2**22,
            compression=None,
            **extra,
        )

    async def listen(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for message in self.ws:
                at = time.perf_counter()
                text = message if isinstance(message, str) else message.decode()
                self.run.stats.frames += 1
                self.run.stats.frame_bytes += len(text)
                self.on_frame(parse_frame(text), at)
        except ConnectionClosed:
            pass
        finally:
            self.ready.set()

    def on_frame(self, f: Frame, at: float) -> None:
        if f.error is not None:
            self.run.stats.refusals[f.error] += 1
            if self.acted_on is not None:
                self.run.refused(self.acted_on)
            if f.error != "stale_state" and f.version == self.acted_on:
                self.skip += 1  # try another tile / move on the same view
                self.acted_on = None
        if f.version is not None:
            self.run.saw(self.seat, f.version, at)
        self.frame = f = f.merged(self.frame)
        self.ready.set()
        if self.go.is_set():
            self.decide()

    def decide(self) -> None:
        f = self.frame
        if f is None or f.version is None or self.over or f.version == self.acted_on:
            return
        if f.status.startswith(GAME_OVER) or f.status.startswith(HAND_OVER):
            self.hand_over(f)
            return
        if f.status.startswith(DRAW_TURN):
            if self.skip > 3:
                return
            self.act(f.version, {"action": "draw", "version": f.version}, "draw")
        elif f.status.startswith(DISCARD_TURN) and f.rack:
            if self.skip >= len(f.rack):
                return
            frame = {"action": "discard", "tile": f.rack[self.skip], "version": f.version}
            self.act(f.version, frame, "discard")

    def hand_over(self, f: Frame) -> None:
        self.acted_on = f.version
        if self.seat == 0:
            self.run.hands_done += 1
        if f.status.startswith(GAME_OVER) or self.run.hands_done >= self.run.hands:
            self.over = True
            self.run.finish()
            return
        if self.seat == 0:
            self.act(f.version, {"action": "next_hand", "version": f.version}, "next_hand")

    def act(self, version: int, frame: dict[str, Any], kind: str) -> None:
        self.acted_on = version
        self.task = asyncio.ensure_future(self._send(version, frame, kind))

    async def _send(self, version: int, frame: dict[str, Any], kind: str) -> None:
        if self.cfg.think_ms > 0:
            await asyncio.sleep(self.cfg.think_ms * self.rng.uniform(0.5, 1.5) / 1000)
            if self.frame is None or self.frame.version != version:
                self.acted_on = None
                self.decide()
                return
        await self.pace.wait()
        self.skip = 0 if kind == "draw" else self.skip
        self.run.sent(version, kind, time.perf_counter())
        with contextlib.suppress(Exception):
            await self.ws.send(json.dumps(frame))

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 5)


async def play(
    cfg: BenchConfig,
    specs: list[TableSpec],
    ports: list[int],
    log: Any,
    on_start: Any = lambda: None,
) -> dict:
    stats = Stats()
    go = asyncio.Event()
    runs = [TableRun(s, stats, cfg.hands) for s in specs]
    players: list[Player] = []
    for run in runs:
        for seat in range(4):
            port = ports[seat % len(ports)]  # two processes: seats alternate
            url = f"ws://{HOST}:{port}/ws/t/{run.spec.code}/"
            players.append(Player(run, seat, url, f"http://{HOST}:{port}", cfg, go))

    sem = asyncio.Semaphore(cfg.connect_concurrency)
    listeners: list[asyncio.Task] = []

    async def open_one(p: Player) -> None:
        async with sem:
            for attempt in range(CONNECT_ATTEMPTS):
                try:
                    await p.connect()
                    break
                except Exception as e:  # handshake dropped (daphne's connect timeout), refused
                    if attempt + 1 < CONNECT_ATTEMPTS:
                        stats.connect_retries += 1
                        await asyncio.sleep(0.5 * 2**attempt)
                        continue
                    stats.connect_errors.append(f"table {p.run.spec.code} seat {p.seat}: {e!r}")
                    p.over = True
                    p.ready.set()
                    p.run.failed = True
                    p.run.done.set()
                    return
            listeners.append(asyncio.ensure_future(p.listen()))
            await asyncio.wait_for(p.ready.wait(), 60)

    t0 = time.perf_counter()
    await asyncio.gather(*(open_one(p) for p in players), return_exceptions=True)
    connect_s = time.perf_counter() - t0
    log(f"{len(players) - len(stats.connect_errors)} sockets connected in {connect_s:.1f} s")

    for p in players:  # nothing from the connect phase is measured
        p.run.pending.clear()
    on_start()
    cpu0 = time.process_time()
    start = time.perf_counter()
    go.set()
    for p in players:
        p.decide()
    try:
        await asyncio.wait_for(
            asyncio.gather(*(r.done.wait() for r in runs)), timeout=max(cfg.seconds, 0.1)
        )
        finished = True
    except TimeoutError:
        finished = False
    elapsed = time.perf_counter() - start
    client_cpu = time.process_time() - cpu0
    for p in players:
        p.over = True
    await asyncio.gather(*(p.close() for p in players), return_exceptions=True)
    for t in listeners:
        t.cancel()
    await asyncio.gather(*listeners, return_exceptions=True)

    accepted = len(stats.latencies)
    window = elapsed
    errors = {k: v for k, v in stats.refusals.items() if k != "stale_state"}
    return {
        "connect_s": round(connect_s, 2),
        "elapsed_s": round(elapsed, 2),
        "finished": finished,
        "tables_done": sum(r.done.is_set() and not r.failed for r in runs),
        "tables_failed": sum(r.failed for r in runs),
        "hands_completed": sum(r.hands_done for r in runs),
        "actions": accepted,
        "actions_per_s": round(accepted / window, 1) if window > 0 else 0.0,
        "sent": dict(stats.sent),
        "latency_ms": summarize(stats.latencies),
        "latency_by_kind_ms": {k: summarize(v) for k, v in sorted(stats.by_kind.items())},
        "stale": stats.refusals.get("stale_state", 0),
        "errors": sum(errors.values()) + len(stats.connect_errors),
        "error_codes": errors,
        "connect_errors": stats.connect_errors[:10],
        "connect_retries": stats.connect_retries,
        "frames": stats.frames,
        "mean_frame_bytes": round(stats.frame_bytes / stats.frames) if stats.frames else 0,
        "client_cpu_s": round(client_cpu, 2),
    }


# ------------------------------------------------------------------ driver


def run_bench(cfg: BenchConfig, log: Any = lambda msg: None) -> dict[str, Any]:
    """Set up, serve, play, measure, and always stop the servers."""
    from django.db import connections

    if cfg.processes not in (1, 2):
        raise ValueError("--processes must be 1 or 2")
    engine = connections["default"].settings_dict["ENGINE"]
    if cfg.processes == 2 and (not cfg.redis_url or "postgresql" not in engine):
        raise ValueError("--processes 2 needs REDIS_URL and a PostgreSQL DATABASE_URL")
    from django.conf import settings

    settings.OKEY_SEED_PREFIX = f"loadbench{cfg.seed}-"  # reproducible deals
    load_before = [round(x, 2) for x in os.getloadavg()]
    tmp = Path(tempfile.mkdtemp(prefix="okey-loadbench-"))
    servers: list[Server] = []
    specs: list[TableSpec] = []
    try:
        if cfg.database_url:
            db_url, db_name = cfg.database_url, engine.rsplit(".", 1)[-1]
        else:
            db_url, db_name = use_fresh_sqlite(tmp / "bench.sqlite3"), "sqlite3"
        t = time.perf_counter()
        migrate()
        specs = create_tables(cfg.tables, cfg.variant)
        connections["default"].close()
        log(f"{db_name}: migrated, {cfg.tables} tables in {time.perf_counter() - t:.1f} s")
        env = server_env(cfg, db_url)
        servers = [start_server(env, tmp, i) for i in range(cfg.processes)]
        for s in servers:
            wait_listening(s)
        log("servers: " + ", ".join(f"pid {s.pid} on :{s.port}" for s in servers))

        def measure_from_here() -> None:  # all sockets open: play starts
            for i, s in enumerate(servers):
                s.cpu_start = cpu_seconds(s.pid)
                if cfg.profile:
                    base, ext = os.path.splitext(cfg.profile)
                    start_profiler(s, cfg.profile if len(servers) == 1 else f"{base}.{i}{ext}")

        ports = [s.port for s in servers]
        result = asyncio.run(play(cfg, specs, ports, log, measure_from_here))
        for s in servers:
            s.cpu_end = cpu_seconds(s.pid)
            if s.proc.poll() is not None:
                result["errors"] += 1
                result.setdefault("server_exits", []).append(tail(s.log_path))
    finally:
        for s in servers:
            stop_server(s)
        if cfg.database_url and specs:
            with contextlib.suppress(Exception):
                retire_tables(specs)
        connections["default"].close()
        shutil.rmtree(tmp, ignore_errors=True)
    elapsed = result["elapsed_s"] or 1.0
    result["servers"] = [
        {
            "pid": s.pid,
            "port": s.port,
            "peak_rss_mb": round(s.peak_rss_kb / 1024, 1),
            "cpu_s": round(s.cpu_end - s.cpu_start, 2),
            "cpu_share": round((s.cpu_end - s.cpu_start) / elapsed, 2),
        }
        for s in servers
    ]
    server_cpu = sum(x["cpu_s"] for x in result["servers"])
    result["server_cpu_ms_per_action"] = (
        round(1000 * server_cpu / result["actions"], 1) if result["actions"] else 0.0
    )
    result["config"] = {**asdict(cfg), "database_url": db_name}
    result["sockets"] = 4 * cfg.tables
    result["machine"] = {
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(terse=True),
        "loadavg_before": load_before,
        "loadavg_after": [round(x, 2) for x in os.getloadavg()],
    }
    result["date"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    return result


def format_summary(r: dict[str, Any]) -> str:
    c, lat = r["config"], r["latency_ms"]
    lines = [
        f"Load benchmark {r['date']} ({r['machine']['cpus']} CPUs, Python "
        f"{r['machine']['python']}, {c['database_url']}, {c['processes']} server process(es);"
        f" load average {r['machine']['loadavg_before'][0]} before, "
        f"{r['machine']['loadavg_after'][0]} after)",
        f"  {c['tables']} {c['variant']} tables, {r['sockets']} sockets, "
        f"think {c['think_ms']:g} ms, connected in {r['connect_s']} s"
        f" ({r['connect_retries']} handshakes retried, {r['tables_failed']} tables failed)",
        f"  played {r['elapsed_s']} s: {r['actions']} actions accepted, "
        f"{r['actions_per_s']} actions/s, {r['hands_completed']} hands completed, "
        f"{r['tables_done']}/{c['tables']} tables done" + ("" if r["finished"] else " (time up)"),
        f"  latency action -> last seat's update (ms): p50 {lat['p50']}  p95 {lat['p95']}  "
        f"p99 {lat['p99']}  max {lat['max']}  mean {lat['mean']}",
    ]
    for kind, k in r["latency_by_kind_ms"].items():
        lines.append(f"    {kind:<9} n={k['count']:<6} p50 {k['p50']}  p99 {k['p99']}")
    lines.append(
        f"  errors {r['errors']} {r['error_codes'] or ''}  stale_state refusals {r['stale']}"
        f"  frames {r['frames']} (mean {r['mean_frame_bytes']} B)  client CPU {r['client_cpu_s']} s"
    )
    lines.append(
        f"  server CPU per accepted action {r['server_cpu_ms_per_action']} ms"
        " (action + one frame rendered per seat)"
    )
    for s in r["servers"]:
        lines.append(
            f"  server pid {s['pid']}: peak RSS {s['peak_rss_mb']} MB, CPU {s['cpu_s']} s "
            f"({s['cpu_share']:.0%} of one core)"
        )
    for e in r.get("connect_errors", []):
        lines.append(f"  connect error: {e}")
    return "\n".join(lines)
