"""The table actions: every write to a table, each in one transaction.

Each ``do_*`` function is one action (the pattern of Zulip's ``do_*`` actions):
it locks the table row, checks what the caller saw (the version, the seat),
applies the change (the engine's ``apply`` for a move), stores it, bumps the
version and broadcasts *after commit* (``realtime.broadcast_on_commit``), so no
client ever sees a change that was rolled back. Nothing else in the project
saves a table, a hand or a seat: views and consumers parse, authorise and call
one of these.

What is sent, to whom and when (the broadcaster, the snapshot cache, the
per-table hub, fragment diffing) is ``games.realtime``; this module uses it and
``games.presenter`` uses both, never the other way round
(``tests/games/test_module_graph.py``). The read and broadcast helpers imported
``as`` themselves below are reached through the services by callers outside the
table layer (tournaments, the server command, the sweeper, the sheets).
"""

from __future__ import annotations

import contextlib
import copy
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, IntegrityError, connections, transaction
from django.db.models import Count, F, Q
from django.db.models.signals import post_save, pre_save
from django.db.models.sql.subqueries import InsertQuery
from django.utils import timezone

from games import cpu, messages
from games.engine import actions as engine_actions
from games.engine import game as engine_game
from games.engine import legal_actions
from games.engine import options as engine_options
from games.engine import state as engine_state
from games.engine.bots.hint import hint
from games.engine.racksort import RACK_SLOTS, rack_sort
from games.engine.refusals import Refusal
from games.engine.rules import rules_for
from games.matchmaking.rules import fill_wait
from games.models import (
    SNAPSHOT_EVERY,
    Hand,
    HandAction,
    ScoreLine,
    Seat,
    SeatConnection,
    Table,
)
from games.ratings import api as ratings
from games.ratings.rules import GUESTS_REFUSED, rated_refusal
from games.realtime import attach_event_loop as attach_event_loop
from games.realtime import broadcast as broadcast
from games.realtime import broadcast_on_commit, game_for, read_seats, remember_on_commit, snapshot
from games.realtime import group_send as group_send
from games.realtime import load_state as load_state
from games.realtime import rebuild_hand as rebuild_hand
from games.review.models import HandCommentary, ImportedHand, ImportedRecord, ShareLink
from games.signals import game_finished


def _secure_seed(table: Table, number: int) -> str:
    """A hand's seed: the OS's secure random source. ``OKEY_SEED_PREFIX`` (tests
    and demos only) makes seeds predictable: prefix + table id + hand number."""
    prefix = getattr(settings, "OKEY_SEED_PREFIX", "")
    if prefix:
        return f"{prefix}{table.pk}-{number}"
    return secrets.token_hex(16)


# Injected sources (tests replace them): where seeds and time come from.
seed_source: Callable[[Table, int], str] = _secure_seed


def now() -> datetime:
    return timezone.now()


class ActionRefused(Exception):
    """An action the table did not accept: stable code + human message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _stale() -> ActionRefused:
    return ActionRefused("stale_state", "the table has moved on; here is the fresh view")


def _lock(table_id: int) -> Table:
    """The table row, locked until the transaction ends, read in one query with its
    seats (and their names). ``table.seats.all()`` answers from those seats for the
    rest of the action (Django's prefetch cache), so scheduling the next turn reads
    nothing more and the frames rendered right after the action reuse them
    (``realtime.seats_read_with``). PostgreSQL locks the table's row only (``FOR
    UPDATE OF``), as ``Table.objects.select_for_update()`` did; SQLite has one writer.
    The query is compiled once per connection (``realtime.read_seats``)."""
    seats = read_seats(table_id, for_update=True)
    if not seats:
        raise Table.DoesNotExist(f"no table {table_id}")
    table = seats[0].table
    table._prefetched_objects_cache = {"seats": seats}
    return table


# What an accepted action changes of the table row (``Table.save(update_fields=...)``).
_ACTION_FIELDS = ["version", "cpu_due_at", "turn_deadline", "updated_at"]


# The action path's two writes, as SQL made once per database connection. Django builds
# and compiles a query for every ``create`` and ``save``, which cost several times what
# running these one-row statements does. Each value is prepared as the ORM prepares it
# (``pre_save``: the auto-now times; ``get_db_prep_save``), and while anything listens
# to the models' save signals the ORM's own ``save`` runs instead (nothing does today).


def _statements() -> dict[str, Any]:
    return connections[DEFAULT_DB_ALIAS].__dict__.setdefault("_okey_statements", {})


def _insert_action(row: HandAction) -> None:
    """``row.save()`` of a new action row (its ``pk`` is not read back: nothing uses it)."""
    if pre_save.has_listeners(HandAction) or post_save.has_listeners(HandAction):
        row.save(force_insert=True)
        return
    connection = connections[DEFAULT_DB_ALIAS]
    statement = _statements().get("action")
    if statement is None:
        meta = HandAction._meta
        fields = [f for f in meta.local_concrete_fields if f is not meta.auto_field]
        query = InsertQuery(HandAction)
        query.insert_values(fields, [row])
        compiler = query.get_compiler(connection=connection)
        [(sql, params)] = compiler.as_sql()  # runs pre_save: the row's created_at
        if len(params) != len(fields):  # a field with its own placeholder: the ORM's way
            row.save(force_insert=True)
            return
        _statements()["action"] = (sql, fields, compiler)
    else:
        sql, fields, compiler = statement
        params = [compiler.prepare_value(f, compiler.pre_save_val(f, row)) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
    row._state.adding, row._state.db = False, DEFAULT_DB_ALIAS


def _save_table(table: Table, names: list[str]) -> None:
    """``table.save(update_fields=names)``: one UPDATE of those columns by the table's pk."""
    if pre_save.has_listeners(Table) or post_save.has_listeners(Table):
        table.save(update_fields=names)
        return
    connection = connections[DEFAULT_DB_ALIAS]
    fields = [Table._meta.get_field(name) for name in names]
    key = ("table", tuple(names))
    sql = _statements().get(key)
    if sql is None:
        qn = connection.ops.quote_name
        columns = ", ".join(f"{qn(f.column)} = %s" for f in fields)
        table_name, pk = qn(Table._meta.db_table), qn(Table._meta.pk.column)
        sql = _statements()[key] = f"UPDATE {table_name} SET {columns} WHERE {pk} = %s"
    params = [f.get_db_prep_save(f.pre_save(table, False), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, table.pk])
        if cursor.rowcount != 1:
            raise DatabaseError("Save with update_fields did not affect any rows.")


# ------------------------------------------------------------------- creating


@dataclass
class SeatSpec:
    kind: str  # "me", "human" (open for a friend), "cpu", "player" (a named person)
    level: str = "medium"
    user: Any = None  # a "player" seat's account
    name: str = ""  # a "player" seat's name at the table


def _validated_options(variant: str, options: dict[str, Any], seats: int) -> dict[str, Any]:
    """The table's options, checked, for ``seats`` seats."""
    try:
        opts = engine_options.validate_options(variant, options)
    except Refusal as r:
        raise ActionRefused(r.code, r.message) from r
    n = opts["players"]
    if seats != n:
        raise ActionRefused("bad_option", f"this table needs {n} seats")
    return opts


