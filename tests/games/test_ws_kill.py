"""``kill -9`` of one of two server processes (PostgreSQL + Redis): the sockets it
held stop counting for presence once the other process finds nobody vouched for
them, so the seat is away and its CPU plays (games/live/actions/, presence)."""

from __future__ import annotations

import contextlib
import os
import signal

import pytest

from tests.games.test_multiprocess import SETUP
from tests.support import servers
from tests.support.servers import free_port
from tests.support.waits import wait_until


def _seats(url: str, code: str) -> list[tuple[int, bool]]:
    """(connections, away) of each seat of the table, by position."""
    import psycopg

    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "select s.connections, s.away_since is not null from games_seat s"
            " join games_table t on t.id = s.table_id where t.code = %s order by s.position",
            (code,),
        ).fetchall()
    return [(n, away) for n, away in rows]


def _db(url: str, sql: str, *args):
    import psycopg

    with psycopg.connect(url) as conn:
        return conn.execute(sql, args).fetchone()[0]


def _until(check):
    return wait_until(check, "the seats' presence", timeout=30.0, interval=0.2)


@pytest.mark.slow
def test_a_killed_process_leaves_no_seat_present(postgres, redis):
    from websockets.sync.client import connect

    env = {
        **os.environ,
        "DATABASE_URL": postgres,
        "REDIS_URL": redis,
        "ALLOWED_HOSTS": "127.0.0.1",
        "OKEY_PRESENCE_HEARTBEAT_S": "0.5",
        "OKEY_PRESENCE_TTL_S": "3",
        "OKEY_AWAY_GRACE_S": "60",
    }
    servers.manage(env, "migrate", "--noinput", "-v", "0")
    servers.manage(env, "flush", "--noinput")
    out = servers.manage(env, "shell", "-c", SETUP)
    code, key_a, key_b = out.split("SETUP", 1)[1].split()[:3]
    port_a, port_b = free_port(), free_port()
    a, b = servers.serve(env, port_a), servers.serve(env, port_b)
    stack = contextlib.ExitStack()
    try:
        servers.wait_for_http(f"http://127.0.0.1:{port_a}/")
        servers.wait_for_http(f"http://127.0.0.1:{port_b}/")

        def sock(port: int, key: str):
            ws = stack.enter_context(
                connect(
                    f"ws://127.0.0.1:{port}/ws/t/{code}/",
                    origin=f"http://127.0.0.1:{port}",
                    additional_headers={"Cookie": f"sessionid={key}"},
                )
            )
            ws.recv(timeout=10)
            return ws

        sock(port_a, key_a)  # seat 0, held by A
        ws_b = sock(port_b, key_b)
        assert _until(lambda: _seats(postgres, code)[:2] == [(1, False), (1, False)])
        os.kill(a.pid, signal.SIGKILL)  # process A dies holding seat 0's socket
        a.wait(10)
        # B expires A's row (no heartbeat for 3 s); B's own socket stays counted
        assert _until(lambda: _seats(postgres, code)[:2] == [(0, True), (1, False)])
        # B keeps vouching for its own socket past another TTL: still counted
        since = _db(postgres, "select now()")
        assert _until(
            lambda: _db(
                postgres,
                "select count(*) from games_seatconnection where seen_at > %s"
                " + interval '4 seconds'",
                since,
            )
        )
        assert _seats(postgres, code)[:2] == [(0, True), (1, False)]
        ws_b.close()
        assert _until(lambda: _seats(postgres, code)[1] == (0, True))
    finally:
        stack.close()
        for p in (a, b):
            if p.poll() is None:
                os.kill(p.pid, signal.SIGKILL)
                p.wait(10)
