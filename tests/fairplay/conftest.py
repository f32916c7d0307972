"""Rated games of accounts played through the services, with fixed deals and fixed times;
each person's moves chosen by a policy (tests/fairplay/policies.py)."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest

from games.fairplay import scan as fairplay_scan
from games.live import actions
from games.live.actions import base as actions_base
from games.models import Table
from tests.support import accounts

BASE = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
_clock = itertools.count()


def tick() -> datetime:
    return BASE + timedelta(seconds=next(_clock))


@pytest.fixture(autouse=True)
def _fixed(monkeypatch, settings):
    """Deterministic deals (fp-0, fp-1, … in order), no CPU delay, the scan's clock fixed
    after every move, small thresholds for small pools."""
    counter = itertools.count()
    monkeypatch.setattr(actions_base, "seed_source", lambda table, number: f"fp-{next(counter)}")
    monkeypatch.setattr(fairplay_scan, "clock", lambda: BASE + timedelta(days=1))
    settings.OKEY_CPU_DELAY_MS = 0
    settings.FAIRPLAY_MIN_DECISIONS = 40


def make_users(*names: str, public: bool = True) -> list:
    """Accounts (tests/support/accounts.py) whose records are public unless ``public`` is
    false."""
    return accounts.make_users(*names, public_records=public)


def rated_table(users: list, variant: str = "classic", **options) -> Table:
    seats = [actions.SeatSpec("me")] + [actions.SeatSpec("human")] * (len(users) - 1)
    table = actions.do_create_table(
        variant=variant, options=options, seats=seats, user=users[0], rated=True
    )
    for u in users[1:]:
        actions.do_join_table(table.pk, user=u)
    table.refresh_from_db()
    return table


def play_game(table: Table, policies: dict) -> Table:
    """Play the table's game to its end, each seat's move chosen by ``policies[seat]``
    and submitted as the person's own (``actions.do_submit_action``)."""
    for _ in range(50000):
        table.refresh_from_db()
        if table.status == Table.Status.FINISHED:
            return table
        # read as the table's sockets read it: the action below starts from the cached state
        hand, state, _game = actions.snapshot(table)
        if hand.result is not None:
            actions.do_next_hand(table.pk, table.version, at=tick())
            continue
        action = policies[state.turn](state, state.turn)
        actions.do_submit_action(table.pk, state.turn, action, table.version, at=tick())
    raise AssertionError("the game did not finish")
