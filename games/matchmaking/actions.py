"""Quick match: "Play now" for a rule set, and "Fill with CPUs" after a wait.

``do_quick_match(user, variant)`` seats the player at a waiting quick-match table of
that rule set whose seated players are all close to the player's rating, the closest
table first; when none is close enough it opens a new one (rated, public,
``quick_match``) with the player in seat 0 and the other seats free for people, and
the player waits there. A guest (``guest_key=``) plays the same way at casual tables
(see "Guests play casual"). Tables are opened and joined only through the table actions of
``games/live/actions/`` (``do_create_table``, ``do_join_table``); this module chooses.

Rating window
    Each seated player's shown rating (``games.ratings.api.current_rating``, 1500 for a
    new player) must be within ``window_for(wait)`` of the presser's, where ``wait`` is
    how long the table has waited since it was opened: ±150 at first, 50 wider every
    10 seconds, at most ±600 (so after 90 s a table takes nearly anyone). Among the
    tables in their windows the one whose furthest seated player is nearest wins; on a
    tie, the table that has waited longest. A table whose waiting players have all
    closed its page (every seat away: no open connection) is passed over.

One choice at a time per rule set
    Two presses at once must end at the same table, never at two half-empty ones. Every
    press of a rule set first updates that rule set's ``QuickMatchQueue`` row, inside the
    transaction that then reads the waiting tables and joins or opens one: on PostgreSQL
    the update holds the row's lock until commit (as ``select_for_update`` would), so the
    next press of that rule set waits and then sees the table this one opened; on SQLite
    the project's transactions begin IMMEDIATE (okeysite/settings.py), so the whole
    read-then-write is one writer at a time, and the update comes first anyway.

Guests play casual
    A rated game is for players with an account (games/ratings/rules.py, games/live/rated.py).
    A guest (known by their session key) is seated at a casual quick-match table instead:
    ``rated`` False, otherwise the same (public, 30 s clock, the same minute before CPUs).
    Casual and rated quick-match tables never mix: a guest's press looks only at casual
    tables and an account's only at rated ones, so a guest never joins a rated table and
    an account's rated game never waits for a guest. Guests have no rating, so a casual
    table has no rating window: the table that has waited longest is taken first.

Pressing again
    A player already waiting at a quick-match table (of any rule set) goes back to it:
    one wait at a time, never two seats.

Fill with CPUs
    After ``FILL_AFTER`` (60 s) of waiting since the table was opened, any player seated
    at it may fill the free seats with CPUs (``do_quick_fill``): the game starts at once
    and is casual (a table with a CPU seat changes no rating). The table action itself
    (``table_actions.do_fill_with_cpus``) holds the minute, so the table page's ordinary
    "Start now" URL cannot fill a quick-match table sooner (``too_early``, with the
    seconds left).

Only through quick match
    A quick-match table is joined through ``do_quick_match`` alone, which checks the
    rating window: ``table_actions.do_join_table`` refuses the table page's "Take a seat" URL
    there (``quick_match_only``); the waiting card offers "Play now" instead, which seats
    the visitor at that table when they are within its window and elsewhere when not.

Pressing after leaving
    A player who left their wait and presses again gets their own table back rather
    than a new one: when no waiting table takes them, the table they opened last (in
    the last ``REOPEN_WITHIN``), abandoned before any hand was dealt, is waiting again
    with them at it, its wait counted from the new press (the window and the minute
    before CPUs start again). Pressing and leaving in a loop therefore keeps one table,
    not one per press; and "Play now" is throttled per player (``PRESS_LIMIT``,
    accounts/throttle.py), a refused press changing nothing.

Leaving the wait
    A waiting player may leave (``do_leave_wait``, the card's "Leave"): the seat is free
    again and the others' cards follow live; a table nobody waits at any more is
    abandoned (``table_actions.do_leave_table``). Once the game has started there is no wait
    to leave: the seat is played to the end (its CPU stands in while its owner is away,
    games/ratings/rules.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import F

from games.engine import options as engine_options
from games.engine.rules import RULES
from games.live import actions as table_actions
from games.matchmaking.models import QuickMatchQueue
from games.matchmaking.rules import FILL_AFTER as FILL_AFTER  # the times live in rules.py
from games.matchmaking.rules import fill_allowed_at as fill_allowed_at
from games.models import Seat, Table
from games.ratings.api import current_rating

WINDOW_START = 150  # ± shown rating points when a table has just been opened
WINDOW_STEP = 50  # wider by this much ...
WINDOW_EVERY = timedelta(seconds=10)  # ... every this long the table has waited
WINDOW_MAX = 600
REOPEN_WITHIN = timedelta(hours=1)  # a table left this recently is opened again


@dataclass(frozen=True)
class QuickMatch:
    """Where a press of "Play now" put the player."""

    table: Table
    seat: Seat
    # "joined" (a waiting table), "opened" (a new table), "reopened" (the table the player
    # opened and left) or "back" (already there)
    outcome: str


def window_for(wait: timedelta) -> int:
    """The ± rating window of a table that has waited ``wait`` since it was opened."""
    steps = max(0, int(wait / WINDOW_EVERY))
    return min(WINDOW_MAX, WINDOW_START + WINDOW_STEP * steps)


def is_account(user: Any) -> bool:
    return user is not None and getattr(user, "is_authenticated", False)


def _mine(user: Any, guest_key: str = "") -> dict[str, Any]:
    """The seat filter of the player: an account by user, a guest by session key."""
    if is_account(user):
        return {"user": user}
    return {"user__isnull": True, "guest_key": guest_key}


def waiting_seat(user: Any, guest_key: str = "") -> Seat | None:
    """The player's seat at a quick-match table that is still waiting, if any (a guest's
    by ``guest_key``; a guest without one has none)."""
    if not is_account(user) and not guest_key:
        return None
    return (
        Seat.objects.filter(
            **_mine(user, guest_key), table__quick_match=True, table__status=Table.Status.WAITING
        )
        .select_related("table")
        .order_by("table__created_at")
        .first()
    )


def _refuse_nobody(user: Any, guest_key: str) -> None:
    """A press needs a player: an account, or a guest's session key."""
    if not is_account(user) and not guest_key:
        raise table_actions.ActionRefused("no_session", "a guest plays with a session")


