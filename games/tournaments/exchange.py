"""Exports (standings and results as CSV) and the ``okey-tournament/1`` file.

The JSON file holds a whole tournament: its settings, its players (by index,
with the account's username when there is one), every round's tables (seats
as player indexes, ``null`` for a CPU) and every result. Importing it makes a
new, unpublished tournament owned by the importer; accounts are linked by
username when such an account exists here, otherwise the player is kept by
name. Online games themselves are not part of the file (their results are).
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from games.csvsafe import write_rows

from . import services
from . import standings as standing_rules
from .models import Entry, Round, TableResult, Tournament, TournamentTable

FORMAT = "okey-tournament/1"
MAX_BYTES = 2 * 1024 * 1024


class ImportRefused(services.TournamentError):
    pass


# ----------------------------------------------------------------------- CSV


def _csv(rows: list[list[Any]]) -> str:
    """Through ``games.csvsafe``: a player's name that starts like a formula is text."""
    return write_rows(rows, lineterminator="\n")


def standings_csv(t: Tournament) -> str:
    names = {e.pid: e.name for e in t.entries.all()}
    rows: list[list[Any]] = [
        ["rank", "player", "points", "game_total", "played", "decided_by", "draw_key"]
    ]
    for r in services.standings(t):
        rows.append(
            [
                r.rank,
                names.get(r.player, r.player),
                _num(r.points),
                r.game_total,
                r.played,
                r.decided_by,
                standing_rules.draw_key(t.seed, r.player),
            ]
        )
    return _csv(rows)


def results_csv(t: Tournament) -> str:
    names = {e.pid: e.name for e in t.entries.all()}
    rows: list[list[Any]] = [["round", "table", "seat", "player", "cpu", "score", "points"]]
    for r in (
        TableResult.objects.filter(table__round__tournament=t)
        .select_related("table__round")
        .order_by("table__round__number", "table__number")
    ):
        tt = r.table
        sr = standing_rules.TableResult(
            tt.round.number, tt.number, tuple(tt.seats), tuple(r.scores)
        )
        points = standing_rules.seat_points(sr, t.variant, t.placing_points)
        for pos, pid in enumerate(tt.seats):
            rows.append(
                [
                    tt.round.number,
                    tt.number,
                    pos + 1,
                    names.get(pid, "CPU") if pid is not None else "CPU",
                    "yes" if pid is None else "no",
                    r.scores[pos],
                    _num(points[pos]) if t.scoring == Tournament.Scoring.PLACING else "",
                ]
            )
    return _csv(rows)


def _num(value: float) -> int | float:
    """A number stays a number in the CSV (``3``, ``2.5``), so it is never neutralised."""
    return int(value) if float(value).is_integer() else float(value)


# ---------------------------------------------------------------------- JSON


def export_tournament(t: Tournament) -> dict[str, Any]:
    entries = list(t.entries.select_related("user").order_by("id"))
    index = {e.pid: i for i, e in enumerate(entries)}
    results = {r.table_id: r for r in TableResult.objects.filter(table__round__tournament=t)}
    rounds = []
    for rnd in t.round_set.order_by("number"):
        tables = []
        for tt in rnd.tables.order_by("number"):
            res = results.get(tt.pk)
            tables.append(
                {
                    "number": tt.number,
                    "seats": [index[p] if p is not None else None for p in tt.seats],
                    "scores": list(res.scores) if res is not None else None,
                    "source": res.source if res is not None else None,
                }
            )
        rounds.append({"number": rnd.number, "tables": tables})
    snap = services.settings_snapshot(t)
    return {
        "format": FORMAT,
        "tournament": {k: v for k, v in snap.items() if k != "published"},
        "status": t.status,
        "players": [
            {
                "index": i,
                "name": e.name,
                "account": e.user.get_username() if e.user_id else None,
                "joins_round": e.joins_round,
                "dropped_from_round": e.dropped_from_round,
                "no_shows": list(e.no_shows or []),
            }
            for i, e in enumerate(entries)
        ],
        "rounds": rounds,
    }


def dumps(t: Tournament) -> str:
    return json.dumps(export_tournament(t), ensure_ascii=False, indent=1)


def _bad(detail: str) -> ImportRefused:
    return ImportRefused("bad_file", f"damaged tournament file: {detail}", detail=detail)


def _int(value: Any, what: str, low: int = 1, high: int = 10_000) -> int:
    if type(value) is not int or not low <= value <= high:
        raise _bad(f"{what} must be a whole number from {low} to {high}")
    return value


def load(raw: bytes | str) -> dict[str, Any]:
    if len(raw) > MAX_BYTES:
        raise _bad("the file is too large")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise ImportRefused("bad_json", "not valid JSON") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportRefused("bad_format", "not an okey-tournament/1 file")
    return data