# The turn clock [D8]: whenever two or more people sit at a table their turns are timed
# (docs/clock-and-presence.md). 30 s unless the table chose 15 or 60; "no clock" only
# where a casual table of friends chose it, never at a rated or quick-match table. A
# table of one person (a solo challenge, a table of CPUs) waits for that person.
DEFAULT_CLOCK_S = 30
PEOPLE_SEATS = ("me", "human", "player")


def _with_turn_clock(
    variant: str,
    options: dict[str, Any],
    seats: list[SeatSpec],
    *,
    rated: bool = False,
    quick_match: bool = False,
) -> dict[str, Any]:
    """``options`` with the table's turn clock (the engine option ``clock``, seconds) set
    by the rules above: none for fewer than two people unless asked for (the new-table
    form asks only for two or more: ``CreateTableForm.options``); 30 s at a quick-match table;
    30 s when none was chosen (an organiser's table included: a tournament that says
    ``clock: 0`` keeps no clock) or when a rated table asked for none."""
    if "clock" not in engine_options.VARIANTS.get(variant, {}).get("options", {}):
        return options
    people = sum(1 for s in seats if s.kind in PEOPLE_SEATS)
    chosen = options.get("clock")
    if people < 2:
        clock = chosen or 0  # one person is not timed unless the table asked for it
    elif quick_match or chosen is None or (rated and not chosen):
        clock = DEFAULT_CLOCK_S
    else:
        clock = chosen
    return {**options, "clock": clock}


def _open_table(
    *,
    variant: str,
    opts: dict[str, Any],
    seats: list[SeatSpec],
    kind: str,
    user: Any = None,
    guest_key: str = "",
    created_by: Any = None,
    away_since: datetime | None = None,
    at: datetime | None = None,
    rated: bool = False,
    public: bool = False,
    quick_match: bool = False,
    competitive: bool = False,
    organised: bool = False,
) -> Table:
    """Store a new table and its seats, in ``seats`` order (a "me" seat is the
    caller's: ``user`` or ``guest_key``; a "player" seat names its own account and
    counts as away from ``away_since``); deal its first hand when no seat waits
    for a person, and broadcast on commit. A step of an action: the caller holds
    the transaction."""
    table = Table.objects.create(
        variant=variant,
        options=opts,
        kind=kind,
        created_by=created_by,
        guest_key=guest_key,
        rated=rated,
        public=public,
        quick_match=quick_match,
        competitive=competitive or rated,
        organised=organised,
    )
    for pos, spec in enumerate(seats):
        seat = Seat(table=table, position=pos)
        if spec.kind == "me":
            if user is not None and user.is_authenticated:
                seat.user = user
            else:
                seat.guest_key = guest_key
            # no socket is open on a new seat: away (the grace of a drop) until the
            # player's page connects (do_set_presence); a seat taken by a bare POST and
            # never opened must not hold the table up
            seat.away_since = at or now()
        elif spec.kind == "player":
            seat.user, seat.name, seat.away_since = spec.user, spec.name, away_since
        elif spec.kind == "cpu":
            seat.is_cpu = True
            seat.cpu_level = spec.level if spec.level in cpu.LEVELS else "medium"
            seat.name = cpu.cpu_name(pos, seat.cpu_level)
        seat.save()
    if not any(s.is_open for s in table.seats.all()):
        start_hand(table, at=at)
    broadcast_on_commit(table)
    return table


def do_create_table(
    *,
    variant: str,
    options: dict[str, Any],
    seats: list[SeatSpec],
    user: Any = None,
    guest_key: str = "",
    kind: str = Table.Kind.ONLINE,
    rated: bool = False,
    public: bool = False,
    quick_match: bool = False,
    competitive: bool = False,
) -> Table:
    """Create a table; start its first hand at once when no seat waits for a person.
    A rated table is refused for a guest or with a CPU seat (games/ratings/rules.py).
    ``public`` lists it among the lobby's live tables; ``quick_match`` marks a table
    opened by quick match (games/matchmaking/services.py). A rated table is always
    ``competitive`` (no engine help for a seat); a solo challenge run asks for it."""
    if rated:
        why = rated_refusal(user, [s.kind for s in seats])
        if why is not None:
            raise ActionRefused("not_rated", str(why))
    options = _with_turn_clock(variant, options, seats, rated=rated, quick_match=quick_match)
    opts = _validated_options(variant, options, len(seats))
    seats = arrange_seats(variant, opts, seats)
    with transaction.atomic():
        return _open_table(
            variant=variant,
            opts=opts,
            seats=seats,
            kind=kind,
            user=user,
            guest_key=guest_key,
            created_by=user if user is not None and user.is_authenticated else None,
            rated=rated,
            public=public,
            quick_match=quick_match,
            competitive=competitive,
        )


def do_seat_players(
    *,
    variant: str,
    options: dict[str, Any],
    seats: list[SeatSpec],
    created_by: Any = None,
    away_since: datetime | None = None,
    at: datetime | None = None,
    competitive: bool = False,
) -> Table:
    """Open an online table with its players already seated where the caller says
    ("player" seats, bound to their accounts, and "cpu" fill seats; no seat is
    moved) and deal its first hand: a tournament's table (``organised``: played out
    under the organiser's rules, games/models.py). The players count as
    away from ``away_since`` (their CPU plays for them once the away grace has
    passed since then, until they connect)."""
    if any(s.kind not in ("player", "cpu") for s in seats):
        raise ActionRefused("bad_option", "every seat is a named player or a CPU")
    options = _with_turn_clock(variant, options, seats)
    opts = _validated_options(variant, options, len(seats))
    with transaction.atomic():
        return _open_table(
            variant=variant,
            opts=opts,
            seats=seats,
            kind=Table.Kind.ONLINE,
            created_by=created_by,
            away_since=away_since,
            at=at,
            competitive=competitive,
            organised=True,
        )


def arrange_seats(variant: str, options: dict[str, Any], seats: list[SeatSpec]) -> list[SeatSpec]:
    """Where the rules seat two people at a four-seat table opposite each other
    (``Rules.humans_opposite``: seventeen [D4], partners at fifty-one [D14]):
    when exactly two seats are for people, the second person moves to seat 2."""
    people = [i for i, s in enumerate(seats) if s.kind in ("me", "human")]
    opposite = rules_for(variant).humans_opposite(options)
    if len(seats) == 4 and opposite and len(people) == 2 and people != [0, 2]:
        other = people[1] if people[0] == 0 else people[0]
        seats = list(seats)
        seats[2], seats[other] = seats[other], seats[2]
    return seats


