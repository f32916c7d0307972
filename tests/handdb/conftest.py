"""Games played through the real table actions for the hand database: fixed deals, and
fixed times (each move a second after the last, from a start the test chooses), so a game
finishes in the month the test says."""

from __future__ import annotations

import itertools

import pytest

from games.live import actions
from games.live.actions import base as actions_base
from games.models import Table
from tests.support.play import Clock, play_hands


@pytest.fixture(autouse=True)
def _fast_cpus(settings):
    settings.OKEY_CPU_DELAY_MS = 0


@pytest.fixture(autouse=True)
def fixed_seeds(monkeypatch):
    """Deterministic deals: seeds hdb-0, hdb-1, … in order."""
    counter = itertools.count()
    monkeypatch.setattr(actions_base, "seed_source", lambda table, number: f"hdb-{next(counter)}")


@pytest.fixture(autouse=True)
def hand_db_dir(settings, tmp_path):
    settings.HAND_DB_DIR = tmp_path / "handdb"
    return settings.HAND_DB_DIR


ONE_HAND = {"hands": 1}  # fifty-one: a game of one hand (RULES.md §4)


def play_game(table: Table, clock: Clock, *, hands: int = 50) -> Table:
    """Play ``table`` to the end of its game (or of ``hands`` hands), people's moves
    chosen by a medium CPU (``tests.support.play``)."""
    return play_hands(table, hands, clock)


def rated_game(users, clock: Clock) -> Table:
    """A rated fifty-one game of one hand between four accounts."""
    first, *others = users
    table = actions.do_create_table(
        variant="fifty-one",
        options=ONE_HAND,
        seats=[actions.SeatSpec("me")] + [actions.SeatSpec("human")] * 3,
        user=first,
        rated=True,
    )
    for user in others:
        actions.do_join_table(table.pk, user=user)
    return play_game(table, clock)


def casual_game(clock: Clock, *, user=None, guest_key: str = "", humans=()) -> Table:
    """A casual fifty-one game of one hand: the caller's seat, ``humans`` (accounts that
    join), CPUs in the other seats."""
    seats = [actions.SeatSpec("me")] + [actions.SeatSpec("human")] * len(humans)
    seats += [actions.SeatSpec("cpu", "easy")] * (4 - len(seats))
    table = actions.do_create_table(
        variant="fifty-one", options=ONE_HAND, seats=seats, user=user, guest_key=guest_key
    )
    for other in humans:
        actions.do_join_table(table.pk, user=other)
    return play_game(table, clock)


def tournament_game(
    users, clock: Clock, *, deals: int = 1, variant: str = "classic", options=None
) -> Table:
    """An organised table of ``deals`` duplicate deals (RULES.md D38): the accounts, then
    hard CPUs; each account's seat named as an organiser typed it."""
    seats = [actions.SeatSpec("player", user=u, name=f"Typed {u.username}") for u in users]
    seats += [actions.SeatSpec("cpu", "hard")] * (4 - len(seats))
    table = actions.do_seat_players(
        variant=variant, options=options or {}, seats=seats, at=clock(), deals=deals
    )
    return play_game(table, clock)
