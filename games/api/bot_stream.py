"""The bot stream and the bot account routes (docs/bots-api.md).

``GET /api/v1/bot/stream`` (scope play, bot accounts only) answers NDJSON, one JSON object a
line, for as long as the client reads:

- ``{"type": "table", "table": code, "version": n, "seat": p, "view": ..., "legal": [...],
  "clock": {...}, "actions": [...], "about": {...}}`` for every table where the bot is
  seated, when the stream opens and whenever that table's version changes: the same seat view as
  ``GET /tables/{code}`` (``routers.tables.seat_view``: the engine's view for that seat,
  never another rack) and, while the seat may act, its legal actions in full
  (``engine.legal.legal_actions`` for that seat);
- ``{"type": "heartbeat"}`` every ``BOT_STREAM_HEARTBEAT_S`` seconds (10); before each,
  the token is checked again (``token_holds``), so a token revoked (or an account closed)
  while its stream is open ends it: ``{"type": "closed", "reason": "token_revoked"}``.

It listens on the channel layer to each table's group (``realtime.group_name``, the group the
table page's sockets listen to) and to ``actions.seated_group`` (a host invited the bot), and
rescans the bot's seats at every heartbeat. Each line is the whole state of one table, never a
delta, so a stream that is closed loses nothing: the bot reconnects and reads every table
anew. While it is open each seat counts as present, as a page's socket does
(``do_set_presence`` and the process's ``consumers.LIVE``, which the sweeper vouches for);
when it closes the seat is away and its CPU stand-in plays after the grace.

Bounds: ``BOT_STREAMS_PER_ACCOUNT`` (4) open streams per account, ``BOT_STREAMS_PER_IP`` (16)
per client address and ``BOT_STREAMS_TOTAL`` (2000) per server process, all counted in this
process (429 ``too_many_streams``); per stream, at most ``BOT_STREAM_TABLES`` (16) tables and
a queue of ``BOT_STREAM_QUEUE`` (32) pending changes, past which the stream is closed (its
reader is too slow); and ``BOT_STREAM_MAX_BYTES`` (8 MiB) and ``BOT_STREAM_MAX_S`` (3600)
per connection, after which it is closed too. Daphne writes what the application sends
without waiting for the client to read it (no back-pressure reaches the application), so
the byte cap is what bounds the memory a client that never reads can hold on the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import SyncToAsync, sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connections, transaction
from django.db.models.signals import post_save
from django.http import HttpRequest, StreamingHttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from ninja import Router, Schema

from accounts import throttle
from games.api.auth import Token
from games.api.errors import ApiError, ErrorOut
from games.api.models import SCOPE_PLAY
from games.api.routers.tables import ERRORS, fresh, my_table, refused, seat_view, table_out
from games.engine.legal import legal_actions
from games.live import actions, consumers, realtime
from games.models import Seat, Table

router = Router(tags=["bots"])

DEFAULTS = {
    "BOT_STREAMS_PER_ACCOUNT": 4,
    "BOT_STREAMS_PER_IP": 16,
    "BOT_STREAMS_TOTAL": 2000,
    "BOT_STREAM_TABLES": 16,
    "BOT_STREAM_QUEUE": 32,
    "BOT_STREAM_MAX_BYTES": 8 * 1024 * 1024,
    "BOT_STREAM_MAX_S": 3600,
    "BOT_STREAM_HEARTBEAT_S": 10.0,
}


def limit(name: str) -> Any:
    return type(DEFAULTS[name])(getattr(settings, name, DEFAULTS[name]))


# ---------------------------------------------------------------- open streams


class Streams:
    """The bot streams open in this process: who holds them, for the limits and the bots
    page's "online" list (``online_bot_ids``)."""

    def __init__(self) -> None:
        self.by_user: dict[int, int] = {}
        self.by_ip: dict[str, int] = {}
        self.accepting: dict[int, int] = {}
        self.total = 0

    def open(self, user_id: int, ip: str, accept: bool) -> None:
        if self.total >= limit("BOT_STREAMS_TOTAL"):
            raise too_many(_("This server holds as many bot streams as it can. Try later."))
        if self.by_user.get(user_id, 0) >= limit("BOT_STREAMS_PER_ACCOUNT"):
            raise too_many(
                _("At most %(n)s streams per bot account are open at once.")
                % {"n": limit("BOT_STREAMS_PER_ACCOUNT")}
            )
        if self.by_ip.get(ip, 0) >= limit("BOT_STREAMS_PER_IP"):
            raise too_many(
                _("At most %(n)s bot streams per address are open at once.")
                % {"n": limit("BOT_STREAMS_PER_IP")}
            )
        self.total += 1
        self.by_user[user_id] = self.by_user.get(user_id, 0) + 1
        self.by_ip[ip] = self.by_ip.get(ip, 0) + 1
        if accept:
            self.accepting[user_id] = self.accepting.get(user_id, 0) + 1

    def close(self, user_id: int, ip: str, accept: bool) -> None:
        self.total -= 1
        for counts, key in ((self.by_user, user_id), (self.by_ip, ip)):
            counts[key] -= 1
            if not counts[key]:
                del counts[key]
        if accept:
            self.accepting[user_id] -= 1
            if not self.accepting[user_id]:
                del self.accepting[user_id]