def _queue_row(variant: str) -> None:
    """The rule set's queue row exists (made once, outside the choosing transaction;
    two first presses at once both get it: the row is unique per rule set)."""
    QuickMatchQueue.objects.get_or_create(variant=variant)


def _has_company(table: Table, people: list[Seat], at: datetime) -> bool:
    """Someone waits at ``table`` with its page open, or pressed a moment ago: not every
    person seated there has been away longer than a drop's grace (a seat taken by a press
    is away until its page connects: its page is loading)."""
    return not all(
        s.away_since is not None and s.away_since + table_actions.grace() <= at for s in people
    )


def choose_casual_table(variant: str, at: datetime) -> Table | None:
    """A guest's press: the casual waiting quick-match table of ``variant`` with a free
    seat and someone there, the one that has waited longest; None when there is none.
    No rating window (guests have no rating). Reads only: the caller holds the queue lock."""
    tables = (
        Table.objects.filter(
            variant=variant, quick_match=True, rated=False, status=Table.Status.WAITING
        )
        .prefetch_related("seats")
        .order_by("created_at", "pk")
    )
    for table in tables:
        seats = list(table.seats.all())
        people = [s for s in seats if not s.is_cpu and not s.is_open]
        if any(s.is_open for s in seats) and people and _has_company(table, people, at):
            return table
    return None


def choose_table(
    variant: str, rating: int, at: datetime, *, exclude_user: Any = None
) -> Table | None:
    """The waiting quick-match table of ``variant`` with a free seat whose seated
    players are all within its window of ``rating``, closest first (see the module's
    docstring); None when there is none. Reads only: the caller holds the queue lock."""
    tables = (
        Table.objects.filter(
            variant=variant, quick_match=True, rated=True, status=Table.Status.WAITING
        )
        .prefetch_related("seats__user")
        .order_by("created_at", "pk")
    )
    best: tuple[int, datetime, int] | None = None
    chosen = None
    for table in tables:
        seats = list(table.seats.all())
        people = [s for s in seats if s.user_id is not None]
        if not any(s.is_open for s in seats) or not people:
            continue
        if not _has_company(table, people, at):
            # everyone waiting there has closed the page for longer than a drop's grace:
            # nobody to play with
            continue
        if exclude_user is not None and any(s.user_id == exclude_user.pk for s in people):
            continue
        window = window_for(at - table.created_at)
        furthest = max(abs(current_rating(s.user, variant).number - rating) for s in people)
        if furthest > window:
            continue
        key = (furthest, table.created_at, table.pk)
        if best is None or key < best:
            best, chosen = key, table
    return chosen


