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
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models.functions import Lower
from django.utils.translation import gettext as _

from accounts.names import clean_public_name
from games import jsonsafe
from games.csvsafe import write_rows
from games.jsonsafe import JSONRefused, loads_bounded

from . import services
from . import standings as standing_rules
from .models import Entry, KeepApart, Round, TableResult, Tournament, TournamentTable

FORMAT = "okey-tournament/1"

# Limits of a file: an import is refused, before anything is written, when it holds more
# than a tournament of this site can have.
#
# Players: the seating search is designed and benchmarked for 200 players (docs/benchmarks.md,
# "Seating"); 256 is 64 full four-seat tables. Rounds: services.MAX_ROUNDS (30). A round has
# at most one table per player (every table seats at least one player and nobody sits
# twice); a table 2 to 4 seats (RULES.md §1-§5: rummy seats 2-4, the other rule sets 4) and
# one score per seat; a player's no-shows are rounds of the tournament.
MAX_PLAYERS = 256
# The longest text is an account's username (150, Django's limit); a tournament's name is at
# most 120 characters, a player's 60, the seed 64.
MAX_STRING = 150
# document → rounds → round → tables → table → seats: the deepest the format nests.
MAX_DEPTH = 6
# The largest file these limits allow (256 players with the longest names and accounts, 30
# rounds of 256 tables of one player each, every result, the export's indented layout) is
# about 110,000 values and 1.6 MB; 256 players at four-seat tables make 0.5 MB.
MAX_VALUES = 150_000
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
    out = {
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
    pairs = sorted(sorted((index[a], index[b])) for a, b in services.keep_apart_pairs(t))
    if pairs:  # optional: a file without must-not-meet pairs stays as it was
        out["keep_apart"] = [list(p) for p in pairs]
    return out


def dumps(t: Tournament) -> str:
    return json.dumps(export_tournament(t), ensure_ascii=False, indent=1)


def _bad(detail: str) -> ImportRefused:
    return ImportRefused("bad_file", f"damaged tournament file: {detail}", detail=detail)


def _int(value: Any, what: str, low: int = 1, high: int = 10_000) -> int:
    if type(value) is not int or not low <= value <= high:
        raise _bad(
            _("%(what)s must be a whole number from %(low)s to %(high)s")
            % {"what": what, "low": low, "high": high}
        )
    return value


def load(raw: bytes | str) -> dict[str, Any]:
    """The file's JSON object within the limits above (size, nesting, values, text length;
    ``games.jsonsafe``), or ``ImportRefused`` with the reason."""
    try:
        data = loads_bounded(
            raw,
            max_bytes=MAX_BYTES,
            max_depth=MAX_DEPTH,
            max_values=MAX_VALUES,
            max_string=MAX_STRING,
        )
    except JSONRefused as exc:
        code = "bad_json" if exc.code == "not_utf8" else exc.code
        raise ImportRefused(code, jsonsafe.refusal_message(exc)) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportRefused("bad_format", "not an okey-tournament/1 file")
    return data


def too_large(size: int) -> ImportRefused:
    """The refusal of a file of ``size`` bytes, over MAX_BYTES."""
    exc = JSONRefused("too_large", "the file is too large", {"size": size, "max": MAX_BYTES})
    return ImportRefused("too_large", jsonsafe.refusal_message(exc))


def _text(value: Any, what: str, most: int) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _bad(_("%(what)s has no name") % {"what": what})
    if len(value.strip()) > most:
        raise _bad(
            _("%(what)s: the name is longer than %(max)s characters") % {"what": what, "max": most}
        )
    return value.strip()


def _players(players: Any, n_rounds: int) -> list[dict[str, Any]]:
    """The players, checked: [{"name", "account", "joins_round", "dropped", "no_shows"}]."""
    if not isinstance(players, list):
        raise _bad(_("tournament and players are required"))
    if len(players) > MAX_PLAYERS:
        raise _bad(
            _("%(n)s players; a tournament has at most %(max)s")
            % {"n": len(players), "max": MAX_PLAYERS}
        )
    out = []
    for i, p in enumerate(players):
        what = _("player %(n)s") % {"n": i}
        if not isinstance(p, dict) or p.get("index", i) != i:
            raise _bad(_("%(what)s is not in order") % {"what": what})
        name = _text(p.get("name"), what, 60)
        try:  # the same rules as a name typed at the desk (accounts.names)
            name = clean_public_name(name, 60)
        except ValidationError as exc:
            raise _bad(f"{what}: {' '.join(exc.messages)}") from None
        account = p.get("account")
        no_shows = p.get("no_shows") or []
        if not isinstance(no_shows, list) or len(no_shows) > n_rounds:
            raise _bad(
                _("%(what)s: no_shows must be a list of at most %(max)s rounds")
                % {"what": what, "max": n_rounds}
            )
        dropped = p.get("dropped_from_round")
        out.append(
            {
                "name": name,
                "account": account if isinstance(account, str) else None,
                "joins_round": _int(p.get("joins_round", 1), "joins_round", 1, n_rounds),
                "dropped": None
                if dropped is None
                else _int(dropped, "dropped_from_round", 1, n_rounds),
                "no_shows": sorted({_int(r, "no_shows", 1, n_rounds) for r in no_shows}),
            }
        )
    return out


def _keep_apart(pairs: Any, n_players: int) -> list[tuple[int, int]]:
    """The must-not-meet pairs, checked: (player index, player index), each pair once."""
    if pairs is None:
        return []
    bad = _bad(_("keep_apart must be a list of pairs of two different players"))
    if not isinstance(pairs, list) or len(pairs) > n_players * n_players:
        raise bad
    out: set[tuple[int, int]] = set()
    for pair in pairs:
        if not isinstance(pair, list) or len(pair) != 2:
            raise bad
        a, b = (_int(x, "keep_apart", 0, max(0, n_players - 1)) for x in pair)
        if a == b:
            raise bad
        out.add((min(a, b), max(a, b)))
    return sorted(out)


def _rounds(rounds: Any, n_rounds: int, n_players: int, check: Tournament) -> list[list[dict]]:
    """The rounds, checked against the players and the rule set's results:
    per round, [{"seats": [player index or None], "scores": [...] or None, "source"}]."""
    if not isinstance(rounds, list):
        raise _bad(_("rounds must be a list"))
    if len(rounds) > n_rounds:
        raise _bad(_("more rounds than the tournament has"))
    out = []
    for expect, rnd in enumerate(rounds, start=1):
        if not isinstance(rnd, dict) or rnd.get("number") != expect:
            raise _bad(_("round %(r)s is missing or out of order") % {"r": expect})
        tables = rnd.get("tables")
        if not isinstance(tables, list) or not tables:
            raise _bad(_("round %(r)s has no tables") % {"r": expect})
        if len(tables) > n_players:
            raise _bad(
                _("round %(r)s has more tables than players (%(n)s)")
                % {"r": expect, "n": n_players}
            )
        seen: set[int] = set()
        checked = []
        for tno, table in enumerate(tables, start=1):
            where = {"r": expect, "t": tno}
            if not isinstance(table, dict) or table.get("number") != tno:
                raise _bad(_("round %(r)s: table %(t)s is missing or out of order") % where)
            seats = table.get("seats")
            if not isinstance(seats, list) or len(seats) not in (2, 3, 4):
                raise _bad(_("round %(r)s table %(t)s: a table has 2 to 4 seats") % where)
            for seat in seats:
                if seat is None:
                    continue
                if type(seat) is not int or not 0 <= seat < n_players or seat in seen:
                    raise _bad(_("round %(r)s table %(t)s: unknown or repeated player") % where)
                seen.add(seat)
            if all(seat is None for seat in seats):
                raise _bad(_("round %(r)s table %(t)s: nobody sits at it") % where)
            scores = table.get("scores")
            if scores is not None and not isinstance(scores, list):
                raise _bad(_("round %(r)s table %(t)s: the scores must be a list") % where)
            if scores is not None:
                problems = services.result_problems(check, len(seats), scores)
                if problems:
                    raise _bad(
                        _("round %(r)s table %(t)s: %(problems)s")
                        % {**where, "problems": "; ".join(p.message for p in problems)}
                    )
                scores = list(scores)
            # keep where the result came from (entered, posted by a game), if known
            source = table.get("source")
            if source not in TableResult.Source.values:
                source = TableResult.Source.IMPORTED
            checked.append({"seats": list(seats), "scores": scores, "source": source})
        out.append(checked)
    return out


def import_tournament(owner: Any, data: dict[str, Any]) -> Tournament:
    """Create a tournament from an ``okey-tournament/1`` document (raises
    ImportRefused / TournamentError with what is wrong; creates nothing then).

    Everything is checked first; then one transaction writes it with a few bulk inserts
    (the database's write lock, which live tables need too, is held for milliseconds)."""
    settings = data.get("tournament")
    if not isinstance(settings, dict):
        raise _bad(_("tournament and players are required"))
    if not isinstance(settings.get("options", {}), dict):
        raise _bad(_("the table options must be an object"))
    values = {k: settings.get(k) for k in services.SETTINGS_FIELDS if k in settings}
    values["published"] = False
    try:
        values["date"] = dt.date.fromisoformat(str(settings.get("date")))
    except ValueError:
        raise _bad(_("the date is not a date")) from None
    values["name"] = _text(values.get("name"), _("the tournament"), 120)
    seed = values.get("seed")
    if not isinstance(seed, str) or not 1 <= len(seed) <= 64:
        raise _bad(_("the seed must be a text of 1 to 64 characters"))
    values["arrival_s"] = _int(values.get("arrival_s", 120), "arrival_s", 0, 3600)
    n_rounds = _int(values.get("rounds"), "rounds", 1, services.MAX_ROUNDS)
    players = _players(data.get("players"), n_rounds)
    apart = _keep_apart(data.get("keep_apart"), len(players))
    cleaned = services.clean_settings(values)
    check = Tournament(variant=cleaned.get("variant"), options=cleaned["options"])
    rounds = _rounds(data.get("rounds"), n_rounds, len(players), check)
    users = _accounts([p["account"] for p in players])
    with transaction.atomic():
        t = services.create_tournament(owner, **values)
        linked: set[int] = set()
        entries = []
        for p in players:
            user = users.get((p["account"] or "").lower())
            if user is not None and user.pk in linked:
                user = None
            if user is not None:
                linked.add(user.pk)
            entries.append(
                Entry(
                    tournament=t,
                    user=user,
                    name=p["name"],
                    joins_round=p["joins_round"],
                    dropped_from_round=p["dropped"],
                    no_shows=p["no_shows"],
                )
            )
        entries = Entry.objects.bulk_create(entries)
        KeepApart.objects.bulk_create(
            [KeepApart(tournament=t, first=entries[a], second=entries[b]) for a, b in apart]
        )
        made = Round.objects.bulk_create(
            [Round(tournament=t, number=n) for n in range(1, len(rounds) + 1)]
        )
        tables = [
            TournamentTable(
                round=r,
                number=tno,
                seats=[entries[s].pid if s is not None else None for s in table["seats"]],
            )
            for r, checked in zip(made, rounds, strict=True)
            for tno, table in enumerate(checked, start=1)
        ]
        tables = TournamentTable.objects.bulk_create(tables)
        flat = [table for checked in rounds for table in checked]
        TableResult.objects.bulk_create(
            [
                TableResult(table=tt, scores=table["scores"], source=table["source"])
                for tt, table in zip(tables, flat, strict=True)
                if table["scores"] is not None
            ]
        )
        if rounds:
            t.status = Tournament.Status.RUNNING
            t.save(update_fields=["status"])
        services.audit(t, owner, "imported", t.name, None, {"players": len(entries)})
        # services.finish_if_complete, from what was just checked (not by reading back
        # every table inside the transaction): every round seated, every table a result
        if len(rounds) == t.rounds and all(tb["scores"] is not None for tb in flat):
            t.status = Tournament.Status.FINISHED
            t.save(update_fields=["status", "updated_at"])
            services.audit(t, owner, "finished", t.name)
        return t


def _accounts(names: list[str | None]) -> dict[str, Any]:
    """The accounts named in the file, by lower-case username (one query)."""
    wanted = {n.lower() for n in names if n}
    if not wanted:
        return {}
    found = (
        get_user_model()
        .objects.annotate(lower_name=Lower("username"))
        .filter(lower_name__in=wanted)
        .order_by("pk")
    )
    out: dict[str, Any] = {}
    for user in found:
        out.setdefault(user.lower_name, user)
    return out