def do_join_table(
    table_id: int, *, user: Any = None, guest_key: str = "", quick_matched: bool = False
) -> Seat:
    """Take the first free seat of a waiting table (the last one starts the game).
    A quick-match table's seats are given by quick match alone: it checks the rating
    window, then joins with ``quick_matched`` (games/matchmaking/services.py); any other
    way in (the table page's "Take a seat" URL) is refused with ``quick_match_only``."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        seats = list(table.seats.all())
        mine = seat_of(seats, user, guest_key)
        if mine is not None:
            return mine
        if table.status != Table.Status.WAITING:
            raise ActionRefused("table_full", "this table has already started")
        if table.quick_match and not quick_matched:
            raise ActionRefused(
                "quick_match_only", "a quick-match table is joined through quick match"
            )
        if table.rated and not (user is not None and user.is_authenticated):
            raise ActionRefused("not_rated", str(GUESTS_REFUSED))
        free = [s for s in seats if s.is_open]
        if not free:
            raise ActionRefused("table_full", "every seat is taken")
        seat = free[0]
        if user is not None and user.is_authenticated:
            seat.user = user
        else:
            seat.guest_key = guest_key
        # away until the player's page connects (as in _open_table): a seat taken by a
        # bare POST (or quick match's "Play now") and never opened is played by its
        # stand-in after the away grace instead of freezing the table
        seat.away_since = now()
        seat.save()
        if len(free) == 1:
            start_hand(table)
        else:
            table.version += 1
            table.save()
        broadcast_on_commit(table)
        return seat


def do_leave_table(table_id: int, *, user: Any = None, guest_key: str = "") -> Table:
    """Give up one's seat at a waiting table (quick match's "Leave"): the seat is free
    again and the others see it go; a table nobody waits at any more is abandoned. The
    seat is stored anew (a new row in the same place), so a socket still open on the old
    row sees the table as a watcher does and never the next occupant's rack."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        seats = list(table.seats.all())
        mine = seat_of(seats, user, guest_key)
        if mine is None:
            raise ActionRefused("not_waiting_here", "you are not waiting at this table")
        if table.status != Table.Status.WAITING:
            raise ActionRefused("game_started", "the game has started: the seat is played")
        position = mine.position
        others = [s for s in seats if s.position != position and not s.is_open]
        mine.delete()  # its connection rows go with it
        Seat.objects.create(table=table, position=position)
        if not others:
            table.status = Table.Status.ABANDONED
        table.version += 1
        table.save()
        broadcast_on_commit(table)
        return table


def do_fill_with_cpus(
    table_id: int, *, user: Any = None, guest_key: str = "", at: datetime | None = None
) -> Table:
    """The host starts a waiting table at once: CPUs take the free seats. At a
    quick-match table any player waiting there may, once the table has waited its
    minute (games/matchmaking/rules.py); before, ``too_early`` says how long is left."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        seats = list(table.seats.all())
        host = seat_of(seats, user, guest_key)
        if host is None or (host.position != 0 and not table.quick_match):
            raise ActionRefused("not_host", "only the table's host can do that")
        if table.status != Table.Status.WAITING:
            raise ActionRefused("table_full", "this table has already started")
        left = fill_wait(table, at or now()) if table.quick_match else 0
        if left:
            raise ActionRefused(
                "too_early",
                messages.RefusalText.of(
                    f"CPUs can take the free seats in {left} s", {"seconds": left}
                ),
            )
        for s in seats:
            if s.is_open:
                s.is_cpu, s.cpu_level = True, "medium"
                s.name = cpu.cpu_name(s.position, s.cpu_level)
                s.save()
                table.rated = False  # a CPU seat makes the table casual (ratings/rules.py)
                table.competitive = False
        start_hand(table)
        broadcast_on_commit(table)
        return table


def do_abandon_solo(table_id: int, *, user: Any = None, guest_key: str = "") -> Table:
    """Give up an unfinished solo game (its player only): it stops, no CPU or clock
    is due any more, and it never counts. A finished game stays as it is."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        if (
            table.kind != Table.Kind.SOLO
            or seat_of(list(table.seats.all()), user, guest_key) is None
        ):
            raise ActionRefused("not_seated", "this is not your solo game")
        if table.status in (Table.Status.PLAYING, Table.Status.WAITING):
            table.status = Table.Status.ABANDONED
            table.cpu_due_at = None
            table.turn_deadline = None
            table.version += 1
            table.save()
            broadcast_on_commit(table)
        return table


def seat_of(seats: list[Seat], user: Any, guest_key: str) -> Seat | None:
    for s in seats:
        if s.is_cpu:
            continue
        if user is not None and user.is_authenticated and s.user_id == user.pk:
            return s
        if guest_key and s.guest_key == guest_key and s.user_id is None:
            return s
    return None


# ---------------------------------------------------------------------- hands


def start_hand(table: Table, *, at: datetime | None = None) -> Hand:
    """Deal the table's next hand. A step of an action, not one: the caller holds
    the table row lock and broadcasts on commit."""
    at = at or now()
    number = table.hands.count()
    game = game_for(table)
    starter = game.next_starter()
    seed = seed_source(table, number)
    state = game.new_hand(seed)
    hand = Hand.objects.create(
        table=table,
        number=number,
        seed=seed,
        seed_commitment=Hand.commit_to(seed),
        starter=starter,
        snapshot=state.to_json(),
    )
    table.status = Table.Status.PLAYING
    table.version += 1
    _schedule(table, state, at)
    table.save()
    return hand


def do_next_hand(table_id: int, version: int, *, at: datetime | None = None) -> Table:
    """Deal the next hand once the current one is over ("Next hand")."""
    with transaction.atomic():
        table = _lock(table_id)
        if table.version != version:
            if _repeats_next_hand(table, version):
                return table  # a double click on "Next hand": already done
            raise _stale()
        hand = table.current_hand
        if hand is None or hand.result is None:
            raise ActionRefused("hand_not_over", "the hand is still being played")
        if table.status == Table.Status.FINISHED:
            raise ActionRefused("game_over", "the game is over")
        start_hand(table, at=at)
        broadcast_on_commit(table)
        return table


def _repeats_last_action(
    table: Table, seat_position: int, action: dict[str, Any], version: int
) -> bool:
    """True when ``action``, sent on ``version``, is the very move accepted on that
    version (a double click, or a second frame sent before the first one's answer
    came back): the table's only change since is that move, by the same seat. The
    sender then gets the fresh table and no refusal; any other stale move is refused."""
    if version != table.version - 1:
        return False
    hand, state, _game = snapshot(table)
    if hand is None or state is None or not state.actions:
        return False
    try:
        again = engine_actions.normalize_action({**action, "seat": seat_position}, state.n_players)
    except Refusal:
        return False
    return again == state.actions[-1]


def _repeats_next_hand(table: Table, version: int) -> bool:
    """True when "Next hand", sent on ``version``, is what moved the table on: the
    current hand was started on that version and nobody has moved in it yet."""
    if version != table.version - 1:
        return False
    hand, state, _game = snapshot(table)
    return (
        hand is not None
        and hand.number > 0
        and hand.result is None
        and state is not None
        and not state.actions
    )


