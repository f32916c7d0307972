"""Players: a public profile with its ratings and finished games, and the caller's own.

A player is public when their profile says so (``Profile.public_records``, the boards'
opt-in) and staff have not marked the account for fair play (its public page is not found
either: games/ratings/views.py ``player``); anyone else answers 404, except to the player
themself (with any valid token). Names are the ones shown at the table
(``Profile.name``: the display name, checked by accounts/names.py, else the username).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Query, Router, Schema
from pydantic import Field

from games import plugins
from games.api.auth import PUBLIC, Anyone, Caller, Token
from games.api.errors import ErrorOut, not_found
from games.api.models import SCOPES
from games.api.schemas import GamesPage, MeOut, PlayerOut
from games.live import actions
from games.models import Table
from games.ratings import api as ratings

router = Router(tags=["players"])

PAGE_MAX = 50


class PageIn(Schema):
    limit: int = Field(20, ge=1, le=PAGE_MAX)
    offset: int = Field(0, ge=0, le=100_000)


def visible_player(username: str, caller: Caller) -> Any:
    """The account named ``username`` when the caller may see its profile, else 404."""
    user = (
        get_user_model()
        .objects.select_related("profile")
        .filter(username=username, is_active=True)
        .first()
    )
    if user is None:
        raise not_found(_("There is no such player."))
    if caller.user is not None and caller.user.pk == user.pk:
        return user
    profile = getattr(user, "profile", None)
    if profile is None or not profile.public_records or profile.fair_play_marked:
        raise not_found(_("There is no such player."))
    return user


def name_of(user: Any) -> str:
    profile = getattr(user, "profile", None)
    return profile.name if profile is not None else user.get_username()


@router.get(
    "/me",
    auth=Token(*SCOPES),
    response={200: MeOut, 401: ErrorOut, 403: ErrorOut, 429: ErrorOut},
    summary="The token's own account (any scope)",
)
def me(request: HttpRequest) -> dict[str, Any]:
    token = request.auth.token
    return {
        "username": token.user.get_username(),
        "name": name_of(token.user),
        "token": {
            "name": token.name,
            "prefix": token.prefix,
            "scopes": token.scopes,
            "created_at": token.created_at,
        },
    }


@router.get(
    "/players/{username}",
    auth=Anyone(),
    response={200: PlayerOut, 401: ErrorOut, 404: ErrorOut, 429: ErrorOut},
    openapi_extra=PUBLIC,
    summary="A player's public profile and ratings",
)
def player(request: HttpRequest, username: str) -> dict[str, Any]:
    user = visible_player(username, request.auth)
    return {
        "username": user.get_username(),
        "name": name_of(user),
        "ratings": [
            {
                "variant": variant,
                "rating": shown.number,
                "uncertainty": shown.uncertainty,
                "provisional": shown.provisional,
                "games": shown.games,
            }
            for variant, shown in ratings.ratings_of(user).items()
        ],
    }


@router.get(
    "/players/{username}/games",
    auth=Anyone(),
    response={200: GamesPage, 401: ErrorOut, 404: ErrorOut, 422: ErrorOut, 429: ErrorOut},
    openapi_extra=PUBLIC,
    summary="A player's finished games, the latest first",
)
def player_games(request: HttpRequest, username: str, page: Query[PageIn]) -> dict[str, Any]:
    """Finished games only; a duplicate tournament's table whose deals another table of
    its round still plays is left out until they are played (RULES.md D38). Anyone but
    the player sees only the games the site shows anyone: rated ones (the public player
    page lists them) and public tables (the lobby listed them); a private table is known
    by its link alone, so its code, time and other players stay the player's own."""
    user = visible_player(username, request.auth)
    tables = Table.objects.filter(seats__user=user, status=Table.Status.FINISHED)
    own = request.auth.user is not None and request.auth.user.pk == user.pk
    if not own:
        tables = tables.filter(Q(rated=True) | Q(public=True))
    tables = tables.distinct().order_by("-finished_at", "-pk")
    total = tables.count()
    items = []
    for table in tables.prefetch_related("seats__user__profile")[
        page.offset : page.offset + page.limit
    ]:
        if plugins.deal_embargoed(table):
            continue
        seats = sorted(table.seats.all(), key=lambda s: s.position)
        items.append(
            {
                "code": table.code,
                "variant": table.variant,
                "finished_at": table.finished_at,
                "rated": table.rated,
                "players": [
                    {"position": s.position, "name": s.display_name(), "cpu": s.is_cpu}
                    for s in seats
                ],
                "totals": list(actions.game_for(table).totals()),
                "hands": table.hands.filter(result__isnull=False).count(),
            }
        )
    return {"total": total, "items": items}
