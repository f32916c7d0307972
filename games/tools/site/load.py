"""Load benchmark: N tables of four scripted websocket players against real servers.

``manage.py loadbench`` (games/management/commands/loadbench.py) drives this module:

1. a fresh database (a SQLite file in a temp dir, or ``DATABASE_URL``), migrated;
2. N four-seat tables of one rule set whose seats are guests (one Django session per
   player), so the first hand is dealt before anyone connects and no CPU plays;
3. one or more ``manage.py serve`` processes (daphne + sweeper) on free loopback
   ports; several need ``REDIS_URL`` and PostgreSQL, and stand behind nginx with the
   site's own configuration (okeysite/deploy/nginx.conf: every socket of a table goes
   to one process, by a consistent hash of its code), which the players connect to,
   so the benchmark measures the production layout, nginx included;
4. 4·N websocket players (``games.tools.site.players``), whose pages are in ``language``:
   on its turn each draws, then discards; a hand ends when the pile runs out (or a
   close); with ``hands > 1`` seat 0 sends ``next_hand``.

For every accepted action the latency is measured from sending it to the moment
the *last* of the four seats has received a frame carrying the new version. The
servers' own counters (their /metrics, okeysite/metrics.py) are read before play and
after it: ``metrics`` in the result is how far each moved, over all the processes.
Nothing but 127.0.0.1 is contacted; the servers are always stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import platform
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from . import pages, probe, servers
from . import soak as soak_mod
from .players import DEFAULT_VARIANT, PlayConfig, Stats, play

# A soak deals hand after hand for as long as it runs: a classic game of the scripted
# players never ends (they neither close nor show, so each hand ends when the pile runs
# out, RULES.md §1 [D4], a drawn hand in which nobody loses points, §2), so a table
# plays about one hand every 200 s at the human pace.
SOAK_HANDS = 1_000_000


@dataclass
class BenchConfig:
    tables: int = 100
    processes: int = 1
    hands: int = 1
    seconds: float = 120.0
    variant: str = DEFAULT_VARIANT
    think_ms: float = 0.0  # mean think time before each action (uniform 0.5x..1.5x)
    language: str = ""  # the players' pages' language ("": the site's default)
    database_url: str = ""  # empty: a fresh SQLite file in a temp dir
    redis_url: str = ""
    debug: bool = False  # run the servers with DEBUG=1 (query log, template debug)
    profile: str = ""  # py-spy output file (speedscope/flamegraph/raw by extension)
    connect_concurrency: int = 10  # handshakes in flight at once (a ramp, not a storm)
    seed: int = 1
    soak: bool = False  # a long run: hands go on (see SOAK_HANDS), RSS judged at the end
    sample_s: float = 60.0  # the servers' RSS is sampled this often
    soak_baseline_s: float = soak_mod.SOAK_BASELINE_S  # the soak's RSS is compared with this
    with_pages: bool = False  # two phases: the tables alone, then with the page client
    page_names: tuple[str, ...] = pages.PAGES  # the page client's pages

    @property
    def seed_prefix(self) -> str:
        return f"loadbench{self.seed}-"

    def play_config(self) -> PlayConfig:
        return PlayConfig(
            hands=max(self.hands, SOAK_HANDS) if self.soak else self.hands,
            seconds=self.seconds,
            think_ms=self.think_ms,
            language=self.language,
            connect_concurrency=self.connect_concurrency,
            seed=self.seed,
        )


def run_bench(cfg: BenchConfig, log: Callable[[str], None] = lambda msg: None) -> dict[str, Any]:
    """Set up, serve, play, measure, and always stop the servers."""
    from django.conf import settings
    from django.db import connections

    if cfg.processes < 1:
        raise ValueError("--processes must be at least 1")
    engine = connections["default"].settings_dict["ENGINE"]
    if cfg.processes > 1 and (not cfg.redis_url or "postgresql" not in engine):
        raise ValueError("--processes N > 1 needs REDIS_URL and a PostgreSQL DATABASE_URL")

    settings.OKEY_SEED_PREFIX = cfg.seed_prefix  # reproducible deals
    load_before = servers.load_average()
    tmp = Path(tempfile.mkdtemp(prefix="okey-loadbench-"))
    procs: list[servers.Server] = []
    proxy: servers.Nginx | None = None  # in front of several processes
    specs: list[servers.TableSpec] = []
    alone_specs: list[servers.TableSpec] = []  # --with-pages: the first phase's tables
    sampler: soak_mod.RssSampler | None = None
    try:
        if cfg.database_url:
            db_url, db_name = cfg.database_url, engine.rsplit(".", 1)[-1]
        else:
            db_url, db_name = servers.use_fresh_sqlite(tmp / "bench.sqlite3"), "sqlite3"
        t = time.perf_counter()
        servers.migrate()
        specs = servers.create_tables(cfg.tables, cfg.variant)
        site: pages.PageSite | None = None
        if cfg.with_pages:
            alone_specs = servers.create_tables(cfg.tables, cfg.variant)
            site = pages.make_site(cfg.variant, cfg.seed)
        connections["default"].close()
        log(f"{db_name}: migrated, {cfg.tables} tables in {time.perf_counter() - t:.1f} s")
        env = servers.server_env(
            db_url, seed_prefix=cfg.seed_prefix, debug=cfg.debug, redis_url=cfg.redis_url
        )
        procs = [servers.start_server(env, tmp, i) for i in range(cfg.processes)]
        for s in procs:
            servers.wait_listening(s)
        log("servers: " + ", ".join(f"pid {s.pid} on :{s.port}" for s in procs))
        metrics_before = [servers.scrape_metrics(s.port) for s in procs]
        if len(procs) > 1:
            proxy = servers.start_nginx([s.port for s in procs])
            log(f"nginx: pid {proxy.pid} on :{proxy.port}")
        ports = [proxy.port] if proxy is not None else [s.port for s in procs]
        stats = Stats()
        sampler = soak_mod.RssSampler(
            [s.pid for s in procs],
            cfg.sample_s,
            log,
            lambda: f"({len(stats.latencies)} actions accepted)",
        )
        stop_pages = asyncio.Event()
        page_task: list[asyncio.Task] = []

        def measure_from_here() -> None:  # all sockets open: play starts
            if proxy is not None:
                proxy.cpu_start = proxy.cpu_seconds()
            for i, s in enumerate(procs):
                s.cpu_start = servers.cpu_seconds(s.pid)
                if cfg.profile:
                    base, ext = os.path.splitext(cfg.profile)
                    out = cfg.profile if len(procs) == 1 else f"{base}.{i}{ext}"
                    servers.start_profiler(s, out)
            sampler.start()
            if site is not None:  # the page client runs while the measured tables play
                page_task.append(
                    asyncio.ensure_future(
                        pages.loop_pages(ports[0], site, stop_pages, cfg.page_names)
                    )
                )

        async def phases() -> dict[str, Any]:
            alone = None
            if cfg.with_pages:
                log(f"phase 1: {cfg.tables} tables alone")
                alone = await play(cfg.play_config(), alone_specs, ports, log)
                await asyncio.to_thread(_retire, alone_specs)
                log(f"phase 2: {cfg.tables} other tables, one client looping over the pages")
            out = await play(cfg.play_config(), specs, ports, log, measure_from_here, stats)
            if page_task:
                stop_pages.set()
                out["pages"] = await page_task[0]
            if alone is not None:
                out["alone"] = alone
            return out

        result = asyncio.run(phases())
        sampler.stop()
        # the servers' own counters over the run (/metrics): every accepted move once
        result["metrics"] = servers.metrics_moved(
            metrics_before, [servers.scrape_metrics(s.port) for s in procs]
        )
        if proxy is not None:
            proxy.cpu_end = proxy.cpu_seconds()
            result["proxy"] = proxy_figures(proxy, specs, result["elapsed_s"] or 1.0)
        for s in procs:
            s.cpu_end = servers.cpu_seconds(s.pid)
            if s.proc.poll() is not None:
                result["errors"] += 1
                result.setdefault("server_exits", []).append(servers.tail(s.log_path))
        # every player has closed its socket: the presence rows must go (the servers run on)
        result["presence"] = soak_mod.presence_left(
            [x.table_id for x in specs + alone_specs],
            soak_mod.settle_time(servers.SEATS * len(specs)),
        )
        result["queries_per_action"] = probe.probe_queries(cfg.variant)
    finally:
        if sampler is not None:
            sampler.stop()
        if proxy is not None:
            servers.stop_nginx(proxy)
        for s in procs:
            servers.stop_server(s)
        if cfg.database_url and (specs or alone_specs):
            with contextlib.suppress(Exception):
                servers.retire_tables(specs + alone_specs)
        connections["default"].close()
        result_tracebacks = soak_mod.tracebacks([s.log_path for s in procs])
        shutil.rmtree(tmp, ignore_errors=True)
    result["server_tracebacks"] = result_tracebacks
    result["rss_samples"] = sampler.samples if sampler is not None else []
    if cfg.soak:
        result["soak"] = soak_verdict(result, cfg.soak_baseline_s)
    if "pages" in result:
        alone_p99 = result["alone"]["latency_ms"]["p99"]
        result["pages_p99_ratio"] = (
            round(result["latency_ms"]["p99"] / alone_p99, 2) if alone_p99 else None
        )
        result["page_errors"] = pages.page_errors(result["pages"])
    elapsed = result["elapsed_s"] or 1.0
    result["servers"] = [
        {
            "pid": s.pid,
            "port": s.port,
            "peak_rss_mb": round(s.peak_rss_kb / 1024, 1),
            "cpu_s": round(s.cpu_end - s.cpu_start, 2),
            "cpu_share": round((s.cpu_end - s.cpu_start) / elapsed, 2),
        }
        for s in procs
    ]
    server_cpu = sum(x["cpu_s"] for x in result["servers"])
    result["server_cpu_ms_per_action"] = (
        round(1000 * server_cpu / result["actions"], 1) if result["actions"] else 0.0
    )
    result["config"] = {**asdict(cfg), "database_url": db_name}
    result["sockets"] = servers.SEATS * cfg.tables
    result["machine"] = {
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(terse=True),
        "loadavg_before": load_before,
        "loadavg_after": servers.load_average(),
    }
    result["date"] = servers.utc_now()
    return result


def _retire(specs: list[servers.TableSpec]) -> None:
    """The first phase's tables: its players are gone, and nobody may play for them."""
    from django.db import connections

    servers.retire_tables(specs)
    connections["default"].close()