def do_submit_action(
    table_id: int,
    seat_position: int,
    action: dict[str, Any],
    version: int | None,
    *,
    by_cpu: bool = False,
    at: datetime | None = None,
    seat_id: int | None = None,
) -> Table:
    """Apply one engine action for a seat. Raises ActionRefused; changes nothing then.

    ``seat_id`` is the seat row the player's socket was opened for: a socket left open on
    a seat its owner gave up (the row is gone, another person may sit there now) is
    refused as a spectator's.

    The common path is five queries, BEGIN and COMMIT included: the table locked and
    read with its seats (``_lock``), the action's row inserted, the table's changed
    columns updated. The engine state comes from the snapshot cache
    (``realtime.snapshot``) and is not written back: the hand's snapshot is rewritten
    every ``SNAPSHOT_EVERY`` actions and when the hand ends (games/models.py). The
    returned table carries the seats it was read with, for the frames that follow."""
    at = at or now()
    with transaction.atomic():
        table = _lock(table_id)
        if seat_id is not None and not any(
            s.pk == seat_id and s.position == seat_position for s in table.seats.all()
        ):
            raise ActionRefused("not_seated", "this seat is no longer yours")
        if version is not None and table.version != version:
            if _repeats_last_action(table, seat_position, action, version):
                return table  # a double click: the same move was just accepted
            raise _stale()
        if table.status != Table.Status.PLAYING:
            raise ActionRefused("hand_over", "no hand is being played at this table")
        if not by_cpu and _seat_at(table, seat_position).forfeited_at is not None:
            raise ActionRefused("already_left", "you left this game: your stand-in plays it")
        hand, state, game = snapshot(table)
        if hand is None or state is None or hand.result is not None:
            raise ActionRefused("hand_over", "the hand is over")
        if not by_cpu:
            _player_acted(table, seat_position)
        _apply(table, (hand, state, game), seat_position, action, by_cpu=by_cpu, at=at)
        return table


def _player_acted(table: Table, position: int) -> None:
    """A person's own move ends their row of time-outs (``Seat.timeouts``): the stand-in
    gives the seat back. Written only when there was a row (the common path writes
    nothing more). Before ``_apply``, so the turn it schedules sees the seat as played."""
    seat = _seat_at(table, position)
    if seat.timeouts:
        seat.timeouts = 0
        seat.save(update_fields=["timeouts"])


def do_come_back(table_id: int, *, user: Any = None, guest_key: str = "") -> Table:
    """ "I'm back": a person whose stand-in plays because their clock ran out
    ``AWAY_AFTER_TIMEOUTS`` turns in a row takes their seat back (``Seat.timeouts`` to 0).
    On their own turn a stand-in move not yet played is called off (the turn clock runs
    on). Refused (``not_seated``) for someone without a seat; saying it twice changes
    nothing. Shown, not played: no version bump (a pending move stays valid)."""
    with transaction.atomic():
        table = _lock(table_id)
        seat = seat_of(list(table.seats.all()), user, guest_key)
        if seat is None:
            raise ActionRefused("not_seated", "you have no seat at this table")
        if not seat.timeouts:
            return table
        seat.timeouts = 0
        seat.save(update_fields=["timeouts"])
        hand, state, _game = snapshot(table)
        if (
            table.status == Table.Status.PLAYING
            and state is not None
            and not state.over
            and state.turn == seat.position
            and not stand_in_plays(seat)
        ):
            table.cpu_due_at = None
        table.save(update_fields=["cpu_due_at", "updated_at"])
        broadcast_on_commit(table, presence=True)
        return table


def _apply(
    table: Table,
    current: tuple[Hand, engine_state.HandState, engine_game.Game],
    seat_position: int,
    action: dict[str, Any],
    *,
    by_cpu: bool,
    at: datetime,
) -> tuple[Hand, engine_state.HandState, engine_game.Game]:
    """Apply, store and schedule one action on a locked table (``_lock``) whose hand
    (``current``: hand, state, game, as ``realtime.snapshot`` gives them) is being
    played; broadcast on commit. Returns the new (hand, state, game). A step of an
    action: the caller holds the transaction."""
    hand, state, game = current
    hand = copy.copy(hand)  # the snapshot's hand stays as it was at this version
    action = {**action, "seat": seat_position}
    try:
        if not by_cpu:  # the server's own actions (CPU, time-out) are never limited
            engine_actions.check_free_action_limit(state, action)
        new_state, _events = engine_actions.apply(state, action)
    except Refusal as r:
        # the message keeps the refusal's numbers for its translation
        raise ActionRefused(r.code, messages.RefusalText.of(r.message, r.detail)) from r
    row = HandAction(
        hand=hand,
        index=len(state.actions),  # the engine state holds every accepted action
        seat=seat_position,
        payload=action,
        by_cpu=by_cpu,
    )
    _insert_action(row)
    if new_state.over:
        game = _finish_hand(table, hand, new_state, at)
    if new_state.over or len(new_state.actions) % SNAPSHOT_EVERY == 0:
        hand.snapshot = new_state.to_json()
        hand.save(update_fields=["snapshot", "result", "finished_at"])
    table.version += 1
    _schedule(
        table,
        new_state,
        at,
        same_turn=not new_state.over and new_state.turn_no == state.turn_no,
        cpu_step=by_cpu,
    )
    if new_state.over:
        table.save()  # the hand's end may change the status (the game is over)
    else:
        _save_table(table, _ACTION_FIELDS)
    remember_on_commit(table, (hand, new_state, game))
    broadcast_on_commit(table)
    return hand, new_state, game


def _finish_hand(
    table: Table, hand: Hand, state: engine_state.HandState, at: datetime
) -> engine_game.Game:
    game = game_for(table)
    recorded = game.record_hand(state)
    hand.result = {**state.result, **recorded.to_json()}
    hand.finished_at = at
    for line in state.scores:
        ScoreLine.objects.create(
            hand=hand,
            seat=line["seat"],
            points=line["points"],
            reason=line["reason"],
            detail=line.get("detail", {}),
        )
    if game.is_over():
        table.status = Table.Status.FINISHED
        table.finished_at = at
        table.save()
        # a rated table's players' ratings change here, once (games/ratings/api.py)
        ratings.apply_finished_game(table, game, at=at)
        game_finished.send(sender=Table, table=table, game=game)
    return game


# ------------------------------------------------------------ CPU and clocks


def grace() -> timedelta:
    """How long a dropped player's seat waits before its CPU plays for it."""
    return timedelta(seconds=getattr(settings, "OKEY_AWAY_GRACE_S", 15))


def cpu_delay() -> timedelta:
    return timedelta(milliseconds=getattr(settings, "OKEY_CPU_DELAY_MS", 700))


# After this many turns in a row on which the clock ran out (``Seat.timeouts``) the seat
# counts as away: its stand-in CPU plays its turns until the player acts again (a move of
# their own, or "I'm back": ``do_come_back``).
AWAY_AFTER_TIMEOUTS = 2


def turn_clock(table: Table) -> timedelta | None:
    """The table's turn clock (its engine option ``clock``; None: no clock).
    ``OKEY_TURN_CLOCK_S`` (tests and demos only) runs every clock that many seconds."""
    seconds = int(table.options.get("clock") or 0)
    if not seconds:
        return None
    override = getattr(settings, "OKEY_TURN_CLOCK_S", 0)
    return timedelta(seconds=float(override) if override else seconds)


def stand_in_plays(seat: Seat) -> bool:
    """Whether a person's seat is played by its stand-in CPU: its owner has no open
    socket (after the away grace), timed out ``AWAY_AFTER_TIMEOUTS`` turns in a row,
    or forfeited the game."""
    return not seat.is_cpu and (
        seat.away_since is not None
        or seat.timeouts >= AWAY_AFTER_TIMEOUTS
        or seat.forfeited_at is not None
    )


