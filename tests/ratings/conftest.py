"""Rated games played through the services, with fixed deals and fixed times."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest

from games.live import actions, cpu
from games.live.actions import base as actions_base
from games.models import Table
from tests.support import accounts

BASE = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _fast_cpus(settings):
    settings.OKEY_CPU_DELAY_MS = 0


@pytest.fixture(autouse=True)
def fixed_seeds(monkeypatch):
    """Deterministic deals: seeds rseed-0, rseed-1, … in order."""
    counter = itertools.count()
    monkeypatch.setattr(actions_base, "seed_source", lambda table, number: f"rseed-{next(counter)}")


def make_users(*names: str, public: bool = False) -> list:
    """Accounts (tests/support/accounts.py) whose records are private unless ``public``."""
    return accounts.make_users(*names, public_records=public)


_clock = itertools.count()


def play_rated_game(users: list, variant: str = "fifty-one", **options) -> Table:
    """Open a rated table for ``users`` (the first one hosts), seat the others, and play
    every hand to the game's end through the services, each person's moves chosen by the
    medium CPU. Moves are stamped with a fixed, increasing time."""
    options = {"hands": 1, **options} if variant == "fifty-one" else options
    seats = [actions.SeatSpec("me")] + [actions.SeatSpec("human")] * (len(users) - 1)
    table = actions.do_create_table(
        variant=variant, options=options, seats=seats, user=users[0], rated=True
    )
    for u in users[1:]:
        actions.do_join_table(table.pk, user=u)
    return play_to_end(table)


def play_to_end(
    table: Table,
    away: frozenset[int] = frozenset(),
    *,
    stop_after_hand: bool = False,
    live: bool = False,
) -> Table:
    """Play every hand of the table's game to its end: a person's turn is chosen by the
    medium CPU and submitted for them, the CPU seats (and the ``away`` people's seats,
    whose CPU stands in) are swept. ``stop_after_hand``: stop at the end of the first
    hand instead (the game still running). ``live``: a live server (the browser tests)
    plays on the same database."""
    cpus = set(table.seats.filter(is_cpu=True).values_list("position", flat=True)) | away
    for _ in range(20000):
        table.refresh_from_db()
        if table.status == Table.Status.FINISHED:
            return table
        # read as the table's sockets read it: the action below starts from the cached state
        hand, state, _game = actions.snapshot(table)
        at = BASE + timedelta(seconds=next(_clock))
        if hand.result is not None:
            if stop_after_hand:
                return table
            try:
                actions.do_next_hand(table.pk, table.version, at=at)
            except actions.ActionRefused as e:  # a live server's sweeper dealt it first
                if e.code != "stale_state":
                    raise
            continue
        if state.over:  # read while a live server's sweeper ended the hand: read again
            continue
        if state.turn in cpus:
            # against a live server (``live``) its own sweeper may play the CPU's move
            # first, or the move is not due yet: read again
            assert actions.sweep() >= 1 or live
            continue
        action = cpu.choose(state, state.turn, "medium")
        try:
            actions.do_submit_action(table.pk, state.turn, action, table.version, at=at)
        except actions.ActionRefused as e:
            # Against a live server (the browser tests) its sweeper may have moved the
            # table on (a clock, an away seat): read it again. Nothing else moves it here.
            if e.code != "stale_state":
                raise
    raise AssertionError("the game did not finish")
