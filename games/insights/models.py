"""Insights' rows: one ``HandStat`` per account and finished hand, and the monthly sums
the page reads (``MonthStat``).

A ``MonthStat`` row is the fold (``MonthStat.add``) of the HandStat rows of one user, rule
set, calendar month (UTC), rated flag and opponents' CPU level; every sum is an integer, so
the incremental rows equal a rebuild (``actions.do_rebuild``) exactly. A hand still under a
duplicate round's embargo (``games.plugins.deal_embargoed``) is stored but not added until
the embargo is over (``HandStat.embargoed``).
"""

from __future__ import annotations

from datetime import UTC, date, datetime

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.insights.derive import CPU_LEVELS, win_kinds
from games.models import Hand

CPU_LEVEL_CHOICES = [
    ("none", _("No CPU")),
    ("easy", _("Easy")),
    ("medium", _("Medium")),
    ("hard", _("Hard")),
    ("expert", _("Expert")),
    ("mixed", _("Mixed levels")),
]
assert [c for c, _label in CPU_LEVEL_CHOICES] == list(CPU_LEVELS)


def month_of(at: datetime) -> date:
    """The first day of ``at``'s month, in UTC (the site's time zone)."""
    at = at.astimezone(UTC)
    return date(at.year, at.month, 1)


class HandStat(models.Model):
    """What one account did in one finished hand (``games.insights.derive.seat_stats``),
    with the par and the analysis once the review has them."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hand_stats"
    )
    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="stats")
    seat = models.PositiveSmallIntegerField()
    variant = models.CharField(max_length=16)
    finished_at = models.DateTimeField()
    rated = models.BooleanField(default=False)
    cpu_level = models.CharField(max_length=8, choices=CPU_LEVEL_CHOICES)
    total = models.IntegerField()
    won = models.BooleanField(default=False)
    ending = models.CharField(max_length=24, blank=True, default="")
    opening_turn = models.PositiveSmallIntegerField(null=True, blank=True)
    okeys_kept = models.PositiveSmallIntegerField(default=0)
    okeys_wasted = models.PositiveSmallIntegerField(default=0)
    fed = models.PositiveSmallIntegerField(default=0)
    # reason -> [lines, points paid]
    penalties = models.JSONField(default=dict, blank=True)
    par = models.IntegerField(null=True, blank=True)
    decisions = models.PositiveIntegerField(null=True, blank=True)
    accuracy = models.PositiveSmallIntegerField(null=True, blank=True)
    lost_milli = models.BigIntegerField(null=True, blank=True)  # value lost, 1/1000 point
    embargoed = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["hand", "seat"], name="one_stat_per_hand_seat")
        ]
        indexes = [
            models.Index(fields=["user", "variant", "finished_at"]),
            models.Index(fields=["user", "embargoed"]),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.hand} seat {self.seat}"

    @property
    def month(self) -> date:
        return month_of(self.finished_at)

    def key(self) -> tuple:
        """The MonthStat row this hand adds to."""
        return (self.user_id, self.variant, self.month, self.rated, self.cpu_level)


# The integer sums of a MonthStat (penalties and endings are dicts beside them).
SUMS = (
    "hands",
    "total_sum",
    "wins",
    "wins_plain",
    "wins_okey",
    "wins_pairs",
    "wins_direct",
    "opened",
    "opening_turn_sum",
    "okeys_kept",
    "okeys_wasted",
    "fed",
    "par_hands",
    "par_sum",
    "par_total_sum",
    "analysed_hands",
    "decisions",
    "accuracy_sum",
    "lost_milli",
)


class MonthStat(models.Model):
    """The sums of one user's hands in one rule set and month, rated or casual, against
    one CPU level (see the module's docstring)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="month_stats"
    )
    variant = models.CharField(max_length=16)
    month = models.DateField()
    rated = models.BooleanField(default=False)
    cpu_level = models.CharField(max_length=8, choices=CPU_LEVEL_CHOICES)
    hands = models.PositiveIntegerField(default=0)
    total_sum = models.BigIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    wins_plain = models.PositiveIntegerField(default=0)  # no okey, no pairs, not at once
    wins_okey = models.PositiveIntegerField(default=0)
    wins_pairs = models.PositiveIntegerField(default=0)
    wins_direct = models.PositiveIntegerField(default=0)
    opened = models.PositiveIntegerField(default=0)  # hands with an opening (lay-down)
    opening_turn_sum = models.PositiveIntegerField(default=0)
    okeys_kept = models.PositiveIntegerField(default=0)
    okeys_wasted = models.PositiveIntegerField(default=0)
    fed = models.PositiveIntegerField(default=0)
    penalties = models.JSONField(default=dict, blank=True)  # reason -> [lines, points]
    par_hands = models.PositiveIntegerField(default=0)
    par_sum = models.BigIntegerField(default=0)
    par_total_sum = models.BigIntegerField(default=0)  # the totals of the hands with a par
    analysed_hands = models.PositiveIntegerField(default=0)
    decisions = models.PositiveIntegerField(default=0)
    accuracy_sum = models.BigIntegerField(default=0)  # Σ accuracy × decisions
    lost_milli = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "variant", "month", "rated", "cpu_level"],
                name="one_month_stat_per_key",
            )
        ]
        indexes = [models.Index(fields=["user", "variant", "month"])]

    def __str__(self) -> str:
        return f"{self.user} {self.variant} {self.month:%Y-%m} {self.cpu_level}"

    def add(self, stat: HandStat, sign: int = 1) -> None:
        """Add one hand's figures (``sign`` -1: take them out again)."""
        fold(self, stat, sign)

    def values(self) -> dict:
        """The sums as a plain dict (tests compare rows with a rebuild)."""
        out = {name: getattr(self, name) for name in SUMS}
        out["penalties"] = {k: list(v) for k, v in sorted(self.penalties.items()) if v != [0, 0]}
        return out


def fold(acc, stat: HandStat, sign: int = 1) -> None:
    """Add ``stat`` (a HandStat, or any object with its fields) to ``acc`` (a MonthStat or
    any object with the SUMS attributes and a ``penalties`` dict)."""
    okey, pairs, direct = win_kinds(stat.ending) if stat.won else (False, False, False)
    acc.hands += sign
    acc.total_sum += sign * stat.total
    acc.wins += sign * stat.won
    acc.wins_plain += sign * (stat.won and not (okey or pairs or direct))
    acc.wins_okey += sign * okey
    acc.wins_pairs += sign * pairs
    acc.wins_direct += sign * direct
    if stat.opening_turn is not None:
        acc.opened += sign
        acc.opening_turn_sum += sign * stat.opening_turn
    acc.okeys_kept += sign * stat.okeys_kept
    acc.okeys_wasted += sign * stat.okeys_wasted
    acc.fed += sign * stat.fed
    penalties = {k: list(v) for k, v in (acc.penalties or {}).items()}
    for reason, (lines, points) in (stat.penalties or {}).items():
        entry = penalties.setdefault(reason, [0, 0])
        entry[0] += sign * lines
        entry[1] += sign * points
        if entry == [0, 0]:
            del penalties[reason]
    acc.penalties = penalties
    if stat.par is not None:
        acc.par_hands += sign
        acc.par_sum += sign * stat.par
        acc.par_total_sum += sign * stat.total
    if stat.decisions:
        acc.analysed_hands += sign
        acc.decisions += sign * stat.decisions
        acc.accuracy_sum += sign * stat.accuracy * stat.decisions
        acc.lost_milli += sign * (stat.lost_milli or 0)