def _schedule(
    table: Table,
    state: engine_state.HandState,
    at: datetime,
    *,
    same_turn: bool = False,
    cpu_step: bool = False,
) -> None:
    """Set when the next CPU move and the turn clock fall due.

    A CPU seat moves after a short visible delay; a human seat that is away
    (no open connection) is played by its CPU once the grace period since it
    left has passed; a present human gets the table's turn clock, if any.

    ``same_turn``: the action just applied left the same turn going (a draw, a
    lay-down, an undo, a returned discard, and every free action: a flip, an
    arrange, by any seat). Such an action never postpones anything: the turn
    clock runs from the start of the turn to its end, and a due CPU move stays
    due. Only the CPU's own step (``cpu_step``: it plays a turn one action at a
    time) sets its next step, after the visible delay.
    """
    if same_turn and table.status == Table.Status.PLAYING:
        if cpu_step:
            table.cpu_due_at = at + cpu_delay()
        return
    table.cpu_due_at = None
    table.turn_deadline = None
    if table.status != Table.Status.PLAYING:
        return
    if state.over:
        _schedule_next_hand(table, at)
        return
    seat = _seat_at(table, state.turn)
    if seat.is_cpu or seat.forfeited_at is not None:  # a CPU, or a leaver's stand-in
        table.cpu_due_at = at + cpu_delay()
        return
    if seat.timeouts >= AWAY_AFTER_TIMEOUTS:
        table.cpu_due_at = at + cpu_delay()  # away by time-outs: no grace to wait
    elif seat.away_since is not None:
        table.cpu_due_at = max(seat.away_since + grace(), at + cpu_delay())
    clock = turn_clock(table)
    if clock:
        table.turn_deadline = at + clock


def _seat_at(table: Table, position: int) -> Seat:
    """The table's seat at ``position``, from the seats the action read (``_lock``)."""
    return next(s for s in table.seats.all() if s.position == position)


def _everyone_away(table: Table) -> tuple[bool, datetime | None]:
    """Whether no person is at the table (every human seat away), and since when."""
    people = [s for s in table.seats.all() if not s.is_cpu]
    if any(s.away_since is None for s in people):
        return False, None
    return True, max((s.away_since for s in people), default=None)


def _deals_unattended(table: Table) -> bool:
    """Whether the table deals its next hand with no person at it: an organiser's table
    (a tournament round must reach its end) or a table with no person's seat at all."""
    return table.organised or all(s.is_cpu for s in table.seats.all())


def _schedule_next_hand(table: Table, at: datetime) -> None:
    """A finished hand waits for someone at the table to press "Next hand". A table
    nobody is at (every person away) deals no new hand: the hand in play was finished
    by the stand-ins, and the game waits for a person to come back. An organiser's table
    (``Table.organised``: a tournament round, which must reach its end) is the
    exception, and so is a table of CPUs alone (the benchmarks'): when every person has
    left (or its players never came) the sweeper deals the next hand once the grace
    period is over, after a pause to show the result."""
    empty, since = _everyone_away(table)
    if empty and _deals_unattended(table):
        pause = at + 4 * cpu_delay()
        table.cpu_due_at = max(since + grace(), pause) if since is not None else pause


def do_play_due(table_id: int, *, at: datetime | None = None) -> bool:
    """Play one due CPU move (a CPU seat, or an away player's seat after the
    grace period) or an expired turn clock. Idempotent: the table row is
    locked and the due time re-checked, so several sweepers (processes) never
    play a move twice; returns False, changing nothing, when nothing is due.
    The move is applied in the same transaction and from the same read as the
    checks (``_apply``): as lean as a player's ``do_submit_action``."""
    at = at or now()
    with transaction.atomic():
        table = _lock(table_id)
        cpu_due = table.cpu_due_at is not None and table.cpu_due_at <= at
        clock_due = table.turn_deadline is not None and table.turn_deadline <= at
        if table.status != Table.Status.PLAYING or not (cpu_due or clock_due):
            return False
        hand, state, game = snapshot(table)
        if (
            hand is not None
            and hand.result is not None
            and cpu_due
            and _deals_unattended(table)
            and _everyone_away(table)[0]
        ):
            start_hand(table, at=at)  # a tournament's (or CPUs') table nobody is at
            broadcast_on_commit(table)
            return True
        if hand is None or state is None or hand.result is not None:
            table.cpu_due_at = table.turn_deadline = None
            table.save(update_fields=["cpu_due_at", "turn_deadline", "updated_at"])
            return False
        seat = _seat_at(table, state.turn)
        if cpu_due and not clock_due and not seat.is_cpu and not stand_in_plays(seat):
            # the player came back (or acted, or said "I'm back") before the stand-in
            # moved; the clock runs on
            deadline = table.turn_deadline
            _schedule(table, state, at)
            if deadline is not None:
                table.turn_deadline = deadline
            table.save(update_fields=["cpu_due_at", "turn_deadline", "updated_at"])
            return False
        if clock_due and not cpu_due and table.cpu_due_at is not None:
            last = hand.actions.order_by("-index").first()
            if last is not None and last.by_cpu and last.seat == state.turn:
                return (
                    False  # the seat's CPU is playing out the timed-out turn: its next step waits
                )
        timed_out = clock_due and not cpu_due
        if not seat.is_cpu:
            _count_timeout(seat, timed_out)
        action = cpu.choose(state, state.turn, seat.cpu_level, timeout=timed_out)
        current = (hand, state, game)
        if action.get("type") == "timeout":
            # [D8] the opening turn's time-out discards the rightmost tile: the one
            # rightmost on the player's own rack, so record that order first.
            current = _arrange_as_seen(table, seat, current, at)
        _apply(table, current, state.turn, action, by_cpu=True, at=at)
    return True


def _count_timeout(seat: Seat, timed_out: bool) -> None:
    """Count a person's turn the server starts playing (``Seat.timeouts``): +1 when their
    clock ran out; a turn their stand-in plays because they are away (no socket) breaks
    the row of time-outs (back to 0), so a returning player is told what happened while
    they were away, not about a time-out long past. Turns the stand-in plays for a seat
    already away by time-outs leave the count as it is (until the player acts)."""
    if timed_out:
        seat.timeouts += 1
    elif seat.away_since is not None and seat.timeouts:
        seat.timeouts = 0
    else:
        return
    seat.save(update_fields=["timeouts"])


def _arrange_as_seen(
    table: Table,
    seat: Seat,
    current: tuple[Hand, engine_state.HandState, engine_game.Game],
    at: datetime,
) -> tuple[Hand, engine_state.HandState, engine_game.Game]:
    """Apply the engine's ``arrange`` with the order the player sees (their
    slots, left to right, top row first); return the hand, state and game after it."""
    state = current[1]
    rack = list(state.racks[seat.position])
    seen = [t for t in arrange_slots(rack, seat.rack_order or []) if t is not None]
    if seen == rack:
        return current
    return _apply(
        table,
        current,
        seat.position,
        {"type": "arrange", "tiles": seen},
        by_cpu=True,  # the server arranges for the time-out
        at=at,
    )