def do_quick_match(
    user: Any, variant: str, *, guest_key: str = "", at: datetime | None = None
) -> QuickMatch:
    """ "Play now" for ``variant``: join the closest waiting table, or open one and wait.
    An account plays rated; a guest (``guest_key``, their session) plays casual, at
    casual tables only. Raises ``table_actions.ActionRefused`` (``no_session``,
    ``no_rule_set``)."""
    _refuse_nobody(user, guest_key)
    if not is_account(user):
        user = None
    if variant not in RULES:
        raise table_actions.ActionRefused("no_rule_set", "there is no such rule set")
    at = at or table_actions.now()
    _queue_row(variant)
    with transaction.atomic():
        # the lock first: every later read of this choice happens under it
        QuickMatchQueue.objects.filter(variant=variant).update(
            presses=F("presses") + 1, last_press_at=at
        )
        mine = waiting_seat(user, guest_key)
        if mine is not None:
            return QuickMatch(mine.table, mine, "back")
        rated = user is not None
        if rated:
            table = choose_table(variant, current_rating(user, variant).number, at)
        else:
            table = choose_casual_table(variant, at)
        if table is not None:
            seat = table_actions.do_join_table(
                table.pk, user=user, guest_key=guest_key, quick_matched=True
            )
            table.refresh_from_db()
            return QuickMatch(table, seat, "joined")
        seat = _reopen_left_table(user, guest_key, variant, at)
        if seat is not None:
            return QuickMatch(seat.table, seat, "reopened")
        options = engine_options.validate_options(variant, {})
        seats = [table_actions.SeatSpec("me")] + [
            table_actions.SeatSpec("human") for _ in range(options["players"] - 1)
        ]
        table = table_actions.do_create_table(
            variant=variant,
            options=options,
            seats=seats,
            user=user,
            guest_key=guest_key,
            rated=rated,
            public=True,
            quick_match=True,
        )
        seat = table.seats.get(position=0)
        return QuickMatch(table, seat, "opened")


def _reopen_left_table(user: Any, guest_key: str, variant: str, at: datetime) -> Seat | None:
    """The quick-match table of ``variant`` that ``user`` opened last and left (abandoned,
    no hand dealt, opened within ``REOPEN_WITHIN``), waiting again with them seated; None
    when there is none. Runs inside ``do_quick_match``'s transaction, under the queue
    lock; the table row is locked too, as every table action does."""
    opener = (
        {"created_by": user} if user is not None else {"created_by": None, "guest_key": guest_key}
    )
    left = (
        Table.objects.filter(
            **opener,
            variant=variant,
            quick_match=True,
            rated=user is not None,
            status=Table.Status.ABANDONED,
            created_at__gte=at - REOPEN_WITHIN,
        )
        .order_by("-created_at", "-pk")
        .first()
    )
    if left is None:
        return None
    table = Table.objects.select_for_update().get(pk=left.pk)
    if table.status != Table.Status.ABANDONED or table.hands.exists():
        return None
    table.status = Table.Status.WAITING
    table.created_at = at  # the wait starts again: the window and the minute before CPUs
    table.save(update_fields=["status", "created_at", "updated_at"])
    seat = table_actions.do_join_table(
        table.pk, user=user, guest_key=guest_key, quick_matched=True
    )  # broadcasts
    seat.table.refresh_from_db()
    return seat


def _quick_table(table_id: int, user: Any, guest_key: str = "") -> Table:
    """The quick-match table the player (``user``, or a guest's ``guest_key``) waits at
    (read only: the action locks it)."""
    _refuse_nobody(user, guest_key)
    table = Table.objects.get(pk=table_id)
    if not table.quick_match:
        raise table_actions.ActionRefused("not_quick_match", "this is not a quick-match table")
    if table_actions.seat_of(list(table.seats.all()), user, guest_key) is None:
        raise table_actions.ActionRefused("not_waiting_here", "you are not waiting at this table")
    return table


def do_quick_fill(
    table_id: int, *, user: Any, guest_key: str = "", at: datetime | None = None
) -> Table:
    """ "Fill with CPUs" at a waiting quick-match table, by any player seated there, once
    it has waited ``FILL_AFTER``: CPUs take the free seats, the game starts and is casual
    (``table_actions.do_fill_with_cpus`` holds the minute and makes a filled table unrated)."""
    table = _quick_table(table_id, user, guest_key)
    return table_actions.do_fill_with_cpus(
        table.pk, user=user, guest_key=guest_key, at=at or table_actions.now()
    )


def do_leave_wait(table_id: int, *, user: Any, guest_key: str = "") -> Table:
    """ "Leave" on the waiting card: the player's seat is free again; the table is
    abandoned when nobody waits there any more (``table_actions.do_leave_table``)."""
    table = _quick_table(table_id, user, guest_key)
    return table_actions.do_leave_table(table.pk, user=user, guest_key=guest_key)
