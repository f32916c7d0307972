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
from functools import partial
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models.functions import Lower
from django.utils.translation import gettext as _
from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator
from pydantic_core import ErrorDetails, PydanticCustomError

from accounts.names import clean_public_name
from games.common import jsonsafe
from games.common.csvsafe import write_rows
from games.common.jsonsafe import JSONRefused, refusal
from games.engine import game as engine_game

from . import actions, duplicate_rounds
from . import standings as standing_rules
from .models import (
    Deal,
    Entry,
    KeepApart,
    Round,
    TableResult,
    Tournament,
    TournamentTable,
    seed_commitment,
)

FORMAT = "okey-tournament/1"

# Limits of a file: an import is refused, before anything is written, when it holds more
# than a tournament of this site can have.
#
# Players: the seating search is designed and benchmarked for 200 players (docs/benchmarks.md,
# "Seating"); 256 is 64 full four-seat tables. Rounds: actions.MAX_ROUNDS (30). A round has
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
# about 110,000 values and 1.6 MB; 256 players at four-seat tables make 0.5 MB. A duplicate
# tournament's tables are all of one size and each result holds every deal's hand totals:
# 256 players at 64 tables, 30 rounds of 16 deals (actions.MAX_DEALS) make about 154,000
# values and 2.1 MB (hand totals of four or five characters).
MAX_VALUES = 170_000
MAX_BYTES = 3 * 1024 * 1024


class ImportRefused(actions.TournamentError):
    pass


# ----------------------------------------------------------------------- CSV


def _csv(rows: list[list[Any]]) -> str:
    """Through ``games.common.csvsafe``: a player's name that starts like a formula is text."""
    return write_rows(rows, lineterminator="\n")


