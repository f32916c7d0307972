"""Time a few API routes in one process (docs/api.md, "Measured"). A tool, never the site:
run it on a scratch database, as it makes an account and a table there::

    DATABASE_URL=sqlite:////tmp/apibench.sqlite3 python manage.py migrate
    DATABASE_URL=sqlite:////tmp/apibench.sqlite3 API_IP_RATE_LIMIT=100000 \\
        API_TOKEN_RATE_LIMIT=100000 OKEY_CPU_DELAY_MS=0 python -m games.tools.site.api_bench
"""

from __future__ import annotations

import json
import os
import statistics
import time
from collections.abc import Callable
from typing import Any


def timed(call: Callable[[], Any], n: int) -> tuple[Any, float, float]:
    out = []
    answer = None
    for _ in range(n):
        t0 = time.perf_counter()
        answer = call()
        out.append((time.perf_counter() - t0) * 1000)
    return answer, statistics.median(out), max(out)


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "okeysite.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.test import Client

    from games.api import tokens
    from games.live import actions, cpu
    from games.models import Table

    user = get_user_model().objects.create_user(f"bench-{time.time_ns()}")
    _token, secret = tokens.do_create_token(user, "bench", ["play", "read"])
    client, auth = Client(), {"Authorization": f"Bearer {secret}"}
    for path, n in (("/api/v1/openapi.json", 20), ("/api/v1/rulesets", 50)):
        answer, p50, top = timed(lambda path=path: client.get(path), n)
        print(f"GET {path}: {answer.status_code} p50 {p50:.1f} ms, max {top:.1f} ms")
    opened = client.post(
        "/api/v1/tables", json.dumps({"variant": "classic"}), "application/json", headers=auth
    )
    code = opened.json()["table"]["code"]
    answer, p50, top = timed(lambda: client.get(f"/api/v1/tables/{code}", headers=auth), 50)
    print(f"GET /api/v1/tables/{{code}}: {answer.status_code} p50 {p50:.1f} ms, max {top:.1f} ms")
    moves = []
    for _ in range(200):
        table = Table.objects.get(code=code)
        _hand, state, _game = actions.snapshot(table)
        if table.status != Table.Status.PLAYING or state.over or len(moves) >= 15:
            break
        if state.turn != 0:
            actions.sweep()
            continue
        body = {"version": table.version, "action": cpu.choose(state, 0, "easy")}
        t0 = time.perf_counter()
        answer = client.post(
            f"/api/v1/tables/{code}/actions", json.dumps(body), "application/json", headers=auth
        )
        moves.append((time.perf_counter() - t0) * 1000)
        assert answer.status_code == 200, answer.content
    print(
        f"POST /api/v1/tables/{{code}}/actions: {len(moves)} moves,"
        f" p50 {statistics.median(moves):.1f} ms, max {max(moves):.1f} ms"
    )


if __name__ == "__main__":
    main()
