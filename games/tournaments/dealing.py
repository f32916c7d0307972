"""Duplicate rounds at the online tables: the shared deals and their embargo.

Every table of a duplicate round plays the round's deals (``Deal`` rows, one per deal
number): hand ``n`` (0-based) of each table's game is dealt from deal ``n + 1``'s seed,
with the same starter everywhere (the game moves it one seat a hand from seat 0, RULES.md
D2), so seat ``i`` holds the same tiles at every table (RULES.md D38). The core asks
``seed_for`` through ``games.plugins.seed_sources`` each time it deals.

While any table of the round still plays, the deals are *embargoed*
(``games.plugins.deal_embargoed``): a finished hand shows no more than its seat saw in
play (no other rack, no seed), its review, replay and export are refused, and nobody
watches the round's tables. The seeds themselves stay secret until then (the tournament
pages publish their SHA-256 commitments from the moment the round is seated).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextvars import ContextVar
from typing import Any

from django.db.models import Q

from games.models import Table

from .models import Deal, Round, Tournament, TournamentTable, new_deal_seed

# Where a round's deal seeds come from (tests replace it to get known deals).
seed_source: Callable[[], str] = new_deal_seed

# The seeds of the round whose tables are being opened in this call stack
# (``actions._open_game``): a table's first hand is dealt inside ``do_seat_players``,
# before the tournament table knows its game.
opening: ContextVar[Sequence[str] | None] = ContextVar("duplicate_opening", default=None)

LIVE = (Table.Status.WAITING, Table.Status.PLAYING)


def seed_for(table: Any, number: int) -> str | None:
    """The seed of hand ``number`` at a duplicate round's table (None at any other
    table: no query for a table that is not a game of fixed deals)."""
    if getattr(table, "deals", None) is None or not getattr(table, "organised", False):
        return None
    seeds = opening.get()
    if seeds is None:
        seeds = list(
            Deal.objects.filter(round__tables__game_id=table.pk)
            .order_by("number")
            .values_list("seed", flat=True)
        )
    return seeds[number] if 0 <= number < len(seeds) else None


def round_in_play(round_id: int) -> bool:
    """Whether a table of the round still plays (its game not over) or has no result."""
    return (
        TournamentTable.objects.filter(round_id=round_id)
        .filter(Q(result__isnull=True) | Q(game__status__in=LIVE))
        .exists()
    )


def duplicate_round_of(table: Any) -> Round | None:
    """The duplicate round ``table`` is a game of, or None."""
    if getattr(table, "deals", None) is None or not getattr(table, "organised", False):
        return None
    tt = (
        TournamentTable.objects.filter(game_id=table.pk)
        .select_related("round__tournament")
        .only("round__id", "round__number", "round__tournament__format")
        .first()
    )
    if tt is None or tt.round.tournament.format != Tournament.Format.DUPLICATE:
        return None
    return tt.round


def deal_embargoed(table: Any) -> bool:
    """``games.plugins.deal_embargoed``: True while the deals of ``table`` (a duplicate
    round's game) are still being played at a table of its round. Read afresh at each
    call (two queries at a duplicate table, none elsewhere): the answer changes when the
    round's last table ends, inside another table's transaction."""
    rnd = duplicate_round_of(table)
    return rnd is not None and round_in_play(rnd.pk)
