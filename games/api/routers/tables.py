"""Tables: the lobby's live tables, opening a table, inviting, and playing at one's seat.

Every write is one of the table's ``do_*`` actions (``games.live.actions``): the route
parses and authorises, the action locks the table row, applies, stores and broadcasts on
commit, so the web page's players see an API move as they see any other. A seat's
answer is that seat's engine view only (``view_for(state, seat)``, as the table page's
frames are made: games/live/presenter.py); a duplicate deal another table still plays
keeps the other racks hidden after the hand (``presenter.embargoed_view``).
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _
from ninja import Header, Router, Status

from accounts import throttle
from games import plugins
from games.api import invites
from games.api.auth import PUBLIC, Anyone, Token
from games.api.errors import ApiError, ErrorOut, not_found
from games.api.models import SCOPE_PLAY, SCOPE_READ
from games.api.schemas import (
    ActionIn,
    CreateTableIn,
    InviteIn,
    InviteOut,
    LiveTableOut,
    SeatViewOut,
    VersionIn,
)
from games.engine import view_for
from games.engine.options import validate_options
from games.engine.refusals import Refusal
from games.live import actions, presenter
from games.live.messages import refusal_text
from games.models import Seat, Table
from games.watch import lobby

router = Router(tags=["tables"])

# Tables one account may open through the API per window (each deals a hand at once).
OPEN_TABLES = throttle.Limit(
    "api-open-table", "API_OPEN_TABLE_LIMIT", "API_OPEN_TABLE_WINDOW", 10, 60
)

# How long an Idempotency-Key of ``POST /tables`` names the table it opened (seconds).
ONCE_S = 24 * 3600

# Refusals that say the table is not where the caller thought (409); any other is a
# request the table cannot take as it is (400).
CONFLICTS = frozenset(
    {
        "stale_state",
        "duplicate_action",
        "hand_over",
        "hand_not_over",
        "game_over",
        "game_started",
        "table_full",
        "already_left",
        "too_early",
        "not_your_turn",
    }
)
ERRORS = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 409: ErrorOut}
ERRORS |= {413: ErrorOut, 422: ErrorOut, 429: ErrorOut}
READ_ERRORS = {401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 429: ErrorOut}


def refused(e: actions.ActionRefused | Refusal) -> ApiError:
    status = 409 if e.code in CONFLICTS else 400
    return ApiError(status, e.code, refusal_text(e.code, e.message))


def table_url(request: HttpRequest, table: Table) -> str:
    return request.build_absolute_uri(reverse("games:table", args=[table.code]))


def read_seats(table: Table) -> list[Seat]:
    return sorted(table.seats.select_related("user__profile"), key=lambda s: s.position)


def table_out(
    request: HttpRequest, table: Table, seats: list[Seat], me: Seat | None
) -> dict[str, Any]:
    hand, _state, game = actions.snapshot(table)
    totals = list(game.totals()) if game is not None else []
    return {
        "code": table.code,
        "url": table_url(request, table),
        "variant": table.variant,
        "options": dict(table.options),
        "status": table.status,
        "version": table.version,
        "rated": table.rated,
        "public": table.public,
        "seats": [
            {
                "position": s.position,
                "name": s.display_name() if not s.is_open else "",
                "cpu": s.is_cpu,
                "level": s.cpu_level if s.is_cpu else None,
                "open": s.is_open,
                "you": me is not None and s.pk == me.pk,
            }
            for s in seats
        ],
        "hand_number": hand.number + 1 if hand is not None else None,
        "totals": totals,
    }


def seat_view(request: HttpRequest, table: Table, seats: list[Seat], me: Seat) -> dict[str, Any]:
    """The caller's seat as the table page's frames show it: the engine's view for that
    seat (no other rack while the hand is played), its legal action types and the clock."""
    _hand, state, _game = actions.snapshot(table)
    view = None
    if state is not None:
        view = view_for(state, me.position)
        if view["over"] and plugins.deal_embargoed(table):
            view = presenter.embargoed_view(view)
    playing = view is not None and not view["over"]
    return {
        "table": table_out(request, table, seats, me),
        "seat": me.position,
        "view": view,
        "legal": list(view["legal"]) if view is not None else [],
        "clock": {
            "my_turn": playing and view["turn"] == me.position,
            "turn_deadline": table.turn_deadline if playing else None,
        },
    }


def my_table(code: str, user: Any) -> tuple[Table, list[Seat], Seat]:
    """The table and the caller's seat there; 404 for anyone without a seat (nothing of a
    table in play is shown to a stranger, not even that it exists)."""
    table = Table.objects.filter(code=code).first()
    if table is None:
        raise not_found(_("There is no such table."))
    seats = read_seats(table)
    me = actions.seat_of(seats, user, "")
    if me is None:
        raise not_found(_("You have no seat at this table."))
    return table, seats, me


def fresh(code: str, user: Any) -> tuple[Table, list[Seat], Seat]:
    table = Table.objects.get(code=code)
    seats = read_seats(table)
    return table, seats, actions.seat_of(seats, user, "")


# ---------------------------------------------------------------------- the lobby


@router.get(
    "/tables/live",
    auth=Anyone(),
    response={200: list[LiveTableOut], 401: ErrorOut, 429: ErrorOut},
    openapi_extra=PUBLIC,
    summary="The public tables in play, as the lobby lists them",
)
def live_tables(request: HttpRequest) -> list[dict[str, Any]]:
    listed = lobby.live_tables()
    variants = dict(
        Table.objects.filter(code__in=[row["code"] for row in listed]).values_list(
            "code", "variant"
        )
    )
    rows = []
    for row in listed:
        rows.append(
            {
                "code": row["code"],
                "url": request.build_absolute_uri(reverse("games:table", args=[row["code"]])),
                "variant": variants.get(row["code"], ""),
                "label": str(row["label"]),
                "players": [
                    {
                        "name": p["name"],
                        "cpu": p["cpu"],
                        "level": str(p["level"]) if p.get("level") else None,
                        "rating": p["rating"].number if p.get("rating") else None,
                    }
                    for p in row["players"]
                ],
                "hand_number": row["hand_number"],
                "hands_shown": row["hands_shown"],
                "watchers": row["watchers"],
            }
        )
    return rows


# ---------------------------------------------------------------------- opening


@router.post(
    "/tables",
    auth=Token(SCOPE_PLAY),
    response={201: SeatViewOut, 200: SeatViewOut, **ERRORS},
    summary="Open a table (you take seat 1)",
    description=(
        "Scope: play. The other seats are open for people or CPUs (``others``; default:"
        " CPUs). Options are the rule set's (GET /rulesets), checked by the engine. With an"
        " Idempotency-Key, a request sent again answers 200 with the table it opened."
    ),
)
def create_table(
    request: HttpRequest,
    body: CreateTableIn,
    idempotency_key: str | None = Header(
        None,
        alias="Idempotency-Key",
        max_length=64,
        description="the same key again (within a day) answers the table it opened",
    ),
) -> Status:
    user = request.auth.user
    once = None
    if idempotency_key:
        once = "api-once:" + hashlib.sha256(f"{user.pk}|{idempotency_key}".encode()).hexdigest()
        if not cache.add(once, "", timeout=ONCE_S):
            opened = cache.get(once)
            if not opened:
                raise ApiError(
                    409, "duplicate_request", _("The same request is being answered already.")
                )
            table, seats, me = fresh(opened, user)
            return Status(200, seat_view(request, table, seats, me))
    try:
        table = _open(user, body)
    except BaseException:
        if once is not None:
            cache.delete(once)
        raise
    if once is not None:
        cache.set(once, table.code, timeout=ONCE_S)
    table, seats, me = fresh(table.code, user)
    return Status(201, seat_view(request, table, seats, me))


def _open(user: Any, body: CreateTableIn) -> Table:
    key = f"u:{user.pk}"
    if throttle.at_limit(OPEN_TABLES, key):
        raise ApiError(
            429,
            "rate_limited",
            _("You opened many tables in a short while. Wait a minute, then try again."),
            retry_after=OPEN_TABLES.window,
        )
    others = body.others
    if others is None:
        try:
            players = validate_options(body.variant, body.options)["players"]
        except Refusal as e:
            raise refused(e) from e
        specs = [actions.SeatSpec("me")] + [actions.SeatSpec("cpu") for _ in range(players - 1)]
    else:
        specs = [actions.SeatSpec("me")] + [actions.SeatSpec(o.kind, o.level) for o in others]
    throttle.hit(OPEN_TABLES, key)
    try:
        return actions.do_create_table(
            variant=body.variant,
            options=body.options,
            seats=specs,
            user=user,
            rated=body.rated,
            public=body.public,
        )
    except actions.ActionRefused as e:
        raise refused(e) from e


@router.post(
    "/tables/{code}/join",
    auth=Token(SCOPE_PLAY),
    response={200: SeatViewOut, **ERRORS},
    summary="Take a free seat at a waiting table",
    description="Scope: play. The last seat taken starts the game. Taking it again is harmless.",
)
def join_table(request: HttpRequest, code: str) -> dict[str, Any]:
    user = request.auth.user
    table = Table.objects.filter(code=code).first()
    if table is None:
        raise not_found(_("There is no such table."))
    try:
        actions.do_join_table(table.pk, user=user)
    except actions.ActionRefused as e:
        raise refused(e) from e
    table, seats, me = fresh(code, user)
    return seat_view(request, table, seats, me)


@router.post(
    "/tables/{code}/invite",
    auth=Token(SCOPE_PLAY),
    response={200: InviteOut, **ERRORS},
    summary="Invite a person (the table's link) or a bot (CPUs take the free seats)",
    description=(
        "Scope: play; the table's host (seat 1) only, while it waits for players. A person:"
        " the answer's url is the table's page, whose 'Take a seat' seats them. A bot: CPUs"
        " take every free seat (medium level) and the game starts."
    ),
)
def invite(request: HttpRequest, code: str, body: InviteIn) -> dict[str, Any]:
    user = request.auth.user
    table, seats, me = my_table(code, user)
    if me.position != 0:
        raise ApiError(
            403, "not_host", refusal_text("not_host", "only the table's host can do that")
        )
    if table.status != Table.Status.WAITING or not any(s.is_open for s in seats):
        raise ApiError(409, "table_full", refusal_text("table_full", "every seat is taken"))
    url = None
    if body.kind == "person":
        url = table_url(request, table)
    else:
        try:
            invites.BOTS["cpu"](table, user, body.level)
        except actions.ActionRefused as e:
            raise refused(e) from e
        table, seats, me = fresh(code, user)
    return {"kind": body.kind, "url": url, "table": table_out(request, table, seats, me)}


# ---------------------------------------------------------------------- playing


@router.get(
    "/tables/{code}",
    auth=Token(SCOPE_PLAY, SCOPE_READ),
    response={200: SeatViewOut, **READ_ERRORS},
    summary="Your seat at a table: your view of the hand, legal actions, the clock",
    description="Scope: play or read. Players of the table only (anyone else: 404).",
)
def get_table(request: HttpRequest, code: str) -> dict[str, Any]:
    table, seats, me = my_table(code, request.auth.user)
    return seat_view(request, table, seats, me)


@router.post(
    "/tables/{code}/actions",
    auth=Token(SCOPE_PLAY),
    response={200: SeatViewOut, **ERRORS},
    summary="Play a move at your seat",
    description=(
        "Scope: play. ``version`` is the table's version the move was chosen on; a move on"
        " an older version is refused (409 ``stale_state``), and the same move sent again"
        " after it was accepted is stored once (409 ``duplicate_action``)."
    ),
)
def submit_action(request: HttpRequest, code: str, body: ActionIn) -> dict[str, Any]:
    user = request.auth.user
    table, _seats, me = my_table(code, user)
    seen = table.version  # read before the action locks the row
    try:
        actions.do_submit_action(table.pk, me.position, body.action, body.version, seat_id=me.pk)
    except actions.ActionRefused as e:
        raise refused(e) from e
    if seen > body.version:
        # the table had moved past that version, yet nothing was refused: the action
        # repeats the move this seat made on that version, which is not stored again
        raise ApiError(
            409,
            "duplicate_action",
            _("This move was already accepted on version %(v)s.") % {"v": body.version},
        )
    table, seats, me = fresh(code, user)
    return seat_view(request, table, seats, me)


@router.post(
    "/tables/{code}/next-hand",
    auth=Token(SCOPE_PLAY),
    response={200: SeatViewOut, **ERRORS},
    summary="Deal the next hand once the current one is over",
    description="Scope: play. ``version`` as for a move.",
)
def next_hand(request: HttpRequest, code: str, body: VersionIn) -> dict[str, Any]:
    user = request.auth.user
    table, _seats, _me = my_table(code, user)
    try:
        actions.do_next_hand(table.pk, body.version)
    except actions.ActionRefused as e:
        raise refused(e) from e
    table, seats, me = fresh(code, user)
    return seat_view(request, table, seats, me)
