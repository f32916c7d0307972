"""Leavers of a rated game: forfeits, aborts and a game every person has left."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction

from games.engine import actions as engine_actions
from games.live.actions import base
from games.live.actions.base import ActionRefused, lock_table, seat_at, seat_of
from games.live.actions.clock import cpu_delay
from games.live.realtime import broadcast_on_commit, game_for, snapshot
from games.models import HandAction, Seat, Table
from games.signals import game_finished

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
    at = at or base.now()
    with transaction.atomic():
        table = lock_table(table_id)
        if seat_id is not None and not any(
            s.pk == seat_id and s.position == position for s in table.seats.all()
        ):
            raise ActionRefused("not_seated", "this seat is no longer yours")
        if not table.rated or table.organised or table.status != Table.Status.PLAYING:
            raise ActionRefused("not_rated_game", "only a rated game in play can be forfeited")
        seat = seat_at(table, position)
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
            table.cpu_due_at = at + cpu_delay(table)  # the stand-in takes the turn now
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
    # rated by leaving order (the ratings app's receiver, games/ratings/api.py)
    game_finished.send(sender=Table, table=table, game=game_for(table))
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
    at = at or base.now()
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
