"""The printable deal cards of an in-person duplicate round (docs/duplicate.md).

Every table of a duplicate round plays the same deals (RULES.md [D38]). At an in-person
tournament the organiser prepares them by hand: for each table and deal, one card per
seat (the player's name and the tiles that seat is dealt, sorted) and a pile card (the
pile from its top, with the indicator). The cards are ``duplicate.deal_cards``, the
engine's own deal for the deal's seed, so they equal what the server would deal.

The page shows every rack of the round: organisers only, and only for an in-person
duplicate tournament (anyone else, and any other tournament or round, gets a 404, so the
page does not even confirm that the round exists). The round's commitments are at the
top; the seeds only once every table of the round has its result.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _

from games.live.presenter import tile_ctx
from games.tilewords import tiles_words

from . import actions
from .duplicate import SeatCard, deal_cards
from .models import Round, Tournament


def _tiles(notations: tuple[str, ...], variant: str, okey: str) -> list[dict[str, Any]]:
    return [{**tile_ctx({"t": t}, variant), "okey": t == okey} for t in notations]


def _seat_card(
    card: SeatCard, variant: str, pid: str | None, names: dict[str, str]
) -> dict[str, Any]:
    return {
        "position": card.seat + 1,
        "starter": card.starter,
        "name": names.get(pid, _("CPU")) if pid else _("CPU"),
        "cpu": pid is None,
        "tiles": _tiles(card.sorted_rack, variant, card.okey),
        "words": tiles_words(list(card.sorted_rack), variant),
        "count": len(card.rack),
    }


def _verify_url(t: Tournament, deal: Any) -> str:
    query = {
        "seed": deal.seed,
        "variant": t.variant,
        "players": deal.players,
        "starter": (deal.number - 1) % deal.players,
        "commitment": deal.commitment,
    }
    return f"{reverse('solo:verify')}?{urlencode(query)}"


def deal_cards_page(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """``tournaments:deal_cards``: one round's deal cards, to print and cut."""
    t = get_object_or_404(Tournament, pk=pk)
    if not (t.is_organiser(request.user) and t.duplicate and not t.online):
        raise Http404("no such deal cards")
    rnd = get_object_or_404(Round, tournament=t, number=number)
    deals = list(rnd.deals.order_by("number"))
    if not deals:
        raise Http404("no deals in this round")
    names = {e.pid: e.name for e in t.entries.all()}
    tables = list(rnd.tables.order_by("number"))
    complete = rnd.complete
    sheets = []
    for deal in deals:
        options = actions.table_options(t, deal.players)
        # [D2], [D38]: deal k (from 1) starts at seat k - 1, as hand k of the game
        cards = deal_cards(t.variant, options, deal.seed, (deal.number - 1) % deal.players)
        first = cards[0]
        pile = {
            "indicator": _tiles((first.indicator,), t.variant, "")[0],
            "indicator_words": tiles_words([first.indicator], t.variant),
            "okey_words": tiles_words([first.okey], t.variant),
            "tiles": _tiles(first.pile, t.variant, first.okey),
            "count": len(first.pile),
        }
        for tt in tables:
            seats = list(tt.seats) + [None] * (deal.players - len(tt.seats))
            sheets.append(
                {
                    "deal": deal.number,
                    "table": tt.number,
                    "seats": [_seat_card(c, t.variant, seats[c.seat], names) for c in cards],
                    "pile": pile,
                }
            )
    sheets.sort(key=lambda s: (s["table"], s["deal"]))
    commitments = [
        {
            "number": d.number,
            "commitment": d.commitment,
            # the seed and its check on the verify page once every table has its result
            "seed": d.seed if complete else None,
            "verify": _verify_url(t, d) if complete else None,
        }
        for d in deals
    ]
    return render(
        request,
        "tournaments/deal_cards.html",
        {
            "t": t,
            "round": rnd,
            "deals": commitments,
            "complete": complete,
            "sheets": sheets,
            "tables": len(tables),
        },
    )
