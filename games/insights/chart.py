"""The result-against-par chart: one bar per month, drawn on the server as SVG (no
script, no inline style: the CSP forbids it; classes of
games/insights/static/insights/insights.css). A bar above the zero line is a month the
player did better than par on average (in the rule set's direction), below it worse."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

WIDTH = 600
HEIGHT = 220
PAD_LEFT = 70
PAD_RIGHT = 12
PAD_TOP = 14
PAD_BOTTOM = 30  # room for the month labels
MAX_LABELS = 12  # at most this many month labels under the bars (every k-th month)


@dataclass(frozen=True)
class Bar:
    x: float
    cx: float  # the bar's middle (its month label)
    y: float
    width: float
    height: float
    value: float
    month: date
    par_hands: int
    better: bool
    label: bool  # its month is written under it


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    zero: float  # y of the zero line
    bars: list[Bar]
    ticks: list[tuple[float, float]]  # (y, value) of the axis labels
    label_y: float


def _nice(value: float) -> float:
    """The axis bound: ``value`` rounded up to 1, 2 or 5 times a power of ten."""
    if value <= 0:
        return 1.0
    power = 10 ** len(str(int(value)))
    power /= 10
    for step in (1, 2, 5, 10):
        if value <= step * power:
            return float(step * power)
    return float(10 * power)


def par_chart(months: list[dict]) -> Chart | None:
    """The chart of the months that have a par (``figures()["months"]``); None when none
    has."""
    shown = [m for m in months if m["vs_par"] is not None]
    if not shown:
        return None
    bound = _nice(max(abs(m["vs_par"]) for m in shown))
    bottom = HEIGHT - PAD_BOTTOM
    span = bottom - PAD_TOP

    def y_of(v: float) -> float:
        return round(PAD_TOP + (bound - v) / (2 * bound) * span, 1)

    zero = y_of(0)
    slot = (WIDTH - PAD_LEFT - PAD_RIGHT) / len(shown)
    width = round(min(48.0, slot * 0.7), 1)
    every = -(-len(shown) // MAX_LABELS)  # ceil
    bars = []
    for i, m in enumerate(shown):
        v = m["vs_par"]
        top = y_of(max(v, 0))
        x = round(PAD_LEFT + i * slot + (slot - width) / 2, 1)
        bars.append(
            Bar(
                x=x,
                cx=round(x + width / 2, 1),
                y=top,
                width=width,
                height=max(1.0, round(abs(y_of(v) - zero), 1)),
                value=v,
                month=m["month"],
                par_hands=m["par_hands"],
                better=v >= 0,
                label=(len(shown) - 1 - i) % every == 0,
            )
        )
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        left=PAD_LEFT,
        right=WIDTH - PAD_RIGHT,
        top=PAD_TOP,
        bottom=bottom,
        zero=zero,
        bars=bars,
        ticks=[(y_of(v), v) for v in (bound, bound / 2, 0, -bound / 2, -bound)],
        label_y=bottom + 18,
    )
