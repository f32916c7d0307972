"""Live standings: one websocket per tournament page.

The consumer only listens: when a result lands (or a round is seated, or a
registration changes) the actions broadcast ``standings.changed`` to the
tournament's group after commit, and every open page gets its fragments
(standings, rounds, the viewer's own table) re-rendered for its viewer and
swapped out-of-band by the htmx ws extension (the rounds with the tables of the
latest round only, as on the page: ``presenter.shown_rounds``; an older round the
reader keeps open reloads its tables, static/js/tournament-live.js). Frames sent by
the browser are ignored (rate-limited, size-checked and closed when flooding, like the
table's).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string
from django.utils import translation

from games.live.consumers import (
    CLOSE_FLOOD,
    FLOOD_BURST,
    MAX_FRAME_BYTES,
    RATE_PER_SECOND,
    Bucket,
    allow_frame,
    scope_buckets,
    scope_language,
)
from okeysite.wsguard import FLOOD_REASON, note_flood

from . import actions
from .models import Tournament
from .presenter import can_view, page_context

log = logging.getLogger(__name__)


class StandingsConsumer(AsyncWebsocketConsumer):
    tournament_id: int | None = None
    _lang: str = "en"

    async def connect(self) -> None:
        pk = self.scope["url_route"]["kwargs"]["pk"]
        allowed = await database_sync_to_async(self._allowed)(pk)
        if not allowed:
            await self.close(code=4404)
            return
        self.tournament_id = pk
        self.bucket = Bucket()
        self.flood = Bucket(RATE_PER_SECOND, FLOOD_BURST)
        self.shared = scope_buckets(self.scope)
        self.group = actions.group_name(pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_fragments()

    async def disconnect(self, code: int) -> None:
        if self.tournament_id is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    def _allowed(self, pk: int) -> bool:
        t = Tournament.objects.filter(pk=pk).first()
        if t is None:
            return False
        self._lang = self._language()
        return can_view(t, self.scope.get("user"))

    def _language(self) -> str:
        return scope_language(self.scope)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """An exception while handling one message is logged; the page stays live."""
        try:
            await super().dispatch(message)
        except (StopConsumer, asyncio.CancelledError):
            raise
        except Exception:
            log.exception("handling %s on a standings socket failed", message.get("type"))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # Nothing is played here; a frame only asks for a fresh copy (resync).
        if self.tournament_id is None:
            return
        if not allow_frame(self.bucket, self.shared):
            if not self.flood.take():  # sending on and on while refused: a flood
                note_flood()
                await self.close(code=CLOSE_FLOOD, reason=FLOOD_REASON)
            return
        if text_data is None or len(text_data.encode()) > MAX_FRAME_BYTES:
            return
        await self.send_fragments()

    async def standings_changed(self, event: dict[str, Any]) -> None:
        await self.send_fragments()

    async def send_fragments(self) -> None:
        html = await database_sync_to_async(self.render)()
        if html is not None:
            await self.send(text_data=html)

    def render(self) -> str | None:
        t = Tournament.objects.filter(pk=self.tournament_id).first()
        if t is None or not can_view(t, self.scope.get("user")):
            return None
        with translation.override(self._lang):
            ctx = page_context(t, self.scope.get("user"))
            return render_to_string("tournaments/detail.html#live", ctx)
