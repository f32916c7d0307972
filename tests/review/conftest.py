from __future__ import annotations

import itertools

import pytest

from games.common import heavy
from games.live import actions
from games.live.actions import base as actions_base
from games.models import Table
from tests.games.conftest import play_out_hand as games_play_out_hand


@pytest.fixture(autouse=True)
def _fast_cpus(settings):
    settings.OKEY_CPU_DELAY_MS = 0


@pytest.fixture(autouse=True)
def _no_pause_between_imports(monkeypatch):
    """games.common.heavy spaces imports out (a quarter of the time); tests import one after
    another and test the spacing itself in test_heavy.py."""
    monkeypatch.setattr(heavy, "SHARE", 1.0)
    monkeypatch.setattr(heavy, "_next_start", 0.0)


@pytest.fixture(autouse=True)
def _analysis_quota_from_zero():
    """The analysis quota counts starts in Django's cache (games/review/analysis.py,
    ``Quota``), per user and per IP: every test's client is 127.0.0.1, and pks repeat."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def fixed_seeds(monkeypatch):
    counter = itertools.count()
    monkeypatch.setattr(
        actions_base, "seed_source", lambda table, number: f"review-{next(counter)}"
    )


def cpu_table(variant: str = "classic", user=None, guest_key: str = "", **options) -> Table:
    n = options.get("players", 4)
    seats = [actions.SeatSpec("me")] + [actions.SeatSpec("cpu", "medium")] * (n - 1)
    return actions.do_create_table(
        variant=variant, options=options, seats=seats, user=user, guest_key=guest_key
    )


def play_out_hand(table: Table, human: int = 0, limit: int = 3000) -> Table:
    """Play the current hand to its end (the human plays like an easy CPU)."""
    return games_play_out_hand(table, human, limit, level="easy")


def play_out_game(table: Table, max_hands: int = 30) -> Table:
    for _ in range(max_hands):
        table = play_out_hand(table)
        if table.status == Table.Status.FINISHED:
            return table
        actions.do_next_hand(table.pk, table.version)
    raise AssertionError("game did not finish")
