"""Scripted websocket players: four per table, on one asyncio loop (``websockets``).

A player reads every live frame the way the page's script does, by stable markers and
never by its words, so it plays the same in every language of the site:

- a frame is a sequence of fragments, each swapped in by its root element's ``id``
  (the roots carry ``hx-swap-oob``; ``presenter.live_frame``);
- ``#act-version``: the table's version; ``#t-rack``: the rack's tiles (``data-id``);
- ``#t-controls``: the actions the page offers (its ``data-act`` buttons not
  ``disabled``; the template enables a button exactly when the engine's per-seat view
  lists that action as legal);
- ``#t-msg``: a refusal's stable code (``data-code``);
- ``#t-result``: the outcome dialog (``data-testid="outcome"``), with a ``next_hand``
  button unless the game is over.

A frame carries only the fragments that changed: a player keeps the last of each. On
its turn it draws when the page offers it, else discards the first tile of its rack it
has not tried this turn (a refused discard, or one the rules send back to the rack, moves
on to the next tile); with ``hands > 1`` seat 0 sends ``next_hand``. Those two moves end
a hand in every rule set (a draw from the empty pile ends it: RULES.md §1, [D4]), so
:data:`VARIANTS` is every rule set of the engine's registry played at four seats.

For every accepted action the latency is measured from sending it to the moment the
*last* of the four seats has received a frame carrying the new version.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import time
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engine.rules import RULES
from okeysite.limits import TokenBucket

from .servers import HOST, SEATS, TableSpec

CONNECT_ATTEMPTS = 5  # like the browser's reconnect: daphne drops handshakes not accepted in 5 s

# The rule sets the players can play: all of them, at the benchmarks' four-seat tables.
VARIANTS: tuple[str, ...] = tuple(name for name, r in RULES.items() if SEATS in r.players)
DEFAULT_VARIANT = "classic"

# Players at a real table think. Decision (docs/benchmarks.md, "Load benchmark"): the target (100
# tables, p99 < 250 ms) is measured at a brisk human pace, a draw and a discard in
# about 4 s (turn clocks are 15-60 s). With no think time the 400 players form a closed
# loop that keeps the server saturated, and the latency is the queue (tables / actions
# per second).
HUMAN_THINK_MS = 2000.0

# What the result fragment shows.
NO_RESULT, HAND_OVER, GAME_OVER = "", "hand_over", "game_over"

_OOB_TAG_RE = re.compile(r"<[a-zA-Z][^>]*\bhx-swap-oob=[^>]*>")
_ID_RE = re.compile(r'\bid="([^"]+)"')
_VERSION_RE = re.compile(r'\bvalue="(\d+)"')
_TILE_RE = re.compile(r'\bdata-id="(\d+)"')
_CODE_RE = re.compile(r'\bdata-code="([^"]+)"')
_BUTTON_RE = re.compile(r"<button\b[^>]*>")
_ACT_RE = re.compile(r'\bdata-act="([a-z_]+)"')
_DISABLED_RE = re.compile(r"\sdisabled(?=[\s>=/])")


def fragments(html: str) -> dict[str, str]:
    """A live frame's fragments by the id of their root (the roots are the elements
    that carry ``hx-swap-oob``); each runs up to the next root."""
    tags = [(m.start(), _ID_RE.search(m.group(0))) for m in _OOB_TAG_RE.finditer(html)]
    out = {}
    for i, (start, id_match) in enumerate(tags):
        if id_match is not None:
            end = tags[i + 1][0] if i + 1 < len(tags) else len(html)
            out[id_match.group(1)] = html[start:end]
    return out


def offered_actions(controls: str) -> frozenset[str]:
    """The actions of the controls' buttons that are not disabled."""
    return frozenset(
        act.group(1)
        for tag in _BUTTON_RE.findall(controls)
        if (act := _ACT_RE.search(tag)) and not _DISABLED_RE.search(tag)
    )


@dataclass
class Frame:
    """What a player reads from one frame; None: that fragment is not in this frame."""

    version: int | None
    offered: frozenset[str] | None  # the actions the controls offer
    rack: list[int] | None
    error: str | None  # a refusal's code (only in the frame that answers it)
    result: str | None  # NO_RESULT, HAND_OVER or GAME_OVER

    def merged(self, last: Frame | None) -> Frame:
        """A frame carries only the fragments that changed: what a player knows is the
        last of each it was sent."""
        if last is None:
            last = Frame(None, frozenset(), [], None, NO_RESULT)
        return Frame(
            self.version,
            last.offered if self.offered is None else self.offered,
            last.rack if self.rack is None else self.rack,
            self.error,
            last.result if self.result is None else self.result,
        )


