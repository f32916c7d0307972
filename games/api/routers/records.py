"""Finished hands and games in the site's exchange format (``okey-review/1``,
docs/review-format.md), signed as the review's downloads are.

The review's rules hold (games/review/views.py): only the players of a game (the token's
account has a seat) get it, only its finished hands, and none of a duplicate round's
hands while another table of the round still plays its deals
(``plugins.deal_embargoed``, RULES.md D38).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Router

from games import plugins
from games.api.auth import Token
from games.api.errors import ApiError, ErrorOut, not_found
from games.api.models import SCOPE_READ
from games.api.schemas import ReviewDocument
from games.models import Table
from games.review import records
from games.review.replay import record_for_hand

router = Router(tags=["records"], auth=Token(SCOPE_READ))

ERRORS = {401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 409: ErrorOut, 429: ErrorOut}


def players_of(table: Table) -> list[dict[str, Any]]:
    return [
        {"seat": s.position, "name": s.display_name(), "cpu": s.cpu_level if s.is_cpu else None}
        for s in table.seats.select_related("user__profile").order_by("position")
    ]


def own_table(table: Table | None, user: Any) -> Table:
    if table is None or not table.seats.filter(user=user).exists():
        raise not_found(_("There is no such game among yours."))
    return table


def in_play() -> ApiError:
    return ApiError(
        409, "in_progress", _("This hand is still being played: its record opens when it is over.")
    )


def check_embargo(table: Table) -> None:
    if plugins.deal_embargoed(table):
        raise ApiError(
            403,
            "embargoed",
            _("This deal is still being played at another table of the tournament round."),
        )


@router.get(
    "/games/{code}/record",
    response={200: ReviewDocument, **ERRORS},
    exclude_unset=True,
    summary="A game's finished hands (okey-review/1)",
    description="Scope: read. Only a player of the game gets it.",
)
def game_record(request: HttpRequest, code: str) -> dict[str, Any]:
    table = own_table(Table.objects.filter(code=code).first(), request.auth.user)
    hands = list(table.hands.filter(result__isnull=False).order_by("number"))
    if not hands:
        raise in_play()
    check_embargo(table)
    doc = records.document(
        table.variant,
        table.options,
        players_of(table),
        [records.hand_export(record_for_hand(h), h.number + 1) for h in hands],
        deals=table.deals,
    )
    return records.sign(doc)


@router.get(
    "/games/{code}/hands/{number}/record",
    response={200: ReviewDocument, **ERRORS},
    exclude_unset=True,
    summary="One finished hand of a game (okey-review/1); hands count from 1",
    description="Scope: read. Only a player of the game gets it.",
)
def hand_record(request: HttpRequest, code: str, number: int) -> dict[str, Any]:
    table = own_table(Table.objects.filter(code=code).first(), request.auth.user)
    hand = table.hands.filter(number=number - 1).first() if number >= 1 else None
    if hand is None:
        raise not_found(_("This game has no such hand."))
    if hand.result is None:
        raise in_play()
    check_embargo(table)
    doc = records.document(
        table.variant,
        table.options,
        players_of(table),
        [records.hand_export(record_for_hand(hand), hand.number + 1)],
    )
    return records.sign(doc)
