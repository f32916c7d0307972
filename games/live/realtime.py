"""The real-time layer of the live table: what is sent, to whom, and when.

Four parts, none of which changes a table (``games.live.actions`` does, through its
``do_*`` actions, and calls ``broadcast_on_commit`` here):

- the **broadcaster**: a change is announced to the table's channel-layer group
  after its transaction commits, sent from the server's event loop in order;
- the **snapshot cache**: the latest (hand, engine state, game) of each table,
  read once per version and shared by every render and the next action;
- the **per-table hub**: the connections of one table in one process render
  their frames together, in one trip to the database thread;
- **fragment diffing**: a frame carries only the fragments of
  ``templates/games/table.html`` whose key changed for that connection; its
  first frame leaves out what the page (or the frames before a reconnect)
  already shows (``seen_digests``).

This module imports no other module of the games app that could import it back
(services, presenter, consumers): ``tests/games/test_module_graph.py``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
import secrets
from collections import deque
from datetime import datetime
from typing import Any, Protocol

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.models.query import get_related_populators
from django.template.loader import get_template
from django.utils.translation import get_language

from games.engine import game as engine_game
from games.engine import replay
from games.engine import state as engine_state
from games.models import Hand, HandAction, Seat, Table
from okeysite.limits import LRU

log = logging.getLogger(__name__)


# ---------------------------------------------------------------- broadcaster


def group_name(table_id: int) -> str:
    return f"table.{table_id}"


class _Broadcaster:
    """Sends table broadcasts from the server's event loop, in order, without
    making the (single) thread that runs the services wait for the send.

    ``async_to_sync(group_send)`` from that thread blocked it until the event
    loop got round to the send, and every other move of the process waited
    too. When a server loop is attached (the consumers and the sweeper attach
    theirs), a broadcast is queued onto it instead and one task sends the queue
    in order (with Redis, sends from parallel tasks could overtake each other).
    """

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.queue: asyncio.Queue[tuple[str, dict[str, Any]]] | None = None
        self.task: asyncio.Task[None] | None = None

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Called on the loop's thread (a consumer connecting, the sweeper)."""
        if self.loop is not loop:
            self.loop, self.queue, self.task = loop, asyncio.Queue(), None

    def send(self, group: str, message: dict[str, Any]) -> bool:
        """Queue a group send on the attached loop; False if there is none running."""
        loop = self.loop
        if loop is None or not loop.is_running() or loop.is_closed():
            return False
        try:
            loop.call_soon_threadsafe(self._enqueue, loop, group, message)
        except RuntimeError:  # closed meanwhile
            return False
        return True

    def _enqueue(self, loop: asyncio.AbstractEventLoop, group: str, message: dict) -> None:
        if self.loop is not loop or self.queue is None:  # re-attached to another loop
            loop.create_task(get_channel_layer().group_send(group, message))
            return
        self.queue.put_nowait((group, message))
        if self.task is None or self.task.done():
            self.task = loop.create_task(self._drain(self.queue))

    @staticmethod
    async def _drain(queue: asyncio.Queue[tuple[str, dict[str, Any]]]) -> None:
        layer = get_channel_layer()
        while not queue.empty():
            group, message = queue.get_nowait()
            try:
                await layer.group_send(group, message)
            except Exception:  # one failed send must not stop the others
                log.exception("broadcast to %s failed", group)


_BROADCASTER = _Broadcaster()


def attach_event_loop(loop: asyncio.AbstractEventLoop) -> None:
    """Let broadcasts from service threads be sent by this (running) loop."""
    _BROADCASTER.attach(loop)


def group_send(group: str, message: dict[str, Any]) -> None:
    """Send a channel-layer group message from service code (a worker thread):
    queued onto the server's loop when one is attached, else sent at once."""
    layer = get_channel_layer()
    if layer is None:
        return
    if not _BROADCASTER.send(group, message):
        async_to_sync(layer.group_send)(group, message)


