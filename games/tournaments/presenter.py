"""What the tournament pages show, built once for the views and the consumer.

Visibility: organisers see everything; a published tournament is public; in
an unpublished one a registered player sees only their own seats and results.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Max, Sum
from django.utils.translation import gettext_lazy as _

from games.models import Table

from . import actions, duplicate_rounds
from . import standings as standing_rules
from .messages import error_text
from .models import Deal, Entry, TableResult, Tournament, TournamentTable

DECIDED_BY = {
    "points": _("points"),
    "game_total": _("game total"),
    "head_to_head": _("results between them"),
    "draw": _("published draw"),
    "": "",
}


def entry_of(t: Tournament, user: Any) -> Entry | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return t.entries.filter(user_id=user.pk).first()


def can_view(t: Tournament, user: Any) -> bool:
    """May this visitor open the tournament's page at all?"""
    return t.published or t.is_organiser(user) or entry_of(t, user) is not None


def rounds_played_in(t: Tournament, entry: Entry | None) -> set[int]:
    """The rounds of an online duplicate tournament still being played in which ``entry``
    holds a seat. An organiser who also plays sees the scores of such a round (on the
    desk, in the result form) when everyone else does: another table's totals would tell
    them what the deals they have still to play hold (RULES.md D38). In person the
    organiser deals from the printed cards, so nothing is kept from them."""
    if entry is None or not (t.duplicate and t.online):
        return set()
    in_play = duplicate_rounds.rounds_in_play(t)
    if not in_play:
        return set()
    seated = TournamentTable.objects.filter(round__tournament=t, round__number__in=in_play)
    return {n for n, seats in seated.values_list("round__number", "seats") if entry.pid in seats}


def sees_all(t: Tournament, user: Any) -> bool:
    """Standings and every table (published, or an organiser)."""
    return t.published or t.is_organiser(user)