def soak_verdict(result: dict[str, Any], baseline_s: float) -> dict[str, Any]:
    """The soak's criteria: no errors (refusals, failed sockets, server exits or
    tracebacks), no presence row left once every socket closed, each server's RSS at the
    end within 10% of its RSS after ``baseline_s``; hands went on being dealt."""
    rss = soak_mod.rss_change(result["rss_samples"], baseline_s)
    errors = result["errors"] + result["server_tracebacks"]
    leaked = result["presence"]["leaked"]
    rss_ok = rss["pct"] is not None and all(
        p is not None and abs(p) <= 100 * soak_mod.SOAK_RSS_LIMIT for p in rss["pct"]
    )
    return {
        "errors": errors,
        "leaked_presence": leaked,
        "rss": rss,
        "hands_completed": result["hands_completed"],
        "passed": errors == 0 and leaked == 0 and rss_ok and result["hands_completed"] > 0,
    }


def proxy_figures(
    proxy: servers.Nginx, specs: list[servers.TableSpec], elapsed: float
) -> dict[str, Any]:
    """nginx's CPU, and where it sent the players' sockets (its log has each once closed:
    ``play`` closes them all): how many each process held, and how many tables had
    sockets on more than one process (0 with the hash routing)."""
    paths = {f"/ws/t/{s.code}/" for s in specs}
    wanted = servers.SEATS * len(specs)
    end = time.monotonic() + 5
    while True:  # nginx logs a socket just after it closes
        routed = [(uri, port) for uri, status, port in proxy.routed() if uri in paths]
        if len(routed) >= wanted or time.monotonic() > end:
            break
        time.sleep(0.05)
    by_table: dict[str, set[int | None]] = {}
    for uri, port in routed:
        by_table.setdefault(uri, set()).add(port)
    cpu = proxy.cpu_end - proxy.cpu_start
    return {
        "pid": proxy.pid,
        "cpu_s": round(cpu, 2),
        "cpu_share": round(cpu / elapsed, 2),
        "sockets_by_port": {
            str(port): n for port, n in sorted(Counter(p for _u, p in routed).items(), key=str)
        },
        "tables_split": sum(len(ports) > 1 for ports in by_table.values()),
    }