STREAMS = Streams()


def online_key(user_id: int) -> str:
    return f"bot-online:{user_id}"


def mark_online(user_id: int) -> None:
    """A stream with ``accept`` vouches for its bot, in the cache (shared by the server
    processes through Redis when ``REDIS_URL`` is set), for three heartbeats."""
    cache.set(online_key(user_id), 1, timeout=max(1, int(3 * limit("BOT_STREAM_HEARTBEAT_S"))))


def online_bot_ids() -> set[int]:
    """Bot accounts with a stream open that accepts invitations (``?accept=true``)."""
    from accounts.models import Profile

    ids = list(Profile.objects.filter(is_bot=True).values_list("user_id", flat=True)[:1000])
    found = cache.get_many([online_key(i) for i in ids])
    return {i for i in ids if online_key(i) in found} | set(STREAMS.accepting)


def too_many(message: str) -> ApiError:
    return ApiError(429, "too_many_streams", message, retry_after=10)


# The streams' database work runs on these few threads, whatever the number of streams.
# (``sync_to_async``'s default inside a request is a thread of that request's own, each with
# its own database connection: a thousand open streams held a thousand threads and
# connections, 435 kB each. docs/bots-api.md, "Measured".)
POOL = ThreadPoolExecutor(max_workers=4, thread_name_prefix="bot-stream")


def in_pool(fn: Callable[..., Any]) -> Callable[..., Any]:
    return sync_to_async(fn, thread_sensitive=False, executor=POOL)


def release_request_thread() -> None:
    """End the thread Django keeps for this request while its response is streamed.

    Django answers each request inside asgiref's ``ThreadSensitiveContext``, whose
    executor (one thread) lives until the response's last byte: a thread per open stream
    (1006 threads for 1000 streams, docs/bots-api.md "Measured"). The stream needs it no
    more (its work runs on ``POOL``), so the executor is shut down here; a thread-sensitive
    call later in the request (its end) makes a new one. asgiref's internals: when they
    change, this does nothing and each stream keeps its thread."""
    context_var = getattr(SyncToAsync, "thread_sensitive_context", None)
    executors = getattr(SyncToAsync, "context_to_thread_executor", None)
    context = context_var.get(None) if context_var is not None else None
    if context is None or executors is None or getattr(context, "_executor", None) is not None:
        return
    executor = executors.pop(context, None)
    if executor is not None:
        executor.shutdown(wait=False)


def line(obj: dict[str, Any]) -> bytes:
    return json.dumps(obj, separators=(",", ":"), default=str).encode() + b"\n"


# ---------------------------------------------------------------- reading the tables


ACTIVE = (Table.Status.WAITING, Table.Status.PLAYING)


def bot_seats(user: Any) -> dict[int, int]:
    """Table id -> seat id of every waiting or playing table where ``user`` sits."""
    rows = Seat.objects.filter(user=user, table__status__in=ACTIVE).values_list("table_id", "pk")
    return dict(rows[: limit("BOT_STREAM_TABLES")])


