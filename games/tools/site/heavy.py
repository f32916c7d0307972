"""Heavy pages against live tables: how much a table's moves slow down while the heaviest
pages are requested over and over (``manage.py heavybench``).

1. A fresh SQLite database in a temp dir, migrated; static files collected there too (the
   server runs with DEBUG off, as in production).
2. Test data at the largest size the import limits allow, all of one rule set (``--variant``):
   a published tournament of ``exchange.MAX_PLAYERS`` players and 30 rounds at four-seat
   tables, every result in; a review file of 60 hands played by the easy CPU, and its import
   (owned by a guest session); an account for the tournament import.
3. One ``manage.py serve`` process on a free 127.0.0.1 port.
4. Two phases of the same length, each with fresh tables of four scripted websocket players
   (``games.tools.site.players``): first alone (the baseline), then while ``--clients`` HTTP clients
   per page request it in a loop, each as fast as it is answered: the who-met-whom matrix
   (first block and a far one), an imported hand's replay, a review import (POST of the
   file) and a tournament import (POST of the tournament file). The ordinary pages
   (``home``, ``rules``) are asked for by another visitor (a session of its own), with
   ``--reference-clients`` loops each: what one client's flood costs everybody else
   (games/common/heavy.py shares the heavy pages per client).

``--server-root`` serves the site from another checkout of the project (e.g.
``git archive <commit>`` unpacked in a temp dir), with the same driver and data, to
compare two revisions of the server (docs/security.md).

It prints the table latency (action sent → the last seat has the new version) of both
phases and, per page, the count, status codes and latency. Nothing but 127.0.0.1 is
contacted; the server is always stopped.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import servers
from .players import DEFAULT_VARIANT, PlayConfig, play, summarize
from .servers import HOST, SEATS

PAGES = ("matrix", "replay", "review-import", "tournament-import")
REFERENCE = ("home", "rules")  # ordinary pages, to compare with


@dataclass
class HeavyConfig:
    seconds: float = 20.0
    tables: int = 4
    think_ms: float = 300.0
    clients: int = 4
    reference_clients: int | None = None  # loops per ordinary page (default: ``clients``)
    pages: tuple[str, ...] = PAGES
    review_hands: int = 60
    variant: str = DEFAULT_VARIANT  # the rule set of the tables, the review file and the tournament
    seed: int = 1

    @property
    def seed_prefix(self) -> str:
        return f"loadbench{self.seed}-"  # the server deals the next hands as loadbench does


@dataclass
class Site:
    """What the hammering clients need to know about the test data."""

    tournament_id: int
    record_id: int
    hands: int
    guest_session: str
    user_session: str
    visitor_session: str
    review_file: bytes
    tournament_file: bytes


@dataclass
class PageStats:
    latencies: list[float] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)


# ------------------------------------------------------------------ test data


def review_options(variant: str, hands: int) -> dict[str, Any]:
    """The options of a review file of ``hands`` hands of ``variant``: its defaults when a
    game with them can have that many hands, else the four-seat options that allow the most
    (the import's bound, ``records.max_hands``)."""
    import itertools

    from games.engine import validate_options
    from games.engine.rules import rules_for
    from games.review import records

    best = validate_options(variant, {"players": SEATS})
    if records.max_hands(variant, best) >= hands:
        return best
    spec = {k: allowed for k, (allowed, _default) in rules_for(variant).options.items()}
    spec["players"] = (SEATS,)
    for values in itertools.product(*spec.values()):
        options = validate_options(variant, dict(zip(spec, values, strict=True)))
        if records.max_hands(variant, options) > records.max_hands(variant, best):
            best = options
    return best


def review_document(hands: int, seed: int, variant: str) -> dict[str, Any]:
    """A game of ``variant`` played by the easy CPU (engine only): ``hands`` hands, or as
    many as the import allows a game of that rule set."""
    from games.engine import apply, new_hand
    from games.engine.bots import choose_action
    from games.review import records

    options = review_options(variant, hands)
    out = []
    for i in range(min(hands, records.max_hands(variant, options))):
        state = new_hand(variant, options, f"heavybench-{seed}-{i}", i % SEATS)
        while not state.over:
            state, _ = apply(state, choose_action(state, state.turn, "easy"))
        out.append(records.hand_export(state.record(), i + 1))
    players = [{"seat": s, "name": f"Player {s + 1}", "cpu": None} for s in range(SEATS)]
    return records.document(variant, state.options, players, out)


def game_results(variant: str, games: int, seed: int) -> list[list[int]]:
    """The final totals of ``games`` whole games of ``variant`` (its default options)
    played by the easy CPU: results that a tournament of that rule set accepts, whatever
    the rule set's scores look like (engine only)."""
    from games.engine import apply, validate_options
    from games.engine.bots import choose_action
    from games.engine.game import Game

    out = []
    for k in range(games):
        game = Game(variant, validate_options(variant, {}))
        while not game.is_over():
            if len(game.hands) >= 1000:  # the easy CPU ends games: a guard, not a rule
                raise RuntimeError(f"a {variant} game of the easy CPU did not end")
            state = game.new_hand(f"heavybench-{seed}-game-{k}-{len(game.hands)}")
            while not state.over:
                state, _ = apply(state, choose_action(state, state.turn, "easy"))
            game.record_hand(state)
        out.append(game.totals())
    return out


def tournament_document(players: int, rounds: int, variant: str, seed: int) -> dict[str, Any]:
    """A tournament of ``players`` players and ``rounds`` rounds of four-seat tables, every
    result in (four played games' totals, in turn)."""
    results = game_results(variant, 4, seed)
    return {
        "format": "okey-tournament/1",
        "tournament": {
            "name": "Heavy bench open",
            "date": "2026-11-29",
            "variant": variant,
            "options": {},  # the rule set's defaults
            "rounds": rounds,
            "mode": "in_person",
            "seed": "heavybench",
        },
        "players": [{"index": i, "name": f"Player {i + 1}"} for i in range(players)],
        "rounds": [
            {
                "number": r,
                "tables": [
                    {
                        "number": k + 1,
                        # a rotation per round, so that the matrix fills in
                        "seats": [(4 * k + j * (2 * r - 1)) % players for j in range(4)],
                        "scores": results[k % 4],
                    }
                    for k in range(players // 4)
                ],
            }
            for r in range(1, rounds + 1)
        ],
    }


def _session(**data: Any) -> str:
    from django.contrib.sessions.backends.db import SessionStore

    store = SessionStore()
    for key, value in data.items():
        store[key] = value
    store.create()
    return store.session_key


def make_site(cfg: HeavyConfig) -> Site:
    from django.contrib.auth import get_user_model

    from games.review import records
    from games.review import views as review_views
    from games.review.models import ImportedHand, ImportedRecord
    from games.tournaments import exchange

    user = get_user_model().objects.create_user("heavybench", password=secrets.token_hex(16))
    user_session = _session(
        _auth_user_id=str(user.pk),
        _auth_user_backend="django.contrib.auth.backends.ModelBackend",
        _auth_user_hash=user.get_session_auth_hash(),
    )
    t_doc = tournament_document(exchange.MAX_PLAYERS, 30, cfg.variant, cfg.seed)
    t = exchange.do_import_tournament(user, t_doc)
    t.published = True
    t.save(update_fields=["published"])
    r_doc = review_document(cfg.review_hands, cfg.seed, cfg.variant)
    raw = json.dumps(r_doc, ensure_ascii=False).encode()
    loaded = records.load_document(raw)
    guest_session = _session(bench=True)
    rec = ImportedRecord.objects.create(
        guest_key=guest_session,
        variant=cfg.variant,
        title="heavybench.json",
        data=loaded["document"],
    )
    hands = review_views._replayed_hands(loaded)
    for hand in hands:
        hand.record = rec
    ImportedHand.objects.bulk_create(hands)
    return Site(
        tournament_id=t.pk,
        record_id=rec.pk,
        hands=len(loaded["hands"]),
        guest_session=guest_session,
        user_session=user_session,
        visitor_session=_session(visitor=True),
        review_file=raw,
        tournament_file=json.dumps(t_doc).encode(),
    )


# ------------------------------------------------------------------ HTTP clients


async def http(
    port: int, method: str, path: str, cookies: dict[str, str], body: bytes = b"", ctype: str = ""
) -> int:
    """One request on a fresh connection; its status (0: no HTTP answer)."""
    reader, writer = await asyncio.open_connection(HOST, port)
    head = [
        f"{method} {path} HTTP/1.1",
        f"Host: {HOST}:{port}",
        "Connection: close",
        "Cookie: " + "; ".join(f"{k}={v}" for k, v in cookies.items()),
    ]
    if method == "POST":
        head += [f"Content-Type: {ctype}", f"Content-Length: {len(body)}"]
        head.append(f"X-CSRFToken: {cookies['csrftoken']}")
    writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
    await writer.drain()
    data = await reader.read()
    writer.close()
    return int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/") else 0


def multipart(name: str, filename: str, content: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    disposition = f'form-data; name="{name}"; filename="{filename}"'
    body = (
        (
            f"--{boundary}\r\nContent-Disposition: {disposition}\r\n"
            f"Content-Type: application/json\r\n\r\n"
        ).encode()
        + content
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return body, f"multipart/form-data; boundary={boundary}"


def requests_for(site: Site, pages: tuple[str, ...], variant: str) -> list[tuple[str, tuple]]:
    from django.urls import reverse

    from games.engine.rules import rules_for

    csrf = secrets.token_hex(16)  # 32 characters: Django's unmasked secret format
    guest = {"sessionid": site.guest_session, "csrftoken": csrf}
    user = {"sessionid": site.user_session, "csrftoken": csrf}
    anon: dict[str, str] = {"csrftoken": csrf}
    visitor = {"sessionid": site.visitor_session, "csrftoken": csrf}  # someone else
    out: list[tuple[str, tuple]] = []
    if "home" in pages:
        out.append(("home", ("GET", "/", visitor)))
    if "rules" in pages:
        url = reverse("games:rules_page", args=[rules_for(variant).rules_page])
        out.append(("rules", ("GET", url, visitor)))
    if "matrix" in pages:
        url = f"/tournaments/{site.tournament_id}/matrix/"
        out.append(("matrix", ("GET", url, anon)))
        out.append(("matrix", ("GET", url + "?rows=9&cols=5", anon)))
    if "replay" in pages:
        for n in (1, site.hands // 2, site.hands):
            out.append(("replay", ("GET", f"/review/imported/{site.record_id}/hand/{n}/", guest)))
    if "review-import" in pages:
        body, ctype = multipart("file", "game.json", site.review_file)
        out.append(("review-import", ("POST", "/review/import/", guest, body, ctype)))
    if "tournament-import" in pages:
        body, ctype = multipart("file", "t.json", site.tournament_file)
        out.append(("tournament-import", ("POST", "/tournaments/import/", user, body, ctype)))
    return out


async def hammer(
    port: int, site: Site, cfg: HeavyConfig, stop: asyncio.Event
) -> dict[str, PageStats]:
    stats = {name: PageStats() for name in cfg.pages}
    plan = requests_for(site, cfg.pages, cfg.variant)

    async def client(name: str, index: int) -> None:
        mine = [args for page, args in plan if page == name]
        i = index
        while not stop.is_set():
            args = mine[i % len(mine)]
            i += 1
            t0 = time.perf_counter()
            try:
                status = await http(port, *args)
            except OSError:
                status = 0
            stats[name].latencies.append(time.perf_counter() - t0)
            stats[name].statuses[status] += 1

    # ``clients`` loops per page (``reference_clients`` per ordinary page), each sending
    # its next request when the last is answered
    reference = cfg.clients if cfg.reference_clients is None else cfg.reference_clients
    await asyncio.gather(
        *(
            client(name, i)
            for name in cfg.pages
            for i in range(reference if name in REFERENCE else cfg.clients)
        )
    )
    return stats


# ------------------------------------------------------------------ driver


def collect_static(env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, str(servers.ROOT / "manage.py"), "collectstatic", "--noinput", "-v0"],
        cwd=servers.ROOT,
        env=env,
        check=True,
    )


def run(cfg: HeavyConfig, log: Callable[[str], None] = lambda msg: None) -> dict[str, Any]:
    from django.conf import settings
    from django.db import connections

    players = PlayConfig(seconds=cfg.seconds, think_ms=cfg.think_ms, hands=50, seed=cfg.seed)
    load_before = servers.load_average()
    tmp = Path(tempfile.mkdtemp(prefix="okey-heavybench-"))
    server = None
    try:
        db_url = servers.use_fresh_sqlite(tmp / "bench.sqlite3")
        servers.migrate()
        t0 = time.perf_counter()
        site = make_site(cfg)
        phases = [servers.create_tables(cfg.tables, cfg.variant) for _ in range(2)]
        connections["default"].close()
        log(
            f"data in {time.perf_counter() - t0:.1f} s: tournament of "
            f"{len(site.tournament_file) // 1024} KB, review file of "
            f"{len(site.review_file) // 1024} KB ({site.hands} hands)"
        )
        env = servers.server_env(db_url, seed_prefix=cfg.seed_prefix)
        env["STATIC_ROOT"] = str(tmp / "static")
        # the sessions made above are signed with this process's secret (another checkout,
        # --server-root, would make its own secret key file)
        env["SECRET_KEY"] = settings.SECRET_KEY
        collect_static(env)
        server = servers.start_server(env, tmp, 0)
        servers.wait_listening(server)
        log(f"server pid {server.pid} on :{server.port}")

        async def both() -> dict[str, Any]:
            alone = await play(players, phases[0], [server.port], log)
            stop = asyncio.Event()
            pages = asyncio.ensure_future(hammer(server.port, site, cfg, stop))
            loaded = await play(players, phases[1], [server.port], log)
            stop.set()
            return {"alone": alone, "hammered": loaded, "pages": await pages}

        result = asyncio.run(both())
        if server.proc.poll() is not None:
            result["server_exit"] = servers.tail(server.log_path)
    finally:
        if server is not None:
            servers.stop_server(server)
        connections["default"].close()
        shutil.rmtree(tmp, ignore_errors=True)
    result["pages"] = {
        name: {
            "count": len(p.latencies),
            "statuses": dict(p.statuses),
            "latency_ms": summarize(p.latencies),
        }
        for name, p in result["pages"].items()
    }
    result["config"] = {
        "seconds": cfg.seconds,
        "tables": cfg.tables,
        "variant": cfg.variant,
        "think_ms": cfg.think_ms,
        "clients": cfg.clients,
        "reference_clients": cfg.reference_clients,
        "server_root": str(servers.ROOT),
        "pages": list(cfg.pages),
    }
    result["loadavg"] = {"before": load_before, "after": servers.load_average()}
    result["date"] = servers.utc_now()
    return result


def format_summary(r: dict[str, Any]) -> str:
    c = r["config"]
    lines = [
        f"Heavy pages vs live tables {r['date']}: {c['tables']} {c['variant']} tables, think "
        f"{c['think_ms']:g} ms, {c['seconds']:g} s per phase, {c['clients']} page clients"
        f" ({c['reference_clients']} per ordinary page), server {c['server_root']}; "
        f"load average {r['loadavg']['before'][0]} before, {r['loadavg']['after'][0]} after",
    ]
    for phase in ("alone", "hammered"):
        p = r[phase]
        lat = p["latency_ms"]
        lines.append(
            f"  tables {phase:<8}: {p['actions']} actions, p50 {lat['p50']} ms  p95 {lat['p95']}"
            f"  p99 {lat['p99']}  max {lat['max']}  (errors {p['errors']})"
        )
    for name, s in r["pages"].items():
        lat = s["latency_ms"]
        codes = " ".join(f"{k}:{v}" for k, v in sorted(s["statuses"].items()))
        lines.append(
            f"  page {name:<17}: {s['count']:>4} requests [{codes}]  p50 {lat['p50']} ms"
            f"  p95 {lat['p95']}  max {lat['max']}"
        )
    if r.get("server_exit"):
        lines.append("  the server exited:\n" + r["server_exit"])
    return "\n".join(lines)
