"""The table's websocket: one consumer per connected browser.

Frames in: htmx ``ws-send`` JSON (form fields + ``HEADERS``). Frames out: HTML
fragments swapped out-of-band by the htmx ws extension, each rendered from the
engine view of *this* connection's seat only.

A hostile client is cheap to refuse: a frame over the rate, over the size, not
readable or naming no action is answered with a fixed message fragment before
any database work (``canned_refusal``), rate-limited ones once a second at most,
and a socket that keeps on is closed (4008). No exception while handling a frame
ends the socket (``dispatch``), and however a socket ends it stops counting for
its seat's presence (``__call__``; ``table_actions.do_reconcile_presence`` for the rest).
What a socket may have queued is bounded before it gets here (okeysite/wsguard.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext

from accounts.middleware import language_for_scope
from games import phrases, plugins
from games.live import actions as table_actions
from games.live import follow, messages, presenter, realtime
from games.models import Seat, Table
from okeysite import metrics
from okeysite.limits import LRU, TokenBucket
from okeysite.wsguard import FLOOD_REASON, client_ip, note_flood

log = logging.getLogger(__name__)

MAX_FRAME_BYTES = 8 * 1024
MAX_NESTING = 4  # a frame is an object of lists of lists of tile ids at most
RATE_PER_SECOND = 8.0
RATE_BURST = 16.0
# What all the sockets of one guest session / one IP may send together (checked
# after the socket's own bucket): a page in several tabs, a club behind one NAT.
SESSION_RATE, SESSION_BURST = 16.0, 32.0
IP_RATE, IP_BURST = 48.0, 96.0
# A socket that keeps sending while refused is flooding: after this many
# rate-limited frames (refilled at RATE_PER_SECOND) it is closed with 4008, the
# application's "policy violation" (autobahn, under daphne, sends only 1000 and
# 3000-4999; the htmx ws extension reconnects only after 1006/1011/1012/1013).
FLOOD_BURST = 64.0
# Rate-limited frames are answered one a second at most: the first of a burst,
# and in a long one a move sent a second later still hears why (the page waits
# for an answer to a move, static/js/table.js).
QUIET_S = 1.0
CLOSE_FLOOD = 4008
CANNED_CODES = {  # refusals answered with a fixed fragment: no database, no table render
    "rate_limited",
    "frame_too_large",
    "malformed_frame",
    "bad_action",
    "not_seated",
    "internal_error",
}
ENGINE_ACTIONS = {
    "draw",
    "take",
    "discard",
    "close",
    "show",
    "open",
    "lay",
    "add",
    "swap",
    "undo",
    "flip",
    "place",
}


def _clock() -> float:
    """The buckets' clock (tests replace it to send a burst at one instant)."""
    return time.monotonic()


def _now() -> float:
    # read through the module, so a test's _clock reaches buckets made before it
    return _clock()


class Bucket(TokenBucket):
    """A socket's (or a session's, an IP's) token bucket of frames, on ``_clock``."""

    __slots__ = ()

    def __init__(self, rate: float = RATE_PER_SECOND, burst: float = RATE_BURST) -> None:
        super().__init__(rate, burst, _now)


# The buckets all sockets of one session or IP draw from, in this process: the least
# recently used are forgotten past 10,000 keys.
_SHARED: LRU[str, Bucket] = LRU(maxsize=10_000)


def shared_bucket(key: str, rate: float, burst: float) -> Bucket:
    """The bucket all sockets of one session or IP draw from (in this process)."""
    bucket = _SHARED.get(key)
    if bucket is None:
        bucket = _SHARED[key] = Bucket(rate, burst)
    return bucket


def scope_buckets(scope: dict[str, Any]) -> list[Bucket]:
    """The shared buckets of a socket: its guest session's and its IP's."""
    buckets = []
    session = scope.get("session")
    key = getattr(session, "session_key", None) if session is not None else None
    if key:
        buckets.append(shared_bucket(f"s:{key}", SESSION_RATE, SESSION_BURST))
    ip = client_ip(scope)
    if ip is not None:
        buckets.append(shared_bucket(f"ip:{ip}", IP_RATE, IP_BURST))
    return buckets


def allow_frame(own: Bucket, shared: list[Bucket]) -> bool:
    """A frame passes when the socket's bucket and every shared one have a token
    (a token is taken from each only then)."""
    if not own.peek() or not all(b.peek() for b in shared):
        return False
    for b in (own, *shared):
        b.spend()
    return True


