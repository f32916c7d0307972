"""Games played through the real table actions for Insights, with fixed deals and fixed
times (each move stamped a second after the last, from a start time)."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime

import pytest

from games.live.actions import base as actions_base
from games.models import Table
from tests.support import play as support_play

BASE = datetime(2026, 3, 30, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _fast_cpus(settings):
    settings.OKEY_CPU_DELAY_MS = 0


@pytest.fixture(autouse=True)
def fixed_seeds(monkeypatch):
    """Deterministic deals: seeds iseed-0, iseed-1, … in order."""
    counter = itertools.count()
    monkeypatch.setattr(actions_base, "seed_source", lambda table, number: f"iseed-{next(counter)}")


class Clock(support_play.Clock):
    """The time of the next move: a second after the last, from ``BASE`` unless told."""

    def __init__(self, start: datetime = BASE) -> None:
        super().__init__(start)


def play_hands(table: Table, hands: int, clock: Clock, level: str = "medium") -> Table:
    """Play ``hands`` hands of the table (or to the game's end), people's moves chosen by
    the ``level`` CPU (``tests.support.play``)."""
    return support_play.play_hands(table, hands, clock, level, limit=20000)
