"""Fair-play checks kept per hand and seat, per player and rule set, per game; and the log.

Rows are written only by ``games.fairplay.scan`` (the background scan) and
``games.fairplay.marks`` (staff marking an account). See docs/fair-play.md.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Hand, Table, variant_choices


class HandCheck(models.Model):
    """One person's decisions in one finished hand of a competitive table, checked once:
    unique per (hand, seat), so two scans never count a hand twice."""

    class Status(models.TextChoices):
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="fairplay_checks")
    seat = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("player"),
    )
    variant = models.CharField(_("rule set"), max_length=16, choices=variant_choices)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.RUNNING)
    # which scan holds a running row (a row left by a scan that died is taken over later)
    claim = models.CharField(max_length=32, blank=True, default="")
    claimed_at = models.DateTimeField()
    decisions = models.PositiveIntegerField(_("decisions"), default=0)
    matches = models.PositiveIntegerField(_("expert matches"), default=0)
    loss = models.FloatField(_("value lost"), default=0.0)
    # one character a decision, "1" where the move was the expert's own choice
    bits = models.TextField(blank=True, default="")
    # the person at the seat before this one (whose discards this seat may take), if any
    feeder = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("seat before"),
    )
    # this seat finished the hand holding a tile taken from the seat before's discards
    fed = models.BooleanField(_("finished with a tile from the seat before"), default=False)
    error = models.CharField(max_length=200, blank=True, default="")

    class Meta:
        verbose_name = _("hand check")
        verbose_name_plural = _("hand checks")
        constraints = [
            models.UniqueConstraint(fields=["hand", "seat"], name="one_fairplay_check_per_seat")
        ]
        indexes = [
            models.Index(fields=["variant", "feeder", "user"]),
            models.Index(fields=["status", "claimed_at"]),
        ]

    def __str__(self) -> str:
        return f"{self.hand} seat {self.seat}: {self.matches}/{self.decisions}"


class PlayerStats(models.Model):
    """A player's checked decisions in one rule set, summed over their checked hands."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="fairplay_stats",
        verbose_name=_("player"),
    )
    variant = models.CharField(_("rule set"), max_length=16, choices=variant_choices)
    hands = models.PositiveIntegerField(_("hands"), default=0)
    decisions = models.PositiveIntegerField(_("decisions"), default=0)
    matches = models.PositiveIntegerField(_("expert matches"), default=0)
    loss = models.FloatField(_("value lost"), default=0.0)
    # the latest decisions' bits (HandCheck.bits), oldest first, at most RECENT_KEEP
    recent = models.TextField(blank=True, default="")
    updated_at = models.DateTimeField()

    class Meta:
        verbose_name = _("fair-play figures")
        verbose_name_plural = _("fair-play figures")
        constraints = [
            models.UniqueConstraint(fields=["user", "variant"], name="one_fairplay_stats_per_set")
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.variant}: {self.matches}/{self.decisions}"


class GameCheck(models.Model):
    """Who sat where and who placed where in one finished competitive game (for the
    "always together, never competing" signal)."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="fairplay_game")
    variant = models.CharField(_("rule set"), max_length=16, choices=variant_choices)
    players = models.PositiveSmallIntegerField(_("seats"))
    # user id (a string, as JSON keys are) -> [seat position, placing (1 = first)]
    seats = models.JSONField(default=dict)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("game check")
        verbose_name_plural = _("game checks")

    def __str__(self) -> str:
        return f"{self.table}"


class LogEntry(models.Model):
    """Who did what, when: every scan that checked something, every mark and unmark."""

    class Action(models.TextChoices):
        SCAN = "scan", _("Scan")
        MARK = "mark", _("Marked")
        UNMARK = "unmark", _("Unmarked")

    at = models.DateTimeField(_("when"), db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("by"),
    )
    action = models.CharField(_("what"), max_length=8, choices=Action.choices)
    target = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("account"),
    )
    reason = models.TextField(_("reason"), blank=True, default="")
    detail = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name = _("fair-play log entry")
        verbose_name_plural = _("fair-play log")
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action}"
