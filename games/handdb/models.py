"""The open hand database's rows: one ``HandMonth`` per exported month.

The file itself lives in ``settings.HAND_DB_DIR`` (never in the database); the row says
what the downloads page shows about it and is replaced, with the file, whenever the month
is built again (``games.handdb.actions.do_build_month``).
"""

from __future__ import annotations

from datetime import date

from django.db import models
from django.utils.translation import gettext_lazy as _


class HandMonth(models.Model):
    month = models.CharField(_("month"), max_length=7, unique=True)  # "YYYY-MM" (UTC)
    file_name = models.CharField(_("file name"), max_length=64)
    size = models.PositiveBigIntegerField(_("size in bytes"))
    sha256 = models.CharField(_("SHA-256"), max_length=64)
    games = models.PositiveIntegerField(_("games"))
    hands = models.PositiveIntegerField(_("hands"))
    built_at = models.DateTimeField(_("built at"))

    class Meta:
        ordering = ["-month"]
        verbose_name = _("hand database month")
        verbose_name_plural = _("hand database months")

    def __str__(self) -> str:
        return self.file_name

    @property
    def first_day(self) -> date:
        """The month as a date (its first day), for the page to name it."""
        year, number = self.month.split("-")
        return date(int(year), int(number), 1)