def broadcast(table_id: int, version: int, *, presence: bool = False) -> None:
    """Tell the table's connections that it changed. ``change`` names this one
    broadcast (the connections of one process render their frames for it
    together); ``presence`` marks a change that kept the version (who is away)."""
    message = {
        "type": "table.changed",
        "version": version,
        "change": secrets.token_hex(8),
        "presence": presence,
    }
    group_send(group_name(table_id), message)


def broadcast_on_commit(table: Table, *, presence: bool = False) -> None:
    """Broadcast the table's change once the current transaction commits (never a
    change that was rolled back)."""
    table_id, version = table.pk, table.version
    transaction.on_commit(lambda: broadcast(table_id, version, presence=presence))


# ------------------------------------------------------------ reading a table


def load_state(hand: Hand) -> engine_state.HandState:
    """The hand's current engine state: its snapshot (``Hand.snapshot``) and the
    actions stored after it, replayed (``engine.state.replay_from``). A finished hand's
    snapshot is its final state. The table's common path reads the state from the
    snapshot cache below instead and never replays."""
    state = engine_state.HandState.from_json(hand.snapshot)
    if hand.result is not None or hand.pk is None:
        return state
    later = list(
        HandAction.objects.filter(hand_id=hand.pk, index__gte=len(state.actions))
        .order_by("index")
        .values_list("payload", flat=True)
    )
    return engine_state.replay_from(state, later) if later else state


def hand_result(hand: Hand) -> engine_game.HandResult:
    r = hand.result or {}
    return engine_game.HandResult(hand.seed, hand.starter, r["ending"], r["lines"], r["totals"])


def hand_record(hand: Hand) -> dict[str, Any]:
    table = hand.table
    record = {
        "format": 1,
        "variant": table.variant,
        "options": table.options,
        "seed": hand.seed,
        "starter": hand.starter,
        "actions": [a.payload for a in hand.actions.order_by("index")],
    }
    # What the game told the hand when it was dealt (rummy: the totals so far,
    # so a shown indicator can end the game); fixed at the deal.
    if hand.snapshot.get("context"):
        record["context"] = hand.snapshot["context"]
    return record


def rebuild_hand(hand: Hand) -> engine_state.HandState:
    """Replay the hand from its seed and stored actions (the source of truth)."""
    return replay(hand_record(hand))


def game_for(table: Table) -> engine_game.Game:
    """The engine's game-level bookkeeping rebuilt from the finished hands."""
    game = engine_game.Game(table.variant, table.options, deals=table.deals)
    for hand in table.hands.filter(result__isnull=False).order_by("number"):
        game.hands.append(hand_result(hand))
    return game


# ------------------------------------------------------------- snapshot cache

# The latest (hand, state, game) of each table, per process: see snapshot(). One
# entry per table (a version is only ever read again while it is the latest), the least
# recently used forgotten first, so memory (and the collector's work) follows the live tables.
_SNAPSHOT_LIMIT = 2048
_SNAPSHOTS: LRU[int, tuple[tuple[Any, ...], tuple[Any, Any, Any]]] = LRU(_SNAPSHOT_LIMIT)

Snapshot = tuple[Hand | None, engine_state.HandState | None, engine_game.Game]


def _snapshot_key(table: Table) -> tuple[Any, ...]:
    return (table.version, table.updated_at)


def remember(table: Table, value: Snapshot) -> None:
    """Keep ``value`` as the snapshot of the table's current version."""
    _SNAPSHOTS[table.pk] = (_snapshot_key(table), value)


def remember_on_commit(table: Table, value: Snapshot) -> None:
    """Prime the snapshot of the version an action created, once it has committed."""
    transaction.on_commit(lambda: remember(table, value))