def table_event(request: HttpRequest, table_id: int, user: Any) -> dict[str, Any] | None:
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return None
    table, seats, me = fresh(table.code, user)
    if me is None:
        return None
    view = seat_view(request, table, seats, me)
    # the seat's legal actions in full, as the engine lists them for that seat (its own
    # rack and the public table only), so a bot can pick one as the CPUs do
    moves: list[dict[str, Any]] = []
    if view["view"] is not None and not view["view"]["over"]:
        _hand, state, _game = actions.snapshot(table)
        moves = legal_actions(state, me.position)
    return {
        "type": "table",
        **view,
        # the seat view's table object (seats, totals...) as "about"; "table" is the code
        "about": view["table"],
        "table": table.code,
        "version": table.version,
        "status": table.status,
        "actions": moves,
    }


def token_holds(token_id: int | None) -> bool:
    """The stream's token is still good: not revoked, its account open and a bot. A stream
    is authorised once, as it opens, so each heartbeat asks again: revoking the token (or
    closing the account) ends its open streams within a heartbeat, not an hour later."""
    from games.api.models import ApiToken

    if token_id is None:
        return False
    token = ApiToken.objects.select_related("user__profile").filter(pk=token_id).first()
    if token is None or token.revoked_at is not None or not token.user.is_active:
        return False
    profile = getattr(token.user, "profile", None)
    return profile is not None and profile.is_bot


def check_bot(user: Any) -> None:
    profile = getattr(user, "profile", None)
    if profile is None or not profile.is_bot:
        raise ApiError(
            403,
            "not_a_bot",
            _("Only a bot account can open the bot stream (POST /api/v1/bot/account/upgrade)."),
        )


class Stream:
    """One open stream: its channels (one per table, so a change says which table it is),
    the queue of changed tables, and the seats it keeps present."""

    def __init__(self, request: HttpRequest, user: Any, accept: bool) -> None:
        self.request, self.user, self.accept = request, user, accept
        auth = getattr(request, "auth", None)
        self.token_id = auth.token.pk if auth is not None and auth.token is not None else None
        self.layer = get_channel_layer()
        self.changed: asyncio.Queue[int | None] = asyncio.Queue(limit("BOT_STREAM_QUEUE"))
        self.tables: dict[int, tuple[int, str, asyncio.Task[None]]] = {}  # seat, channel, task
        self.sent: dict[int, int] = {}
        self.overflow = False
        self.seated_channel = ""
        self.seated_task: asyncio.Task[None] | None = None

    def push(self, table_id: int | None) -> None:
        if table_id is not None and table_id in self.changed._queue:  # type: ignore[attr-defined]
            return  # already pending: the line will carry the latest state
        try:
            self.changed.put_nowait(table_id)
        except asyncio.QueueFull:
            self.overflow = True
            self.changed._queue.clear()  # type: ignore[attr-defined]
            self.changed.put_nowait(None)

    async def listen(self, channel: str, table_id: int | None) -> None:
        while True:
            await self.layer.receive(channel)
            self.push(table_id if table_id is not None else -1)

    async def vouch(self) -> None:
        if self.accept:
            await in_pool(mark_online)(self.user.pk)

    async def open(self) -> None:
        actions.attach_event_loop(asyncio.get_running_loop())
        await self.vouch()
        self.seated_channel = await self.layer.new_channel("botseated.")
        await self.layer.group_add(actions.seated_group(self.user.pk), self.seated_channel)
        self.seated_task = asyncio.ensure_future(self.listen(self.seated_channel, None))
        await self.rescan()

    async def rescan(self) -> None:
        seats = await in_pool(bot_seats)(self.user)
        for table_id, seat_id in seats.items():
            if table_id not in self.tables:
                channel = await self.layer.new_channel("botstream.")
                await self.layer.group_add(realtime.group_name(table_id), channel)
                task = asyncio.ensure_future(self.listen(channel, table_id))
                self.tables[table_id] = (seat_id, channel, task)
                consumers.LIVE[channel] = seat_id
                await in_pool(actions.do_set_presence)(seat_id, True, channel=channel)
                self.push(table_id)
        for table_id in [t for t in self.tables if t not in seats]:
            self.push(table_id)  # it ended (or the seat is gone): its last line, then dropped

    async def drop(self, table_id: int) -> None:
        if table_id not in self.tables:
            return
        seat_id, channel, task = self.tables.pop(table_id)
        task.cancel()
        consumers.LIVE.pop(channel, None)
        await self.layer.group_discard(realtime.group_name(table_id), channel)
        with contextlib.suppress(Exception):  # else the sweeper's reconcile drops the row
            await in_pool(actions.do_set_presence)(seat_id, False, channel=channel)

    async def close(self) -> None:
        if self.accept and self.user.pk not in STREAMS.accepting:  # its last such stream
            await in_pool(cache.delete)(online_key(self.user.pk))
        for table_id in list(self.tables):
            await self.drop(table_id)
        if self.seated_task is not None:
            self.seated_task.cancel()
            await self.layer.group_discard(actions.seated_group(self.user.pk), self.seated_channel)

    async def lines(self) -> AsyncIterator[bytes]:
        heartbeat = limit("BOT_STREAM_HEARTBEAT_S")
        started = next_beat = time.monotonic()
        next_beat += heartbeat
        sent_bytes = 0
        yield line({"type": "hello", "bot": self.user.get_username(), "heartbeat": heartbeat})
        while True:
            if time.monotonic() - started > limit("BOT_STREAM_MAX_S"):
                yield line({"type": "closed", "reason": "max_age"})
                return
            try:
                if time.monotonic() >= next_beat:
                    # a beat is due: it comes before the changes still queued, so a stream
                    # kept busy by its tables is checked (token, seats) as often as an idle
                    # one (Python 3.12's wait_for hands back a ready item past its timeout)
                    raise TimeoutError
                table_id = await asyncio.wait_for(
                    self.changed.get(), timeout=max(0.0, next_beat - time.monotonic())
                )
            except TimeoutError:
                next_beat = time.monotonic() + heartbeat
                if not await in_pool(token_holds)(self.token_id):
                    yield line({"type": "closed", "reason": "token_revoked"})
                    return
                await self.vouch()
                await self.rescan()
                out = line({"type": "heartbeat"})
            else:
                if table_id is None or self.overflow:
                    yield line({"type": "closed", "reason": "slow_reader"})
                    return
                if table_id == -1:  # seated somewhere new
                    await self.rescan()
                    continue
                event = await in_pool(table_event)(self.request, table_id, self.user)
                if event is None or event["status"] not in ACTIVE:
                    await self.drop(table_id)  # no more lines of this table after this one
                if event is None or self.sent.get(table_id) == (event["version"], event["status"]):
                    continue
                self.sent[table_id] = (event["version"], event["status"])
                out = line(event)
            sent_bytes += len(out)
            if sent_bytes > limit("BOT_STREAM_MAX_BYTES"):
                yield line({"type": "closed", "reason": "max_bytes"})
                return
            yield out