def parse_frame(html: str) -> Frame:
    """What a scripted player reads from one live frame (see the module's docstring)."""
    parts = fragments(html)
    version = _VERSION_RE.search(parts.get("act-version", ""))
    code = _CODE_RE.search(parts.get("t-msg", ""))
    rack = parts.get("t-rack")
    controls = parts.get("t-controls")
    result = parts.get("t-result")
    if result is not None:
        if 'data-testid="outcome"' not in result:
            result = NO_RESULT
        elif "next_hand" in offered_actions(result):
            result = HAND_OVER
        else:
            result = GAME_OVER
    return Frame(
        version=int(version.group(1)) if version else None,
        offered=offered_actions(controls) if controls is not None else None,
        rack=[int(x) for x in _TILE_RE.findall(rack)] if rack is not None else None,
        error=code.group(1) if code else None,
        result=result,
    )


def choose(offered: Collection[str], rack: Sequence[int], tried: Collection[int]) -> dict | None:
    """A player's move on its turn, from what the page offers: draw from the pile if it
    may, else discard the first tile of the rack not tried this turn; None: nothing to do
    (not its turn, or every tile tried)."""
    if "draw" in offered:
        return {"action": "draw"}
    if "discard" in offered:
        for tile in rack:
            if tile not in tried:
                return {"action": "discard", "tile": tile}
    return None


