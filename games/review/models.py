"""Review data: cached CPU commentary, share links and imported records."""

from __future__ import annotations

import json
import secrets
import zlib

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Hand, Table


def new_token() -> str:
    """An unguessable share token (128 bits)."""
    return secrets.token_urlsafe(16)


class HandCommentary(models.Model):
    """The hard CPU's choices beside one seat's decisions in a finished hand (a cache)."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="commentaries")
    seat = models.PositiveSmallIntegerField()
    data = models.JSONField(default=dict)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("hand commentary")
        verbose_name_plural = _("hand commentaries")
        constraints = [
            models.UniqueConstraint(fields=["hand", "seat"], name="one_commentary_per_seat")
        ]

    def __str__(self) -> str:
        return f"{self.hand} seat {self.seat}"


class ShareLink(models.Model):
    """A link that shows a finished game's replays to anyone, until revoked."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="share_links")
    token = models.CharField(max_length=32, unique=True, default=new_token)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    guest_key = models.CharField(max_length=64, blank=True, default="")
    created = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        verbose_name = _("share link")
        verbose_name_plural = _("share links")

    def __str__(self) -> str:
        return f"{self.table} share {self.token[:6]}…"

    @property
    def active(self) -> bool:
        return self.revoked_at is None


class ImportedRecord(models.Model):
    """An uploaded ``okey-review/1`` file, verified by replay, owned by its importer.

    Never a played game: it only feeds the replay viewer of its owner."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE
    )
    guest_key = models.CharField(max_length=64, blank=True, default="")
    variant = models.CharField(max_length=16)
    title = models.CharField(max_length=120, blank=True, default="")
    data = models.JSONField()  # the normalised exchange document
    commentary = models.JSONField(default=dict, blank=True)  # "hand:seat" -> data
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]
        verbose_name = _("imported record")
        verbose_name_plural = _("imported records")

    def __str__(self) -> str:
        return self.title or f"{self.variant} import #{self.pk}"


class ImportedHand(models.Model):
    """One hand of an imported file, replayed once when the file was imported.

    ``replay`` holds ``games.review.replay.compute_replay`` of the hand (frames, steps,
    result; language-neutral) as zlib-compressed JSON, made before the write transaction
    (a frame per step repeats most of the last one: a tenth of the size); the viewer only
    reads it. ``engine_record`` (seed, starter and the actions as tile ids) feeds the CPU
    commentary."""

    record = models.ForeignKey(ImportedRecord, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField()  # 1 = the file's first hand
    engine_record = models.JSONField()
    replay = models.BinaryField()

    @staticmethod
    def pack(replay: dict) -> bytes:
        text = json.dumps(replay, separators=(",", ":"))
        return zlib.compress(text.encode(), 6)

    @property
    def replay_data(self) -> dict:
        return json.loads(zlib.decompress(bytes(self.replay)))

    class Meta:
        ordering = ["number"]
        verbose_name = _("imported hand")
        verbose_name_plural = _("imported hands")
        constraints = [
            models.UniqueConstraint(
                fields=["record", "number"], name="one_imported_hand_per_number"
            )
        ]

    def __str__(self) -> str:
        return f"{self.record} hand {self.number}"


class HandAnalysis(models.Model):
    """The expert's analysis of one seat's decisions in a finished hand (played or
    imported): computed once in the background (``games.review.analysis``), its progress
    kept here while it runs, then its result (``games.engine.analysis.analyse_hand``,
    language-neutral JSON). One row per (hand, seat): the constraint is what stops two
    requests or two processes from computing it twice (the one that claims the pending
    row computes)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    hand = models.ForeignKey(
        Hand, null=True, blank=True, on_delete=models.CASCADE, related_name="analyses"
    )
    imported = models.ForeignKey(
        ImportedHand, null=True, blank=True, on_delete=models.CASCADE, related_name="analyses"
    )
    seat = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    data = models.JSONField(default=dict, blank=True)
    error = models.CharField(max_length=200, blank=True, default="")
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("hand analysis")
        verbose_name_plural = _("hand analyses")
        constraints = [
            models.UniqueConstraint(
                fields=["hand", "seat"],
                condition=models.Q(hand__isnull=False),
                name="one_analysis_per_hand_seat",
            ),
            models.UniqueConstraint(
                fields=["imported", "seat"],
                condition=models.Q(imported__isnull=False),
                name="one_analysis_per_imported_seat",
            ),
            models.CheckConstraint(
                condition=models.Q(hand__isnull=False, imported__isnull=True)
                | models.Q(hand__isnull=True, imported__isnull=False),
                name="analysis_of_one_hand",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.hand or self.imported} seat {self.seat}: {self.status}"


class HandPar(models.Model):
    """The par of one seat in a finished played hand: the hand total the expert CPU makes
    from that seat on the same deal with hard CPUs in the other seats
    (``games.engine.par.par_for_seat``), and the luck of the seat's deal. Computed once in
    the background (``games.review.par``), one row per (hand, seat), kept."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="pars")
    seat = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    par = models.IntegerField(null=True, blank=True)  # the expert's hand total
    result = models.IntegerField(null=True, blank=True)  # the seat's real hand total
    # result against par in the rule set's better direction (+: better than the expert)
    versus = models.IntegerField(null=True, blank=True)
    luck = models.JSONField(default=dict, blank=True)  # games.engine.par.Luck.to_json()
    ending = models.CharField(max_length=32, blank=True, default="")  # the replay's ending
    actions = models.PositiveIntegerField(default=0)  # actions of the expert's replay
    cpu_seconds = models.FloatField(null=True, blank=True)  # the replay's CPU time
    error = models.CharField(max_length=200, blank=True, default="")
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("hand par")
        verbose_name_plural = _("hand pars")
        constraints = [models.UniqueConstraint(fields=["hand", "seat"], name="one_par_per_seat")]

    def __str__(self) -> str:
        return f"{self.hand} seat {self.seat}: par {self.par} ({self.status})"

    def as_dict(self) -> dict:
        """What ``games.signals.par_ready`` carries (JSON-ready)."""
        return {
            "par": self.par,
            "result": self.result,
            "versus": self.versus,
            "luck": dict(self.luck),
            "ending": self.ending,
            "actions": self.actions,
            "cpu_seconds": self.cpu_seconds,
        }
