from __future__ import annotations

import itertools

import pytest

from games.live import actions, cpu
from games.live.actions import base as actions_base
from games.models import Table


@pytest.fixture(autouse=True)
def _fast_cpus(settings):
    settings.OKEY_CPU_DELAY_MS = 0


@pytest.fixture(autouse=True)
def fixed_seeds(monkeypatch):
    """Deterministic deals: seeds solo-0, solo-1, … in order."""
    counter = itertools.count()
    monkeypatch.setattr(actions_base, "seed_source", lambda table, number: f"solo-{next(counter)}")


def solo_table(
    variant="seventeen",
    user=None,
    guest_key="guest-1",
    level="easy",
    *,
    competitive=False,
    **options,
):
    """A solo table as the start form opens it: ``competitive`` for a challenge run, not
    for a practice run."""
    seats = [actions.SeatSpec("me")] + [actions.SeatSpec("cpu", level)] * 3
    return actions.do_create_table(
        variant=variant,
        options={"clock": 0, **options},
        seats=seats,
        user=user,
        guest_key=guest_key,
        kind=Table.Kind.SOLO,
        competitive=competitive,
    )


def play_hand(table: Table, *, max_moves: int = 2000) -> None:
    """Play the current hand to its end; the human seat plays like an easy CPU. Each
    version is read as the table's sockets read it (``realtime.snapshot``), so the action
    that follows starts from the cached state as on a server."""
    cpus = set(table.seats.filter(is_cpu=True).values_list("position", flat=True))
    for _ in range(max_moves):
        table.refresh_from_db()
        hand, state, _game = actions.snapshot(table)
        if hand.result is not None:
            return
        action = cpu.choose(state, state.turn, "easy")
        actions.do_submit_action(
            table.pk, state.turn, action, table.version, by_cpu=state.turn in cpus
        )
    raise AssertionError("the hand did not end")


def play_game(table: Table, *, hands: int | None = None) -> Table:
    """Play hands (all of them by default) until the game is over."""
    played = 0
    while True:
        play_hand(table)
        played += 1
        table.refresh_from_db()
        if table.status == Table.Status.FINISHED or (hands is not None and played >= hands):
            return table
        actions.do_next_hand(table.pk, table.version)
