"""Games played through the real table actions at fixed times: each move stamped a second
after the last, from a start the test chooses (so a game finishes in the month, or on the
day, the test says). Every person's move is chosen by a CPU policy and submitted for them;
the CPU seats' moves are played as they fall due."""

from __future__ import annotations

from datetime import datetime, timedelta

from games.live import actions, cpu
from games.models import Table


class Clock:
    """The time of the next move: a second after the last."""

    def __init__(self, start: datetime) -> None:
        self.at = start

    def __call__(self) -> datetime:
        self.at += timedelta(seconds=1)
        return self.at


def play_hands(
    table: Table, hands: int, clock: Clock, level: str = "medium", limit: int = 50000
) -> Table:
    """Play ``hands`` hands of ``table`` (or to the game's end): each person's move is the
    ``level`` CPU's choice, submitted for them; the CPU seats' moves are played when due.
    Fails when ``limit`` steps do not get there."""
    cpus = set(table.seats.filter(is_cpu=True).values_list("position", flat=True))
    done = 0
    for _ in range(limit):
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
