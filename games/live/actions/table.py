"""The table's own actions: open a table, take and give up seats, deal, play a move.

A move (``do_submit_action``) is five SQL queries, BEGIN and COMMIT included
(docs/architecture.md, "The action path").
"""

from __future__ import annotations

import copy
import time
from datetime import datetime
from typing import Any

from django.db import transaction

from games import plugins
from games.engine import actions as engine_actions
from games.engine import game as engine_game
from games.engine import options as engine_options
from games.engine import state as engine_state
from games.engine.refusals import Refusal
from games.engine.rules import rules_for
from games.live import cpu, messages
from games.live.actions import base
from games.live.actions.base import (
    ACTION_FIELDS,
    ActionRefused,
    SeatSpec,
    insert_action,
    lock_table,
    save_table,
    seat_at,
    seat_of,
    stale,
)
from games.live.actions.clock import schedule, stand_in_plays, with_turn_clock
from games.live.rated import BOT_REFUSED, GUESTS_REFUSED, is_bot, rated_refusal
from games.live.realtime import (
    broadcast_on_commit,
    game_for,
    group_send,
    remember_on_commit,
    snapshot,
)
from games.models import SNAPSHOT_EVERY, Hand, HandAction, ScoreLine, Seat, Table
from games.signals import game_finished, hand_finished
from okeysite import metrics


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
    deals: int | None = None,
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
        deals=deals,
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
            seat.away_since = at or base.now()
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
    A rated table is refused for a guest or with a CPU seat (games/live/rated.py).
    ``public`` lists it among the lobby's live tables; ``quick_match`` marks a table
    opened by quick match (games/matchmaking/actions.py). A rated table is always
    ``competitive`` (no engine help for a seat); a solo challenge run asks for it."""
    if rated:
        why = rated_refusal(user, [s.kind for s in seats])
        if why is not None:
            raise ActionRefused("not_rated", str(why))
    options = with_turn_clock(variant, options, seats, rated=rated, quick_match=quick_match)
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
    deals: int | None = None,
) -> Table:
    """Open an online table with its players already seated where the caller says
    ("player" seats, bound to their accounts, and "cpu" fill seats; no seat is
    moved) and deal its first hand: a tournament's table (``organised``: played out
    under the organiser's rules, games/models.py). The players count as
    away from ``away_since`` (their CPU plays for them once the away grace has
    passed since then, until they connect). ``deals``: a game of exactly that many
    deals (duplicate play, RULES.md D38)."""
    if any(s.kind not in ("player", "cpu") for s in seats):
        raise ActionRefused("bad_option", "every seat is a named player or a CPU")
    options = with_turn_clock(variant, options, seats)
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
            deals=deals,
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
    window, then joins with ``quick_matched`` (games/matchmaking/actions.py); any other
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
        if table.rated and is_bot(user):
            raise ActionRefused("bot_unrated", str(BOT_REFUSED))
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
        seat.away_since = base.now()
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


def do_invite_bot(
    table_id: int, bot: Any, *, user: Any = None, guest_key: str = "", position: int | None = None
) -> Seat:
    """The host of a waiting table seats a bot account (``Profile.is_bot``) at a free seat
    (``position``, else the first free one); the last seat taken starts the game. The bot
    plays through the API's bot stream (docs/bots-api.md), which sees the new seat from the
    table's broadcast and ``bot_seated``. Refused: not the host (``not_host``), not a bot
    (``not_a_bot``), a rated table (``bot_unrated``), a bot already seated here
    (``already_seated``), no such free seat (``table_full``)."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        seats = list(table.seats.all())
        host = seat_of(seats, user, guest_key)
        if host is None or host.position != 0:
            raise ActionRefused("not_host", "only the table's host can do that")
        if not is_bot(bot):
            raise ActionRefused("not_a_bot", "only a bot account can be invited to a seat")
        if table.rated:
            raise ActionRefused("bot_unrated", str(BOT_REFUSED))
        if table.status != Table.Status.WAITING or table.quick_match:
            raise ActionRefused("table_full", "this table has already started")
        if seat_of(seats, bot, "") is not None:
            raise ActionRefused("already_seated", "this bot already has a seat here")
        free = [s for s in seats if s.is_open and (position is None or s.position == position)]
        if not free:
            raise ActionRefused("table_full", "every seat is taken")
        last = len([s for s in seats if s.is_open]) == 1
        seat = free[0]
        seat.user = bot
        seat.away_since = base.now()  # away until its stream is open (as a person's page)
        seat.save()
        if last:
            start_hand(table)
        else:
            table.version += 1
            table.save()
        broadcast_on_commit(table)
        bot_id = bot.pk
        transaction.on_commit(lambda: group_send(seated_group(bot_id), {"type": "bot.seated"}))
        return seat


def seated_group(user_id: int) -> str:
    """The channel-layer group told when this account is given a seat by someone else
    (``do_invite_bot``): a bot's open streams listen to it."""
    return f"seated.{user_id}"


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
        left = plugins.fill_wait(table, at or base.now()) if table.quick_match else 0
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
                table.rated = False  # a CPU seat makes the table casual (games/live/rated.py)
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