def import_tournament(owner: Any, data: dict[str, Any]) -> Tournament:
    """Create a tournament from an ``okey-tournament/1`` document (raises
    ImportRefused / TournamentError with what is wrong; creates nothing then)."""
    settings = data.get("tournament")
    players = data.get("players")
    rounds = data.get("rounds")
    if not isinstance(settings, dict) or not isinstance(players, list):
        raise _bad("tournament and players are required")
    if not isinstance(rounds, list):
        raise _bad("rounds must be a list")
    values = {k: settings.get(k) for k in services.SETTINGS_FIELDS if k in settings}
    values["published"] = False
    try:
        values["date"] = dt.date.fromisoformat(str(settings.get("date")))
    except ValueError:
        raise _bad("the date is not a date") from None
    if not isinstance(values.get("name"), str) or not values["name"].strip():
        raise _bad("the tournament has no name")
    values["name"] = values["name"].strip()[:120]
    seed = values.get("seed")
    if not isinstance(seed, str) or not 1 <= len(seed) <= 64:
        raise _bad("the seed must be a text of 1 to 64 characters")
    arrival = values.get("arrival_s", 120)
    values["arrival_s"] = _int(arrival, "arrival_s", 0, 3600)
    n_rounds = _int(values.get("rounds"), "rounds", 1, services.MAX_ROUNDS)
    if len(rounds) > n_rounds:
        raise _bad("more rounds than the tournament has")
    users = get_user_model().objects
    with transaction.atomic():
        t = services.create_tournament(owner, **values)
        entries: list[Entry] = []
        linked: set[int] = set()
        for i, p in enumerate(players):
            if not isinstance(p, dict) or p.get("index", i) != i:
                raise _bad(f"player {i} is not in order")
            name = p.get("name")
            if not isinstance(name, str) or not name.strip():
                raise _bad(f"player {i} has no name")
            user = None
            if isinstance(p.get("account"), str):
                user = users.filter(username__iexact=p["account"]).first()
                if user is not None and user.pk in linked:
                    user = None
            no_shows = p.get("no_shows") or []
            if not isinstance(no_shows, list):
                raise _bad(f"player {i}: no_shows must be a list")
            dropped = p.get("dropped_from_round")
            entry = Entry.objects.create(
                tournament=t,
                user=user,
                name=name.strip()[:60],
                joins_round=_int(p.get("joins_round", 1), "joins_round", 1, n_rounds),
                dropped_from_round=None
                if dropped is None
                else _int(dropped, "dropped_from_round", 1, n_rounds),
                no_shows=sorted({_int(r, "no_shows", 1, n_rounds) for r in no_shows}),
            )
            if user is not None:
                linked.add(user.pk)
            entries.append(entry)
        for expect, rnd in enumerate(rounds, start=1):
            if not isinstance(rnd, dict) or rnd.get("number") != expect:
                raise _bad(f"round {expect} is missing or out of order")
            tables = rnd.get("tables")
            if not isinstance(tables, list) or not tables:
                raise _bad(f"round {expect} has no tables")
            r = Round.objects.create(tournament=t, number=expect)
            seen: set[int] = set()
            for tno, table in enumerate(tables, start=1):
                if not isinstance(table, dict) or table.get("number") != tno:
                    raise _bad(f"round {expect}: table {tno} is missing or out of order")
                seats = table.get("seats")
                if not isinstance(seats, list) or len(seats) not in (2, 3, 4):
                    raise _bad(f"round {expect} table {tno}: a table has 2 to 4 seats")
                pids: list[str | None] = []
                for s in seats:
                    if s is None:
                        pids.append(None)
                        continue
                    if type(s) is not int or not 0 <= s < len(entries) or s in seen:
                        raise _bad(f"round {expect} table {tno}: unknown or repeated player")
                    seen.add(s)
                    pids.append(entries[s].pid)
                tt = TournamentTable.objects.create(round=r, number=tno, seats=pids)
                scores = table.get("scores")
                if scores is None:
                    continue
                problems = services.result_problems(t, len(pids), scores)
                if problems:
                    raise _bad(
                        f"round {expect} table {tno}: " + "; ".join(p.message for p in problems)
                    )
                # keep where the result came from (entered, posted by a game), if known
                source = table.get("source")
                if source not in TableResult.Source.values:
                    source = TableResult.Source.IMPORTED
                TableResult.objects.create(table=tt, scores=list(scores), source=source)
        if t.round_set.exists():
            t.status = Tournament.Status.RUNNING
            t.save(update_fields=["status"])
        services.audit(t, owner, "imported", t.name, None, {"players": len(entries)})
        services.finish_if_complete(t, owner)
        return t