_CANNED: dict[tuple[str, str], str] = {}


def canned_refusal(code: str, lang: str) -> str:
    """The message fragment of a refusal that changes nothing and needs no fresh
    view, rendered once per code and language."""
    key = (code, lang)
    html = _CANNED.get(key)
    if html is None:
        with translation.override(lang):
            if code == "internal_error":
                text = gettext("That message could not be handled; nothing was changed.")
            else:
                text = messages.refusal_text(code, code.replace("_", " "))
            html = render_to_string(
                "games/table.html#message", {"error": {"code": code, "message": text}}
            )
        _CANNED[key] = html
    return html


# Channel name -> seat id of every table socket of a seated player open in this
# process (presence: ``table_actions.do_reconcile_presence`` vouches for these only).
LIVE: dict[str, int] = {}


def live_connections() -> dict[str, int]:
    return dict(LIVE)


# Channel name -> table id of every watcher socket (no seat) open in this process
# (``do_reconcile_watchers``, games/plugins.py vouches for these only).
WATCHING: dict[str, int] = {}


def live_watchers() -> dict[str, int]:
    return dict(WATCHING)


def query_value(scope: dict[str, Any], name: str) -> str | None:
    """One value of the socket URL's query string (the first; None if absent)."""
    raw = scope.get("query_string") or b""
    if len(raw) > 4096:
        return None
    try:
        values = parse_qs(raw.decode("latin-1"), max_num_fields=8).get(name)
    except ValueError:  # more fields than any page sends
        return None
    return values[0] if values else None


def scope_language(scope: dict[str, Any]) -> str:
    """The language of a websocket's frames, chosen as a page's is (the profile language,
    the language cookie, the browser's Accept-Language, English)."""
    return language_for_scope(scope)


async def read_watchers(table_id: int) -> int:
    """The table's watcher count, read in the database thread."""
    return await database_sync_to_async(plugins.watcher_count)(table_id)


# (event loop, table id) -> whether another watcher change came while this process
# was reading that table's count (``TableConsumer.table_watchers``)
_CHIP_READS: dict[tuple[int, int], bool] = {}


def watchers_chip(count: int, lang: str) -> str:
    """The header's watcher count (``table.html#watchers``), swapped in by its id."""
    with translation.override(lang):
        return render_to_string("games/table.html#watchers", {"watchers": count})


class FrameError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def _int(value: Any, field: str) -> int:
    if isinstance(value, float) and not value.is_integer():
        raise FrameError("malformed_frame", f"{field} must be a number")
    try:
        number = int(value)  # Infinity: OverflowError; NaN: ValueError
    except (TypeError, ValueError, OverflowError):
        raise FrameError("malformed_frame", f"{field} must be a number") from None
    if not -(2**31) <= number < 2**31:  # no tile, meld or version is that large
        raise FrameError("malformed_frame", f"{field} is out of range")
    return number


