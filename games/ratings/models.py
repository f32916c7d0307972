"""Players' ratings, one per rule set, and the change each rated game made.

``Rating`` is a cache: every row can be recomputed from the ``RatingChange`` rows'
tables (``manage.py rebuild_ratings`` does it from the finished rated tables in finishing
order). Rows are written only by ``games.ratings.api.do_rate_game``, called inside
the transaction that finishes a game (games/live/actions/).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Table, variant_choices


class Rating(models.Model):
    """A player's current skill estimate in one rule set (openskill's Plackett-Luce mu and
    sigma) and how many rated games it rests on."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    variant = models.CharField(max_length=16, choices=variant_choices)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField()

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(fields=["user", "variant"], name="one_rating_per_variant")
        ]
        indexes = [models.Index(fields=["variant", "mu"])]

    def __str__(self) -> str:
        return f"{self.user} {self.variant} {self.mu:.2f}±{self.sigma:.2f}"


class RatingChange(models.Model):
    """What one finished rated game did to one player's rating: unique per (user, table),
    so a game changes a rating once however often its end is recorded."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="rating_changes")
    variant = models.CharField(max_length=16, choices=variant_choices)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    # 1 = first; players who tie share a placing.
    place = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField()

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "table"], name="one_rating_change_per_table")
        ]
        indexes = [models.Index(fields=["user", "variant", "created_at"])]

    def __str__(self) -> str:
        return f"{self.user} {self.table_id}: {self.mu_before:.2f} -> {self.mu_after:.2f}"