def due_tables(at: datetime | None = None) -> list[int]:
    at = at or now()
    return list(
        Table.objects.filter(status=Table.Status.PLAYING)
        .filter(Q(cpu_due_at__lte=at) | Q(turn_deadline__lte=at))
        .values_list("pk", flat=True)[:200]
    )


# The sweeper runs every few tenths of a second; forfeits are looked for once a second.
FORFEIT_CHECK_S = 1.0
_forfeits_checked = -FORFEIT_CHECK_S


def sweep(at: datetime | None = None) -> int:
    """Play everything that is due (one move per table per sweep), after recording the
    forfeits that fell due (``sweep_forfeits``)."""
    global _forfeits_checked
    played = 0
    if at is not None or time.monotonic() - _forfeits_checked >= FORFEIT_CHECK_S:
        _forfeits_checked = time.monotonic()
        played += sweep_forfeits(at)
    for table_id in due_tables(at):
        try:
            if do_play_due(table_id, at=at):
                played += 1
        except ActionRefused:
            continue
    return played


# ------------------------------------------------------- leavers (rated games)
#
# Anchored on lichess's rules. A rated game is played out by its people: one who
# presses Leave, or stays away (no open socket) longer than the forfeit grace,
# forfeits: their stand-in CPU finishes the game for the others and the rating
# update places them last whatever it scores (several leavers: the first to leave
# last; games/ratings/api.py). A game that cannot count yet is aborted instead,
# unrated, and says so: while its first hand is being played, when a person leaves
# before making a move of their own, or when every person has left. A rated game
# that every person has left after its first hand ends there, rated by leaving order.
# Tournament tables (``Table.organised``) follow the organiser's rules instead: a
# seat whose player is gone is played by its CPU and scored as played.


def forfeit_grace() -> timedelta:
    """How long a person may be away from a rated game before they forfeit it."""
    return timedelta(seconds=getattr(settings, "OKEY_FORFEIT_GRACE_S", 60))


def _made_a_move(table: Table, position: int) -> bool:
    """Whether the seat's person played a move of their own in this game (a free action
    such as arranging the rack is not a move)."""
    return (
        HandAction.objects.filter(hand__table=table, seat=position, by_cpu=False)
        .exclude(payload__type__in=sorted(engine_actions.FREE_ACTIONS))
        .exists()
    )


def _people(table: Table) -> list[Seat]:
    return [s for s in table.seats.all() if not s.is_cpu]


def do_forfeit(
    table_id: int,
    position: int,
    *,
    at: datetime | None = None,
    left: bool = False,
    seat_id: int | None = None,
) -> Table:
    """A person leaves a rated game (``left``: they pressed Leave; else they stayed away
    past the forfeit grace). Aborts the game while it cannot count yet, else records the
    forfeit (``Seat.forfeited_at``): the stand-in plays the seat from now on. Refused at
    a table that is not a rated game in play, or for a seat already forfeited; with
    ``seat_id`` (the seat row a socket was opened for), for a seat no longer that one."""
    at = at or now()
    with transaction.atomic():
        table = _lock(table_id)
        if seat_id is not None and not any(
            s.pk == seat_id and s.position == position for s in table.seats.all()
        ):
            raise ActionRefused("not_seated", "this seat is no longer yours")
        if not table.rated or table.organised or table.status != Table.Status.PLAYING:
            raise ActionRefused("not_rated_game", "only a rated game in play can be forfeited")
        seat = _seat_at(table, position)
        if seat.is_cpu or seat.forfeited_at is not None:
            raise ActionRefused("already_left", "this seat has already left the game")
        if not left and (seat.away_since is None or seat.away_since + forfeit_grace() > at):
            return table  # came back meanwhile (a sweep that raced a reconnect)
        hand, state, _game = snapshot(table)
        first_hand = hand is not None and hand.number == 0 and hand.result is None
        others = [s for s in _people(table) if s.position != position]
        everyone_gone = all(
            s.forfeited_at is not None
            or (s.away_since is not None and s.away_since + forfeit_grace() <= at)
            for s in others
        )
        if first_hand and (everyone_gone or not _made_a_move(table, position)):
            _abort(table, at)
            return table
        seat.forfeited_at = at
        seat.away_since = seat.away_since or at
        seat.timeouts = 0
        seat.save(update_fields=["forfeited_at", "away_since", "timeouts"])
        if all(s.forfeited_at is not None for s in _people(table)):
            _end_left_game(table, at)
            return table
        if state is not None and not state.over and state.turn == position:
            table.cpu_due_at = at + cpu_delay()  # the stand-in takes the turn now
            table.turn_deadline = None
        table.version += 1
        table.save()
        broadcast_on_commit(table)
        return table


def _abort(table: Table, at: datetime) -> None:
    """End a rated game that cannot count: unrated, nothing more is due."""
    table.status = Table.Status.ABORTED
    table.cpu_due_at = table.turn_deadline = None
    table.finished_at = at
    table.version += 1
    table.save()
    broadcast_on_commit(table)


def _end_left_game(table: Table, at: datetime) -> None:
    """Every person has forfeited a rated game after its first hand: it ends here (no
    stand-ins play on for nobody) and is rated by leaving order."""
    table.status = Table.Status.FINISHED
    table.cpu_due_at = table.turn_deadline = None
    table.finished_at = at
    table.version += 1
    table.save()
    ratings.apply_finished_game(table, at=at)
    broadcast_on_commit(table)


def do_leave_game(table_id: int, *, user: Any = None, at: datetime | None = None) -> Table:
    """The table page's "Leave" at a rated game in play: the player's own forfeit."""
    table = Table.objects.get(pk=table_id)
    mine = seat_of(list(table.seats.all()), user, "")
    if mine is None:
        raise ActionRefused("not_seated", "you have no seat at this table")
    return do_forfeit(table_id, mine.position, at=at, left=True)


def forfeits_due(at: datetime | None = None) -> list[tuple[int, int]]:
    """(table id, seat position) of every person away from a rated game in play for
    longer than the forfeit grace who has not forfeited yet."""
    at = at or now()
    return list(
        Seat.objects.filter(
            table__rated=True,
            table__organised=False,
            table__status=Table.Status.PLAYING,
            is_cpu=False,
            forfeited_at__isnull=True,
            away_since__lte=at - forfeit_grace(),
        ).values_list("table_id", "position")[:200]
    )


def sweep_forfeits(at: datetime | None = None) -> int:
    """Record every forfeit that is due (``forfeits_due``); idempotent: a second sweeper
    finds the seat forfeited, or the table no longer in play, and changes nothing."""
    done = 0
    for table_id, position in forfeits_due(at):
        try:
            do_forfeit(table_id, position, at=at)
            done += 1
        except ActionRefused:
            continue
    return done


# --------------------------------------------------------------- rack order


