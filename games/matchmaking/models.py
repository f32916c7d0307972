"""The quick-match queue: one row per rule set, the lock every "Play now" of that rule
set takes before it chooses a table (``actions.do_quick_match``)."""

from __future__ import annotations

from django.db import models

from games.models import variant_choices


class QuickMatchQueue(models.Model):
    """One rule set's queue. The row holds no waiting list (the waiting quick-match
    tables are the list); it is what the presses of one rule set serialise on: each press
    updates it first, which locks the row on PostgreSQL and takes the database's write
    lock on SQLite, and only then reads the waiting tables."""

    variant = models.CharField(max_length=16, choices=variant_choices, unique=True)
    presses = models.PositiveBigIntegerField(default=0)
    last_press_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"quick match {self.variant}: {self.presses} presses"
