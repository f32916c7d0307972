"""Bench: the memory and the cost of many idle bot streams (docs/bots-api.md, "Measured").

    python -m games.tools.site.bot_streams --streams 1000

1. a fresh SQLite database in a temp dir, migrated; ``streams / 4`` bot accounts, each
   with a token (``manage.py shell``);
2. one ``manage.py serve`` (daphne + sweeper) with the per-address and per-process stream
   limits raised past ``streams`` (the per-account limit stays 4);
3. the server's resident memory (``VmRSS``) once it has answered one stream, then after
   ``streams`` streams are open (each read up to its ``hello`` line, then left idle:
   nothing more is read, as a bot waiting for a game), then after one heartbeat period
   with all of them open, with the time a page (``/bots/``) takes meanwhile; then all are
   closed, and memory is read again. ``threads``: the server's threads before and with
   the streams open (Django keeps one thread per request that is being answered).

Nothing but 127.0.0.1 is contacted; the server is always stopped. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from .servers import HOST, ROOT, free_port, peak_rss_kb, server_env, tail

MAKE_BOTS = """
import json
from django.contrib.auth import get_user_model
from games.api import tokens
from games.api.bot_stream import do_upgrade_to_bot
out = []
for i in range(N):
    user = get_user_model().objects.create_user(f"bench-bot-{i}", password=None)
    do_upgrade_to_bot(user)
    out.append(tokens.do_create_token(user, "bench", ["play"])[1])
print(json.dumps(out))
"""


def status(pid: int, field: str) -> int:
    """A number of ``/proc/<pid>/status`` (VmRSS in kB, Threads)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1])
    return 0


def rss_kb(pid: int) -> int:
    return status(pid, "VmRSS")


def manage(env: dict[str, str], *args: str) -> str:
    out = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )
    if out.returncode:
        raise RuntimeError(out.stdout + out.stderr)
    return out.stdout


def open_stream(port: int, token: str) -> socket.socket:
    """A stream read up to its hello line, then left as it is."""
    sock = socket.create_connection((HOST, port), timeout=30)
    request = f"GET /api/v1/bot/stream HTTP/1.1\r\nHost: {HOST}\r\n"
    sock.sendall(f"{request}Authorization: Bearer {token}\r\n\r\n".encode())
    data = b""
    while b'"hello"' not in data:
        chunk = sock.recv(4096)
        if not chunk:
            raise RuntimeError(f"stream closed: {data[:300]!r}")
        data += chunk
    if not data.startswith(b"HTTP/1.1 200"):
        raise RuntimeError(data[:300].decode(errors="replace"))
    return sock


def page_ms(port: int) -> float:
    start = time.perf_counter()
    with urllib.request.urlopen(f"http://{HOST}:{port}/bots/", timeout=60) as r:
        r.read()
    return (time.perf_counter() - start) * 1000


def run(streams: int, heartbeat: float) -> dict:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 4 * streams + 256)), hard))
    tmp = Path(tempfile.mkdtemp(prefix="okey-botbench-"))
    env = server_env(f"sqlite:///{tmp / 'bench.sqlite3'}", seed_prefix="botbench-")
    env |= {
        "BOT_STREAMS_PER_IP": str(streams + 10),
        "BOT_STREAMS_TOTAL": str(streams + 10),
        "BOT_STREAM_HEARTBEAT_S": str(heartbeat),
        "API_IP_RATE_LIMIT": str(10 * streams),
        "API_TOKEN_RATE_LIMIT": "1000",
    }
    socks: list[socket.socket] = []
    proc = None
    try:
        manage(env, "migrate", "--noinput", "-v", "0")
        bots = (streams + 3) // 4
        tokens = json.loads(
            manage(env, "shell", "-c", MAKE_BOTS.replace("range(N)", f"range({bots})"))
            .strip()
            .splitlines()[-1]
        )
        port = free_port()
        log_path = tmp / "serve.log"
        with open(log_path, "w") as log:
            proc = subprocess.Popen(
                [sys.executable, "manage.py", "serve", "--host", HOST, "--port", str(port)],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        end = time.monotonic() + 60
        while True:
            try:
                page_ms(port)
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > end:
                    raise RuntimeError(tail(log_path)) from None
                time.sleep(0.2)
        open_stream(port, tokens[0]).close()
        time.sleep(heartbeat + 1)  # let the warm-up stream's end be handled
        base_rss = rss_kb(proc.pid)
        base_threads = status(proc.pid, "Threads")
        base_ms = page_ms(port)
        started = time.perf_counter()
        for i in range(streams):
            socks.append(open_stream(port, tokens[i // 4]))
        open_s = time.perf_counter() - started
        open_rss = rss_kb(proc.pid)
        time.sleep(heartbeat * 1.5)  # a heartbeat (and its rescan) for every stream
        idle_rss = rss_kb(proc.pid)
        idle_threads = status(proc.pid, "Threads")
        idle_ms = sorted(page_ms(port) for _ in range(5))[2]
        for s in socks:
            s.close()
        socks.clear()
        time.sleep(heartbeat + 1)
        closed_rss = rss_kb(proc.pid)
        return {
            "streams": streams,
            "bots": bots,
            "heartbeat_s": heartbeat,
            "open_all_s": round(open_s, 2),
            "rss_mb": {
                "before": round(base_rss / 1024, 1),
                "open": round(open_rss / 1024, 1),
                "after_heartbeat": round(idle_rss / 1024, 1),
                "closed": round(closed_rss / 1024, 1),
                "peak": round(peak_rss_kb(proc.pid) / 1024, 1),
            },
            "kb_per_stream": round((idle_rss - base_rss) / streams, 1),
            "threads": {"before": base_threads, "streams_open": idle_threads},
            "page_ms": {"before": round(base_ms, 1), "streams_open": round(idle_ms, 1)},
            "load": os.getloadavg(),
        }
    finally:
        for s in socks:
            s.close()
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m games.tools.site.bot_streams")
    p.add_argument("--streams", type=int, default=1000)
    p.add_argument("--heartbeat", type=float, default=10.0)
    args = p.parse_args(argv)
    print(json.dumps(run(args.streams, args.heartbeat), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
