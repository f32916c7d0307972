"""Tournament seating (issue 8 item 3). Pure Python, no Django. Work in progress."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

PlayerId = str


@dataclass(frozen=True)
class SeatedTable:
    number: int
    seats: tuple[PlayerId | None, ...]


def seat_round(
    players: Sequence[PlayerId],
    past_rounds: Sequence[Sequence[Sequence[PlayerId | None]]],
    *,
    seed: str,
    round_no: int,
    table_size: int = 4,
    min_table_size: int | None = None,
    method: str = "avoid_repeats",
    ranking: Sequence[PlayerId] | None = None,
) -> list[SeatedTable]:
    raise NotImplementedError


def meeting_matrix(past_rounds) -> dict[tuple[PlayerId, PlayerId], int]:
    raise NotImplementedError


def start_counts(past_rounds) -> dict[PlayerId, int]:
    raise NotImplementedError


def repeat_pairs(rounds) -> int:
    raise NotImplementedError
