"""The result-against-par chart's geometry (games/insights/chart.py)."""

from __future__ import annotations

from datetime import date

from games.insights.chart import HEIGHT, MAX_LABELS, PAD_BOTTOM, PAD_TOP, par_chart


def months(values: list[float | None]) -> list[dict]:
    return [
        {"month": date(2024 + i // 12, i % 12 + 1, 1), "hands": 5, "par_hands": 3, "vs_par": v}
        for i, v in enumerate(values)
    ]


def test_no_par_no_chart():
    assert par_chart(months([None, None])) is None


def test_bars_rise_above_zero_when_better_and_fall_below_when_worse():
    chart = par_chart(months([3.0, None, -1.5]))
    assert [b.value for b in chart.bars] == [3.0, -1.5]  # a month without par has no bar
    up, down = chart.bars
    assert up.better and up.y + up.height == chart.zero
    assert not down.better and down.y == chart.zero
    assert up.height == 2 * down.height  # 3 against 1.5
    # the axis is symmetric around zero, its bound a round number above the largest bar
    assert [v for _y, v in chart.ticks] == [5.0, 2.5, 0, -2.5, -5.0]
    assert chart.ticks[0][0] == PAD_TOP and chart.ticks[-1][0] == HEIGHT - PAD_BOTTOM


def test_a_long_period_labels_every_third_month_ending_with_the_last():
    chart = par_chart(months([1.0] * 30))
    labelled = [b for b in chart.bars if b.label]
    assert len(labelled) <= MAX_LABELS
    assert [b.label for b in chart.bars[-4:]] == [True, False, False, True]  # 30 bars: every 3rd
    xs = [b.x for b in chart.bars]
    assert xs == sorted(xs) and xs[-1] + chart.bars[-1].width <= chart.right
