"""Flood benchmark: hostile guest sockets against a real ``manage.py serve``.

``manage.py floodbench`` starts one server process (daphne + sweeper, as ``make
run``) on a free 127.0.0.1 port with a fresh SQLite database, seats guests at
tables, and then, for ``--seconds``:

- ``--flooders`` guest sockets (each its own guest session, seated four to a
  table, connecting from 127.0.0.1) send frames as fast as their connection
  takes them: oversize 8 KB junk, well-formed 8 KB moves, ``{"tile": Infinity}``
  and frames nested 4,000 deep, in turn. A flooder whose socket is closed opens
  another at once (an attacker does not give up); a refused handshake is retried
  after 50 ms.
- ``--tables`` honest tables of four guests (from 127.0.0.2, another address)
  play as ``manage.py loadbench`` does (think time 2 s on average), and the time
  from each accepted action to the last seat's update is measured.

It samples the server's resident memory every half second, stops the flood,
lets the server settle (``--settle`` seconds) and reads it again. Everything is
bounded in time and talks only to 127.0.0.1; the server is always stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from . import servers
from .players import DEFAULT_VARIANT, HUMAN_THINK_MS, PlayConfig, Player, Stats, TableRun, summarize

HONEST_ADDR = "127.0.0.2"  # the honest players' own address (per-IP limits are per address)


@dataclass
class FloodConfig:
    flooders: int = 20
    tables: int = 5  # honest tables of four
    seconds: float = 60.0
    settle: float = 20.0
    think_ms: float = HUMAN_THINK_MS
    variant: str = DEFAULT_VARIANT  # the rule set of every table
    seed: int = 1

    @property
    def seed_prefix(self) -> str:
        return f"floodbench{self.seed}-"


def flood_payloads(max_bytes: int) -> list[str]:
    pad = max_bytes - len(json.dumps({"action": "draw", "version": 1, "pad": ""}))
    return [
        "x" * (max_bytes + 1),  # oversize
        json.dumps({"action": "draw", "version": 1, "pad": "p" * pad}),  # a move, 8 KB
        '{"action": "discard", "tile": Infinity, "version": 1}',
        "[" * 4000 + "]" * 4000,
    ]


@dataclass
class FloodStats:
    connections: int = 0
    handshakes_refused: int = 0
    frames_sent: int = 0
    bytes_sent: int = 0
    frames_received: int = 0
    closes: Counter = field(default_factory=Counter)


async def flooder(
    url: str, origin: str, key: str, payloads: list[str], stop: asyncio.Event, st: FloodStats
) -> None:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidStatus

    i = 0
    while not stop.is_set():
        try:
            ws = await connect(
                url,
                origin=origin,
                additional_headers={"Cookie": f"sessionid={key}"},
                open_timeout=10,
                close_timeout=2,
                ping_interval=None,
                max_size=2**22,
                compression=None,
            )
        except (InvalidStatus, OSError, TimeoutError):
            st.handshakes_refused += 1
            await asyncio.sleep(0.05)
            continue
        st.connections += 1

        async def drain(ws: Any = ws) -> None:
            with contextlib.suppress(ConnectionClosed):
                async for _message in ws:
                    st.frames_received += 1

        reader = asyncio.ensure_future(drain())
        try:
            while not stop.is_set():
                frame = payloads[i % len(payloads)]
                i += 1
                await ws.send(frame)
                st.frames_sent += 1
                st.bytes_sent += len(frame)
        except ConnectionClosed:
            pass
        if stop.is_set():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), 2)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(reader, 2)
        reader.cancel()
        code = ws.close_code if ws.close_code is not None else "none"
        st.closes[str(code)] += 1


def flood_process(
    targets: list[tuple[str, str]],
    origin: str,
    payloads: list[str],
    go: Any,
    stop: Any,
    out: Any,
) -> None:
    """The flooders, in a process of their own (their send loops would otherwise
    delay the honest players' reads, and the measured latency with them)."""

    async def main() -> None:
        while not go.is_set():
            await asyncio.sleep(0.05)
        st, halt = FloodStats(), asyncio.Event()
        tasks = [
            asyncio.ensure_future(flooder(url, origin, key, payloads, halt, st))
            for url, key in targets
        ]
        while not stop.is_set():
            await asyncio.sleep(0.1)
        halt.set()
        await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 30)
        out.put({**asdict(st), "closes": dict(st.closes)})

    asyncio.run(main())


