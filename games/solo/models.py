"""Finished solo games: one row per solo table that reached its end.

Rows are written only by ``records.do_record_result`` (the ``game_finished``
signal, inside the transaction that ends the game), so an unfinished or
abandoned game never has one. Guests get a row with ``user=None`` and never
appear in records or on the board.

A run is a *challenge* (its table is ``competitive``: the server refuses "Show me") or
*practice* (help allowed, never a record). A row is *verified* when it is a challenge run
in which no seat used "Show me" (``Hand.hints`` empty). Rows written before the two modes
existed were played with "Show me" at hand and unrecorded: the migration keeps them as
challenge runs that are not verified, so they stay in their owner's history and bests
marked "unverified", and leave the public board unless a visitor asks for them
(docs/solo.md).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.engine.rules import RULES
from games.models import CPU_LEVELS, Table, variant_choices

# The rule set whose solo games set records and fill the public board: the one whose rules
# object says ``records`` (RULES.md §5: seventeen's seven rounds).
RECORD_VARIANT = next(name for name, rules in RULES.items() if rules.records)
RECORD_ROUNDS = 7  # only complete games of seven rounds count


class Mode(models.TextChoices):
    """How a solo run is played, chosen on the start form."""

    CHALLENGE = "challenge", _("Challenge")
    PRACTICE = "practice", _("Practice")


class SoloResultQuerySet(models.QuerySet):
    def records(self) -> SoloResultQuerySet:
        """Results that count for records: signed-in players, complete challenge runs of the
        record rule set (verified or not: older rows are not)."""
        return self.filter(
            user__isnull=False, variant=RECORD_VARIANT, rounds=RECORD_ROUNDS, mode=Mode.CHALLENGE
        )

    def verified(self) -> SoloResultQuerySet:
        """Records made without any engine help: the only ones the public board ranks."""
        return self.records().filter(verified=True)

    def public(self, *, unverified: bool = False) -> SoloResultQuerySet:
        """Verified record rows of players who opted in (checked at query time: opting out
        hides their rows at once); ``unverified`` adds their older unverified rows. An
        account staff marked for fair play (games/fairplay/) is never listed."""
        rows = self.records() if unverified else self.verified()
        return rows.filter(
            user__profile__public_records=True, user__profile__fair_play_marked=False
        )


class SoloResult(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="solo_results",
        verbose_name=_("player"),
    )
    table = models.OneToOneField(
        Table, on_delete=models.CASCADE, related_name="solo_result", verbose_name=_("table")
    )
    variant = models.CharField(_("rule set"), max_length=16, choices=variant_choices)
    level = models.CharField(_("CPU level"), max_length=8, choices=CPU_LEVELS)
    total = models.IntegerField(_("total"))
    rounds = models.PositiveSmallIntegerField(_("rounds"))
    won = models.BooleanField(_("won"), default=False)
    mode = models.CharField(_("mode"), max_length=10, choices=Mode, default=Mode.CHALLENGE)
    # A challenge run in which no seat used "Show me"; False for practice runs and for
    # rows made before the modes existed (see the module's docstring).
    verified = models.BooleanField(_("verified"), default=False)
    # Turns on which the player asked "Show me" over the whole run (practice only).
    hints = models.PositiveIntegerField(_("Show me uses"), default=0)
    finished_at = models.DateTimeField(_("finished at"), db_index=True)

    objects = SoloResultQuerySet.as_manager()

    class Meta:
        ordering = ["-finished_at", "-id"]
        verbose_name = _("solo result")
        verbose_name_plural = _("solo results")
        indexes = [models.Index(fields=["variant", "level", "total"])]

    def __str__(self) -> str:
        return f"{self.get_variant_display()} {self.level}: {self.total}"

    @property
    def counts_for_records(self) -> bool:
        """A record (verified or not): what ``SoloResultQuerySet.records`` selects."""
        return (
            self.user_id is not None
            and getattr(RULES.get(self.variant), "records", False)
            and self.rounds == RECORD_ROUNDS
            and self.mode == Mode.CHALLENGE
        )

    @property
    def is_practice(self) -> bool:
        return self.mode == Mode.PRACTICE
