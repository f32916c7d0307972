"""Games played through the real table actions for Insights, with fixed deals and fixed
times (each move stamped a second after the last, from a start time)."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest

from games.live import actions, cpu
from games.live.actions import base as actions_base
from games.models import Table

BASE = datetime(2026, 3, 30, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _fast_cpus(settings):
    settings.OKEY_CPU_DELAY_MS = 0


@pytest.fixture(autouse=True)
def fixed_seeds(monkeypatch):
    """Deterministic deals: seeds iseed-0, iseed-1, … in order."""
    counter = itertools.count()
    monkeypatch.setattr(actions_base, "seed_source", lambda table, number: f"iseed-{next(counter)}")


class Clock:
    """The time of the next move: a second after the last."""

    def __init__(self, start: datetime = BASE) -> None:
        self.at = start

    def __call__(self) -> datetime:
        self.at += timedelta(seconds=1)
        return self.at


def play_hands(table: Table, hands: int, clock: Clock, level: str = "medium") -> Table:
    """Play ``hands`` hands of the table (or to the game's end): every person's move is
    chosen by the ``level`` CPU and submitted for them, the CPU seats are swept."""
    cpus = set(table.seats.filter(is_cpu=True).values_list("position", flat=True))
    done = 0
    for _ in range(20000):
        table.refresh_from_db()
        if table.status == Table.Status.FINISHED:
            return table
        hand, state, _game = actions.snapshot(table)
        if hand.result is not None:
            done += 1
            if done >= hands:
                return table
            actions.do_next_hand(table.pk, table.version, at=clock())
            continue
        if state.turn in cpus:
            assert actions.do_play_due(table.pk, at=clock())
            continue
        action = cpu.choose(state, state.turn, level)
        actions.do_submit_action(table.pk, state.turn, action, table.version, at=clock())
    raise AssertionError("the hands did not finish")