def standings_csv(t: Tournament) -> str:
    names = {e.pid: e.name for e in t.entries.all()}
    rows: list[list[Any]] = [
        ["rank", "player", "points", "game_total", "played", "decided_by", "draw_key"]
    ]
    for r in actions.standings(t):
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
    """Every stored result, seat by seat. A duplicate round still being played has none
    here, as on the pages (``presenter.table_rows``): one table's scores would tell the
    players of another what the deals hold (RULES.md D38)."""
    names = {e.pid: e.name for e in t.entries.all()}
    rows: list[list[Any]] = [["round", "table", "seat", "player", "cpu", "score", "points"]]
    in_play = duplicate_rounds.rounds_in_play(t) if t.duplicate else set()
    for r in (
        TableResult.objects.filter(table__round__tournament=t)
        .exclude(table__round__number__in=in_play)
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
                    _num(points[pos])
                    if t.scoring == Tournament.Scoring.PLACING and not t.duplicate
                    else "",
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
    deals: dict[int, list[Deal]] = {}
    for d in Deal.objects.filter(round__tournament=t).order_by("number"):
        deals.setdefault(d.round_id, []).append(d)
    in_play = duplicate_rounds.rounds_in_play(t) if t.duplicate else set()
    rounds = []
    for rnd in t.round_set.order_by("number"):
        tables = []
        for tt in rnd.tables.order_by("number"):
            res = results.get(tt.pk)
            table = {
                "number": tt.number,
                "seats": [index[p] if p is not None else None for p in tt.seats],
                "scores": list(res.scores) if res is not None else None,
                "source": res.source if res is not None else None,
            }
            if t.duplicate and res is not None:  # each deal's hand totals, deal after deal
                table["hands"] = [v for line in res.hands for v in line]
            tables.append(table)
        out_round: dict[str, Any] = {"number": rnd.number, "tables": tables}
        if t.duplicate:  # the round's deals: seeds and commitments (the organiser's file)
            # online, the server deals: a round still being played keeps its seeds back
            # (an organiser may also play in it), its commitments say which deals they are
            kept = t.online and rnd.number in in_play
            out_round["deals"] = [
                {"number": d.number, "seed": None if kept else d.seed, "commitment": d.commitment}
                for d in deals.get(rnd.pk, [])
            ]
        rounds.append(out_round)
    snap = actions.settings_snapshot(t)
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
    pairs = sorted(sorted((index[a], index[b])) for a, b in actions.keep_apart_pairs(t))
    if pairs:  # optional: a file without must-not-meet pairs stays as it was
        out["keep_apart"] = [list(p) for p in pairs]
    return out


def dumps(t: Tournament) -> str:
    return json.dumps(export_tournament(t), ensure_ascii=False, indent=1)


def _bad(detail: str) -> ImportRefused:
    return ImportRefused("bad_file", f"damaged tournament file: {detail}", detail=detail)


def _refused(code: str, message: str) -> ImportRefused:
    """The refusal of the shared parse step (``games.common.jsonsafe``): the model's own
    refusals are ``bad_file`` with the detail, the bounds' refusals keep their code and
    message."""
    return _bad(message) if code == "bad_file" else ImportRefused(code, message)


def _damaged(detail: str) -> PydanticCustomError:
    return refusal("bad_file", detail)


def _range(what: str, low: int, high: int) -> str:
    return _("%(what)s must be a whole number from %(low)s to %(high)s") % {
        "what": what,
        "low": low,
        "high": high,
    }


def _int(value: int, what: str, low: int, high: int) -> int:
    if not low <= value <= high:
        raise _damaged(_range(what, low, high))
    return value


def load(raw: bytes | str) -> dict[str, Any]:
    """The file's JSON object within the limits above (size, nesting, values, text length;
    ``games.common.jsonsafe``), or ``ImportRefused`` with the reason."""
    data = jsonsafe.load_object(
        raw,
        max_bytes=MAX_BYTES,
        max_depth=MAX_DEPTH,
        max_values=MAX_VALUES,
        max_string=MAX_STRING,
        refused=ImportRefused,
    )
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportRefused("bad_format", "not an okey-tournament/1 file")
    return data


def too_large(size: int) -> ImportRefused:
    """The refusal of a file of ``size`` bytes, over MAX_BYTES."""
    exc = JSONRefused("too_large", "the file is too large", {"size": size, "max": MAX_BYTES})
    return ImportRefused("too_large", jsonsafe.refusal_message(exc))


def _text(value: str, what: str, most: int) -> str:
    if not value.strip():
        raise _damaged(_("%(what)s has no name") % {"what": what})
    if len(value.strip()) > most:
        raise _damaged(
            _("%(what)s: the name is longer than %(max)s characters") % {"what": what, "max": most}
        )
    return value.strip()


# ------------------------------------------------------------- the file's model
#
# ``okey-tournament/1`` as pydantic models (strict), read by ``games.common.jsonsafe.validate``. The
# fields are declared in the order the file is checked (settings, players, pairs, rounds), so
# the first error is the one the organiser is told about. Validators refuse with the detail
# (``_damaged``); ``_explain`` names a type or shape error from where it is. What depends on
# an earlier part (the number of rounds, of players) is checked by the document's validators,
# which run only when that part passed. Results are checked against the rule set after the
# model (``_rounds``), with the tournament's cleaned settings.


class SettingsIn(BaseModel):
    # the other settings (variant, mode, scoring, ...) are the desk's: actions.clean_settings
    model_config = ConfigDict(extra="allow")

    options: dict[str, Any] = Field(default_factory=dict)
    date: dt.date
    name: str
    seed: str = Field(min_length=1, max_length=64)
    arrival_s: int = 120
    rounds: int

    @field_validator("date", mode="plain")
    @classmethod
    def _iso_date(cls, value: Any) -> dt.date:
        if not isinstance(value, str):
            raise ValueError("a date is an ISO text")
        return dt.date.fromisoformat(value)

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return _text(value, _("the tournament"), 120)

    @field_validator("arrival_s")
    @classmethod
    def _arrival(cls, value: int) -> int:
        return _int(value, "arrival_s", 0, 3600)

    @field_validator("rounds")
    @classmethod
    def _rounds(cls, value: int) -> int:
        return _int(value, "rounds", 1, actions.MAX_ROUNDS)


class PlayerIn(BaseModel):
    model_config = ConfigDict(extra="ignore")

    index: int | None = None  # the player's place in the list, if given
    name: str
    account: Any = None  # a username to link, or anything else for none
    joins_round: int = 1
    dropped_from_round: int | None = None
    no_shows: list[int] | None = None


class TableIn(BaseModel):
    model_config = ConfigDict(extra="ignore")

    number: int
    seats: list[int | None]  # player indexes, None for a CPU
    scores: list[Any] | None = None  # judged by the rule set (actions.result_problems)
    source: Any = None  # where the result came from, kept when it is known
    # duplicate: each deal's hand totals, deal after deal (deals × seats whole numbers)
    hands: list[Any] | None = None


class DealIn(BaseModel):
    model_config = ConfigDict(extra="ignore")

    number: int
    # None: kept back by an export taken while the round was played (online)
    seed: str | None = Field(None, min_length=1, max_length=64)
    commitment: str | None = None  # checked against the seed when given


class RoundIn(BaseModel):
    model_config = ConfigDict(extra="ignore")

    number: int
    tables: list[TableIn]
    deals: list[DealIn] | None = None  # a duplicate round's deals


class TournamentFile(BaseModel):
    model_config = ConfigDict(extra="ignore")

    tournament: SettingsIn
    players: list[PlayerIn]
    keep_apart: list[list[int]] | None = None
    rounds: list[RoundIn]

    @field_validator("players")
    @classmethod
    def _players(cls, players: list[PlayerIn], info: ValidationInfo) -> list[PlayerIn]:
        if len(players) > MAX_PLAYERS:
            raise _damaged(
                _("%(n)s players; a tournament has at most %(max)s")
                % {"n": len(players), "max": MAX_PLAYERS}
            )
        if "tournament" not in info.data:
            return players  # refused already
        n_rounds = info.data["tournament"].rounds
        out = []
        for i, p in enumerate(players):
            what = _("player %(n)s") % {"n": i}
            if "index" in p.model_fields_set and p.index != i:
                raise _damaged(_("%(what)s is not in order") % {"what": what})
            name = _text(p.name, what, 60)
            try:  # the same rules as a name typed at the desk (accounts.names)
                name = clean_public_name(name, 60)
            except ValidationError as exc:
                raise _damaged(f"{what}: {' '.join(exc.messages)}") from None
            no_shows = p.no_shows or []
            if len(no_shows) > n_rounds:
                raise _damaged(
                    _("%(what)s: no_shows must be a list of at most %(max)s rounds")
                    % {"what": what, "max": n_rounds}
                )
            _int(p.joins_round, "joins_round", 1, n_rounds)
            if p.dropped_from_round is not None:
                _int(p.dropped_from_round, "dropped_from_round", 1, n_rounds)
            for r in no_shows:
                _int(r, "no_shows", 1, n_rounds)
            out.append(p.model_copy(update={"name": name, "no_shows": sorted(set(no_shows))}))
        return out

    @field_validator("keep_apart")
    @classmethod
    def _pairs(cls, pairs: list[list[int]] | None, info: ValidationInfo) -> Any:
        """The must-not-meet pairs: (player index, player index), two different players."""
        if pairs is None or "players" not in info.data:
            return pairs
        n_players = len(info.data["players"])
        if len(pairs) > n_players * n_players:
            raise _damaged(_keep_apart_refused())
        for pair in pairs:
            if len(pair) != 2:
                raise _damaged(_keep_apart_refused())
            for x in pair:
                _int(x, "keep_apart", 0, max(0, n_players - 1))
            if pair[0] == pair[1]:
                raise _damaged(_keep_apart_refused())
        return pairs

    @field_validator("rounds")
    @classmethod
    def _seated(cls, rounds: list[RoundIn], info: ValidationInfo) -> list[RoundIn]:
        """Rounds and tables numbered in order, each table 2 to 4 seats of known players, no
        player twice in a round, nobody at a table of CPUs only."""
        if "tournament" not in info.data or "players" not in info.data:
            return rounds
        n_players = len(info.data["players"])
        if len(rounds) > info.data["tournament"].rounds:
            raise _damaged(_("more rounds than the tournament has"))
        for expect, rnd in enumerate(rounds, start=1):
            if rnd.number != expect:
                raise _damaged(_("round %(r)s is missing or out of order") % {"r": expect})
            if not rnd.tables:
                raise _damaged(_("round %(r)s has no tables") % {"r": expect})
            if len(rnd.tables) > n_players:
                raise _damaged(
                    _("round %(r)s has more tables than players (%(n)s)")
                    % {"r": expect, "n": n_players}
                )
            seen: set[int] = set()
            for tno, table in enumerate(rnd.tables, start=1):
                where = {"r": expect, "t": tno}
                if table.number != tno:
                    raise _damaged(_("round %(r)s: table %(t)s is missing or out of order") % where)
                if len(table.seats) not in (2, 3, 4):
                    raise _damaged(_("round %(r)s table %(t)s: a table has 2 to 4 seats") % where)
                for seat in table.seats:
                    if seat is None:
                        continue
                    if not 0 <= seat < n_players or seat in seen:
                        raise _damaged(
                            _("round %(r)s table %(t)s: unknown or repeated player") % where
                        )
                    seen.add(seat)
                if all(seat is None for seat in table.seats):
                    raise _damaged(_("round %(r)s table %(t)s: nobody sits at it") % where)
        return rounds


def _keep_apart_refused() -> str:
    return _("keep_apart must be a list of pairs of two different players")


def _explain(data: Any, error: ErrorDetails) -> tuple[str, str]:
    """A type or shape error of ``TournamentFile`` in the words of the checks it replaces.
    Every part before the first error passed, so ``data`` can be read up to it."""
    loc = error["loc"]
    where = loc[0] if loc else None
    if where == "tournament" and len(loc) > 1:
        what = loc[1]
        if what == "options":
            return "bad_file", _("the table options must be an object")
        if what == "date":
            return "bad_file", _("the date is not a date")
        if what == "name":
            return "bad_file", _("%(what)s has no name") % {"what": _("the tournament")}
        if what == "seed":
            return "bad_file", _("the seed must be a text of 1 to 64 characters")
        if what == "arrival_s":
            return "bad_file", _range("arrival_s", 0, 3600)
        return "bad_file", _range("rounds", 1, actions.MAX_ROUNDS)
    if where == "players" and len(loc) > 1 and isinstance(loc[1], int):
        what = _("player %(n)s") % {"n": loc[1]}
        field_name = loc[2] if len(loc) > 2 else None
        n_rounds = data["tournament"]["rounds"]
        if field_name == "name":
            return "bad_file", _("%(what)s has no name") % {"what": what}
        if field_name in ("joins_round", "dropped_from_round"):
            return "bad_file", _range(str(field_name), 1, n_rounds)
        if field_name == "no_shows" and len(loc) > 3:
            return "bad_file", _range("no_shows", 1, n_rounds)
        if field_name == "no_shows":
            return "bad_file", _("%(what)s: no_shows must be a list of at most %(max)s rounds") % {
                "what": what,
                "max": n_rounds,
            }
        return "bad_file", _("%(what)s is not in order") % {"what": what}
    if where == "keep_apart" and len(loc) > 2:
        return "bad_file", _range("keep_apart", 0, max(0, len(data["players"]) - 1))
    if where == "keep_apart":
        return "bad_file", _keep_apart_refused()
    if where == "rounds" and len(loc) > 1:
        r = int(loc[1]) + 1
        if len(loc) < 3 or loc[2] == "number":
            return "bad_file", _("round %(r)s is missing or out of order") % {"r": r}
        if loc[2] == "deals":
            return "bad_file", _(
                "round %(r)s: each deal has its number and its seed (1 to 64 characters)"
            ) % {"r": r}
        if len(loc) < 5 or loc[4] == "number":
            if len(loc) < 4:
                return "bad_file", _("round %(r)s has no tables") % {"r": r}
            return "bad_file", _("round %(r)s: table %(t)s is missing or out of order") % {
                "r": r,
                "t": int(loc[3]) + 1,
            }
        where_t = {"r": r, "t": int(loc[3]) + 1}
        if loc[4] == "seats" and len(loc) > 5:
            return "bad_file", _("round %(r)s table %(t)s: unknown or repeated player") % where_t
        if loc[4] == "seats":
            return "bad_file", _("round %(r)s table %(t)s: a table has 2 to 4 seats") % where_t
        return "bad_file", _("round %(r)s table %(t)s: the scores must be a list") % where_t
    if where == "rounds":
        return "bad_file", _("rounds must be a list")
    return "bad_file", _("tournament and players are required")


def _deals(doc: TournamentFile, check: Tournament) -> list[list[str]]:
    """A duplicate tournament's deal seeds per round: as many as its deals per round,
    numbered in order; each round's tables all of one size (a deal is for one player
    count). Nothing for a standard tournament."""
    if not check.duplicate:
        return [[] for _ in doc.rounds]
    out = []
    for r, rnd in enumerate(doc.rounds, start=1):
        deals = rnd.deals or []
        if [d.number for d in deals] != list(range(1, check.deals_in_round + 1)):
            raise _bad(
                _("round %(r)s: a duplicate round has its %(n)s deals, numbered in order")
                % {"r": r, "n": check.deals_in_round}
            )
        if len({len(table.seats) for table in rnd.tables}) > 1:
            raise _bad(
                _("round %(r)s: a deal is for one number of players, the tables differ") % {"r": r}
            )
        for d in deals:
            if d.seed is None:
                raise _bad(
                    _(
                        "round %(r)s: its deal seeds were kept back because the round was "
                        "being played when the file was exported; export it again once "
                        "every table of the round has its result"
                    )
                    % {"r": r}
                )
            if d.commitment is not None and d.commitment != seed_commitment(d.seed):
                raise _bad(
                    _("round %(r)s deal %(d)s: the seed does not match its commitment")
                    % {"r": r, "d": d.number}
                )
        out.append([d.seed for d in deals])
    return out


def _hands(check: Tournament, table: TableIn, where: dict[str, int]) -> list[list[int]]:
    """A duplicate table's deal lines from the file's flat list (deal after deal)."""
    seats, flat = len(table.seats), table.hands
    if (
        not isinstance(flat, list)
        or len(flat) != seats * check.deals_in_round
        or any(type(v) is not int or abs(v) > actions.MAX_HAND_TOTAL for v in flat)
    ):
        raise _bad(
            _("round %(r)s table %(t)s: hands must be each deal's hand totals, seat by seat")
            % where
        )
    return [flat[i : i + seats] for i in range(0, len(flat), seats)]


def _rounds(doc: TournamentFile, check: Tournament) -> list[list[dict]]:
    """The rounds, their results checked against the rule set: per round,
    [{"seats": [player index or None], "scores": [...] or None, "source", "hands"}]. A
    duplicate table's result is its deal lines (``hands``); its scores are the start
    plus the deals' totals, as the desk stores them (``actions.do_enter_deal_results``)."""
    out = []
    for expect, rnd in enumerate(doc.rounds, start=1):
        checked = []
        for tno, table in enumerate(rnd.tables, start=1):
            scores = table.scores
            hands: list[list[int]] = []
            if scores is not None and check.duplicate:
                hands = _hands(check, table, {"r": expect, "t": tno})
                start = engine_game.Game(
                    check.variant, actions.table_options(check, len(table.seats))
                ).start_points()
                scores = [start + sum(line[s] for line in hands) for s in range(len(table.seats))]
            elif scores is not None:
                problems = actions.result_problems(check, len(table.seats), scores)
                if problems:
                    raise _bad(
                        _("round %(r)s table %(t)s: %(problems)s")
                        % {
                            "r": expect,
                            "t": tno,
                            "problems": "; ".join(p.message for p in problems),
                        }
                    )
            # keep where the result came from (entered, posted by a game), if known
            source = table.source
            if source not in TableResult.Source.values:
                source = TableResult.Source.IMPORTED
            checked.append(
                {"seats": list(table.seats), "scores": scores, "source": source, "hands": hands}
            )
        out.append(checked)
    return out


def do_import_tournament(owner: Any, data: dict[str, Any]) -> Tournament:
    """Create a tournament from an ``okey-tournament/1`` document (raises
    ImportRefused / TournamentError with what is wrong; creates nothing then).

    Everything is checked first; then one transaction writes it with a few bulk inserts
    (the database's write lock, which live tables need too, is held for milliseconds)."""
    doc = jsonsafe.validate(TournamentFile, data, explain=partial(_explain, data), refused=_refused)
    settings = doc.tournament
    values = {k: data["tournament"][k] for k in actions.SETTINGS_FIELDS if k in data["tournament"]}
    values.update(
        published=False, date=settings.date, name=settings.name, arrival_s=settings.arrival_s
    )
    players = [
        {
            "name": p.name,
            "account": p.account if isinstance(p.account, str) else None,
            "joins_round": p.joins_round,
            "dropped": p.dropped_from_round,
            "no_shows": p.no_shows,
        }
        for p in doc.players
    ]
    apart = sorted({(min(a, b), max(a, b)) for a, b in doc.keep_apart or []})
    cleaned = actions.clean_settings(values)
    check = Tournament(
        variant=cleaned.get("variant"),
        options=cleaned["options"],
        format=cleaned.get("format") or Tournament.Format.STANDARD,
        deals_per_round=cleaned.get("deals_per_round"),
        three_player_tables=bool(cleaned.get("three_player_tables")),
    )
    rounds = _rounds(doc, check)
    seeds = _deals(doc, check)
    users = _accounts([p["account"] for p in players])
    with transaction.atomic():
        t = actions.do_create_tournament(owner, **values)
        linked: set[int] = set()
        entries = []
        for p in players:
            user = users.get((p["account"] or "").lower())
            if user is not None and (user.pk in linked or _is_bot(user)):
                user = None  # a bot's name is kept, its account not linked (bots play casual)
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
        Deal.objects.bulk_create(
            [
                Deal(
                    round=r,
                    number=n,
                    seed=seed,
                    commitment=seed_commitment(seed),
                    players=len(checked[0]["seats"]),
                )
                for r, checked, round_seeds in zip(made, rounds, seeds, strict=True)
                for n, seed in enumerate(round_seeds, start=1)
            ]
        )
        flat = [table for checked in rounds for table in checked]
        TableResult.objects.bulk_create(
            [
                TableResult(
                    table=tt, scores=table["scores"], hands=table["hands"], source=table["source"]
                )
                for tt, table in zip(tables, flat, strict=True)
                if table["scores"] is not None
            ]
        )
        if rounds:
            t.status = Tournament.Status.RUNNING
            t.save(update_fields=["status"])
        actions.do_audit(t, owner, "imported", t.name, None, {"players": len(entries)})
        # actions.do_finish_if_complete, from what was just checked (not by reading back
        # every table inside the transaction): every round seated, every table a result
        if len(rounds) == t.rounds and all(tb["scores"] is not None for tb in flat):
            t.status = Tournament.Status.FINISHED
            t.save(update_fields=["status", "updated_at"])
            actions.do_audit(t, owner, "finished", t.name)
        return t


def _is_bot(user: Any) -> bool:
    profile = getattr(user, "profile", None)
    return bool(profile is not None and profile.is_bot)


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
