"""Validation of table results entered by an organiser (issue 8 item 4). Work in progress."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class ResultProblem:
    code: str
    message: str
    seat: int | None = None


def validate_table_result(
    variant: str, options: dict, scores: Sequence[int]
) -> list[ResultProblem]:
    raise NotImplementedError