def format_summary(r: dict[str, Any]) -> str:
    c, lat = r["config"], r["latency_ms"]
    lines = [
        f"Load benchmark {r['date']} ({r['machine']['cpus']} CPUs, Python "
        f"{r['machine']['python']}, {c['database_url']}, {c['processes']} server process(es);"
        f" load average {r['machine']['loadavg_before'][0]} before, "
        f"{r['machine']['loadavg_after'][0]} after)",
        f"  {c['tables']} {c['variant']} tables, {r['sockets']} sockets, "
        f"think {c['think_ms']:g} ms"
        + (f", pages in {c['language']}" if c.get("language") else "")
        + f", connected in {r['connect_s']} s"
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
    lines.extend(probe.summary_lines(r))
    for s in r["servers"]:
        lines.append(
            f"  server pid {s['pid']}: peak RSS {s['peak_rss_mb']} MB, CPU {s['cpu_s']} s "
            f"({s['cpu_share']:.0%} of one core)"
        )
    if "proxy" in r:
        x = r["proxy"]
        held = ", ".join(f":{port} {n}" for port, n in x["sockets_by_port"].items())
        lines.append(
            f"  nginx pid {x['pid']}: CPU {x['cpu_s']} s ({x['cpu_share']:.0%} of one core);"
            f" sockets by process {held}; tables split over processes {x['tables_split']}"
        )
    for e in r.get("connect_errors", []):
        lines.append(f"  connect error: {e}")
    pr = r.get("presence")
    if pr is not None:
        lines.append(
            f"  presence rows once every socket closed: {sum(pr['at_close'].values())} at once,"
            f" {pr['leaked']} left after settling {pr['left']}; server tracebacks"
            f" {r.get('server_tracebacks', 0)}"
        )
    lines.extend(pages_lines(r))
    lines.extend(soak_lines(r))
    return "\n".join(lines)


def pages_lines(r: dict[str, Any]) -> list[str]:
    if "pages" not in r:
        return []
    a, b = r["alone"]["latency_ms"], r["latency_ms"]
    lines = [
        f"  tables alone (phase 1, {r['alone']['actions']} actions): p50 {a['p50']}  p95"
        f" {a['p95']}  p99 {a['p99']}  max {a['max']}  (errors {r['alone']['errors']})",
        f"  tables with the page client (phase 2, above): p50 {b['p50']}  p95 {b['p95']}  p99"
        f" {b['p99']}  max {b['max']};  p99 ratio {r['pages_p99_ratio']} (target <= 1.5)",
    ]
    for name, p in r["pages"].items():
        lat = p["latency_ms"]
        codes = " ".join(f"{k}:{v}" for k, v in sorted(p["statuses"].items()))
        lines.append(
            f"    page {name:<10} {lat['count']:>5} requests [{codes}]  p50 {lat['p50']} ms"
            f"  p95 {lat['p95']}  max {lat['max']}"
        )
    return lines


def soak_lines(r: dict[str, Any]) -> list[str]:
    k = r.get("soak")
    if k is None:
        return []
    rss = k["rss"]
    if rss["pct"] is None:
        change = f"(the run was shorter than {rss['baseline_s']:g} s: no RSS comparison)"
    else:
        change = "; ".join(
            f"{b} MB at {rss['baseline_s'] / 60:.1f} min -> {e} MB at {rss['end_s'] / 60:.1f}"
            f" min ({p:+.1f}%)"
            for b, e, p in zip(rss["at_baseline_mb"], rss["at_end_mb"], rss["pct"], strict=True)
        )
    samples = " ".join(
        f"{x['t_s'] / 60:.1f}:{'+'.join(str(m) for m in x['rss_mb'])}" for x in r["rss_samples"]
    )
    return [
        f"  soak: errors {k['errors']}, leaked presence {k['leaked_presence']}, hands"
        f" completed {k['hands_completed']}; RSS {change}",
        f"  soak RSS samples (min:MB) {samples}",
        f"  soak {'PASSED' if k['passed'] else 'FAILED'} (no errors, no leaked presence, RSS"
        f" within {soak_mod.SOAK_RSS_LIMIT:.0%} of its level after"
        f" {rss['baseline_s'] / 60:.0f} min)",
    ]
