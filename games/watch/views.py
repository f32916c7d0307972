"""The live tables page (/watch/): the public tables in play, kept live over the
lobby's websocket (``games.watch.consumers.LobbyConsumer``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import SafeString

from games.common import heavy, pagecache
from games.watch import lobby


def live_list(limit: int = lobby.LISTED_MAX) -> SafeString:
    """The list fragment (``templates/games/_live_tables.html``) of the page and the home
    page: its rows are read afresh (``lobby.live_tables``: which tables, their hands,
    watchers, players and ratings) and rendered once per content and language
    (``games.common.pagecache``, keyed by the rows themselves: a table that opens, moves on or
    leaves changes them)."""
    rows = lobby.live_tables(limit)
    return pagecache.fragment(
        "live-tables",
        (limit, pagecache.digest(rows)),
        lambda: pagecache.render("games/_live_tables.html", {"live_tables": rows, "oob": False}),
    )


@heavy.page
def watch_page(request: HttpRequest) -> HttpResponse:
    return render(request, "watch/watch.html", {"live_list": live_list()})
