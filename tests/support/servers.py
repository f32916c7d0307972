"""Server processes for tests: free ports, the environment a server runs with, starting
``manage.py serve`` and waiting until it answers.

``tests/conftest.py`` builds the e2e server (``daphne_server``) from these; tests that start
servers of their own (several daphne processes, a restart after ``kill -9``) use them too
and carry ``@pytest.mark.servers`` (docs/testing.md).
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.support.waits import wait_for_port, wait_until

ROOT = Path(__file__).resolve().parent.parent.parent
SERVER_START_TIMEOUT = 60.0


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def server_env(tmp_dir: Path) -> dict[str, str]:
    """The environment of a test server serving as ``make run`` does, with its own SQLite
    database, static files and mail directory in ``tmp_dir``; quick CPUs and predictable
    deals (tests only)."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE", "SECRET_KEY", "EMAIL_HOST"}
    }
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "okeysite.settings",
            "DATABASE_URL": f"sqlite:///{tmp_dir / 'e2e.sqlite3'}",
            # As `make run` serves it: DEBUG off, WhiteNoise serving the collected files.
            "DEBUG": "0",
            "STATIC_ROOT": str(tmp_dir / "static"),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "PYTHONUNBUFFERED": "1",
            "PYTHONDONTWRITEBYTECODE": "1",
            # CPUs move quickly, and deals are predictable (tests only). The sweeper plays
            # one CPU step per table per sweep: sweeping every 50 ms instead of 200 ms, a
            # CPU step comes 60-110 ms after the last instead of 60-260 ms (the long
            # browser tests mostly wait for CPU turns).
            "OKEY_CPU_DELAY_MS": "60",
            "OKEY_SWEEP_INTERVAL": "0.05",
            "OKEY_SEED_PREFIX": "e2e-",
            # Mail is written to files here (the reset test reads its link from them).
            "EMAIL_FILE_PATH": str(tmp_dir / "mail"),
            # The hand database's monthly files (games/handdb), not the repository's handdb/.
            "HAND_DB_DIR": str(tmp_dir / "handdb"),
            # Every browser signs up from 127.0.0.1 (the tournament test alone makes nine
            # accounts): lift the per-IP sign-up limit (tests/accounts/ tests the limit).
            "SIGNUP_THROTTLE_LIMIT": "1000",
            # and every guest's "Play now" and lesson start (tests/games/test_home_play.py
            # and tests/learn/ test the limit)
            "PLAY_NOW_LIMIT": "1000",
        }
    )
    return env


def manage(env: dict[str, str], *args: str, timeout: float = 180) -> str:
    """Run ``manage.py *args`` with ``env``; fail with its output unless it succeeds; its
    standard output."""
    out = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout


def prepare(env: dict[str, str]) -> None:
    """Migrate the server's database and collect its static files (``env`` names both),
    the two commands at once (collectstatic reads no database); fail with their output."""
    runs = {
        command: subprocess.Popen(
            [sys.executable, "manage.py", command, "--noinput", "-v", "0"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for command in ("migrate", "collectstatic")
    }
    try:
        for command, proc in runs.items():
            stdout, stderr = proc.communicate(timeout=300)
            assert proc.returncode == 0, f"{command} for a test server failed:\n{stdout}\n{stderr}"
    finally:
        for proc in runs.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def serve(env: dict[str, str], port: int, log_path: Path | None = None) -> subprocess.Popen:
    """Start ``manage.py serve`` (daphne and the CPU/clock sweeper, as ``make run`` starts
    it) on ``127.0.0.1:port`` with ``env``, its output written to ``log_path`` (by default
    ``okey-serve-<port>.log`` in the system's temporary directory)."""
    if log_path is None:
        log_path = Path(tempfile.gettempdir()) / f"okey-serve-{port}.log"
    with open(log_path, "ab") as log:
        return subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--host", "127.0.0.1", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )


class ServerExited(AssertionError):
    """The server process ended while a test waited for it."""


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status < 500
    except urllib.error.HTTPError as exc:
        return exc.code < 500
    except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
        return False


def wait_for_http(
    url: str,
    *,
    proc: subprocess.Popen | None = None,
    log_path: Path | None = None,
    timeout: float = SERVER_START_TIMEOUT,
) -> None:
    """Wait until ``url`` answers with a status below 500 (the server is up); fail at once,
    with the server's log, if ``proc`` exits first, and after ``timeout`` seconds."""

    def log() -> str:
        return log_path.read_text(errors="replace") if log_path is not None else ""

    def up() -> bool:
        if proc is not None and proc.poll() is not None:
            raise ServerExited(f"the server exited with {proc.returncode}:\n{log()}")
        return _answers(url)

    try:
        wait_until(up, f"{url} to answer", timeout=timeout, interval=0.1)
    except ServerExited:
        raise
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n{log()}") from None


def stop(proc: subprocess.Popen) -> None:
    """Terminate a server process and wait for it (killed if it takes over 10 s)."""
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


# PostgreSQL and Redis of a test module's own ----------------------------------------------
#
# Throw-away servers on free ports (``make servers`` installs them; nothing is configured
# system-wide). Fixtures: a test module imports the ones it uses (``from
# tests.support.servers import postgres, redis``), and using them marks its tests ``servers``.


def _pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    assert found, "PostgreSQL is missing: apt-get install -y postgresql (make test does)"
    return found[-1]


def _as_postgres(cmd: list[str]) -> list[str]:
    return cmd if os.getuid() != 0 else ["runuser", "-u", "postgres", "--", *cmd]


@pytest.fixture(scope="module")
def postgres():
    """A PostgreSQL server of the module's own; yields its URL (user postgres, trusted)."""
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

    def ready() -> bool:
        assert proc.poll() is None, f"postgres exited with {proc.returncode}"
        check = [_pg_bin("pg_isready"), "-h", "127.0.0.1", "-p", str(port)]
        return subprocess.run(check, capture_output=True).returncode == 0

    wait_until(ready, "PostgreSQL to accept connections", timeout=30, interval=0.1)
    yield f"postgres://postgres@127.0.0.1:{port}/postgres"
    proc.terminate()
    proc.wait(20)
    shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="module")
def redis():
    """A Redis server of the module's own (no persistence); yields its URL."""
    exe = shutil.which("redis-server")
    assert exe, "Redis is missing: apt-get install -y redis-server (make test does)"
    port = free_port()
    proc = subprocess.Popen(
        [exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wait_for_port(port, timeout=30, interval=0.05, proc=proc)  # Redis accepts connections
    yield f"redis://127.0.0.1:{port}/0"
    proc.terminate()
    proc.wait(10)