# ---------------------------------------------------------------------- hands


def start_hand(table: Table, *, at: datetime | None = None) -> Hand:
    """Deal the table's next hand. A step of an action, not one: the caller holds
    the table row lock and broadcasts on commit."""
    at = at or base.now()
    number = table.hands.count()
    game = game_for(table)
    starter = game.next_starter()
    # a lesson's scripted deal (games/learn through ``plugins.seed_for``), else the table's
    seed = plugins.seed_for(table, number) or base.seed_source(table, number)
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
    schedule(table, state, at)
    table.save()
    return hand


def do_next_hand(table_id: int, version: int, *, at: datetime | None = None) -> Table:
    """Deal the next hand once the current one is over ("Next hand")."""
    with transaction.atomic():
        table = lock_table(table_id)
        if table.version != version:
            if _repeats_next_hand(table, version):
                return table  # a double click on "Next hand": already done
            raise stale()
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
    read with its seats (``lock_table``), the action's row inserted, the table's changed
    columns updated. The engine state comes from the snapshot cache
    (``realtime.snapshot``) and is not written back: the hand's snapshot is rewritten
    every ``SNAPSHOT_EVERY`` actions and when the hand ends (games/models.py). The
    returned table carries the seats it was read with, for the frames that follow."""
    started = time.perf_counter()  # the move's latency (okeysite.metrics) counts from here
    at = at or base.now()
    with transaction.atomic():
        table = lock_table(table_id)
        if seat_id is not None and not any(
            s.pk == seat_id and s.position == seat_position for s in table.seats.all()
        ):
            raise ActionRefused("not_seated", "this seat is no longer yours")
        if version is not None and table.version != version:
            if _repeats_last_action(table, seat_position, action, version):
                return table  # a double click: the same move was just accepted
            raise stale()
        if table.status != Table.Status.PLAYING:
            raise ActionRefused("hand_over", "no hand is being played at this table")
        if not by_cpu and seat_at(table, seat_position).forfeited_at is not None:
            raise ActionRefused("already_left", "you left this game: your stand-in plays it")
        hand, state, game = snapshot(table)
        if hand is None or state is None or hand.result is not None:
            raise ActionRefused("hand_over", "the hand is over")
        if not by_cpu:
            # a lesson's table (games/learn) may turn down a move the engine would take
            lesson = plugins.lesson_refusal(hand, state, seat_position, action)
            if lesson is not None:
                raise ActionRefused(*lesson)
            _player_acted(table, seat_position)
        apply_action(
            table,
            (hand, state, game),
            seat_position,
            action,
            by_cpu=by_cpu,
            at=at,
            started=started,
        )
        return table


def _player_acted(table: Table, position: int) -> None:
    """A person's own move ends their row of time-outs (``Seat.timeouts``): the stand-in
    gives the seat back. Written only when there was a row (the common path writes
    nothing more). Before ``apply_action``, so the turn it schedules sees the seat as played."""
    seat = seat_at(table, position)
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
        table = lock_table(table_id)
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


def apply_action(
    table: Table,
    current: tuple[Hand, engine_state.HandState, engine_game.Game],
    seat_position: int,
    action: dict[str, Any],
    *,
    by_cpu: bool,
    at: datetime,
    started: float | None = None,
) -> tuple[Hand, engine_state.HandState, engine_game.Game]:
    """Apply, store and schedule one action on a locked table (``lock_table``) whose hand
    (``current``: hand, state, game, as ``realtime.snapshot`` gives them) is being
    played; broadcast on commit. Returns the new (hand, state, game). A step of an
    action: the caller holds the transaction.

    Every move passes here, so here it is counted (``okeysite.metrics``: the move and the
    time from ``started``, a ``time.perf_counter()`` reading, by default now, to its
    commit), once the transaction commits."""
    started = time.perf_counter() if started is None else started
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
    insert_action(row)
    if new_state.over:
        game = _finish_hand(table, hand, new_state, at)
    elif len(new_state.actions) % SNAPSHOT_EVERY == 0:
        hand.snapshot = new_state.to_json()
        hand.save(update_fields=["snapshot", "result", "finished_at"])
    table.version += 1
    schedule(
        table,
        new_state,
        at,
        same_turn=not new_state.over and new_state.turn_no == state.turn_no,
        cpu_step=by_cpu,
    )
    if new_state.over:
        table.save()  # the hand's end may change the status (the game is over)
    else:
        save_table(table, ACTION_FIELDS)
    remember_on_commit(table, (hand, new_state, game))
    transaction.on_commit(lambda: metrics.action_done(by_cpu, started))
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
    hand.snapshot = state.to_json()
    hand.save(update_fields=["snapshot", "result", "finished_at"])
    hand_finished.send(sender=Table, table=table, hand=hand, state=state, game=game)
    if game.is_over():
        table.status = Table.Status.FINISHED
        table.finished_at = at
        table.save()
        # the ratings app changes a rated table's ratings here, once (a receiver)
        game_finished.send(sender=Table, table=table, game=game)
    return game