async def stream_body(stream: Stream, user_id: int, ip: str, accept: bool) -> AsyncIterator[bytes]:
    try:
        # the request's own thread looked the token up: give its connection back now,
        # not when the stream ends (its thread waits idle until then)
        await sync_to_async(connections.close_all)()
        release_request_thread()
        await stream.open()
        async for chunk in stream.lines():
            yield chunk
    finally:
        STREAMS.close(user_id, ip, accept)
        await asyncio.shield(stream.close())


@router.get(
    "/bot/stream",
    auth=Token(SCOPE_PLAY),
    response={200: None, 401: ErrorOut, 403: ErrorOut, 429: ErrorOut},
    summary="The bot's event stream (NDJSON): its tables' seat views, heartbeats",
    description=(
        "Scope: play; bot accounts only. One JSON object per line: ``table`` events (the"
        " seat view of GET /tables/{code}, with ``table``, ``version`` and ``status``) when"
        " a table's version changes, ``heartbeat`` every 10 s. ``accept=true`` lists the bot"
        " among the online bots people can invite. See docs/bots-api.md."
    ),
)
async def bot_stream(request: HttpRequest, accept: bool = False) -> StreamingHttpResponse:
    user = request.auth.user
    await sync_to_async(check_bot)(user)
    ip = throttle.client_ip(request)
    STREAMS.open(user.pk, ip, accept)
    try:
        stream = Stream(request, user, accept)
    except BaseException:
        STREAMS.close(user.pk, ip, accept)
        raise
    response = StreamingHttpResponse(
        stream_body(stream, user.pk, ip, accept), content_type="application/x-ndjson"
    )
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each line on at once
    return response


def _seat_taken(sender: Any, instance: Seat, created: bool, update_fields: Any, **kw: Any) -> None:
    """A seat given to an account (a table opened, joined): tell that account's open bot
    streams at once (else they find it at their next heartbeat's rescan)."""
    if instance.user_id is None or update_fields is not None:
        return
    user_id = instance.user_id
    transaction.on_commit(
        lambda: actions.group_send(actions.seated_group(user_id), {"type": "bot.seated"})
    )