def arrange_slots(rack_ids: list[int], saved: list[int | None]) -> list[int | None]:
    """The seat's own order of its rack: keep saved slots of tiles still held,
    put new tiles in the first free slots after the last placed tile."""
    held = set(rack_ids)
    slots: list[int | None] = [None] * RACK_SLOTS
    placed: set[int] = set()
    for i, tid in enumerate(saved[:RACK_SLOTS]):
        if isinstance(tid, int) and tid in held and tid not in placed:
            slots[i] = tid
            placed.add(tid)
    missing = [t for t in rack_ids if t not in placed]
    if missing:
        last = max((i for i, t in enumerate(slots) if t is not None), default=-1)
        free = [i for i in range(last + 1, RACK_SLOTS) if slots[i] is None]
        free += [i for i in range(0, last + 1) if slots[i] is None]
        for tid, i in zip(missing, free, strict=False):
            slots[i] = tid
    return slots


def do_save_rack_order(seat_id: int, order: Any) -> None:
    """Save the player's own arrangement: ``RACK_SLOTS`` slots (the engine's rack layout,
    ``racksort.py``) of their tile ids or gaps.
    Anything else (foreign or repeated ids, wrong shape) is refused unchanged.
    Private to the seat: no version, no broadcast."""
    if (
        not isinstance(order, list)
        or len(order) > RACK_SLOTS
        or any(t is not None and type(t) is not int for t in order)
    ):
        raise ActionRefused(
            "bad_action", f"a rack order is a list of {RACK_SLOTS} tile ids or gaps"
        )
    seat = Seat.objects.select_related("table").get(pk=seat_id)
    _hand, state, _game = snapshot(seat.table)
    held = set(state.racks[seat.position]) if state is not None else set()
    ids = [t for t in order if t is not None]
    if len(set(ids)) != len(ids) or not set(ids) <= held:
        raise ActionRefused("tile_not_in_rack", "that order holds tiles that are not yours")
    Seat.objects.filter(pk=seat_id).update(rack_order=order)


def do_sort_rack(seat_id: int, mode: str) -> None:
    """Arrange a seat's rack by runs, groups or pairs (the seat's own view only:
    no version, no broadcast; the consumer sends that seat its frame)."""
    seat = Seat.objects.select_related("table").get(pk=seat_id)
    _hand, state, _game = snapshot(seat.table)
    if state is None or state.over:
        return
    seat.rack_order = rack_sort(state, seat.position, mode)
    seat.save(update_fields=["rack_order"])


def resolve_place(table_id: int, position: int, action: dict[str, Any]) -> dict[str, Any]:
    """A tile dropped on a table meld: swap the okey out when the tile is the
    one it stands for, otherwise add the tile to the meld."""
    hand, state, _game = snapshot(Table.objects.get(pk=table_id))
    if hand is None or state is None:
        raise ActionRefused("hand_over", "no hand is being played")
    tile, meld = action.get("tile"), action.get("meld")
    legal = legal_actions(state, position)
    for a in legal:
        if a["type"] == "swap" and a.get("tile") == tile and meld in (None, a.get("meld")):
            return a
    if meld is None:  # assisted table: "put it where it fits" with one tap
        for a in legal:
            if a["type"] == "add" and a.get("tile") == tile:
                return a
        raise ActionRefused("no_place", "that tile fits no meld on the table")
    return {"type": "add", "tile": tile, "meld": meld}


def do_show_hint(table_id: int, position: int) -> dict[str, Any]:
    """ "Show me" for a seat whose turn it is: the expert's choice and why, for that
    seat's own view. Refused (``no_engine_help``) at a competitive table (rated,
    tournament, challenge run: ``Table.competitive``), whatever the frame says; at any
    other table the turn it was asked on is stored once in ``Hand.hints`` (a repeated or
    replayed ask on the same turn stores nothing more), for the score sheet and the
    review. No version, no broadcast: the answer is this seat's alone."""
    with transaction.atomic():
        table = _lock(table_id)
        if table.competitive:
            raise ActionRefused(
                "no_engine_help", "no engine help at a competitive table: it is your own game"
            )
        hand, state, _game = snapshot(table)
        if hand is None or state is None or hand.result is not None:
            raise ActionRefused("hand_over", "the hand is over")
        if state.turn != position:
            raise ActionRefused("not_your_turn", "it is not your turn")
        seat = _seat_at(table, position)
        if seat.is_cpu or seat.forfeited_at is not None:
            raise ActionRefused("not_seated", "this seat is not played by you")
        stored = Hand.objects.filter(pk=hand.pk).values_list("hints", flat=True).first() or {}
        turns = stored.get(str(position), [])
        if state.turn_no not in turns:
            hints = {**stored, str(position): sorted({*turns, state.turn_no})}
            Hand.objects.filter(pk=hand.pk).update(hints=hints)
    # the state is the snapshot's, never changed in place: the expert reads it after the
    # lock is released, so a slow answer holds up nobody's move
    return hint(state, position)


# ------------------------------------------------------------------ presence
#
# A seat is away when its owner has no open websocket. Each open socket is a
# ``SeatConnection`` row (its channel name, the process holding it, when that
# process last vouched for it); ``Seat.connections`` is their count. A socket
# that ends cleanly deletes its row; one that ends any other way (its consumer
# crashed, its process was killed) is found by ``reconcile_presence``, which each
# server process runs from the sweeper: rows of its own that no live consumer
# holds are dropped, and rows no process has vouched for within
# ``OKEY_PRESENCE_TTL_S`` expire. A count can lag by that long, never stick.

PROCESS = secrets.token_hex(8)  # this server process, in its SeatConnection rows


def presence_ttl() -> timedelta:
    return timedelta(seconds=getattr(settings, "OKEY_PRESENCE_TTL_S", 45))


def do_set_presence(
    seat_id: int | None,
    connected: bool,
    *,
    at: datetime | None = None,
    channel: str | None = None,
) -> None:
    """Count a seat owner's open connections; the seat is away when none is
    left. Leaving during one's turn starts the grace period after which the
    seat's CPU plays; coming back hands the seat back at once. ``channel`` names
    the socket (its row); without one, a connect adds an anonymous row and a
    disconnect removes the oldest row of this process."""
    if seat_id is None:
        return
    at = at or now()
    with transaction.atomic():
        seat = Seat.objects.select_for_update().select_related("table").filter(pk=seat_id).first()
        if seat is None:
            return  # the seat was given up (a quick-match wait left): nothing to count
        table = Table.objects.select_for_update().get(pk=seat.table_id)
        rows = SeatConnection.objects.filter(seat_id=seat_id)
        if connected:
            SeatConnection.objects.update_or_create(
                channel=channel or f"{PROCESS}!{secrets.token_hex(8)}",
                defaults={"seat_id": seat_id, "process": PROCESS, "seen_at": at},
            )
        elif channel is not None:
            rows.filter(channel=channel).delete()
        else:
            oldest = rows.filter(process=PROCESS).order_by("pk").first()
            if oldest is not None:
                oldest.delete()
        _count_presence(seat, table, rows.count(), at)


