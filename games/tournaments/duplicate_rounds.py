"""Duplicate standings from the stored results (the Django side of ``duplicate.py``).

Each table result of a duplicate round holds every deal's hand totals
(``TableResult.hands``: posted by the finished game, or typed per deal by an organiser);
each (deal, seat) of it is one ``duplicate.Holding``: the table's holder of that seat
(an entry id, None for a CPU seat) and that seat's hand total. ``duplicate.score``
compares the holders of each seat of each deal (matchpoints or IMPs, the tournament's
``duplicate_scoring``), ``duplicate.standings`` sums them per player.

Only complete rounds count (every table has its result and no game of the round is still
played): until then a deal's scores at one table would tell the players of another what
the deal holds (RULES.md D38). The rules this module adds to the pure scoring
(docs/duplicate.md):

* a late entry's missed rounds (before ``joins_round``) count as the lowest round total
  any player of that round made, so a late entry never gains from a round they did not
  play (with IMPs, 0 would be an average round);
* a withdrawn player's holdings of the round they left in (played by their seat's CPU
  after they left, as the tables' organiser rules play a gone seat) are theirs and count
  for everyone's comparison; they are seated in no later round;
* a CPU holder is compared against and earns nothing (never listed);
* a deal whose tables do not all have the same number of seats is refused
  (``player_count_mismatch``): a deal is dealt for one player count.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from typing import Any

from django.db.models import Q

from games.engine.rules import rules_for

from . import duplicate
from . import standings as standing_rules
from .dealing import LIVE
from .models import TableResult, Tournament, TournamentTable


class DuplicateRefused(Exception):
    """The stored results cannot be scored (``duplicate.DuplicateError``'s code)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def rounds_in_play(t: Tournament) -> set[int]:
    """The numbers of the rounds with a table still playing or without its result."""
    return set(
        TournamentTable.objects.filter(round__tournament=t)
        .filter(Q(result__isnull=True) | Q(game__status__in=LIVE))
        .values_list("round__number", flat=True)
    )


def holdings(t: Tournament, round_no: int | None = None) -> list[duplicate.Holding]:
    """Every holding of the complete rounds (or of round ``round_no`` if complete), from
    the stored per-deal results."""
    open_rounds = rounds_in_play(t)
    rows = (
        TableResult.objects.filter(table__round__tournament=t)
        .exclude(table__round__number__in=open_rounds)
        .order_by("table__round__number", "table__number")
        .values_list("table__round__number", "table__number", "table__seats", "hands")
    )
    if round_no is not None:  # a seat of a deal is compared within its round only
        rows = rows.filter(table__round__number=round_no)
    out = []
    for rnd, table, seats, hands in rows:
        for deal, totals in enumerate(hands or (), 1):
            for seat, total in enumerate(totals):
                player = seats[seat] if seat < len(seats) else None
                out.append(duplicate.Holding(rnd, deal, seat, table, player, int(total)))
    return out


def _method(t: Tournament) -> dict[str, Any]:
    return {
        "method": t.duplicate_scoring,
        "higher_is_better": rules_for(t.variant).higher_wins,
        "variant": t.variant,
    }


def scored(
    t: Tournament, round_no: int | None = None
) -> tuple[list[duplicate.Holding], dict[Any, float]]:
    """The holdings (of every complete round, or of ``round_no``) and each one's points;
    raises ``DuplicateRefused``."""
    held = holdings(t, round_no)
    try:
        return held, duplicate.score(held, **_method(t))
    except duplicate.DuplicateError as e:
        raise DuplicateRefused(e.code, e.message) from e


def breakdown(t: Tournament, round_no: int | None = None) -> list[duplicate.DealLine]:
    """Per (round, deal, seat) of the complete rounds (or of round ``round_no``): each
    table's holder, hand total and points (``duplicate.breakdown``)."""
    held, points = scored(t, round_no)
    return duplicate.breakdown(held, points)


def standings(t: Tournament) -> list[standing_rules.StandingRow]:
    """Every entry ranked by duplicate points (``duplicate.score`` summed), as the pages and
    exports read standings (``StandingRow``): ``points`` the matchpoints or IMPs,
    ``game_total`` the sum of the player's hand totals, ``played`` the rounds played,
    ``missed`` the rounds a late entry missed (scored as the round's lowest total).
    Equal points share a rank, as in ``duplicate.standings`` (no tie-break; the order
    inside a tie is by entry id)."""
    held, points = scored(t)
    # the players' sums of ``duplicate.score`` (as ``duplicate.standings`` sums them, but
    # with every entry listed and a late entry's missed rounds added; one scoring pass)
    total: dict[str, float] = defaultdict(float)
    hand_total: dict[str, int] = defaultdict(int)
    played: dict[str, set[int]] = defaultdict(set)
    by_round: dict[int, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for h in held:
        if h.player is None:
            continue
        p = points[h.key]
        total[h.player] += p
        hand_total[h.player] += h.score
        played[h.player].add(h.round)
        by_round[h.round][h.player] += p
    missed: dict[str, int] = {}
    for pk, first in t.entries.values_list("pk", "joins_round"):
        pid = str(pk)
        total.setdefault(pid, 0.0)
        for rnd in range(1, first):
            if by_round.get(rnd) and pid not in by_round[rnd]:
                total[pid] += min(by_round[rnd].values())
                missed[pid] = missed.get(pid, 0) + 1
    entries = {str(pk) for pk in t.entries.values_list("pk", flat=True)}
    order = sorted(
        (p for p in total if p in entries), key=lambda p: (-total[p], int(p) if p.isdigit() else 0)
    )
    out: list[standing_rules.StandingRow] = []
    for i, p in enumerate(order):
        rank = out[-1].rank if out and out[-1].points == total[p] else i + 1
        out.append(
            standing_rules.StandingRow(
                rank=rank,
                player=p,
                points=total[p],
                game_total=hand_total[p],
                played=len(played[p]),
                decided_by="",
                missed=missed.get(p, 0),
            )
        )
    # what separated each row from the next: the points, or nothing (a shared rank)
    return [
        replace(
            row, decided_by="points" if i + 1 < len(out) and out[i + 1].rank != row.rank else ""
        )
        for i, row in enumerate(out)
    ]
