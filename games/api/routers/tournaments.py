"""Tournaments: the published ones for anyone, and with the ``tournament`` scope the ones
the caller organises or plays in. Read through the tournament pages' own functions
(``games.tournaments.presenter``: who sees what, the standings, the rounds' results), so
the API shows what the page shows: a player of an unpublished tournament sees their own
tables only, and a duplicate round still being played shows no table's scores (RULES.md
D38)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Query, Router, Schema
from pydantic import Field

from games.api.auth import PUBLIC, Anyone, Caller
from games.api.errors import ErrorOut, not_found
from games.api.models import SCOPE_TOURNAMENT
from games.api.schemas import TournamentOut, TournamentSummary
from games.tournaments import actions as tournaments
from games.tournaments import presenter
from games.tournaments.messages import error_text
from games.tournaments.models import Tournament

router = Router(tags=["tournaments"], auth=Anyone())


class ListIn(Schema):
    mine: bool = Field(
        False, description="only those you organise or play in (needs the tournament scope)"
    )
    limit: int = Field(20, ge=1, le=50)
    offset: int = Field(0, ge=0, le=100_000)


class RoundIn(Schema):
    round: int | None = Field(None, ge=1, description="one round's results only")


def own_user(caller: Caller) -> Any:
    """The caller's account when its token has the tournament scope, else None."""
    return caller.user if caller.allows(SCOPE_TOURNAMENT) else None


def summary(t: Tournament) -> dict[str, Any]:
    return {
        "id": t.pk,
        "name": t.name,
        "date": t.date,
        "variant": t.variant,
        "format": t.format,
        "status": t.status,
        "rounds": t.rounds,
        "published": t.published,
    }


@router.get(
    "/tournaments",
    response={
        200: list[TournamentSummary],
        401: ErrorOut,
        403: ErrorOut,
        422: ErrorOut,
        429: ErrorOut,
    },
    openapi_extra=PUBLIC,
    summary="Published tournaments, the latest first (or yours, with the tournament scope)",
)
def list_tournaments(request: HttpRequest, q: Query[ListIn]) -> list[dict[str, Any]]:
    user = own_user(request.auth)
    mine = Q(owner=user) | Q(organisers=user) | Q(entries__user=user) if user else None
    if q.mine:
        if mine is None:
            return []
        rows = Tournament.objects.filter(mine)
    else:
        rows = Tournament.objects.filter(Q(published=True) | mine if mine else Q(published=True))
    rows = rows.distinct().order_by("-date", "-id")[q.offset : q.offset + q.limit]
    return [summary(t) for t in rows]


@router.get(
    "/tournaments/{tournament_id}",
    response={
        200: TournamentOut,
        401: ErrorOut,
        403: ErrorOut,
        404: ErrorOut,
        422: ErrorOut,
        429: ErrorOut,
    },
    openapi_extra=PUBLIC,
    summary="A tournament's standings and results",
)
def get_tournament(request: HttpRequest, tournament_id: int, q: Query[RoundIn]) -> dict[str, Any]:
    t = Tournament.objects.filter(pk=tournament_id).first()
    user = own_user(request.auth)
    if t is None or not (t.published or (user is not None and presenter.can_view(t, user))):
        raise not_found(_("There is no such tournament."))
    entries = {e.pid: e for e in t.entries.select_related("user")}
    full = presenter.sees_all(t, user)
    standings: list[dict[str, Any]] = []
    standings_error = None
    if full:
        try:
            standings = presenter.standing_rows(t, entries)
        except tournaments.TournamentError as e:
            standings_error = error_text(e.code, e.message, **e.params)
    only = None if full else presenter.entry_of(t, user)
    numbers = [q.round] if q.round is not None else None
    results = []
    for rnd in presenter.table_rows(t, entries, only, numbers=numbers, conceal=True):
        results.append(
            {
                "number": rnd["number"],
                "tables": [
                    {
                        "number": table["number"],
                        "concealed": table["concealed"],
                        "complete": table["result"] is not None,
                        "seats": [
                            {
                                "position": s["position"],
                                "name": str(s["name"]),
                                "cpu": s["cpu"],
                                "score": s["score"],
                                "points": s["points"],
                            }
                            for s in table["seats"]
                        ],
                    }
                    for table in rnd["tables"]
                ],
            }
        )
    return {
        **summary(t),
        "standings": [
            {
                "rank": r["rank"],
                "name": r["name"],
                "points": r["points"],
                "game_total": r["game_total"],
                "played": r["played"],
                "missed": r["missed"],
                "decided_by": r["decided_by"],
            }
            for r in standings
        ],
        "standings_error": str(standings_error) if standings_error else None,
        "results": results,
    }
