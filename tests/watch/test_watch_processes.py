"""Watchers across processes: two `manage.py serve` processes share one PostgreSQL
database and one Redis channel layer (the fixtures of tests/games/test_multiprocess.py).
A watcher on each process is counted by both, the lobby on one process hears a
watcher arrive on the other, and a departure on one reaches the other."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import re

import pytest

from tests.support import servers
from tests.support.servers import free_port

COUNT = re.compile(r'data-testid="watchers" data-n="(\d+)"')
LOBBY_COUNT = re.compile(r'data-testid="live-watchers" data-n="(\d+)"')

SETUP = """
from games.live import actions
t = actions.do_create_table(variant="classic", options={}, public=True, guest_key="g-host",
    seats=[actions.SeatSpec("me")] + [actions.SeatSpec("cpu")] * 3)
print("SETUP", t.code)
"""


async def _socket(port: int, path: str):
    import websockets

    return await websockets.connect(
        f"ws://127.0.0.1:{port}{path}", origin=f"http://127.0.0.1:{port}"
    )


async def _until(ws, pattern: re.Pattern[str], value: str, timeout: float = 10.0) -> None:
    """Read frames until one shows ``pattern`` with ``value``."""

    async def read() -> None:
        while True:
            found = pattern.findall(await ws.recv())
            if found and found[-1] == value:
                return

    await asyncio.wait_for(read(), timeout)


@pytest.mark.slow
def test_watchers_on_two_processes_are_counted_by_both(postgres, redis):
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(
        DATABASE_URL=postgres,
        REDIS_URL=redis,
        OKEY_CPU_DELAY_MS="50",
        OKEY_LOBBY_COALESCE_S="0.1",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_SETTINGS_MODULE="okeysite.settings",
    )
    servers.manage(env, "migrate", "--noinput", "-v", "0")
    code = servers.manage(env, "shell", "-c", SETUP).split()[-1]
    p1, p2 = free_port(), free_port()
    procs = [servers.serve(env, p1), servers.serve(env, p2)]
    try:
        servers.wait_for_http(f"http://127.0.0.1:{p1}/")
        servers.wait_for_http(f"http://127.0.0.1:{p2}/")

        async def watch() -> None:
            lobby = await _socket(p1, "/ws/lobby/")
            await _until(lobby, LOBBY_COUNT, "0")
            a = await _socket(p1, f"/ws/t/{code}/")
            await _until(a, COUNT, "1")
            b = await _socket(p2, f"/ws/t/{code}/")
            await _until(b, COUNT, "2")  # its first frame: both processes' watchers
            await _until(a, COUNT, "2")  # told across processes
            await _until(lobby, LOBBY_COUNT, "2")
            await b.close()
            await _until(a, COUNT, "1")
            await _until(lobby, LOBBY_COUNT, "1")
            await a.close()
            await lobby.close()

        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, watch()).result()
    finally:
        for s in procs:
            s.terminate()
        for s in procs:
            try:
                s.wait(10)
            except Exception:
                s.kill()
                s.wait(10)
