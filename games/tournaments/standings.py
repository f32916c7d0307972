"""Tournament standings (issue 8 item 5). Pure Python, no Django. Work in progress."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .seating import PlayerId


@dataclass(frozen=True)
class TableResult:
    round_no: int
    table_no: int
    seats: tuple[PlayerId | None, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True)
class StandingRow:
    rank: int
    player: PlayerId
    points: float
    game_total: int
    played: int
    decided_by: str


def higher_is_better(variant: str) -> bool:
    raise NotImplementedError


def table_placings(result: TableResult, variant: str) -> dict[PlayerId | None, float]:
    raise NotImplementedError


def draw_key(draw_seed: str, player: PlayerId) -> str:
    raise NotImplementedError


def compute_standings(
    players: Sequence[PlayerId],
    results: Sequence[TableResult],
    *,
    variant: str,
    scoring: str = "placing",
    placing_points: Sequence[float] = (4, 2, 1, 0),
    draw_seed: str,
) -> list[StandingRow]:
    raise NotImplementedError
