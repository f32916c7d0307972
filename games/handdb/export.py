"""Which games go into a month of the open hand database, and each as one line.

Read side only (the write is ``actions.do_build_month``). docs/hand-database.md says the
same for a reader of the files:

- A month holds the tables whose game finished (``Table.status`` FINISHED) in that UTC
  calendar month, each with its finished hands (``Hand.result`` set: a hand still in play
  keeps its seed secret, games/models.py), as one okey-review/1 document per line
  (games/review/records.py, docs/review-format.md), in the order the games finished; a
  duplicate table's game (RULES.md D38) is one line per deal (``game_documents``).
- A table goes in when it is rated or organised (a tournament's, duplicate rounds
  included), or when it is casual (a casual online table, a solo challenge or practice run)
  and every person at it is an account that chose to share its casual games
  (``Profile.share_hands``; a guest cannot choose, so a table with a guest stays out).
  Never a lesson (games/learn: its deal is a script, known by its seed), never a table
  whose deals another table of a duplicate round still plays (``plugins.deal_embargoed``,
  RULES.md D38: built again later, the month takes it in).
- Names: an account that shows itself on the public boards (``Profile.public_records``,
  not marked for fair play) keeps its public name (``Profile.name``, as the boards show
  it); any other account is "Player <pseudonym>", the pseudonym an HMAC of the account with
  the SECRET_KEY and the month (the same player within a month, unlinkable between months
  and not derivable from the account's id); a seat without an account (a guest, an account
  since deleted) is "Guest N" (N counts them at that table); a CPU is "CPU (<level>)". The
  names are the same in every language (the file is data, not a page).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.db.models import Prefetch
from django.utils.crypto import salted_hmac

from games import plugins
from games.engine.actions import ACTION_FIELDS
from games.engine.options import validate_options
from games.learn.script import PREFIX as LESSON_SEED_PREFIX
from games.models import Hand, Seat, Table
from games.review import records
from games.review.replay import record_for_hand

MONTH = re.compile(r"^(\d{4})-(0[1-9]|1[0-2])$")
PSEUDONYM_SALT = "games.handdb.pseudonym"
PSEUDONYM_HEX = 12  # 48 bits: two of a million players of a month collide with odds ~2e-3


class BadMonth(ValueError):
    """Not a month in the form YYYY-MM."""


def month_bounds(month: str) -> tuple[datetime, datetime]:
    """The first instant of ``month`` ("YYYY-MM") and of the month after, in UTC."""
    match = MONTH.match(month)
    if match is None:
        raise BadMonth(month)
    year, number = int(match[1]), int(match[2])
    start = datetime(year, number, 1, tzinfo=UTC)
    end = datetime(year + number // 12, number % 12 + 1, 1, tzinfo=UTC)
    return start, end


def file_name(month: str) -> str:
    return f"okey-hands-{month}.jsonl.gz"


# --------------------------------------------------------------------- which games


def month_tables(month: str):
    """The tables whose game finished in ``month``, in the order they finished, with their
    seats' accounts and their finished hands loaded."""
    start, end = month_bounds(month)
    return (
        Table.objects.filter(
            status=Table.Status.FINISHED, finished_at__gte=start, finished_at__lt=end
        )
        .order_by("finished_at", "pk")
        .prefetch_related(
            Prefetch("seats", Seat.objects.select_related("user__profile").order_by("position")),
            Prefetch(
                "hands",
                Hand.objects.filter(result__isnull=False).order_by("number"),
                to_attr="finished_hands",
            ),
        )
    )


def shares_casual_games(seat: Seat) -> bool:
    profile = getattr(seat.user, "profile", None) if seat.user_id else None
    return profile is not None and profile.share_hands


def left_out(table: Table) -> str | None:
    """Why ``table`` (from ``month_tables``) stays out of the month, or None: "no_hands",
    "lesson", "embargoed" (the only reason that can pass with time) or "not_shared"."""
    hands = table.finished_hands
    if not hands:
        return "no_hands"
    if any(h.seed.startswith(LESSON_SEED_PREFIX) for h in hands):
        return "lesson"
    if plugins.deal_embargoed(table):
        return "embargoed"
    if table.rated or table.organised:
        return None
    people = [s for s in table.seats.all() if not s.is_cpu]
    if not people or not all(shares_casual_games(s) for s in people):
        return "not_shared"
    return None


# ------------------------------------------------------------------------- names