def snapshot(table: Table) -> Snapshot:
    """(current hand, its engine state, the game) for this table version.

    Every accepted change bumps the version (and ``updated_at``), and engine
    states are immutable, so one snapshot serves the four seats' renders of a
    version and the next action's service call. An action primes the snapshot
    of the version it creates once its transaction has committed; a process that
    did not see the action (another server) reads the database once.
    """
    hit = _SNAPSHOTS.get(table.pk)
    if hit is not None and hit[0] == _snapshot_key(table):
        return hit[1]
    hand = table.current_hand
    state = load_state(hand) if hand is not None else None
    value = (hand, state, game_for(table))
    remember(table, value)
    return value


# ------------------------------------------------------------ per-table hub


class Member(Protocol):
    """A connection of a table's hub (``games.live.consumers.TableConsumer``)."""

    def render_view(
        self,
        error: dict[str, str] | None = None,
        hint: dict[str, Any] | None = None,
        change: str | None = None,
        found: tuple[Table, list[Seat]] | None = None,
    ) -> str | None: ...

    async def send(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None: ...


class _CompiledSeatRead:
    """``Seat.objects.select_related("table", "user__profile").filter(table_id=...)``
    (``FOR UPDATE OF`` the table with ``for_update``), compiled to SQL once per
    database connection and then only executed.

    Compiling that queryset (three joins, ordering, locking) cost about four times
    what running it does, on every action of every table. The rows become model
    instances exactly as the queryset's own iterator makes them (``Model.from_db``,
    the field converters, Django's related-object populators), so the seats, their
    table, user and profile are the same objects the ORM gives
    (``tests/games/test_lean_path.py`` compares them field by field)."""

    def __init__(self, connection: Any, for_update: bool) -> None:
        qs = Seat.objects.select_related("table", "user__profile").filter(table_id=0)
        if for_update:
            qs = qs.select_for_update(of=("table",))
        compiler = qs.query.get_compiler(connection=connection)
        self.sql, params = compiler.as_sql()
        if list(params) != [0]:  # the table id must be the one parameter
            raise RuntimeError(f"unexpected parameters {params!r} in the seats' read")
        select, klass_info = compiler.select, compiler.klass_info
        fields = klass_info["select_fields"]
        self.start, self.end = fields[0], fields[-1] + 1
        self.init_list = [f[0].target.attname for f in select[self.start : self.end]]
        populators = get_related_populators(klass_info, select, connection.alias)
        converters = compiler.get_converters([s[0] for s in select[: compiler.col_count]])
        # Every row repeats the table's columns: the first row makes the table object
        # (and converts its columns), the other seats get that same object.
        table = next(p for p in populators if p.model_cls is Table)
        columns = range(table.cols_start, table.cols_end)
        self.first = (populators, converters)
        self.rest = (
            [p for p in populators if p is not table],
            {i: c for i, c in converters.items() if i not in columns},
        )
        self.compiler, self.alias = compiler, connection.alias

    def read(self, connection: Any, table_id: int) -> list[Seat]:
        with connection.cursor() as cursor:
            cursor.execute(self.sql, [table_id])
            rows: Any = cursor.fetchall()
        seats: list[Seat] = []
        for row in rows:
            populators, converters = self.rest if seats else self.first
            if converters:
                [row] = self.compiler.apply_converters([row], converters)
            seat = Seat.from_db(self.alias, self.init_list, row[self.start : self.end])
            for populator in populators:
                populator.populate(row, seat)
            if seats:
                seat.table = seats[0].table
            seats.append(seat)
        return seats


def read_seats(table_id: int, *, for_update: bool = False) -> list[Seat]:
    """The table's seats by position, each with its table (one object shared by all
    of them), user and profile: one query, compiled once per connection
    (``_CompiledSeatRead``). ``for_update`` locks the table's row (PostgreSQL: ``FOR
    UPDATE OF`` the table; SQLite has one writer) and must run inside a transaction."""
    connection = connections[DEFAULT_DB_ALIAS]
    compiled = connection.__dict__.setdefault("_okey_seat_reads", {})
    read = compiled.get(for_update)
    if read is None:
        read = compiled[for_update] = _CompiledSeatRead(connection, for_update)
    return read.read(connection, table_id)


_READS: LRU[int, tuple[str, tuple[Table, list[Seat]]]] = LRU(2048)


def read_table(table_id: int, change: str | None) -> tuple[Table, list[Seat]] | None:
    """The table and its seats, read once per broadcast per process (the frames
    of one ``table.changed`` share the read; only the latest per table is kept).
    Reads that answer one socket (connect, errors, sort) always go to the database."""
    if change:
        hit = _READS.get(table_id)
        if hit is not None and hit[0] == change:
            return hit[1]
    # one query: the seats with their table (and names)
    seats = read_seats(table_id)
    if not seats:
        return None
    value = (seats[0].table, seats)
    if change:
        _READS[table_id] = (change, value)
    return value


def seats_read_with(table: Table) -> tuple[Table, list[Seat]] | None:
    """The table and the seats an action read it with (``actions.base.lock_table`` leaves them
    in Django's prefetch cache), or None when it was read without them. The frames
    rendered right after an action use these: the action's own read, no second one."""
    seats = getattr(table, "_prefetched_objects_cache", {}).get("seats")
    return (table, list(seats)) if seats else None


class Hub:
    """The connections of one table in this process (on one event loop).

    A broadcast reaches each of them; the first to receive it renders the
    frames of all of them in one trip to the database thread and sends them,
    and the others find that change done. Every render and send for the table
    holds the hub's lock, so each connection's frames leave in the order they
    were rendered (a frame holds only what changed since the previous one).
    """

    def __init__(self) -> None:
        self.members: set[Any] = set()
        self.lock = asyncio.Lock()
        self.done: deque[str] = deque(maxlen=64)
        self.shown = -1  # every member has been sent at least this table version

    def already_shown(self, event: dict[str, Any]) -> bool:
        """An action of this process was rendered for every member right after it
        was applied; its broadcast (and older ones) need no new frames here."""
        version = event.get("version")
        return not event.get("presence") and isinstance(version, int) and version <= self.shown


_HUBS: dict[tuple[int, int], Hub] = {}


def hub(table_id: int) -> Hub:
    """The hub of the table on the running event loop (made on first use)."""
    key = (id(asyncio.get_running_loop()), table_id)
    found = _HUBS.get(key)
    if found is None:
        found = _HUBS[key] = Hub()
    return found


def leave_hub(table_id: int, member: Member) -> None:
    key = (id(asyncio.get_running_loop()), table_id)
    found = _HUBS.get(key)
    if found is not None:
        found.members.discard(member)
        if not found.members and not found.lock.locked():
            del _HUBS[key]


def render_all(
    members: list[Member], change: str | None, found: tuple[Table, list[Seat]] | None = None
) -> list[str | None]:
    """Each member's frame (None where rendering failed: one connection's frame
    must not cost the others theirs)."""
    frames: list[str | None] = []
    for member in members:
        try:
            frames.append(member.render_view(change=change, found=found))
        except Exception:
            log.exception("rendering a table frame failed")
            frames.append(None)
    return frames


async def send_frames(table_hub: Hub, members: list[Member], frames: list[str | None]) -> None:
    """Send each member its frame, unless it has left the hub meanwhile."""
    for member, html in zip(members, frames, strict=True):
        if html is not None and member in table_hub.members:
            await member.send(text_data=html)


# ---------------------------------------------------------- fragment diffing


def _tiles_key(tiles: Any) -> tuple:
    """What ``|tile`` shows of each tile (its face and marks)."""
    return tuple(
        (
            t["id"],
            t.get("okey"),
            t.get("face_down"),
            t.get("penalty"),
            t.get("hinted"),
            t.get("drawn"),
            t.get("last"),
            t.get("plays"),
        )
        for t in tiles or ()
    )


def fragment_keys(ctx: dict[str, Any]) -> dict[str, Any]:
    """What each leaf fragment of ``templates/games/table.html`` shows, as a comparable key.

    A consumer remembers the keys of the frame it last sent and leaves out every
    fragment whose key is unchanged: the browser keeps the one it has (a rack
    being dragged is not replaced because someone else moved), and a move sends
    each seat only what it changed. A key must cover every value its fragment
    reads (equal keys, equal HTML: ``tests/games/test_fragment_keys.py`` checks it
    over random play in every rule set); the frame's version input is always sent.
    """
    view = ctx.get("view")
    seen = view is not None
    over = bool(view and view["over"])
    legal = ctx.get("legal") or set()
    my_turn = bool(ctx.get("my_turn"))
    hand = ctx.get("hand")
    table = ctx["table"]
    keys: dict[str, Any] = {
        "title": (
            ctx["variant_name"],
            ctx.get("hand_number"),
            str(ctx["status_text"]),
            table.rated,
            table.competitive,
            ctx.get("assisted"),
        ),
        "info": (
            seen,
            view and view["pile_count"],
            hand.pk if hand else None,
            ctx.get("hand_number"),
            repr(view.get("opening_min")) if view else None,
            table.turn_deadline,
            over,
        ),
        "scores": (
            bool(ctx.get("waiting")),
            tuple(
                (p["position"], p["name"], p["total"], p.get("turn"), p["is_me"], p["is_open"])
                for p in ctx["players"]
            ),
        ),
        "center": (
            seen,
            view and view["okey"],
            _tiles_key([ctx["indicator"]]) if seen else None,
            view and view["pile_count"],
            my_turn and "draw" in legal,
            my_turn and "take" in legal,
            _tiles_key([ctx["takeable"]]) if ctx.get("takeable") else None,
            tuple(
                (
                    m["id"],
                    m["owner"],
                    m.get("owner_name"),
                    m["kind"],
                    m.get("points"),
                    _tiles_key(m["tiles"]),
                    m.get("hinted"),  # "Show me" marks the meld an add or swap goes to
                )
                for m in ctx.get("melds") or ()
            ),
            # before the deal: the seats still to fill
            None if seen else (bool(ctx.get("waiting")), ctx.get("seats_free")),
        ),
        # the drop zone once a hand is dealt; before, the player's own seat
        "mine": (
            seen,
            ctx["my_player"]["name"],
            _tiles_key((ctx["my_player"].get("discards") or [])[-3:]),
        )
        if ctx.get("my_player")
        else None,
        "rack": (_tiles_key(t for t in ctx["slots"] if t), tuple(t is None for t in ctx["slots"]))
        if ctx.get("slots")
        else None,
        "controls": (
            bool(ctx.get("seat") and seen and not over),
            tuple(sorted(legal)),
            my_turn,
            ctx.get("hints_allowed"),
            ctx.get("clock_deadline"),  # the countdown by the own controls
            ctx.get("forfeited"),  # a rated game's leaver, and "Leave this game"
            ctx.get("can_leave"),
            # the okey's face-down control and what each discard would cost (assisted)
            tuple(sorted(ctx["flip"].items())) if ctx.get("flip") else None,
            tuple(sorted(ctx.get("discard_costs", {}).items())) if ctx.get("assisted") else None,
        ),
        # what the clock's stand-in played for this seat (presenter.timeout_notice)
        "notice": (ctx["notice"]["key"], str(ctx["notice"]["text"])) if ctx.get("notice") else None,
        # a refusal or a hint is news each time it is sent, even when it repeats
        "message": object() if ctx.get("error") or ctx.get("hint_text") else None,
        # a watcher's followed seat and the seats to follow show in the outcome
        # (games/live/follow.py; a watcher's page is rendered with the choices too)
        "result": (
            ctx["version"],
            ctx["game_over"],
            ctx.get("follow_key"),
            "follow_choices" in ctx,
            # a duplicate round's last table ends without this table's version moving:
            # the racks and the seed then appear (presenter.embargoed_view, RULES.md D38)
            ctx.get("racks_withheld"),
        )
        if ctx.get("result")
        else None,
        # the running score table: the totals after each recorded hand
        "standings": (
            tuple(p["name"] for p in ctx["players"]),
            tuple(tuple(h["totals"]) for h in (ctx.get("standing") or {}).get("hands", ())),
            (ctx.get("standing") or {}).get("over"),
        ),
        # the invite card goes for everyone once the table has started (or filled)
        "invite": table.status != Table.Status.WAITING,
        "announce": ctx.get("announce") or "",
    }
    if ctx.get("lesson"):  # a lesson's table only (games/learn: the panel's own key)
        keys["lesson"] = ctx["lesson"]["key"]
    for p in ctx["opponents"]:
        keys[f"opp-{p['position']}"] = (
            p["place"],
            p["name"],
            p["away"],
            p["is_open"],
            p.get("opened"),
            seen,
            p.get("count"),
            p.get("turn"),
            _tiles_key((p.get("discards") or [])[-3:]),
            tuple(t["t"] for t in p.get("took") or ()),
            p.get("took_count"),
            p.get("stand_in"),
            p.get("deadline"),
        )
    return keys


# Rendered leaves that several connections of one table can share (same table,
# language and key give the same HTML, whoever looks): each is rendered once per
# table, language and key, and every seat and watcher whose key is that one gets
# the same text. "info" is the same for every seat, "center" and "title" for every
# seat whose turn it is not; an opponent's panel, the scores, the standings and the
# announcement are the same for every watcher (and a seat's panel for the watchers
# and seats who see it at the same place). The rack, the message and the outcome
# (a seated player's has "Next hand", a watcher's the seat followed) are rendered
# per connection. Keys hold the table's pk.
SHARED_LEAVES = frozenset(
    {"title", "info", "center", "controls", "scores", "mine", "standings"}
    | {"invite", "announce", "opp-0", "opp-1", "opp-2", "opp-3"}
)
_LEAF_LIMIT = 4096
_LEAVES: LRU[tuple[Any, ...], tuple[str, str | None]] = LRU(_LEAF_LIMIT)


# An opponent's panel differs between the seats that see it only by where it sits on
# their screen (its ``opp-<place>`` class, the first item of its key): it is rendered
# once with this mark for the place and each viewer gets it with its own place put in.
_PLACE = "\x00place\x00"


def render_leaf(name: str, ctx: dict[str, Any], place: str | None = None) -> str:
    """One leaf fragment of ``templates/games/table.html`` (``opp-<seat>`` is the
    ``opponent`` partial for that seat, drawn at ``place`` when given)."""
    if name.startswith("opp-"):
        position = int(name[4:])
        ctx["p"] = next(p for p in ctx["opponents"] if p["position"] == position)
        if place is not None:
            ctx["p"] = {**ctx["p"], "place": place}
        name = "opponent"
    return get_template(f"games/table.html#{name}").render(ctx)


# ------------------------------------------------ what the browser already shows

# The first frame of a connection used to carry every fragment, though the page had
# just been rendered with the same ones: swapping them again reset what the player
# had (the outcome dialog's scroll, an open menu, the focus). So every frame (and
# the page) ends with the digests of the fragments' keys it leaves the browser
# showing (``data-seen`` of the version input), the page's script puts the latest
# into the socket's URL when it connects or reconnects (static/js/table.js), and
# the first frame leaves out each fragment whose digest is the one of its key now.
# After missed moves the keys differ and those fragments are sent. A digest says
# only whether the browser's copy is the one this connection would be sent: a
# client that lies about it misses its own fragments, nothing else.
SEEN = "#seen"  # the entry of a frame's keys holding the fragments' digests
_SEEN_MAX = 1024  # characters of a ``seen`` value read at most
_SEEN_ITEM = re.compile(
    r"(title|info|scores|center|mine|rack|controls|notice|result|standings"
    r"|invite|announce|lesson|opp-[0-3])=([0-9a-f]{12})"
)
# news each time it is sent (a refusal, a hint, a canned message): never skipped
_NOT_DIGESTED = frozenset({"message"})


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(type(value).__name__)


def key_digest(key: Any) -> str | None:
    """A fragment key's digest (the same in every process); None for a key that has
    none (one holding an object that is news each time it is sent)."""
    try:
        text = json.dumps(key, default=_plain, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError):
        return None
    return hashlib.blake2s(text.encode(), digest_size=6).hexdigest()


def seen_value(lang: str, digests: dict[str, str | None]) -> str:
    """The ``data-seen`` text: the language, then each fragment's digest."""
    items = ",".join(f"{n}={d}" for n, d in digests.items() if d and n not in _NOT_DIGESTED)
    return f"{lang}|{items}"


def seen_digests(value: str | None, lang: str) -> dict[str, str] | None:
    """The digests a connecting browser says it shows (``seen_value``, from the socket's
    URL); None when there are none or they were made in another language. Anything
    unreadable is left out (those fragments are sent)."""
    if not value or len(value) > _SEEN_MAX or "|" not in value:
        return None
    their_lang, _sep, items = value.partition("|")
    if their_lang != lang:
        return None
    found = {}
    for item in items.split(","):
        match = _SEEN_ITEM.fullmatch(item)
        if match:
            found[match.group(1)] = match.group(2)
    return found or None


def page_seen(ctx: dict[str, Any]) -> str:
    """The page's ``data-seen``: the digests of the fragments it was rendered with (called
    by the table template, in the page's language)."""
    keys = fragment_keys(ctx)
    return seen_value(get_language() or "en", {n: key_digest(k) for n, k in keys.items()})


def live_frame(
    ctx: dict[str, Any],
    last: dict[str, Any] | None,
    lang: str,
    seen: dict[str, str] | None = None,
) -> tuple[str, dict[str, Any]]:
    """One websocket frame for one connection: the leaf fragments whose key
    differs from ``last`` (the keys of this connection's previous frame; None
    for its first frame: everything but the fragments whose digest is in
    ``seen``, what the browser already shows), then the table version with the
    digests of what the browser shows after this frame. Returns the HTML and the
    keys to remember (with the digests, under ``SEEN``)."""
    keys = fragment_keys(ctx)
    if last is None and seen:
        last, was = {}, {}
        for name, key in keys.items():
            digest = seen.get(name)
            if digest is not None and name not in _NOT_DIGESTED and key_digest(key) == digest:
                last[name], was[name] = key, digest
        last[SEEN] = was
    previous = last.get(SEEN, {}) if last is not None else {}
    digests: dict[str, str | None] = {}
    parts = []
    for name, key in keys.items():
        if last is not None and name in last and last[name] == key:
            digests[name] = previous.get(name)
            continue
        if name not in SHARED_LEAVES:
            parts.append(render_leaf(name, ctx))
            digests[name] = None if name in _NOT_DIGESTED else key_digest(key)
            continue
        opponent = name.startswith("opp-")
        cache_key = (ctx["table"].pk, name, lang, key[1:] if opponent else key)
        hit = _LEAVES.get(cache_key)
        if hit is None:
            html = render_leaf(name, ctx, _PLACE if opponent else None)
            hit = _LEAVES[cache_key] = (html, None if opponent else key_digest(key))
        # an opponent's key holds the viewer's place: digested per viewer
        digests[name] = key_digest(key) if opponent else hit[1]
        parts.append(hit[0].replace(_PLACE, key[0]) if opponent else hit[0])
    keys[SEEN] = digests
    parts.append(
        f'<input type="hidden" id="act-version" name="version" value="{int(ctx["version"])}"'
        f' data-seen="{seen_value(lang, digests)}" hx-swap-oob="true">'
    )
    return "".join(parts), keys