post_save.connect(_seat_taken, sender=Seat, dispatch_uid="bot-stream-seat-taken")


# ---------------------------------------------------------------- bot accounts


class BotAccountOut(Schema):
    username: str
    name: str
    bot: bool
    bot_since: str | None


class InviteBotIn(Schema):
    bot: str  # the bot account's username
    seat: int | None = None  # a free seat's position (default: the first free one)


def played_rated(user: Any) -> bool:
    return (
        Seat.objects.filter(user=user, table__rated=True)
        .exclude(table__status=Table.Status.WAITING)
        .exists()
    )


def entered_tournament(user: Any) -> bool:
    """An entry of a tournament not finished yet: its seats are a person's (bots play
    casual tables only; the tournaments app refuses to register a bot)."""
    from games.tournaments.models import Entry, Tournament

    return (
        Entry.objects.filter(user=user)
        .exclude(tournament__status=Tournament.Status.FINISHED)
        .exists()
    )


def do_upgrade_to_bot(user: Any) -> Any:
    """Make ``user`` a bot account, for good; refused (``rated_player``) once it has played
    at a rated table (its ratings were made against people), (``seated``) while it sits
    at a table in play, and (``tournament_entrant``) while it is entered in a tournament
    that is not over."""
    from accounts.models import Profile

    with transaction.atomic():
        profile, _created = Profile.objects.select_for_update().get_or_create(user=user)
        if profile.is_bot:
            return profile
        if played_rated(user):
            raise ApiError(
                409,
                "rated_player",
                _("This account has played rated games: it cannot become a bot."),
            )
        if Seat.objects.filter(
            user=user, table__status__in=[Table.Status.WAITING, Table.Status.PLAYING]
        ).exists():
            raise ApiError(
                409, "seated", _("Finish or leave your tables before making this account a bot.")
            )
        if entered_tournament(user):
            raise ApiError(
                409,
                "tournament_entrant",
                _("This account is entered in a tournament not over yet: it cannot become a bot."),
            )
        profile.is_bot, profile.bot_since = True, timezone.now()
        profile.save(update_fields=["is_bot", "bot_since"])
        return profile


def bot_out(user: Any, profile: Any) -> dict[str, Any]:
    return {
        "username": user.get_username(),
        "name": profile.name,
        "bot": profile.is_bot,
        "bot_since": profile.bot_since.isoformat() if profile.bot_since else None,
    }


@router.post(
    "/bot/account/upgrade",
    auth=Token(SCOPE_PLAY),
    response={200: BotAccountOut, 401: ErrorOut, 403: ErrorOut, 409: ErrorOut, 429: ErrorOut},
    summary="Make the token's account a bot account (irreversible)",
    description=(
        "Scope: play. Refused (409 ``rated_player``) once the account has played a rated"
        " game, and (409 ``seated``) while it sits at a table. A bot is marked (BOT) wherever"
        " its name shows and never plays rated. Upgrading a bot again changes nothing."
    ),
)
def upgrade(request: HttpRequest) -> dict[str, Any]:
    user = request.auth.user
    return bot_out(user, do_upgrade_to_bot(user))


@router.post(
    "/tables/{code}/invite-bot",
    auth=Token(SCOPE_PLAY),
    response={200: dict, **ERRORS},
    summary="Seat a bot account at a free seat of your waiting table",
    description=(
        "Scope: play; the table's host only. ``bot`` is the bot's username; it must have a"
        " stream open with accept=true (the bots page's online bots)."
    ),
)
def invite_bot(request: HttpRequest, code: str, body: InviteBotIn) -> dict[str, Any]:
    user = request.auth.user
    table, _seats, _me = my_table(code, user)
    bot = get_user_model().objects.filter(username=body.bot).select_related("profile").first()
    if bot is None or bot.pk not in online_bot_ids():
        raise ApiError(404, "bot_offline", _("No such bot is online to invite."))
    try:
        actions.do_invite_bot(table.pk, bot, user=user, position=body.seat)
    except actions.ActionRefused as e:
        raise refused(e) from e
    table, seats, me = fresh(code, user)
    return table_out(request, table, seats, me)