def _count_presence(seat: Seat, table: Table, count: int, at: datetime) -> None:
    """Store a seat's connection count (both rows locked by the caller) and,
    when that makes it away or present, reschedule and tell the table."""
    was_away = seat.away_since is not None
    seat.connections = count
    if count > 0:
        seat.away_since = None
    elif not was_away:
        seat.away_since = at
    seat.save(update_fields=["connections", "away_since"])
    now_away = seat.away_since is not None
    if was_away == now_away or table.status != Table.Status.PLAYING:
        return
    hand, state, _game = snapshot(table)
    if hand is None or state is None:
        return
    if hand.result is not None:  # between hands: is anyone left to deal the next?
        _schedule(table, state, at)
        table.save()
        broadcast_on_commit(table, presence=True)
        return
    if state.turn == seat.position:
        deadline = table.turn_deadline
        _schedule(table, state, at)
        if deadline is not None:
            table.turn_deadline = deadline  # the clock keeps running
    # Presence is shown, not played: no version bump (a player's pending
    # action stays valid); everyone re-renders to see who is away.
    table.save()
    broadcast_on_commit(table, presence=True)


def do_reconcile_presence(
    live: dict[str, int],
    *,
    at: datetime | None = None,
    process: str | None = None,
) -> int:
    """Make the stored presence match the sockets that are really open.

    ``live`` maps the channel name of every table socket this process holds to
    its seat. This process's rows are refreshed (and re-added if another process
    expired them), its rows that no live socket holds are dropped, rows of any
    process not refreshed within the TTL expire, and every seat whose count was
    wrong is recounted (away, CPU scheduled) as if its sockets had closed.
    Returns the number of seats recounted."""
    at = at or now()
    process = process or PROCESS
    touched: set[int] = set()
    with transaction.atomic():
        mine = SeatConnection.objects.filter(process=process)
        gone = mine.exclude(channel__in=list(live))
        touched.update(gone.values_list("seat_id", flat=True))
        gone.delete()
        mine.update(seen_at=at)
        have = set(mine.values_list("channel", flat=True))
        missing = [
            SeatConnection(seat_id=s, process=process, channel=c, seen_at=at)
            for c, s in live.items()
            if c not in have
        ]
        if missing:
            existing = set(
                Seat.objects.filter(pk__in={m.seat_id for m in missing}).values_list(
                    "pk", flat=True
                )
            )
            missing = [m for m in missing if m.seat_id in existing]
            SeatConnection.objects.bulk_create(missing, ignore_conflicts=True)
            touched.update(m.seat_id for m in missing)
        expired = SeatConnection.objects.filter(seen_at__lt=at - presence_ttl())
        touched.update(expired.values_list("seat_id", flat=True))
        expired.delete()
    wrong = (
        Seat.objects.filter(Q(connections__gt=0) | Q(live_connections__isnull=False))
        .annotate(n=Count("live_connections", distinct=True))
        .exclude(connections=F("n"))
        .values_list("pk", flat=True)
    )
    touched.update(wrong)
    for seat_id in sorted(touched):
        with transaction.atomic():
            seat = Seat.objects.select_for_update().filter(pk=seat_id).first()
            if seat is None:
                continue
            table = Table.objects.select_for_update().get(pk=seat.table_id)
            count = SeatConnection.objects.filter(seat_id=seat_id).count()
            if count != seat.connections or (count == 0) != (seat.away_since is not None):
                _count_presence(seat, table, count, at)
    return len(touched)


def do_reset_presence() -> None:
    """At the start of a single server process: nobody is connected yet."""
    SeatConnection.objects.all().delete()
    Seat.objects.filter(connections__gt=0).update(connections=0, away_since=now())


# ------------------------------------------------------------------ sharing
#
# A finished game's share link and an imported record are not live tables: nobody
# watches them over a websocket, so these write without a broadcast.


def do_share_table(table_id: int, *, user: Any = None, guest_key: str = "") -> ShareLink:
    """A share link of a finished game, made by one of its players."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        if seat_of(list(table.seats.all()), user, guest_key) is None:
            raise ActionRefused("not_seated", "this is not one of your games")
        if table.status != Table.Status.FINISHED:
            raise ActionRefused("game_not_over", "only a finished game can be shared")
        signed_in = user is not None and user.is_authenticated
        return ShareLink.objects.create(
            table=table,
            created_by=user if signed_in else None,
            guest_key="" if signed_in else guest_key,
        )


def do_revoke_share(link_id: int, *, user: Any = None, guest_key: str = "") -> ShareLink:
    """Revoke a share link (any player of its game); revoking twice changes nothing."""
    with transaction.atomic():
        link = ShareLink.objects.select_for_update().select_related("table").get(pk=link_id)
        if seat_of(list(link.table.seats.all()), user, guest_key) is None:
            raise ActionRefused("not_seated", "this is not one of your games")
        if link.revoked_at is None:
            link.revoked_at = now()
            link.save(update_fields=["revoked_at"])
        return link


def do_import_record(
    *,
    variant: str,
    title: str,
    document: dict[str, Any],
    hands: list[ImportedHand],
    user: Any = None,
    guest_key: str = "",
) -> ImportedRecord:
    """Store a verified game file and its hands' replays (computed by the caller
    before this transaction, so the database is locked only for the inserts)."""
    signed_in = user is not None and user.is_authenticated
    with transaction.atomic():
        rec = ImportedRecord.objects.create(
            owner=user if signed_in else None,
            guest_key="" if signed_in else guest_key,
            variant=variant,
            title=title[:120],
            data=document,
        )
        for hand in hands:
            hand.record = rec
        ImportedHand.objects.bulk_create(hands)
    return rec


def do_store_imported_hands(rec: ImportedRecord, hands: list[ImportedHand]) -> None:
    """The replays of a record imported before they were stored; a parallel request
    may have stored them first (then these are not)."""
    for hand in hands:
        hand.record = rec
    with contextlib.suppress(IntegrityError), transaction.atomic():
        ImportedHand.objects.bulk_create(hands)


def do_note_import_commentary(record_id: int, key: str, data: dict[str, Any]) -> dict[str, Any]:
    """Keep the CPU commentary of one hand and seat of an imported record (``key``:
    "hand:seat"); when a parallel request kept one first, that one stays and is
    returned (the record's row is locked, so neither loses the other's)."""
    with transaction.atomic():
        rec = ImportedRecord.objects.select_for_update().get(pk=record_id)
        if key in rec.commentary:
            return rec.commentary[key]
        rec.commentary = {**rec.commentary, key: data}
        rec.save(update_fields=["commentary"])
    return data


def do_note_hand_commentary(hand_id: int, seat: int, data: dict[str, Any]) -> dict[str, Any]:
    """Keep the CPU commentary of one seat of a finished hand (a cache of what
    ``review.commentary.compute`` gives for it); when a parallel request kept one
    first, that one stays and is returned. The hand's row is locked, and the
    (hand, seat) constraint backs ``get_or_create``, so two requests store one row."""
    with transaction.atomic():
        hand = Hand.objects.select_for_update().get(pk=hand_id)
        kept, _created = HandCommentary.objects.get_or_create(
            hand=hand, seat=seat, defaults={"data": data}
        )
    return kept.data


# The actions' earlier names, which the tournaments, the server command, the sweeper
# and the benchmarks still call.
create_table = do_create_table
join_table = do_join_table
fill_with_cpus = do_fill_with_cpus
next_hand = do_next_hand
submit_action = do_submit_action
play_due = do_play_due
save_rack_order = do_save_rack_order
sort_rack = do_sort_rack
set_presence = do_set_presence
reconcile_presence = do_reconcile_presence
reset_presence = do_reset_presence