def percentile(sorted_values: list[float], p: float) -> float:
    """Nearest-rank percentile of an already sorted list (0 for an empty one)."""
    if not sorted_values:
        return 0.0
    k = max(0, min(len(sorted_values) - 1, int(-(-p * len(sorted_values) // 100)) - 1))
    return sorted_values[k]


def summarize(latencies_s: list[float]) -> dict[str, float]:
    xs = sorted(x * 1000 for x in latencies_s)
    return {
        "count": len(xs),
        "p50": round(percentile(xs, 50), 2),
        "p95": round(percentile(xs, 95), 2),
        "p99": round(percentile(xs, 99), 2),
        "max": round(xs[-1], 2) if xs else 0.0,
        "mean": round(sum(xs) / len(xs), 2) if xs else 0.0,
    }


# ------------------------------------------------------------------ players


@dataclass
class PlayConfig:
    """How the players play."""

    hands: int = 1  # hands per table
    seconds: float = 120.0  # stop after this long
    think_ms: float = 0.0  # mean think time before each action (uniform 0.5x..1.5x)
    language: str = ""  # the language the players' pages are in ("": the site's default)
    connect_concurrency: int = 10  # handshakes in flight at once (a ramp, not a storm)
    seed: int = 1


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    by_kind: dict[str, list[float]] = field(default_factory=dict)
    sent: Counter = field(default_factory=Counter)
    refusals: Counter = field(default_factory=Counter)
    connect_errors: list[str] = field(default_factory=list)
    connect_retries: int = 0
    frames: int = 0
    frame_bytes: int = 0


class TableRun:
    """One table's four players and the actions still waiting for all four seats."""

    def __init__(self, spec: TableSpec, stats: Stats, hands: int) -> None:
        self.spec = spec
        self.stats = stats
        self.hands = hands
        self.seen = [-1] * SEATS
        self.pending: dict[int, tuple[float, str]] = {}  # new version -> (sent at, kind)
        self.hands_done = 0
        self.failed = False  # a seat could not connect: the table cannot play
        self.finished = False  # the last hand is over
        self.done = asyncio.Event()

    def sent(self, version: int, kind: str, at: float) -> None:
        self.pending[version + 1] = (at, kind)
        self.stats.sent[kind] += 1

    def refused(self, version: int) -> None:
        self.pending.pop(version + 1, None)

    def saw(self, seat: int, version: int, at: float) -> None:
        self.seen[seat] = max(self.seen[seat], version)
        low = min(self.seen)
        for v in [v for v in self.pending if v <= low]:
            sent_at, kind = self.pending.pop(v)
            self.stats.latencies.append(at - sent_at)
            self.stats.by_kind.setdefault(kind, []).append(at - sent_at)
        self.maybe_done()

    def finish(self) -> None:
        self.finished = True
        self.maybe_done()

    def maybe_done(self) -> None:
        """Done once the last hand is over and every seat has the last action's frame."""
        if self.finished and not self.pending:
            self.done.set()


class _Pace:
    """The server's token bucket (``games.live.consumers``: ``RATE_PER_SECOND``,
    ``RATE_BURST``) mirrored on the client, a little slower, so the benchmark's players are
    never rate limited."""

    def __init__(self) -> None:
        from games.live.consumers import RATE_BURST, RATE_PER_SECOND

        self.bucket = TokenBucket(RATE_PER_SECOND * 0.9, RATE_BURST - 1)

    async def wait(self) -> None:
        while not self.bucket.take():
            await asyncio.sleep(self.bucket.wait_s())


MAX_REFUSED_DRAWS = 3  # a seat whose draws keep being refused stops trying


class Player:
    # The address the socket connects from (None: the system's choice); the flood benchmark's
    # honest players use another loopback address than its flooders.
    local_addr: tuple[str, int] | None = None

    def __init__(
        self, run: TableRun, seat: int, url: str, origin: str, cfg: PlayConfig, go: asyncio.Event
    ) -> None:
        self.run, self.seat, self.url, self.origin = run, seat, url, origin
        self.cfg, self.go = cfg, go
        self.ws: Any = None
        self.frame: Frame | None = None
        self.acted_on: int | None = None  # version of the last frame we acted on
        self.last_move: dict | None = None  # the move sent on that version
        self.tried: set[int] = set()  # tiles discarded this turn (refused or sent back)
        self.refused_draws = 0
        self.over = False
        self.rng = random.Random(cfg.seed * 1000003 + run.spec.table_id * 7 + seat)
        # An honest client keeps to the server's per-connection rate (the consumer's token
        # bucket): with no think time a seat would otherwise act ~25 times a second.
        self.pace = _Pace()
        self.ready = asyncio.Event()
        self.task: asyncio.Task | None = None  # the latest send (a reference keeps it alive)

    def headers(self) -> dict[str, str]:
        """A browser's: the seat's session cookie and, when asked, its language (the
        cookie the site's language menu sets, and Accept-Language)."""
        from django.conf import settings

        cookie = f"{settings.SESSION_COOKIE_NAME}={self.run.spec.keys[self.seat]}"
        if not self.cfg.language:
            return {"Cookie": cookie}
        return {
            "Cookie": f"{cookie}; {settings.LANGUAGE_COOKIE_NAME}={self.cfg.language}",
            "Accept-Language": self.cfg.language,
        }

    async def connect(self) -> None:
        from websockets.asyncio.client import connect

        extra = {"local_addr": self.local_addr} if self.local_addr else {}
        self.ws = await connect(
            self.url,
            origin=self.origin,
            additional_headers=self.headers(),
            open_timeout=60,
            close_timeout=5,
            ping_interval=None,
            max_size=2**22,
            compression=None,
            **extra,
        )

    async def listen(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for message in self.ws:
                at = time.perf_counter()
                text = message if isinstance(message, str) else message.decode()
                self.run.stats.frames += 1
                self.run.stats.frame_bytes += len(text)
                self.on_frame(parse_frame(text), at)
        except ConnectionClosed:
            pass
        finally:
            self.ready.set()

    def on_frame(self, f: Frame, at: float) -> None:
        if f.error is not None:
            self.run.stats.refusals[f.error] += 1
            if self.acted_on is not None:
                self.run.refused(self.acted_on)
            if f.error != "stale_state" and f.version == self.acted_on:
                # refused on the same view: try another tile, or give up drawing
                if self.last_move is not None and self.last_move["action"] == "draw":
                    self.refused_draws += 1
                self.acted_on = None
        if f.version is not None:
            self.run.saw(self.seat, f.version, at)
        self.frame = f.merged(self.frame)
        self.ready.set()
        if self.go.is_set():
            self.decide()

    def decide(self) -> None:
        f = self.frame
        if f is None or f.version is None or self.over or f.version == self.acted_on:
            return
        if f.result in (HAND_OVER, GAME_OVER):
            self.hand_over(f)
            return
        move = choose(f.offered, f.rack, self.tried)
        if move is None or (move["action"] == "draw" and self.refused_draws > MAX_REFUSED_DRAWS):
            return
        if move["action"] == "draw":
            self.tried.clear()  # a new turn
        else:
            self.tried.add(move["tile"])
        self.act(f.version, move)

    def hand_over(self, f: Frame) -> None:
        self.acted_on = f.version
        self.tried.clear()
        self.refused_draws = 0
        if self.seat == 0:
            self.run.hands_done += 1
        if f.result == GAME_OVER or self.run.hands_done >= self.run.hands:
            self.over = True
            self.run.finish()
            return
        if self.seat == 0:
            self.act(f.version, {"action": "next_hand"})

    def act(self, version: int, move: dict[str, Any]) -> None:
        self.acted_on, self.last_move = version, move
        self.task = asyncio.ensure_future(self._send(version, move))

    async def _send(self, version: int, move: dict[str, Any]) -> None:
        if self.cfg.think_ms > 0:
            await asyncio.sleep(self.cfg.think_ms * self.rng.uniform(0.5, 1.5) / 1000)
            if self.frame is None or self.frame.version != version:
                if move["action"] == "discard":
                    self.tried.discard(move["tile"])  # not sent: the view moved on
                self.acted_on = None
                self.decide()
                return
        await self.pace.wait()
        self.run.sent(version, move["action"], time.perf_counter())
        with contextlib.suppress(Exception):
            await self.ws.send(json.dumps({**move, "version": version}))

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 5)


async def play(
    cfg: PlayConfig,
    specs: list[TableSpec],
    ports: list[int],
    log: Callable[[str], None],
    on_start: Callable[[], None] = lambda: None,
    stats: Stats | None = None,
) -> dict[str, Any]:
    """Connect four players per table (ten handshakes at a time), play until every table
    is done or ``cfg.seconds`` have passed, and return the figures. ``stats``, when
    given, is filled as play goes (a soak's progress reads it)."""
    stats = Stats() if stats is None else stats
    go = asyncio.Event()
    runs = [TableRun(s, stats, cfg.hands) for s in specs]
    players: list[Player] = []
    for run in runs:
        for seat in range(SEATS):
            # one port: the server, or nginx in front of several (one process per table)
            port = ports[seat % len(ports)]
            url = f"ws://{HOST}:{port}/ws/t/{run.spec.code}/"
            players.append(Player(run, seat, url, f"http://{HOST}:{port}", cfg, go))

    sem = asyncio.Semaphore(cfg.connect_concurrency)
    listeners: list[asyncio.Task] = []

    async def open_one(p: Player) -> None:
        async with sem:
            for attempt in range(CONNECT_ATTEMPTS):
                try:
                    await p.connect()
                    break
                except Exception as e:  # handshake dropped (daphne's connect timeout), refused
                    if attempt + 1 < CONNECT_ATTEMPTS:
                        stats.connect_retries += 1
                        await asyncio.sleep(0.5 * 2**attempt)
                        continue
                    stats.connect_errors.append(f"table {p.run.spec.code} seat {p.seat}: {e!r}")
                    p.over = True
                    p.ready.set()
                    p.run.failed = True
                    p.run.done.set()
                    return
            listeners.append(asyncio.ensure_future(p.listen()))
            await asyncio.wait_for(p.ready.wait(), 60)

    t0 = time.perf_counter()
    await asyncio.gather(*(open_one(p) for p in players), return_exceptions=True)
    connect_s = time.perf_counter() - t0
    log(f"{len(players) - len(stats.connect_errors)} sockets connected in {connect_s:.1f} s")

    for p in players:  # nothing from the connect phase is measured
        p.run.pending.clear()
    on_start()
    cpu0 = time.process_time()
    start = time.perf_counter()
    go.set()
    for p in players:
        p.decide()
    try:
        await asyncio.wait_for(
            asyncio.gather(*(r.done.wait() for r in runs)), timeout=max(cfg.seconds, 0.1)
        )
        finished = True
    except TimeoutError:
        finished = False
    elapsed = time.perf_counter() - start
    client_cpu = time.process_time() - cpu0
    for p in players:
        p.over = True
    await asyncio.gather(*(p.close() for p in players), return_exceptions=True)
    for t in listeners:
        t.cancel()
    await asyncio.gather(*listeners, return_exceptions=True)

    accepted = len(stats.latencies)
    errors = {k: v for k, v in stats.refusals.items() if k != "stale_state"}
    return {
        "connect_s": round(connect_s, 2),
        "elapsed_s": round(elapsed, 2),
        "finished": finished,
        "tables_done": sum(r.done.is_set() and not r.failed for r in runs),
        "tables_failed": sum(r.failed for r in runs),
        "hands_completed": sum(r.hands_done for r in runs),
        "actions": accepted,
        "actions_per_s": round(accepted / elapsed, 1) if elapsed > 0 else 0.0,
        "sent": dict(stats.sent),
        "latency_ms": summarize(stats.latencies),
        "latency_by_kind_ms": {k: summarize(v) for k, v in sorted(stats.by_kind.items())},
        "stale": stats.refusals.get("stale_state", 0),
        "errors": sum(errors.values()) + len(stats.connect_errors),
        "error_codes": errors,
        "connect_errors": stats.connect_errors[:10],
        "connect_retries": stats.connect_retries,
        "frames": stats.frames,
        "mean_frame_bytes": round(stats.frame_bytes / stats.frames) if stats.frames else 0,
        "client_cpu_s": round(client_cpu, 2),
    }