def pseudonym(month: str, user_id: int) -> str:
    """The name of an account that is not on the public boards, for one month's file."""
    mac = salted_hmac(PSEUDONYM_SALT, f"{month}:{user_id}", algorithm="sha256")
    return f"Player {mac.hexdigest()[:PSEUDONYM_HEX]}"


def shows_publicly(seat: Seat) -> bool:
    profile = getattr(seat.user, "profile", None) if seat.user_id else None
    return profile is not None and profile.public_records and not profile.fair_play_marked


def players(table: Table, month: str) -> list[dict[str, Any]]:
    """The document's players of ``table``: seat, name (see the module's docstring), CPU
    level (None for a person)."""
    out: list[dict[str, Any]] = []
    guests = 0
    for seat in table.seats.all():
        if seat.is_cpu:
            out.append(
                {"seat": seat.position, "name": f"CPU ({seat.cpu_level})", "cpu": seat.cpu_level}
            )
            continue
        if seat.user_id and shows_publicly(seat):
            name = seat.user.profile.name[: records.MAX_NAME]
        elif seat.user_id:
            name = pseudonym(month, seat.user_id)
        else:
            guests += 1
            name = f"Guest {guests}"
        out.append({"seat": seat.position, "name": name, "cpu": None})
    return out


# ------------------------------------------------------------------------ schema

TOP_KEYS = {"format", "variant", "options", "players", "hands", "signature"}
PLAYER_KEYS = {"seat", "name", "cpu"}
HAND_KEYS = {"number", "seed", "starter", "context", "actions", "result"}
EVENT_KEYS = {"seat", "type"}.union(*(req | opt for req, opt in ACTION_FIELDS.values()))
RESULT_KEYS = {"ending", "finisher", "totals", "lines", "closed_tile"}
LINE_KEYS = {"seat", "points", "reason"}


class SchemaError(ValueError):
    """A document holds a field docs/hand-database.md does not list."""


def check_schema(doc: dict[str, Any]) -> None:
    """Raise ``SchemaError`` unless every key of ``doc`` is one the hand database
    documents: whatever the review export may carry one day, nothing unlisted leaves the
    site through these files."""

    def only(keys: Any, allowed: set[str], where: str) -> None:
        extra = set(keys) - allowed
        if extra:
            raise SchemaError(f"{where}: {sorted(extra)}")

    only(doc, TOP_KEYS, "document")
    only(doc["options"], set(validate_options(doc["variant"], {})), "options")
    for player in doc["players"]:
        only(player, PLAYER_KEYS, "player")
    for hand in doc["hands"]:
        only(hand, HAND_KEYS, "hand")
        for event in hand["actions"]:
            only(event, EVENT_KEYS, "event")
        only(hand["result"], RESULT_KEYS, "result")
        for line in hand["result"]["lines"]:
            only(line, LINE_KEYS, "score line")


# ----------------------------------------------------------------------- documents


def game_documents(table: Table, month: str) -> list[dict[str, Any]]:
    """``table``'s finished hands as signed okey-review/1 documents (what the review's game
    export holds, with the month's names): one document for the game, or for a duplicate
    table (``Table.deals``) one a deal. Each deal of a duplicate game is dealt as a game's
    first hand (RULES.md D38), which the format cannot say of a game of several hands:
    its importer bounds a game by the rule set's own length (one hand of fifty-one by
    default), so a duplicate game whole would not import again."""
    hands = [records.hand_export(record_for_hand(h), h.number + 1) for h in table.finished_hands]
    names = players(table, month)
    groups = [[h] for h in hands] if table.deals else [hands]
    docs = [records.sign(records.document(table.variant, table.options, names, g)) for g in groups]
    for doc in docs:
        check_schema(doc)
    return docs


@dataclass
class MonthGame:
    table_id: int
    documents: list[dict[str, Any]]  # the lines of this game (one, or one a duplicate deal)

    @property
    def hands(self) -> int:
        return sum(len(doc["hands"]) for doc in self.documents)


def month_games(month: str, skipped: dict[str, int] | None = None) -> Iterator[MonthGame]:
    """Every game of ``month`` that goes into its file, in order; ``skipped`` counts the
    others by reason."""
    for table in month_tables(month).iterator(chunk_size=200):
        why = left_out(table)
        if why is not None:
            if skipped is not None:
                skipped[why] = skipped.get(why, 0) + 1
            continue
        yield MonthGame(table.pk, game_documents(table, month))
