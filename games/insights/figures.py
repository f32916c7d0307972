"""What the Insights page shows, read from the stored sums.

``figures(user, variant, filters, now)`` adds up the player's ``MonthStat`` rows of the
chosen period, rated flag and CPU level (a few dozen rows however many hands). A period
counted in days (30, 90, 365) starts inside a month: that first month is added from its
``HandStat`` rows since the start instead of its MonthStat rows, so the period is exact
(a month of hands at most).
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.engine.rules import rules_for
from games.insights.models import SUMS, HandStat, MonthStat, fold, month_of
from games.live.messages import reason_label

PERIODS = {
    "30": (30, _("Last 30 days")),
    "90": (90, _("Last 90 days")),
    "365": (365, _("Last year")),
    "all": (None, _("All time")),
}
RATED = {"both": _("Rated and casual"), "rated": _("Rated"), "casual": _("Casual")}
LEVELS = {
    "any": _("Any opponents"),
    "none": _("People only"),
    "easy": _("Easy CPUs"),
    "medium": _("Medium CPUs"),
    "hard": _("Hard CPUs"),
    "expert": _("Expert CPUs"),
    "mixed": _("CPUs of mixed levels"),
}


@dataclass
class Filters:
    period: str = "all"
    rated: str = "both"
    cpu: str = "any"

    @classmethod
    def from_query(cls, query: Any) -> Filters:
        """The filters of the page's GET parameters; an unknown value is the default."""

        def pick(name: str, allowed: dict, default: str) -> str:
            value = query.get(name, default)
            return value if value in allowed else default

        return cls(
            period=pick("period", PERIODS, "all"),
            rated=pick("rated", RATED, "both"),
            cpu=pick("cpu", LEVELS, "any"),
        )


@dataclass
class Sums:
    """The SUMS of MonthStat and its penalties, added up."""

    penalties: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in SUMS:
            setattr(self, name, 0)

    def merge(self, row: Any) -> None:
        for name in SUMS:
            setattr(self, name, getattr(self, name) + getattr(row, name))
        for reason, (lines, points) in (row.penalties or {}).items():
            entry = self.penalties.setdefault(reason, [0, 0])
            entry[0] += lines
            entry[1] += points


def _filtered(qs, filters: Filters):
    if filters.rated != "both":
        qs = qs.filter(rated=filters.rated == "rated")
    if filters.cpu != "any":
        qs = qs.filter(cpu_level=filters.cpu)
    return qs


def sums_by_month(user: Any, variant: str, filters: Filters, now: datetime) -> dict[date, Sums]:
    """The player's sums per month (oldest first) within the filters."""
    days = PERIODS[filters.period][0]
    rows = _filtered(MonthStat.objects.filter(user=user, variant=variant), filters)
    out: dict[date, Sums] = {}
    if days is not None:
        start = now - timedelta(days=days)
        first = month_of(start)
        rows = rows.filter(month__gt=first)
        first_sums = Sums()
        stats = _filtered(
            HandStat.objects.filter(
                user=user,
                variant=variant,
                embargoed=False,
                finished_at__gte=start,
                finished_at__lt=datetime.combine(_next_month(first), time(), UTC),
            ),
            filters,
        )
        # plain tuples, not model instances: a busy month is thousands of rows
        for values in stats.values_list(*_STAT_FIELDS):
            fold(first_sums, _Stat(*values))
        if first_sums.hands:
            out[first] = first_sums
    for row in rows.order_by("month"):
        out.setdefault(row.month, Sums()).merge(row)
    return dict(sorted(out.items()))


_STAT_FIELDS = (
    "total",
    "won",
    "ending",
    "opening_turn",
    "okeys_kept",
    "okeys_wasted",
    "fed",
    "penalties",
    "par",
    "decisions",
    "accuracy",
    "lost_milli",
)
_Stat = namedtuple("_Stat", _STAT_FIELDS)  # what ``fold`` reads of a HandStat


def _next_month(month: date) -> date:
    return date(month.year + month.month // 12, month.month % 12 + 1, 1)


def _ratio(a: float, b: float, digits: int = 1) -> float | None:
    return round(a / b, digits) if b else None


def _pct(a: int, b: int) -> int | None:
    return round(100 * a / b) if b else None


def vs_par(s: Sums, higher_wins: bool) -> float | None:
    """The mean result against par over the hands with a par, positive = better than
    par in the rule set's direction (``Rules.higher_wins``)."""
    if not s.par_hands:
        return None
    diff = (s.par_total_sum - s.par_sum) / s.par_hands
    return round(diff if higher_wins else -diff, 2)


def figures(user: Any, variant: str, filters: Filters, now: datetime) -> dict[str, Any]:
    """Every figure of the page (see the module's docstring)."""
    rules = rules_for(variant)
    months = sums_by_month(user, variant, filters, now)
    total = Sums()
    for s in months.values():
        total.merge(s)
    hands = total.hands
    penalties = sorted(
        (
            {
                "reason": reason,
                "label": reason_label(reason, variant),
                "lines": lines,
                "points": points,
                "per_hand": _ratio(points, hands, 2),
            }
            for reason, (lines, points) in total.penalties.items()
            if lines
        ),
        key=lambda p: (-p["points"], p["reason"]),
    )
    versus = vs_par(total, rules.higher_wins)
    return {
        "hands": hands,
        "higher_wins": rules.higher_wins,
        "lay_down": not rules.whole_rack,
        "mean_total": _ratio(total.total_sum, hands, 2),
        "par_hands": total.par_hands,
        "mean_par": _ratio(total.par_sum, total.par_hands, 2),
        "mean_par_total": _ratio(total.par_total_sum, total.par_hands, 2),
        "vs_par": versus,
        "vs_par_abs": abs(versus) if versus is not None else None,
        "wins": total.wins,
        "win_pct": _pct(total.wins, hands),
        "wins_okey": total.wins_okey,
        "wins_pairs": total.wins_pairs,
        "wins_direct": total.wins_direct,
        "wins_plain": total.wins_plain,
        "opened": total.opened,
        "opened_pct": _pct(total.opened, hands),
        "mean_opening_turn": _ratio(total.opening_turn_sum, total.opened),
        "okeys_kept": total.okeys_kept,
        "okeys_wasted": total.okeys_wasted,
        "okeys_kept_per_hand": _ratio(total.okeys_kept, hands, 2),
        "okeys_wasted_per_hand": _ratio(total.okeys_wasted, hands, 2),
        "fed": total.fed,
        "fed_per_100": _ratio(100 * total.fed, hands),
        "analysed_hands": total.analysed_hands,
        "decisions": total.decisions,
        "accuracy": _ratio(total.accuracy_sum, total.decisions, 0),
        "lost_per_decision": _ratio(total.lost_milli / 1000, total.decisions, 2),
        "penalties": penalties,
        "months": [
            {
                "month": m,
                "hands": s.hands,
                "par_hands": s.par_hands,
                "vs_par": vs_par(s, rules.higher_wins),
            }
            for m, s in months.items()
        ],
    }
