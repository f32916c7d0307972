"""The lobby's live tables: which tables are listed, what each row shows, and when
the lobby is told that its list changed.

Listed: the public tables in play (``Table.public``, status playing). A private
table is never listed; its link still opens it for watching (its code is
unguessable, ``games.models.new_code``), the way a private video is seen by those
given its link. Waiting tables are on the home page's "Open tables"; finished and
abandoned ones are not live.

A row shows the rule set (the rules object's label), each seat's player with their
rating in that rule set (``games.ratings.api.current_rating``; a CPU seat is marked
as one and has none, a guest has none), the hand ("Hand n of m" where the rule set
has a fixed number of hands, ``Rules.hands_shown``) and how many watch.

When: the lobby's group hears ``lobby.changed`` only when a listed table starts or
deals its next hand (a ``Hand`` is created), finishes (``game_finished``), or its
watcher count changes (``games.watch.actions``), never for a move; each process
then renders the list once for all its lobby sockets, at most once per
``OKEY_LOBBY_COALESCE_S`` however many changes arrived meanwhile
(``games.watch.consumers.LobbyHub``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Max
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from games.engine.rules import rules_for
from games.live.realtime import group_send
from games.models import Hand, Seat, Table
from games.watch.models import WatchConnection

LOBBY_GROUP = "lobby"
LISTED_MAX = 50  # rows in the lobby: the most watched first, then the newest


def coalesce_s() -> float:
    """How long a process gathers lobby changes before it renders the list once."""
    return float(getattr(settings, "OKEY_LOBBY_COALESCE_S", 1.0))


def listed_tables() -> Any:
    return Table.objects.filter(public=True, status=Table.Status.PLAYING)


def listed(table_ids: set[int]) -> bool:
    """Whether any of these tables is in the lobby's list."""
    return listed_tables().filter(pk__in=table_ids).exists()


def lobby_changed() -> None:
    """Tell every lobby socket (every process) that the list changed."""
    group_send(LOBBY_GROUP, {"type": "lobby.changed"})


def on_hand_saved(sender: Any, instance: Hand, created: bool, **kwargs: Any) -> None:
    """A hand was dealt: a public table started or moved on to its next hand."""
    if created and instance.table.public:
        transaction.on_commit(lobby_changed)


def on_game_finished(sender: Any, table: Table, **kwargs: Any) -> None:
    """A public table finished: it leaves the list."""
    if table.public:
        transaction.on_commit(lobby_changed)


def _player(seat: Any, variant: str) -> dict[str, Any]:
    from games.ratings.api import current_rating

    row: dict[str, Any] = {"name": seat.display_name(), "cpu": seat.is_cpu, "rating": None}
    if seat.is_cpu:
        row["level"] = seat.get_cpu_level_display()
    elif seat.user_id is not None:
        row["rating"] = current_rating(seat.user, variant)
    return row


def live_tables(limit: int = LISTED_MAX) -> list[dict[str, Any]]:
    """The lobby's rows, the most watched first, then the newest (labels translated
    in the active language)."""
    tables = list(listed_tables().order_by("-created_at")[: limit * 4])
    ids = [t.pk for t in tables]
    watchers = dict.fromkeys(ids, 0)
    watchers.update(
        {
            r["table_id"]: r["n"]
            for r in WatchConnection.objects.filter(table_id__in=ids)
            .values("table_id")
            .annotate(n=Count("pk"))
        }
    )
    hands = {
        r["table_id"]: r["n"]
        for r in Hand.objects.filter(table_id__in=ids).values("table_id").annotate(n=Max("number"))
    }
    tables.sort(key=lambda t: -watchers[t.pk])  # stable: the newest first among equals
    tables = tables[:limit]
    seats: dict[int, list[Any]] = {t.pk: [] for t in tables}
    for seat in Seat.objects.filter(table_id__in=list(seats)).select_related("user__profile"):
        seats[seat.table_id].append(seat)
    rows = []
    for t in tables:
        rules = rules_for(t.variant)
        number = hands.get(t.pk)
        rows.append(
            {
                "code": t.code,
                "label": _(rules.label),
                "players": [_player(s, t.variant) for s in sorted(seats[t.pk], key=_position)],
                "hand_number": number + 1 if number is not None else None,
                "hands_shown": rules.hands_shown(t.options),
                "watchers": watchers[t.pk],
            }
        )
    return rows


def _position(seat: Any) -> int:
    return seat.position


def render_list(limit: int = LISTED_MAX, *, oob: bool = True) -> str:
    """The lobby's list fragment (``templates/games/_live_tables.html``) in the active
    language; ``oob`` for a websocket frame (swapped out of band by its id)."""
    return render_to_string(
        "games/_live_tables.html", {"live_tables": live_tables(limit), "oob": oob}
    )
