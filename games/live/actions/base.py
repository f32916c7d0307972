"""What every table action shares: the injected clock and seed source, the refusal,
the row lock and the action path's two prepared writes.

Each ``do_*`` action (``games.live.actions``) locks the table row (``lock_table``),
checks what the caller saw, applies, stores, bumps the version and broadcasts after
commit. Tests replace ``now`` and ``seed_source`` on this module: every action calls
them through it (``base.now()``), so one replacement reaches them all.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.models.signals import post_save, pre_save
from django.db.models.sql.subqueries import InsertQuery
from django.utils import timezone

from games.live.realtime import read_seats
from games.models import HandAction, Seat, Table


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


def stale() -> ActionRefused:
    return ActionRefused("stale_state", "the table has moved on; here is the fresh view")


def lock_table(table_id: int) -> Table:
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
ACTION_FIELDS = ["version", "cpu_due_at", "turn_deadline", "updated_at"]


# The action path's two writes, as SQL made once per database connection. Django builds
# and compiles a query for every ``create`` and ``save``, which cost several times what
# running these one-row statements does. Each value is prepared as the ORM prepares it
# (``pre_save``: the auto-now times; ``get_db_prep_save``), and while anything listens
# to the models' save signals the ORM's own ``save`` runs instead (nothing does today).


def _statements() -> dict[str, Any]:
    return connections[DEFAULT_DB_ALIAS].__dict__.setdefault("_okey_statements", {})


def insert_action(row: HandAction) -> None:
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


def save_table(table: Table, names: list[str]) -> None:
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


def seat_of(seats: list[Seat], user: Any, guest_key: str) -> Seat | None:
    for s in seats:
        if s.is_cpu:
            continue
        if user is not None and user.is_authenticated and s.user_id == user.pk:
            return s
        if guest_key and s.guest_key == guest_key and s.user_id is None:
            return s
    return None


def seat_at(table: Table, position: int) -> Seat:
    """The table's seat at ``position``, from the seats the action read (``lock_table``)."""
    return next(s for s in table.seats.all() if s.position == position)


@dataclass
class SeatSpec:
    kind: str  # "me", "human" (open for a friend), "cpu", "player" (a named person)
    level: str = "medium"
    user: Any = None  # a "player" seat's account
    name: str = ""  # a "player" seat's name at the table