class HonestPlayer(Player):
    local_addr = (HONEST_ADDR, 0)


async def run_flood(
    cfg: FloodConfig,
    honest: list[servers.TableSpec],
    server: servers.Server,
    flood_proc: Any,
    log: Callable[[str], None],
) -> dict[str, Any]:
    port = server.port
    origin = f"http://{servers.HOST}:{port}"
    play = PlayConfig(hands=50, think_ms=cfg.think_ms, seed=cfg.seed)
    stats = Stats()
    go = asyncio.Event()
    runs = [TableRun(s, stats, play.hands) for s in honest]
    base = f"ws://{servers.HOST}:{port}/ws/t/"
    players = [
        HonestPlayer(run, seat, f"{base}{run.spec.code}/", origin, play, go)
        for run in runs
        for seat in range(servers.SEATS)
    ]
    listeners = []
    for p in players:
        await p.connect()
        listeners.append(asyncio.ensure_future(p.listen()))
        await asyncio.wait_for(p.ready.wait(), 60)
    await asyncio.sleep(2.0)  # the server settles after the connects
    baseline = servers.rss_kb(server.pid)
    log(f"{len(players)} honest sockets connected; server RSS {baseline / 1024:.0f} MB")
    for p in players:
        p.run.pending.clear()
    go.set()
    for p in players:
        p.decide()

    flood_proc.go.set()  # the flooders start
    cpu0 = servers.cpu_seconds(server.pid)
    t0 = time.perf_counter()
    peak = baseline
    samples = []
    while time.perf_counter() - t0 < cfg.seconds:
        await asyncio.sleep(0.5)
        now_kb = servers.rss_kb(server.pid)
        peak = max(peak, now_kb)
        samples.append(now_kb)
    flood_s = time.perf_counter() - t0
    cpu_flood = servers.cpu_seconds(server.pid) - cpu0
    during = list(stats.latencies)
    flood_proc.stop.set()
    fst = await asyncio.get_running_loop().run_in_executor(None, flood_proc.out.get, True, 60)
    log(f"flood stopped after {flood_s:.0f} s; settling {cfg.settle:g} s")
    settle_end = time.perf_counter() + cfg.settle
    while time.perf_counter() < settle_end:
        await asyncio.sleep(0.5)
    after = servers.rss_kb(server.pid)
    for p in players:
        p.over = True
    await asyncio.gather(*(p.close() for p in players), return_exceptions=True)
    for t in listeners:
        t.cancel()
    await asyncio.gather(*listeners, return_exceptions=True)
    errors = {k: v for k, v in stats.refusals.items() if k != "stale_state"}
    return {
        "flood_s": round(flood_s, 1),
        "rss_mb": {
            "baseline": round(baseline / 1024, 1),
            "peak": round(peak / 1024, 1),
            "mean_during": round(sum(samples) / len(samples) / 1024, 1) if samples else 0,
            "after": round(after / 1024, 1),
            "hwm": round(servers.peak_rss_kb(server.pid) / 1024, 1),
        },
        "server_cpu_share": round(cpu_flood / flood_s, 2) if flood_s else 0,
        "honest": {
            "sockets": len(players),
            "latency_ms": summarize(during),
            "refusals": errors,
            "stale": stats.refusals.get("stale_state", 0),
        },
        "flood": {
            "sockets": cfg.flooders,
            "connections": fst["connections"],
            "handshakes_refused": fst["handshakes_refused"],
            "frames_sent": fst["frames_sent"],
            "mb_sent": round(fst["bytes_sent"] / 2**20, 1),
            "frames_answered": fst["frames_received"],
            "closes": fst["closes"],
        },
    }


