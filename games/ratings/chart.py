"""The rating-history chart: an SVG drawn on the server (no script; the page's CSP allows
no inline style, so the template uses SVG attributes and the classes of
games/ratings/static/ratings/ratings.css)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.ratings.api import SCALE

WIDTH = 600
HEIGHT = 200
PAD_LEFT = 44
PAD_RIGHT = 10
PAD_Y = 14


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    number: int  # the displayed rating after this game (or the start)
    uncertainty: int
    change: Any  # the RatingChange, None for the starting point


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    points: list[Point]
    line: str  # the polyline's "points" attribute
    ticks: list[tuple[float, int]]  # (y, number) of the axis labels
    left: int
    right: int


def _y(value: float, low: float, high: float) -> float:
    span = (high - low) or 1.0
    return round(PAD_Y + (high - value) / span * (HEIGHT - 2 * PAD_Y), 1)


def history_chart(changes: list[Any]) -> Chart | None:
    """The chart of a player's rating changes in one rule set, oldest first, starting from
    the new player's rating; None when there is no change to draw."""
    if not changes:
        return None
    first = changes[0]
    values = [(first.mu_before, first.sigma_before, None)] + [
        (c.mu_after, c.sigma_after, c) for c in changes
    ]
    shown = [(round(SCALE * mu), round(2 * SCALE * sigma), c) for mu, sigma, c in values]
    # the axis covers the numbers with a margin (the uncertainty is said in each point's
    # title: a new player's ± 1000 would flatten the line)
    low = min(n for n, _u, _c in shown) - 20
    high = max(n for n, _u, _c in shown) + 20
    step = (WIDTH - PAD_LEFT - PAD_RIGHT) / max(1, len(shown) - 1)
    points = [
        Point(
            x=round(PAD_LEFT + i * step, 1),
            y=_y(n, low, high),
            number=n,
            uncertainty=u,
            change=c,
        )
        for i, (n, u, c) in enumerate(shown)
    ]
    mid = round((low + high) / 2)
    ticks = [(_y(v, low, high), round(v)) for v in (high, mid, low)]
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        points=points,
        line=" ".join(f"{p.x},{p.y}" for p in points),
        ticks=ticks,
        left=PAD_LEFT,
        right=WIDTH - PAD_RIGHT,
    )


__all__ = ["Chart", "Point", "history_chart"]
