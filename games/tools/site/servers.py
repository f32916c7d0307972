"""What every live benchmark sets up: a fresh database with guest tables, ``manage.py
serve`` processes on free 127.0.0.1 ports, nginx in front of several of them (with the
site's own configuration, okeysite/deploy/nginx.conf), and the readings of their CPU time
and memory.

Nothing but 127.0.0.1 is contacted; :func:`stop_server` always ends a server (and its
profiler) that :func:`start_server` started, :func:`stop_nginx` the nginx of
:func:`start_nginx`.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

ROOT = Path(__file__).resolve().parents[3]
HOST = "127.0.0.1"
SEATS = 4  # the benchmarks' tables are four-seat tables of guests


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


# ------------------------------------------------------------------ database


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

    from games.live import actions

    specs = []
    for _ in range(n):
        keys = []
        for _seat in range(SEATS):
            s = SessionStore()
            s.create()
            keys.append(s.session_key)
        table = actions.do_create_table(
            variant=variant,
            options={"players": SEATS},
            seats=[actions.SeatSpec("me")] + [actions.SeatSpec("human")] * (SEATS - 1),
            guest_key=keys[0],
        )
        for key in keys[1:]:
            actions.do_join_table(table.pk, guest_key=key)
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


def server_env(
    db_url: str, *, seed_prefix: str, debug: bool = False, redis_url: str = ""
) -> dict[str, str]:
    """The environment of a benchmark's ``manage.py serve``: its database, DEBUG off
    (as in production) unless asked, reproducible deals, Redis only when given."""
    env = dict(os.environ)
    env.update(
        {
            "DATABASE_URL": db_url,
            "DEBUG": "1" if debug else "0",
            "ALLOWED_HOSTS": f"{HOST},localhost",
            "OKEY_SEED_PREFIX": seed_prefix,
            "PYTHONUNBUFFERED": "1",
        }
    )
    if redis_url:
        env["REDIS_URL"] = redis_url
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


# The counters of the servers' /metrics (games/ops, okeysite/metrics.py) a run reports: what
# moved between the start of play and its end, summed over the processes and their labels.
METRICS = (
    "okey_actions_total",
    "okey_action_seconds_count",
    "okey_action_seconds_sum",
    "okey_table_sockets_opened_total",
    "okey_errors_total",
)


def scrape_metrics(port: int) -> dict[str, float]:
    """The ``METRICS`` samples of one process's /metrics (from 127.0.0.1, which it allows),
    each summed over its labels."""
    import urllib.request

    from prometheus_client.parser import text_string_to_metric_families

    with urllib.request.urlopen(f"http://{HOST}:{port}/metrics", timeout=10) as response:
        text = response.read().decode()
    found = dict.fromkeys(METRICS, 0.0)
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name in found:
                found[sample.name] += sample.value
    return found


def metrics_moved(
    before: list[dict[str, float]], after: list[dict[str, float]]
) -> dict[str, float]:
    """How far each counter moved, over all the processes."""
    return {
        name: round(sum(a[name] for a in after) - sum(b[name] for b in before), 6)
        for name in METRICS
    }


def tail(path: Path, lines: int = 30) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


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


# ------------------------------------------------------------------ nginx

# The site's nginx configuration, included as it is (never copied) by the tests and by
# ``loadbench --processes N``; it reads okey-servers.conf and okey-listen.conf from the
# directory of nginx's main file (okeysite/deploy/nginx.conf explains them).
NGINX_CONF = ROOT / "okeysite" / "deploy" / "nginx.conf"
# What nginx logs of each request (a websocket's once it closes): which process answered.
# Fields split at "|", which neither a status nor an address list ("a:1, b:2") holds.
NGINX_LOG_FORMAT = "$status|$upstream_addr|$uri"
NGINX_MAIN = """\
daemon off;
worker_processes 1;
worker_rlimit_nofile 16384;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
events {{ worker_connections 8192; }}
http {{
    log_format okey_upstream '{log_format}';
    access_log {prefix}/access.log okey_upstream;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    include {site};
}}
"""


def nginx_binary() -> str | None:
    """Debian's nginx (``make test`` installs it), or None without one."""
    return shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if Path(p).exists()), None
    )