def run_floodbench(
    cfg: FloodConfig, log: Callable[[str], None] = lambda msg: None
) -> dict[str, Any]:
    from django.conf import settings
    from django.db import connections

    settings.OKEY_SEED_PREFIX = cfg.seed_prefix
    load_before = servers.load_average()
    tmp = Path(tempfile.mkdtemp(prefix="okey-floodbench-"))
    server: servers.Server | None = None
    child: Any = None
    flood_proc: Any = None
    try:
        db_url = servers.use_fresh_sqlite(tmp / "bench.sqlite3")
        servers.migrate()
        honest = servers.create_tables(cfg.tables, cfg.variant)
        flood = servers.create_tables(-(-cfg.flooders // servers.SEATS), cfg.variant)
        connections["default"].close()
        env = servers.server_env(db_url, seed_prefix=cfg.seed_prefix)
        server = servers.start_server(env, tmp, 0)
        servers.wait_listening(server)
        log(f"server pid {server.pid} on {servers.HOST}:{server.port}")
        from games.live.consumers import MAX_FRAME_BYTES

        ctx = multiprocessing.get_context("fork")
        flood_proc = SimpleNamespace(go=ctx.Event(), stop=ctx.Event(), out=ctx.Queue())
        base = f"ws://{servers.HOST}:{server.port}/ws/t/"
        targets = [(f"{base}{s.code}/", k) for s in flood for k in s.keys][: cfg.flooders]
        origin = f"http://{servers.HOST}:{server.port}"
        child = ctx.Process(
            target=flood_process,
            args=(
                targets,
                origin,
                flood_payloads(MAX_FRAME_BYTES),
                flood_proc.go,
                flood_proc.stop,
                flood_proc.out,
            ),
            daemon=True,
        )
        child.start()
        result = asyncio.run(run_flood(cfg, honest, server, flood_proc, log))
        if server.proc.poll() is not None:
            result["server_exit"] = servers.tail(server.log_path)
        log_text = server.log_path.read_text(errors="replace")
        result["server_tracebacks"] = log_text.count("Traceback")
    finally:
        if child is not None:
            if flood_proc is not None:
                flood_proc.stop.set()
            child.join(30)
            if child.is_alive():
                child.kill()
        if server is not None:
            servers.stop_server(server)
        connections["default"].close()
        shutil.rmtree(tmp, ignore_errors=True)
    result["config"] = asdict(cfg)
    result["machine"] = {
        "cpus": os.cpu_count(),
        "loadavg_before": load_before,
        "loadavg_after": servers.load_average(),
    }
    result["date"] = servers.utc_now()
    return result


def format_flood(r: dict[str, Any]) -> str:
    c, m, h, f = r["config"], r["rss_mb"], r["honest"], r["flood"]
    lat, load = h["latency_ms"], r["machine"]
    return "\n".join(
        [
            f"Flood benchmark {r['date']} ({load['cpus']} CPUs; load average "
            f"{load['loadavg_before'][0]} before, {load['loadavg_after'][0]} after)",
            f"  {f['sockets']} flooding guest sockets for {r['flood_s']} s: "
            f"{f['frames_sent']} frames ({f['mb_sent']} MB) sent, {f['frames_answered']} answered; "
            f"{f['connections']} connections, {f['handshakes_refused']} handshakes refused, "
            f"closes by code {f['closes']}",
            f"  server RSS (MB): baseline {m['baseline']}, peak {m['peak']} (VmHWM {m['hwm']}), "
            f"mean {m['mean_during']} during, {m['after']} after {c['settle']:g} s",
            f"  server CPU {round(100 * r['server_cpu_share'])}% of one core during the flood; "
            f"{r.get('server_tracebacks', 0)} tracebacks in its log",
            f"  honest: {c['tables']} {c['variant']} table(s), {h['sockets']} sockets, "
            f"think {c['think_ms']:g} ms: "
            f"{lat['count']} actions, latency to the last seat (ms) p50 {lat['p50']}  "
            f"p95 {lat['p95']}  p99 {lat['p99']}  max {lat['max']}; refusals {h['refusals']}",
        ]
    )