def fmt_points(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


# How long computed standings are kept (each change of the tournament has a key of its own).
STANDINGS_TTL_S = 600


def _standings_key(t: Tournament) -> str:
    """A key that changes with anything the ranking is computed from: the tournament's
    settings, its registrations (who, from which round), its results (each written
    with a new ``updated_at``) and its audit log (every change of the desk writes one)."""
    entries = t.entries.aggregate(n=Count("id"), last=Max("id"), joins=Sum("joins_round"))
    results = TableResult.objects.filter(table__round__tournament=t).aggregate(
        n=Count("id"), at=Max("updated_at")
    )
    changes = t.audit.aggregate(n=Count("id"), last=Max("id"))
    raw = repr(
        (t.pk, t.updated_at, t.variant, t.scoring, t.placing_points, t.seed)
        + (entries, results, changes)
    )
    return "tn-standings:" + hashlib.blake2b(raw.encode(), digest_size=16).hexdigest()


def cached_standings(t: Tournament) -> list[Any]:
    """``actions.standings`` kept per tournament change (three aggregate queries
    instead of reading every result and ranking 256 players, 0.15 s, on each view)."""
    key = _standings_key(t)
    rows = cache.get(key)
    if rows is None:
        rows = actions.standings(t)
        cache.set(key, rows, STANDINGS_TTL_S)
    return rows


def standing_rows(t: Tournament, entries: dict[str, Entry]) -> list[dict[str, Any]]:
    rows = []
    for row in cached_standings(t):
        entry = entries.get(row.player)
        if entry is None:
            continue
        rows.append(
            {
                "rank": row.rank,
                "entry": entry,
                "name": entry.name,
                "points": fmt_points(row.points),
                "game_total": row.game_total,
                "played": row.played,
                "missed": row.missed,
                "decided_by": row.decided_by,
                "decided_by_label": DECIDED_BY.get(row.decided_by, row.decided_by),
                "draw_key": standing_rules.draw_key(t.seed, row.player),
            }
        )
    return rows


def table_rows(
    t: Tournament,
    entries: dict[str, Entry],
    only_entry: Entry | None = None,
    numbers: Collection[int] | None = None,
    conceal: bool = True,
) -> list[dict[str, Any]]:
    """Every round (or the rounds of ``numbers``) with its tables, seats, scores and
    placing points. A duplicate round still being played shows no table's scores
    (``conceal``; the organiser's desk sees them): they would tell the players of
    another table what the deals hold (RULES.md D38)."""
    live_rounds = duplicate_rounds.rounds_in_play(t) if t.duplicate else set()
    in_play = live_rounds if conceal else set()
    tables = (
        TournamentTable.objects.filter(round__tournament=t)
        .select_related("round", "game")
        .order_by("round__number", "number")
    )
    results_of = TableResult.objects.filter(table__round__tournament=t)
    if numbers is not None:
        tables = tables.filter(round__number__in=list(numbers))
        results_of = results_of.filter(table__round__number__in=list(numbers))
    results = {r.table_id: r for r in results_of}
    rounds: dict[int, dict[str, Any]] = {}
    for tt in tables:
        if only_entry is not None and only_entry.pid not in tt.seats:
            continue
        res = results.get(tt.pk)
        hidden = tt.round.number in in_play
        points: list[float | None] = [None] * len(tt.seats)
        if res is not None and t.scoring == Tournament.Scoring.PLACING and not t.duplicate:
            sr = standing_rules.TableResult(
                tt.round.number, tt.number, tuple(tt.seats), tuple(res.scores)
            )
            points = list(standing_rules.seat_points(sr, t.variant, t.placing_points))
        seats = []
        for pos, pid in enumerate(tt.seats):
            entry = entries.get(pid) if pid is not None else None
            seats.append(
                {
                    "position": pos + 1,
                    "entry": entry,
                    "name": entry.name if entry else _("CPU"),
                    "cpu": pid is None,
                    "score": res.scores[pos] if res is not None and not hidden else None,
                    "points": fmt_points(points[pos]) if points[pos] is not None else "",
                }
            )
        rnd = rounds.setdefault(tt.round.number, {"number": tt.round.number, "tables": []})
        rnd["tables"].append(
            {
                "table": tt,
                "number": tt.number,
                "seats": seats,
                "result": res,
                "concealed": hidden,  # a duplicate round still played: no score shown
                "watchable": tt.round.number not in live_rounds,
                "game": tt.game,
                "playing": tt.game is not None and tt.game.status == Table.Status.PLAYING,
                "between_hands": _between_hands(tt.game),
            }
        )
    out = [rounds[n] for n in sorted(rounds)]
    for rnd in out:
        rnd["done"] = sum(1 for table in rnd["tables"] if table["result"] is not None)
        rnd["count"] = len(rnd["tables"])
        rnd["complete"] = rnd["done"] == rnd["count"]
        rnd["loaded"] = True
    return out


def shown_rounds(
    t: Tournament, entries: dict[str, Entry], full: bool, mine: Entry | None
) -> list[dict[str, Any]]:
    """The rounds of the tournament's page and its live pushes. A visitor who sees every
    table gets the tables of the latest round and of any round with results still
    missing; every other round is its summary line only (number, tables, results in;
    ``loaded`` False), its tables loaded when the reader opens it (``views.round_tables``):
    a tournament of 256 players and 30 rounds is one round of 64 tables, not 1,920. A
    player of an unpublished tournament sees their own tables only, one a round: all
    of them."""
    if not full:
        return table_rows(t, entries, mine)
    summaries = list(
        TournamentTable.objects.filter(round__tournament=t)
        .values("round__number")
        .annotate(count=Count("id"), done=Count("result"))
        .order_by("round__number")
    )
    if not summaries:
        return []
    latest = summaries[-1]["round__number"]
    live = {
        s["round__number"]
        for s in summaries
        if s["round__number"] == latest or s["done"] < s["count"]
    }
    built = {rnd["number"]: rnd for rnd in table_rows(t, entries, numbers=live)}
    out = []
    for s in summaries:
        number = s["round__number"]
        out.append(
            built.get(number)
            or {
                "number": number,
                "tables": [],
                "done": s["done"],
                "count": s["count"],
                "complete": s["done"] == s["count"],
                "loaded": False,
            }
        )
    return out


def _between_hands(game: Table | None) -> bool:
    """An online game whose hand is over while the game goes on (it waits for
    someone to deal the next hand)."""
    if game is None or game.status != Table.Status.PLAYING:
        return False
    hand = game.current_hand
    return hand is not None and hand.result is not None


def my_tables(t: Tournament, entry: Entry | None) -> list[dict[str, Any]]:
    """The viewer's seat in the latest round ("your table")."""
    if entry is None:
        return []
    last = t.round_set.order_by("-number").first()
    if last is None:
        return []
    out = []
    for tt in last.tables.select_related("game"):
        if entry.pid in tt.seats:
            out.append(
                {
                    "round": last.number,
                    "number": tt.number,
                    "seat": tt.seats.index(entry.pid) + 1,
                    "game": tt.game,
                    "done": tt.has_result,
                }
            )
    return out


def page_context(t: Tournament, user: Any, every_round: bool = False) -> dict[str, Any]:
    """The tournament page's context (and its live pushes'); ``every_round``: every
    round's tables built (the organiser's desk lists them all), else
    :func:`shown_rounds`."""
    entries = {e.pid: e for e in t.entries.select_related("user")}
    mine = entry_of(t, user)
    full = sees_all(t, user)
    standings_error = ""
    try:
        rows = standing_rows(t, entries) if full else []
    except actions.TournamentError as e:  # stored results that cannot be compared
        rows, standings_error = [], error_text(e.code, e.message, **e.params)
    ctx = {
        "t": t,
        "full": full,
        "has_results": any(r["played"] for r in rows),
        "is_organiser": t.is_organiser(user),
        "my_entry": mine,
        "my_tables": my_tables(t, mine),
        "standings": rows,
        "rounds": (
            table_rows(t, entries, None if full else mine, conceal=bool(rounds_played_in(t, mine)))
            if every_round
            else shown_rounds(t, entries, full, mine)
        ),
        "seated_rounds": t.seated_rounds,
        "entries": list(entries.values()),
        "higher_is_better": standing_rules.higher_is_better(t.variant),
        "standings_error": standings_error,
    }
    if t.duplicate:
        ctx["duplicate"] = duplicate_context(t, entries, full and not standings_error)
    return ctx


def _deal_lines(
    lines: list[Any], entries: dict[str, Entry], tables: list[int]
) -> list[dict[str, Any]]:
    """One round's breakdown as rows per deal and seat, one cell per table."""
    out = []
    for line in lines:
        by_table = {r.table: r for r in line.results}
        cells = []
        for number in tables:
            r = by_table.get(number)
            entry = entries.get(r.player) if r is not None and r.player is not None else None
            cells.append(
                None
                if r is None
                else {
                    "table": number,
                    "name": entry.name if entry else _("CPU"),
                    "cpu": r.player is None,
                    "entry": entry,
                    "score": r.score,
                    "points": fmt_points(r.points),
                }
            )
        out.append({"deal": line.deal, "seat": line.seat + 1, "cells": cells})
    return out


def duplicate_context(t: Tournament, entries: dict[str, Entry], full: bool) -> dict[str, Any]:
    """A duplicate tournament's page: each round's deals (their commitments, and their
    seeds once the round is complete) and, for a visitor who sees all, the deal-by-deal
    breakdown of the latest complete round (``round_breakdown`` of the others on the
    deals page)."""
    in_play = duplicate_rounds.rounds_in_play(t)
    deals: dict[int, list[dict[str, Any]]] = {}
    for d in Deal.objects.filter(round__tournament=t).select_related("round"):
        shown = d.round.number not in in_play
        deals.setdefault(d.round.number, []).append(
            {"number": d.number, "commitment": d.commitment, "seed": d.seed if shown else None}
        )
    complete = sorted(n for n in deals if n not in in_play)
    return {
        "method": t.get_duplicate_scoring_display(),
        "imps": t.duplicate_scoring == Tournament.DuplicateScoring.IMPS,
        "deals": [
            {"round": n, "deals": deals[n], "complete": n not in in_play} for n in sorted(deals)
        ],
        "complete_rounds": complete,
        "breakdown": round_breakdown(t, entries, complete[-1]) if full and complete else None,
    }


def round_breakdown(t: Tournament, entries: dict[str, Entry], number: int) -> dict[str, Any]:
    """Deal by deal, seat by seat: each table's holder of round ``number`` (complete),
    their hand total and their matchpoints or IMPs."""
    lines = duplicate_rounds.breakdown(t, number)
    tables = sorted({r.table for line in lines for r in line.results})
    return {"round": number, "tables": tables, "lines": _deal_lines(lines, entries, tables)}


def _duplicate_round_points(t: Tournament, entry: Entry) -> dict[int, str]:
    """A duplicate player's matchpoints or IMPs in each complete round they played."""
    try:
        held, points = duplicate_rounds.scored(t)
    except duplicate_rounds.DuplicateRefused:
        return {}  # the standings say why
    per_round: dict[int, float] = {}
    for h in held:
        if h.player == entry.pid:
            per_round[h.round] = per_round.get(h.round, 0.0) + points[h.key]
    return {r: fmt_points(v) for r, v in per_round.items()}


def history(t: Tournament, entry: Entry) -> list[dict[str, Any]]:
    """One player's rounds: table, seat, opponents, score and placing points (duplicate:
    the round's matchpoints or IMPs, once the round is complete)."""
    entries = {e.pid: e for e in t.entries.all()}
    round_points = _duplicate_round_points(t, entry) if t.duplicate else {}
    out = []
    for rnd in table_rows(t, entries, entry):
        for table in rnd["tables"]:
            me = next(s for s in table["seats"] if s["entry"] == entry)
            out.append(
                {
                    "round": rnd["number"],
                    "table": table["number"],
                    "seat": me["position"],
                    "score": me["score"],
                    "points": round_points.get(rnd["number"], "") if t.duplicate else me["points"],
                    "others": [s for s in table["seats"] if s is not me],
                    "result": table["result"],
                    "concealed": table["concealed"],
                    "game": table["game"],
                }
            )
    return out
