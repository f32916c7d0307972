"""The heaviest pages, requested in a loop during a load run (``loadbench --with-pages``).

:func:`make_site` makes the data those pages show, through the site's own services:

- a long hand: a table of four guests whose hand is played to its end by the load
  benchmark's moves (draw, else discard the first tile not tried this turn) until the
  pile runs out (RULES.md §1, [D4]: 98 actions in classic, the longest a hand of the
  scripted players gets), so its review replays every one of them; its CPU commentary
  is computed once beforehand, as the first viewer of a real site would have it cached
  (``HandCommentary``);
- a published tournament of ``exchange.MAX_PLAYERS`` players and 30 rounds with every
  result in (``heavy.tournament_document``, imported by ``exchange.do_import_tournament``):
  its standings (every tie-break of 256 players) and its who-met-whom matrix;
- the run's tables public (made before the site), so that the live tables page lists
  them as a busy site's would (its 50 rows, the lobby's 6).

:func:`loop_pages` is one client that asks for them one after the other, each as soon as
the last was answered, until told to stop: the review of the long hand (as its player,
the page and the commentary fragment it loads), the tournament's standings and matrix,
the lobby (the home page) and the live tables (``/watch/``), which lists the run's
tables. Each request is on a fresh connection, as :func:`heavy.http` does.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

from . import heavy, servers
from .players import choose, summarize

TOURNAMENT_ROUNDS = 30
PAGES = ("review", "commentary", "standings", "matrix", "lobby", "live")


@dataclass
class PageSite:
    hand_id: int
    hand_actions: int
    player_session: str  # the long hand's seat 0
    tournament_id: int


def long_hand(variant: str) -> tuple[int, int, str]:
    """A finished hand of four guests, played to the empty pile by the players' moves;
    (its id, its number of actions, seat 0's session key)."""
    from games.engine import view_for
    from games.live import actions as table_actions
    from games.live import realtime
    from games.live.actions import ActionRefused
    from games.models import Table

    (spec,) = servers.create_tables(1, variant)
    table = Table.objects.get(pk=spec.table_id)
    tried: dict[int, set[int]] = {}
    actions = 0
    for _ in range(5000):
        hand, state, _game = realtime.snapshot(table)
        if state is None or state.over:
            break
        seat = state.turn
        mine = tried.setdefault(seat, set())
        move = choose(view_for(state, seat)["legal"], list(state.racks[seat]), mine)
        if move is None:
            raise RuntimeError(f"the long {variant} hand stopped: seat {seat} has no move")
        if move["action"] == "draw":
            mine.clear()
        else:
            mine.add(move["tile"])
        action = {"type": move["action"], **({"tile": move["tile"]} if "tile" in move else {})}
        try:
            table = table_actions.do_submit_action(table.pk, seat, action, table.version)
            actions += 1
        except ActionRefused:
            table = Table.objects.get(pk=table.pk)
    hand, state, _game = realtime.snapshot(table)
    if state is None or not state.over:
        raise RuntimeError(f"the long {variant} hand did not end")
    return hand.pk, actions, spec.keys[0]


def make_site(variant: str, seed: int) -> PageSite:
    """The long hand and the big tournament (see the module's docstring)."""
    import secrets

    from django.contrib.auth import get_user_model

    from games.models import Hand, Table
    from games.review import views as review_views
    from games.tournaments import exchange

    Table.objects.filter(status=Table.Status.PLAYING).update(public=True)
    hand_id, hand_actions, session = long_hand(variant)
    review_views._stored_commentary(Hand.objects.get(pk=hand_id), 0)  # cached, as after a view
    organiser = get_user_model().objects.create_user(
        f"pagesbench-{secrets.token_hex(4)}", password=secrets.token_hex(16)
    )
    doc = heavy.tournament_document(exchange.MAX_PLAYERS, TOURNAMENT_ROUNDS, variant, seed)
    tournament = exchange.do_import_tournament(organiser, doc)
    tournament.published = True
    tournament.save(update_fields=["published"])
    return PageSite(hand_id, hand_actions, session, tournament.pk)


def page_plan(
    site: PageSite, names: tuple[str, ...] = PAGES
) -> list[tuple[str, str, dict[str, str]]]:
    """(name, path, cookies) of each page of the loop (those of ``names``), in order."""
    player = {"sessionid": site.player_session}
    t = site.tournament_id
    plan = [
        ("review", f"/review/hand/{site.hand_id}/", player),
        ("commentary", f"/review/hand/{site.hand_id}/commentary/?seat=0", player),
        ("standings", f"/tournaments/{t}/", {}),
        ("matrix", f"/tournaments/{t}/matrix/", {}),
        ("lobby", "/", {}),
        ("live", "/watch/", {}),
    ]
    return [row for row in plan if row[0] in names]


async def loop_pages(
    port: int, site: PageSite, stop: asyncio.Event, names: tuple[str, ...] = PAGES
) -> dict[str, Any]:
    """One client asking for :func:`page_plan`'s pages in turn until ``stop`` is set;
    per page the count, the status codes and the latency."""
    plan = page_plan(site, names)
    latencies: dict[str, list[float]] = {name: [] for name, _p, _c in plan}
    statuses: dict[str, dict[int, int]] = {name: {} for name, _p, _c in plan}
    i = 0
    while not stop.is_set():
        name, path, cookies = plan[i % len(plan)]
        i += 1
        t0 = time.perf_counter()
        try:
            status = await heavy.http(port, "GET", path, cookies)
        except OSError:
            status = 0
        latencies[name].append(time.perf_counter() - t0)
        statuses[name][status] = statuses[name].get(status, 0) + 1
    return {
        name: {"statuses": statuses[name], "latency_ms": summarize(latencies[name])}
        for name in latencies
    }


def page_errors(pages: dict[str, Any]) -> int:
    """Answers other than 200 (the page client's requests are all allowed)."""
    return sum(n for p in pages.values() for code, n in p["statuses"].items() if code != 200)
