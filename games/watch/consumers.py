"""The lobby's websocket: the live tables' list, re-sent when it changes.

A lobby socket only listens (every frame it sends is ignored). On connect it gets
the list; afterwards, ``lobby.changed`` (``games.watch.lobby``) reaches every
lobby socket, and the sockets of one process share one ``LobbyHub``: the first
change starts a short wait (``OKEY_LOBBY_COALESCE_S``) during which further
changes are absorbed, then the list is read and rendered once per language and
sent to each socket whose last list differs. A busy site's lobby is re-rendered
at most once per wait per process, never per move (moves do not reach the lobby
at all).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import translation

from accounts.middleware import language_for_scope
from games.live import realtime
from games.watch import lobby

log = logging.getLogger(__name__)


class LobbyHub:
    """The lobby sockets of this process (on one event loop) and its pending render."""

    def __init__(self) -> None:
        self.members: set[LobbyConsumer] = set()
        self.pending: asyncio.Task[None] | None = None
        self.renders = 0  # how many times the list was read and rendered (tests count)

    def changed(self) -> None:
        if self.pending is not None and not self.pending.done():
            return  # a render is already on its way: it will show this change too
        self.pending = asyncio.get_running_loop().create_task(self._render_later())

    async def _render_later(self) -> None:
        await asyncio.sleep(lobby.coalesce_s())
        # from here on a new change schedules another render (it may come after this
        # read), so none is lost
        self.pending = None
        members = list(self.members)
        if not members:
            return
        kinds = sorted({m.kind for m in members})
        try:
            frames = await database_sync_to_async(render_lists)(kinds)
        except Exception:
            log.exception("rendering the lobby failed")
            return
        self.renders += 1
        for member in members:
            html = frames[member.kind]
            if member in self.members and html != member.last:
                member.last = html
                with contextlib.suppress(Exception):  # a socket gone meanwhile
                    await member.send(text_data=html)


def render_lists(kinds: list[tuple[str, int]]) -> dict[tuple[str, int], str]:
    """The list fragment for each (language, length) asked (the /watch/ page shows up
    to ``lobby.LISTED_MAX`` rows, the home page's section a few)."""
    out = {}
    for lang, limit in kinds:
        with translation.override(lang):
            out[(lang, limit)] = lobby.render_list(limit)
    return out


def list_length(scope: dict[str, Any]) -> int:
    """The rows a lobby socket shows: ``?n=`` of its address, 1 to LISTED_MAX."""
    query = parse_qs((scope.get("query_string") or b"").decode("latin-1"))
    raw = (query.get("n") or [""])[0]
    return max(1, min(int(raw), lobby.LISTED_MAX)) if raw.isdigit() else lobby.LISTED_MAX


_HUBS: dict[int, LobbyHub] = {}


def lobby_hub() -> LobbyHub:
    key = id(asyncio.get_running_loop())
    found = _HUBS.get(key)
    if found is None:
        found = _HUBS[key] = LobbyHub()
    return found


class LobbyConsumer(AsyncWebsocketConsumer):
    kind: tuple[str, int] = ("en", lobby.LISTED_MAX)  # (language, rows shown)
    last: str | None = None
    joined = False

    async def connect(self) -> None:
        lang = await database_sync_to_async(language_for_scope)(self.scope)
        self.kind = (lang, list_length(self.scope))
        realtime.attach_event_loop(asyncio.get_running_loop())
        await self.channel_layer.group_add(lobby.LOBBY_GROUP, self.channel_name)
        self.joined = True
        await self.accept()
        lobby_hub().members.add(self)
        html = (await database_sync_to_async(render_lists)([self.kind]))[self.kind]
        self.last = html
        await self.send(text_data=html)

    async def disconnect(self, code: int) -> None:
        lobby_hub().members.discard(self)
        if self.joined:
            self.joined = False
            await self.channel_layer.group_discard(lobby.LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return  # the lobby only listens

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        lobby_hub().changed()