def _depth(value: Any, limit: int) -> int:
    """The nesting depth of a parsed JSON value, counting no further than
    ``limit + 1`` (iterative: a deep value cannot exhaust the stack)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, depth)
            if depth > limit:
                return depth
            stack.extend(
                (v, depth + 1) for v in (item.values() if isinstance(item, dict) else item)
            )
    return deepest


def _json(text: str, what: str) -> Any:
    """``json.loads`` that refuses what it cannot read, however deep (JSON nested
    beyond the interpreter's recursion limit raises RecursionError in the decoder)."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise FrameError("malformed_frame", f"{what} is not valid JSON") from None


def _json_list(value: Any, field: str, depth: int) -> Any:
    if isinstance(value, str):
        value = _json(value, field)
    if not isinstance(value, list):
        raise FrameError("malformed_frame", f"{field} must be a list")
    if _depth(value, depth) > depth:
        raise FrameError("malformed_frame", f"{field} is nested too deep")
    return value


def parse_frame(text: str) -> tuple[str, dict[str, Any], int | None]:
    """Turn a ws frame into (kind, engine-action fields, version). Raises FrameError."""
    if len(text.encode()) > MAX_FRAME_BYTES:
        raise FrameError("frame_too_large", "message too large")
    data = _json(text, "the message")
    if not isinstance(data, dict):
        raise FrameError("malformed_frame", "not a JSON object")
    if _depth(data, MAX_NESTING) > MAX_NESTING:
        raise FrameError("malformed_frame", "the message is nested too deep")
    kind = data.get("action")
    if not isinstance(kind, str) or not kind:
        raise FrameError("malformed_frame", "no action given")
    version = _int(data["version"], "version") if data.get("version") not in (None, "") else None
    fields: dict[str, Any] = {}
    for name in ("tile", "meld"):
        if data.get(name) not in (None, ""):
            fields[name] = _int(data[name], name)
    if data.get("as") not in (None, ""):
        fields["as"] = _int(data["as"], "as")
    if data.get("melds") not in (None, ""):
        fields["melds"] = _json_list(data["melds"], "melds", 2)
    if data.get("order") not in (None, ""):
        fields["order"] = _json_list(data["order"], "order", 1)
    if data.get("mode") not in (None, ""):
        fields["mode"] = str(data["mode"])[:16]
    if data.get("seat") not in (None, ""):  # the seat a watcher follows
        fields["seat"] = _int(data["seat"], "seat")
    if "phrase" in data:  # only an id of games/phrases.py is ever shown; text is not
        fields["phrase"] = data["phrase"][:64] if isinstance(data["phrase"], str) else ""
    return kind, fields, version


# no version needed: private to the seat, or (leave) the seat's own forfeit of a rated game
SEAT_ACTIONS = {"reorder", "sort", "hint", "leave"}
PHRASE = "phrase"  # a quick phrase (games/phrases.py): no engine action, no version
FOLLOW = "follow"  # a watcher follows a seat (games/live/follow.py): no version


def check_action(kind: str, version: int | None) -> None:
    """Refuse, before any database work, an action that does not exist or lacks
    the table version it was made against."""
    if kind in (PHRASE, FOLLOW):
        return
    if kind not in ENGINE_ACTIONS and kind not in SEAT_ACTIONS and kind != "next_hand":
        raise FrameError("bad_action", f"unknown action {kind[:32]!r}")
    if kind not in SEAT_ACTIONS and version is None:
        raise FrameError("malformed_frame", "version is missing")


class TableConsumer(AsyncWebsocketConsumer):
    table_id: int | None = None
    seat_id: int | None = None
    position: int | None = None
    _hint: dict[str, Any] | None = None
    _lang: str | None = None
    _sent: dict[str, Any] | None = None  # realtime.fragment_keys of the last frame
    _seen: dict[str, str] | None = None  # what the browser showed when it connected
    _present = False  # this socket is counted in its seat's presence
    _watching = False  # this socket is counted in the table's watchers
    follow: int | None = None  # the seat this watcher follows (shown after a hand)
    _quiet_since: float | None = None  # a rate-limited frame was answered then

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        # However the consumer ends (a clean close, an exception, cancellation by
        # the server), its socket stops counting for the seat's presence.
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self._leave()

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Hand the message to its handler (``websocket.receive`` → ``websocket_receive``,
        ``table.changed`` → ``table_changed``, as channels does). Any exception while
        handling it is logged and, for a frame from the browser, answered with a
        refusal; the socket stays open.

        channels' own ``dispatch`` first closes stale database connections in a trip to
        the database thread (``aclose_old_connections``), for every message: the frame
        of a move and each connection's ``table.changed`` waited their turn behind the
        renders in that one thread, five trips per move. This consumer touches the
        database only through ``database_sync_to_async``, which closes stale
        connections around each of its calls, so the trip is left out
        (``tests/games/test_lean_path.py`` counts the trips per move)."""
        try:
            handler = getattr(self, get_handler_name(message), None)
            if handler is None:
                raise ValueError(f"No handler for message type {message['type']}")
            await handler(message)
        except (StopConsumer, asyncio.CancelledError):
            raise
        except Exception as e:
            if type(e).__name__ == "Disconnected":  # autobahn: the socket is already gone
                log.debug("sending on a closed table socket")
                return
            log.exception("handling %s on a table socket failed", message.get("type"))
            if message.get("type") == "websocket.receive" and self._accepted():
                with contextlib.suppress(Exception):  # the socket may be gone too
                    await self.send_canned("internal_error")

    def _accepted(self) -> bool:
        return self.table_id is not None

    async def connect(self) -> None:
        code = self.scope["url_route"]["kwargs"]["code"]
        found = await database_sync_to_async(self._lookup)(code)
        if found is None:
            await self.close(code=4404)
            return
        self.table_id, self.seat_id, self.position = found
        self.bucket = Bucket()
        self.flood = Bucket(RATE_PER_SECOND, FLOOD_BURST)
        self.shared = scope_buckets(self.scope)
        self.group = realtime.group_name(self.table_id)
        self._lang = await database_sync_to_async(self._language)()
        # the page (or the frames before a reconnect) already shows these fragments:
        # the first frame leaves them out where they are still current
        self._seen = realtime.seen_digests(query_value(self.scope, "seen"), self._lang)
        realtime.attach_event_loop(asyncio.get_running_loop())
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        metrics.SOCKETS_OPENED.inc()
        realtime.hub(self.table_id).members.add(self)
        if self.seat_id is not None:
            self._present = True
            LIVE[self.channel_name] = self.seat_id
            await database_sync_to_async(table_actions.do_set_presence)(
                self.seat_id, True, channel=self.channel_name
            )
        else:  # a visitor without a seat watches (games/watch/table_actions.py)
            self._watching = True
            WATCHING[self.channel_name] = self.table_id
            await database_sync_to_async(plugins.do_watch)(self.table_id, self.channel_name)
        await self.send_view()

    async def disconnect(self, code: int) -> None:
        await self._leave()

    async def _leave(self) -> None:
        """Leave the table's hub and group and stop counting for presence (once)."""
        if self.table_id is None:
            return
        table_id, self.table_id = self.table_id, None
        realtime.leave_hub(table_id, self)
        try:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        except Exception:
            log.exception("leaving a table group failed")
        if self._present:
            self._present = False
            LIVE.pop(self.channel_name, None)
            try:
                await database_sync_to_async(table_actions.do_set_presence)(
                    self.seat_id, False, channel=self.channel_name
                )
            except Exception:  # the sweeper's reconcile_presence will drop the row
                log.exception("recording a departure failed")
        if self._watching:
            self._watching = False
            WATCHING.pop(self.channel_name, None)
            try:
                await database_sync_to_async(plugins.do_unwatch)(self.channel_name)
            except Exception:  # the sweeper's reconcile_watchers will drop the row
                log.exception("recording a watcher's departure failed")

    def _lookup(self, code: str) -> tuple[int, int | None, int | None] | None:
        table = Table.objects.filter(code=code).first()
        if table is None:
            return None
        user = self.scope.get("user")
        session = self.scope.get("session")
        guest_key = session.session_key if session is not None else ""
        seat = table_actions.seat_of(list(table.seats.all()), user, guest_key or "")
        if seat is None and plugins.deal_embargoed(table):
            return None  # a duplicate round's table is not watched while its deals are played
        return table.pk, (seat.pk if seat else None), (seat.position if seat else None)

    # -------------------------------------------------------------- frames in

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self._accepted():
            return
        if not allow_frame(self.bucket, self.shared):
            # Refused before anything is read: one fixed fragment for the first
            # frame of a burst (at most one a second), silence for the rest, and
            # a close for a flood.
            if not self.flood.take():
                note_flood()
                await self.close(code=CLOSE_FLOOD, reason=FLOOD_REASON)
                return
            now = _clock()
            if self._quiet_since is None or now - self._quiet_since >= QUIET_S:
                self._quiet_since = now  # the burst's answer; the rest in QUIET_S get none
                await self.send_canned("rate_limited")
            return
        if text_data is None:
            await self.send_canned("malformed_frame")
            return
        try:
            kind, fields, version = parse_frame(text_data)
            check_action(kind, version)
        except FrameError as e:
            await self.send_canned(e.code)
            return
        if kind == FOLLOW:
            await self.follow_seat(fields.get("seat"))
            return
        if self.position is None:
            await self.send_canned("not_seated")  # watchers send no phrases either
            return
        if kind == PHRASE:
            await self.say(fields.get("phrase"))
            return
        refusal: table_actions.ActionRefused | None = None
        hub = realtime.hub(self.table_id)
        async with hub.lock:
            members = list(hub.members)
            try:
                frames = await database_sync_to_async(self.act_and_render)(
                    kind, fields, version, members
                )
            except table_actions.ActionRefused as e:
                refusal = e
            else:
                if frames is not None:
                    await realtime.send_frames(hub, members, frames[0])
                    hub.shown = max(hub.shown, frames[1])
        if refusal is not None:
            await self.send_error(refusal.code, refusal.message)
            return
        if kind == "sort":
            await self.send_view()  # private to this seat: no broadcast
        if kind == "hint":
            await self.send_view(hint=self._hint)  # "Show me": this seat only

    def act_and_render(
        self,
        kind: str,
        fields: dict[str, Any],
        version: int | None,
        members: list[TableConsumer],
    ) -> tuple[list[str | None], int] | None:
        """Apply the action, then (for a change every seat sees) render the frames
        of this process's connections to the table at once, in the same trip to
        the database thread: the broadcast that follows finds them sent (the
        hub's ``shown`` version) and only other processes render for it."""
        table = self.dispatch_action(kind, fields, version)
        if kind not in ENGINE_ACTIONS and kind != "next_hand":
            return None
        found = (realtime.seats_read_with(table) if table is not None else None) or (
            realtime.read_table(self.table_id, None)
        )
        if found is None:
            return None
        return realtime.render_all(members, None, found), found[0].version

    def dispatch_action(
        self, kind: str, fields: dict[str, Any], version: int | None
    ) -> Table | None:
        """Apply the frame's action; the table as it was changed (with the seats the
        action read, ``realtime.seats_read_with``), or None for a seat's own action."""
        assert self.table_id is not None and self.position is not None
        if kind == "reorder":
            table_actions.do_save_rack_order(self.seat_id, fields.get("order", []))
            return None
        if kind == "sort":
            table_actions.do_sort_rack(self.seat_id, fields.get("mode", "runs"))
            return None
        if kind == "hint":
            self._hint = table_actions.do_show_hint(self.table_id, self.position)
            return None
        if kind == "leave":  # broadcast on commit: every seat sees who left
            table_actions.do_forfeit(self.table_id, self.position, left=True, seat_id=self.seat_id)
            return None
        # ``check_action`` let through only known actions, with a version unless private
        assert version is not None and (kind == "next_hand" or kind in ENGINE_ACTIONS)
        if kind == "next_hand":
            return table_actions.do_next_hand(self.table_id, version)
        action = {
            "type": kind,
            **{k: v for k, v in fields.items() if k in ("tile", "meld", "melds", "as")},
        }
        if kind == "place":
            action = table_actions.resolve_place(self.table_id, self.position, action)
        return table_actions.do_submit_action(
            self.table_id, self.position, action, version, seat_id=self.seat_id
        )

    async def say(self, phrase: Any) -> None:
        """A quick phrase of this seat to everyone at the table (seats and watchers, each
        in their own language; ``table_phrase``). It is not an engine action: no
        version, no record. An unknown id or one over the limit is answered to this
        socket alone with a quiet note by the picker (``bad_phrase``,
        ``phrase_too_soon``) and nobody else sees anything."""
        if self._lang is None:
            self._lang = await database_sync_to_async(self._language)()
        if not phrases.is_phrase(phrase):
            await self.send(text_data=phrases.note_html("bad_phrase", self._lang))
            return
        assert self.seat_id is not None
        if not phrases.LIMIT.allow(self.seat_id, _clock()):
            await self.send(text_data=phrases.note_html("phrase_too_soon", self._lang))
            return
        name = await database_sync_to_async(self._seat_name)()
        await self.channel_layer.group_send(
            self.group,
            {
                "type": "table.phrase",
                "seat": self.position,
                "phrase": phrase,
                "name": name,
                "nonce": secrets.token_hex(4),
            },
        )

    async def follow_seat(self, seat: int | None) -> None:
        """A watcher sits behind a seat (None: no longer). The choice is this socket's
        own and shows only once a hand is over (``games.live.follow``); a seated
        player has their own rack and follows nobody."""
        if self.position is not None:
            await self.send_canned("bad_action")
            return
        self.follow = seat if seat is not None and 0 <= seat < 4 else None
        await self.send_view()

    async def table_watchers(self, event: dict[str, Any]) -> None:
        """The table's watcher count changed: the first connection of this process to
        hear it reads the count once and sends every connection here the header chip
        (the count is read, not carried, so the last change's frame is right however
        the processes' messages interleave). Changes that arrive while a read is under
        way are answered by one more read when it ends, not one each: a crowd arriving
        at once costs two rounds of chips, not one per arrival."""
        if not self._accepted():
            return
        hub = realtime.hub(self.table_id)
        nonce = str(event.get("nonce") or "")
        if not nonce or nonce in hub.done:
            return
        hub.done.append(nonce)
        key = (id(asyncio.get_running_loop()), self.table_id)
        if key in _CHIP_READS:
            _CHIP_READS[key] = True  # the read under way reads again once it is done
            return
        _CHIP_READS[key] = False
        # the socket that just connected has the count in its first frame
        origin = str(event.get("origin") or "")
        try:
            while True:
                count = await read_watchers(key[1])
                chips: dict[str, str] = {}
                for member in list(hub.members):
                    if member.channel_name == origin:
                        continue
                    lang = member._lang or "en"
                    if lang not in chips:
                        chips[lang] = watchers_chip(count, lang)
                    if member in hub.members:
                        with contextlib.suppress(Exception):  # a socket gone meanwhile
                            await member.send(text_data=chips[lang])
                if not _CHIP_READS.get(key):
                    break
                _CHIP_READS[key], origin = False, ""
        finally:
            _CHIP_READS.pop(key, None)

    def _seat_name(self) -> str:
        seat = Seat.objects.select_related("user__profile").filter(pk=self.seat_id).first()
        return seat.display_name() if seat is not None else ""

    async def table_phrase(self, event: dict[str, Any]) -> None:
        """Show a seat's quick phrase by its seat, in this connection's language."""
        phrase, seat = event.get("phrase"), event.get("seat")
        if not self._accepted() or not phrases.is_phrase(phrase) or not isinstance(seat, int):
            return
        lang = self._lang or "en"
        name, nonce = str(event.get("name") or "")[:60], str(event.get("nonce") or "")[:16]
        await self.send(text_data=phrases.bubble_html(seat, phrase, name, lang, nonce))

    # ------------------------------------------------------------- frames out

    async def table_changed(self, event: dict[str, Any]) -> None:
        change = str(event.get("change") or "")
        hub = realtime.hub(self.table_id)
        if not change or self not in hub.members:
            await self.send_view(change=change or None)
            return
        if change in hub.done or hub.already_shown(event):
            return  # another connection of this table rendered ours too
        async with hub.lock:
            if change in hub.done or hub.already_shown(event):
                return
            hub.done.append(change)
            members = list(hub.members)
            frames = await database_sync_to_async(realtime.render_all)(members, change)
            await realtime.send_frames(hub, members, frames)

    async def send_view(
        self,
        error: dict[str, str] | None = None,
        hint: dict[str, Any] | None = None,
        change: str | None = None,
    ) -> None:
        """This connection's frame alone (connect, refusals, hints, sorting)."""
        async with realtime.hub(self.table_id).lock:
            html = await database_sync_to_async(self.render_view)(error, hint, change)
            if html is not None:
                await self.send(text_data=html)

    def render_view(
        self,
        error: dict[str, str] | None = None,
        hint: dict[str, Any] | None = None,
        change: str | None = None,
        found: tuple[Table, list[Seat]] | None = None,
    ) -> str | None:
        found = found or realtime.read_table(self.table_id, change)
        if found is None:
            return None
        table, seats = found
        seat = next((s for s in seats if s.pk == self.seat_id), None)
        if self._lang is None:
            self._lang = self._language()  # once per connection
        with translation.override(self._lang):
            ctx = presenter.table_context(table, seat, error=error, hint=hint, seats=seats)
            if seat is None:  # a watcher: the seat they follow, once the hand is over
                follow.follow_context(ctx, self.follow)
            last = self._sent
            if error is not None and last is not None:
                # a refusal sends the rack again, as it stands: the tiles the player
                # had selected for the refused move are no longer selected
                last = {k: v for k, v in last.items() if k != "rack"}
            seen = self._seen if last is None else None
            self._seen = None
            html, self._sent = realtime.live_frame(ctx, last, self._lang, seen)
        if last is None:  # the first frame: the watcher count as it is now
            html += watchers_chip(plugins.watcher_count(table.pk), self._lang)
        return html

    def _language(self) -> str:
        return scope_language(self.scope)

    async def send_error(self, code: str, message: str) -> None:
        """A refusal goes to this socket only, with the fresh full view (so a
        stale client resyncs); nothing was changed."""
        lang = await database_sync_to_async(self._language)()
        with translation.override(lang):
            error = {"code": code, "message": messages.refusal_text(code, message)}
        await self.send_view(error=error)

    async def send_canned(self, code: str) -> None:
        """A refusal that changed nothing and needs no fresh view (a frame that
        could not be read or was over a limit): a fixed message fragment, sent
        without a trip to the database or a render of the table."""
        await self.send(text_data=canned_refusal(code, self._lang or "en"))
        if self._sent is not None:  # the next frame replaces the message again
            self._sent = {**self._sent, "message": object()}
