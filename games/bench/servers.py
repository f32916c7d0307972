"""What every live benchmark sets up: a fresh database with guest tables, ``manage.py
serve`` processes on free 127.0.0.1 ports, and the readings of their CPU time and memory.

Nothing but 127.0.0.1 is contacted; :func:`stop_server` always ends a server (and its
profiler) that :func:`start_server` started.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

ROOT = Path(__file__).resolve().parent.parent.parent
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

    from games import services

    specs = []
    for _ in range(n):
        keys = []
        for _seat in range(SEATS):
            s = SessionStore()
            s.create()
            keys.append(s.session_key)
        table = services.create_table(
            variant=variant,
            options={"players": SEATS},
            seats=[services.SeatSpec("me")] + [services.SeatSpec("human")] * (SEATS - 1),
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


# ------------------------------------------------------------------ readings


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
