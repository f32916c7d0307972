from __future__ import annotations

import itertools

import pytest

from games.live import actions
from games.live.actions import base as actions_base


@pytest.fixture(autouse=True)
def _fast_cpus(settings):
    settings.OKEY_CPU_DELAY_MS = 0


@pytest.fixture(autouse=True)
def fixed_seeds(monkeypatch):
    """Deterministic deals: seeds seed-0, seed-1, … in order."""
    counter = itertools.count()
    monkeypatch.setattr(actions_base, "seed_source", lambda table, number: f"seed-{next(counter)}")


def cpu_table(
    variant: str = "classic", user=None, guest_key: str = "guest-1", present: bool = True, **options
):
    """A table of one person (seat 0) and CPUs. ``present``: the person's page is open (one
    socket counted, as the table page's would be); without it the seat is away from the
    start, as a seat nobody opened is (services, ``_open_table``), and a test opens and
    closes its sockets itself (``actions.do_set_presence``)."""
    seats = [actions.SeatSpec("me")] + [actions.SeatSpec("cpu", "medium")] * (
        options.get("players", 4) - 1
    )
    table = actions.do_create_table(
        variant=variant, options=options, seats=seats, user=user, guest_key=guest_key
    )
    if present:
        page_open(table)
    return table


def page_open(table, *positions: int) -> None:
    """The table page of each person seated at ``positions`` (all people: none given) is
    open: one socket each, counted as the consumer counts it (``actions.do_set_presence``)."""
    for seat in table.seats.filter(is_cpu=False).order_by("position"):
        if not positions or seat.position in positions:
            actions.do_set_presence(seat.pk, True, channel=f"test-page-{seat.pk}")
    table.refresh_from_db()


def play_out_hand(table, human: int = 0, limit: int = 3000, level: str = "medium"):
    """Play the current hand to its end through the services: the human seat
    plays like a CPU of ``level``, the CPU seats are swept. Each version is read as the
    table's sockets read it (``realtime.snapshot``), so the action that follows starts
    from the cached state as it does on a server (a test's transaction never commits,
    and so never primes the cache itself)."""
    from games.live import cpu

    for _ in range(limit):
        table.refresh_from_db()
        hand, state, _game = actions.snapshot(table)
        if hand.result is not None:
            return table
        if state.turn == human:
            action = cpu.choose(state, human, level)
            actions.do_submit_action(table.pk, human, action, table.version)
        else:
            assert actions.sweep() >= 1
    raise AssertionError("hand did not finish")
