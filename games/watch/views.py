"""The live tables page (/watch/): the public tables in play, kept live over the
lobby's websocket (``games.watch.consumers.LobbyConsumer``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.watch import lobby


def watch_page(request: HttpRequest) -> HttpResponse:
    return render(request, "watch/watch.html", {"live_tables": lobby.live_tables()})