def write_nginx_files(prefix: Path, backends: list[int], port: int) -> Path:
    """The main file around the site's configuration, and the two files it reads, for
    ``backends`` (ports of ``manage.py serve`` on 127.0.0.1) behind 127.0.0.1:``port``;
    logs and temporary files stay in ``prefix``. Returns the main file.

    ``max_fails=0``: a test's or benchmark's process is never taken out of the ring for a
    while after one failed connection, so a table's route is the hash's alone."""
    (prefix / "okey-servers.conf").write_text(
        "".join(f"server {HOST}:{p} max_fails=0;\n" for p in backends)
    )
    (prefix / "okey-listen.conf").write_text(f"listen {HOST}:{port};\n")
    main = prefix / "nginx.conf"
    main.write_text(NGINX_MAIN.format(prefix=prefix, log_format=NGINX_LOG_FORMAT, site=NGINX_CONF))
    return main


@dataclass
class Nginx:
    port: int
    proc: subprocess.Popen
    prefix: Path
    backends: list[int]
    cpu_start: float = 0.0
    cpu_end: float = 0.0

    @property
    def pid(self) -> int:
        return self.proc.pid

    def pids(self) -> list[int]:
        """The master and its workers."""
        return [self.pid, *child_pids(self.pid)]

    def cpu_seconds(self) -> float:
        return sum(cpu_seconds(p) for p in self.pids())

    def routed(self) -> list[tuple[str, int, int | None]]:
        """(path, status, port of the process that answered) of every request nginx has
        logged so far, in order; a websocket is logged when it closes. With a retry
        (a process refused the connection) the port is the last one tried."""
        out = []
        try:
            lines = (self.prefix / "access.log").read_text().splitlines()
        except OSError:
            return out
        for line in lines:
            status, upstream, uri = line.split("|", 2)
            last = upstream.rsplit(",", 1)[-1].strip()
            port = int(last.rsplit(":", 1)[1]) if ":" in last else None
            out.append((uri, int(status), port))
        return out


def start_nginx(backends: list[int], timeout: float = 30.0) -> Nginx:
    """nginx on a free 127.0.0.1 port in front of ``backends``, with the site's
    configuration (:data:`NGINX_CONF`); its files are in a directory of its own (the
    workers, which drop root's rights, must reach their temporary files)."""
    exe = nginx_binary()
    if exe is None:
        raise RuntimeError("nginx is missing: apt-get install -y nginx (make test does)")
    prefix = Path(tempfile.mkdtemp(prefix="okey-nginx-"))
    prefix.chmod(0o755)
    port = free_port()
    main = write_nginx_files(prefix, backends, port)
    proc = subprocess.Popen(
        [exe, "-p", str(prefix), "-c", str(main), "-e", str(prefix / "error.log")],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    nginx = Nginx(port=port, proc=proc, prefix=prefix, backends=list(backends))
    end = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            log = tail(prefix / "error.log")
            shutil.rmtree(prefix, ignore_errors=True)
            raise RuntimeError(f"nginx exited early:\n{log}")
        with contextlib.suppress(OSError), socket.create_connection((HOST, port), 0.5):
            return nginx
        if time.monotonic() > end:
            stop_nginx(nginx)
            raise RuntimeError(f"nginx did not listen on {port}")
        time.sleep(0.05)


def stop_nginx(nginx: Nginx) -> None:
    """Fast shutdown (SIGTERM: the master ends its workers); SIGKILL to all of them if
    that does not end it. Its directory goes too."""
    workers = child_pids(nginx.pid)
    if nginx.proc.poll() is None:
        nginx.proc.terminate()
        try:
            nginx.proc.wait(10)
        except subprocess.TimeoutExpired:
            nginx.proc.kill()
            nginx.proc.wait(10)
            for pid in workers:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
    shutil.rmtree(nginx.prefix, ignore_errors=True)


# ------------------------------------------------------------------ readings


def child_pids(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux /proc; none elsewhere)."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(stat.parent.name))
    return out


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


def rss_kb(pid: int) -> int:
    """Current resident set size (VmRSS) of a process, 0 if it is gone."""
    return proc_status_kb(pid, "VmRSS") or 0


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


def load_average() -> list[float]:
    """The machine's 1, 5 and 15 minute load averages (the figures are read against it)."""
    return [round(x, 2) for x in os.getloadavg()]


def utc_now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
