"""Tournaments: registrations, rounds, tables, results and the audit log.

Player ids handed to the pure algorithms (``seating``, ``standings``) are
``str(entry.pk)``; ``None`` in a seat list is a CPU fill seat. CPU seats are
never entries, so a CPU never appears in the standings.
"""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import CPU_LEVELS, Table, variant_choices

DEFAULT_PLACING_POINTS = [4, 2, 1, 0]


def new_seed() -> str:
    """The published seating/draw seed of a new tournament."""
    return secrets.token_hex(8)


def default_placing_points() -> list[int]:
    return list(DEFAULT_PLACING_POINTS)


def new_deal_seed() -> str:
    """A duplicate round's deal seed: secret until every table of the round has played it."""
    return secrets.token_hex(16)


def seed_commitment(seed: str) -> str:
    """What the public sees of a deal's seed before the round is complete: its SHA-256
    (hex of the seed's UTF-8 bytes, as ``duplicate.commitment`` and ``Hand.commit_to``)."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


class Tournament(models.Model):
    class Mode(models.TextChoices):
        ONLINE = "online", _("Online")
        IN_PERSON = "in_person", _("In person")

    class Scoring(models.TextChoices):
        PLACING = "placing", _("Table placing points")
        SUM = "sum", _("Sum of game scores")

    class Seating(models.TextChoices):
        AVOID_REPEATS = "avoid_repeats", _("Avoid repeat opponents")
        SWISS = "swiss", _("Swiss (group by standing)")

    class Format(models.TextChoices):
        STANDARD = "standard", _("Standard")
        DUPLICATE = "duplicate", _("Duplicate")

    class DuplicateScoring(models.TextChoices):
        MATCHPOINTS = "matchpoints", _("Matchpoints")
        IMPS = "imps", _("IMPs")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Registration")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    name = models.CharField(_("name"), max_length=120)
    date = models.DateField(_("date"))
    # The registry's rule sets (a callable: a new rule set needs no migration).
    variant = models.CharField(_("rule set"), max_length=16, choices=variant_choices)
    options = models.JSONField(_("table options"), default=dict)
    rounds = models.PositiveSmallIntegerField(_("rounds"), default=3)
    mode = models.CharField(_("where"), max_length=12, choices=Mode.choices, default=Mode.ONLINE)
    scoring = models.CharField(
        _("scoring"), max_length=8, choices=Scoring.choices, default=Scoring.PLACING
    )
    placing_points = models.JSONField(_("placing points"), default=default_placing_points)
    seating = models.CharField(
        _("seating"), max_length=16, choices=Seating.choices, default=Seating.AVOID_REPEATS
    )
    # Duplicate play (docs/duplicate.md, RULES.md D38): every table of a round plays the
    # round's deals; players are compared seat by seat (matchpoints or IMPs).
    format = models.CharField(
        _("format"), max_length=12, choices=Format.choices, default=Format.STANDARD
    )
    duplicate_scoring = models.CharField(
        _("duplicate scoring"),
        max_length=12,
        choices=DuplicateScoring.choices,
        default=DuplicateScoring.MATCHPOINTS,
    )
    # deals per duplicate round; None: one per seat of a table (everyone starts once)
    deals_per_round = models.PositiveSmallIntegerField(_("deals per round"), null=True, blank=True)
    # Three-player tables instead of CPU fill seats (a rule set played by three only).
    three_player_tables = models.BooleanField(_("three-player tables"), default=False)
    seed = models.CharField(_("published seed"), max_length=64, default=new_seed)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.REGISTRATION
    )
    published = models.BooleanField(_("published"), default=False)
    # Online: how long a seated player has to reach their table before their
    # CPU plays for them (until they arrive).
    arrival_s = models.PositiveIntegerField(_("arrival time (seconds)"), default=120)
    # the level of the CPUs that fill a table's empty seats (games.models.CPU_LEVELS)
    cpu_level = models.CharField(_("CPU level"), max_length=8, choices=CPU_LEVELS, default="medium")
    # Late entry: players may be registered for a round after round 1 up to this round
    # (None: any round not seated yet); after it, registration is closed.
    late_entry_until = models.PositiveSmallIntegerField(
        _("late entry until round"), null=True, blank=True
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="owned_tournaments",
        verbose_name=_("owner"),
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="co_organised_tournaments",
        verbose_name=_("co-organisers"),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-date", "-id"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return self.name

    def is_organiser(self, user: object) -> bool:
        if user is None or not getattr(user, "is_authenticated", False):
            return False
        uid = getattr(user, "pk", None)
        return self.owner_id == uid or self.organisers.filter(pk=uid).exists()

    @property
    def online(self) -> bool:
        return self.mode == self.Mode.ONLINE

    @property
    def seated_rounds(self) -> int:
        return self.round_set.count()

    @property
    def duplicate(self) -> bool:
        return self.format == self.Format.DUPLICATE

    @property
    def table_size(self) -> int:
        """Seats at a duplicate table: every table of a round has as many (three only
        with three-player tables, CPU seats filling the rest)."""
        return 3 if self.three_player_tables else 4

    @property
    def deals_in_round(self) -> int:
        """How many deals a duplicate round has (default: one per seat)."""
        return self.deals_per_round or self.table_size


class Entry(models.Model):
    """One registered player: an account, or a name only (club members without one)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournament_entries",
        verbose_name=_("account"),
    )
    name = models.CharField(_("name"), max_length=60)
    # Late entry: the first round this player is seated in.
    joins_round = models.PositiveSmallIntegerField(_("first round"), default=1)
    # Drop-out: seated in no round from this one on.
    dropped_from_round = models.PositiveSmallIntegerField(
        _("dropped from round"), null=True, blank=True
    )
    # Rounds this player did not show up for (not seated in them).
    no_shows = models.JSONField(_("no-shows"), default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"],
                condition=models.Q(user__isnull=False),
                name="one_entry_per_account",
            )
        ]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")

    def __str__(self) -> str:
        return self.name

    @property
    def pid(self) -> str:
        """The id the pure algorithms know this player by."""
        return str(self.pk)

    def plays_round(self, number: int) -> bool:
        if number < self.joins_round:
            return False
        if self.dropped_from_round is not None and number >= self.dropped_from_round:
            return False
        return number not in (self.no_shows or [])

    def snapshot(self) -> dict:
        return {
            "name": self.name,
            "account": self.user.get_username() if self.user_id else None,
            "joins_round": self.joins_round,
            "dropped_from_round": self.dropped_from_round,
            "no_shows": list(self.no_shows or []),
        }


class KeepApart(models.Model):
    """Two entries who must never sit at the same table (family, partners)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="apart")
    first = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "id"]
        constraints = [
            models.UniqueConstraint(fields=["first", "second"], name="one_keep_apart_per_pair"),
            models.CheckConstraint(
                condition=models.Q(first__lt=models.F("second")), name="keep_apart_ordered"
            ),
        ]
        verbose_name = _("must-not-meet pair")
        verbose_name_plural = _("must-not-meet pairs")

    def __str__(self) -> str:
        return f"{self.first} / {self.second}"

    @property
    def pids(self) -> tuple[str, str]:
        return (str(self.first_id), str(self.second_id))


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE)
    number = models.PositiveSmallIntegerField()
    seated_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_round_per_number")
        ]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"

    @property
    def complete(self) -> bool:
        tables = list(self.tables.all())
        return bool(tables) and all(t.has_result for t in tables)


class Deal(models.Model):
    """One deal of a duplicate round, played at every table of the round (hand number
    ``number - 1`` of each table's game). The seed stays secret until the round is
    complete; its commitment is public from the moment the round is seated."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField()  # 1..deals_in_round
    seed = models.CharField(max_length=64, default=new_deal_seed)
    commitment = models.CharField(max_length=64)
    # a deal is dealt for one player count (the round's table size)
    players = models.PositiveSmallIntegerField(default=4)

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="one_deal_per_number")
        ]

    def __str__(self) -> str:
        return f"{self.round} deal {self.number}"

    def save(self, *args: object, **kwargs: object) -> None:
        if not self.commitment:
            self.commitment = seed_commitment(self.seed)
        super().save(*args, **kwargs)


class TournamentTable(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    # Entry pks as strings (seat 0 starts), ``None`` for a CPU seat.
    seats = models.JSONField(default=list)
    # Online rounds: the table the game is played at.
    game = models.OneToOneField(
        Table,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournament_table",
    )

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="one_table_per_number")
        ]

    def __str__(self) -> str:
        return f"{self.round} table {self.number}"

    @property
    def has_result(self) -> bool:
        try:
            return self.result is not None
        except TableResult.DoesNotExist:
            return False


class TableResult(models.Model):
    class Source(models.TextChoices):
        ENTERED = "entered", _("Entered by an organiser")
        GAME = "game", _("Posted by the finished game")
        IMPORTED = "imported", _("Imported")

    table = models.OneToOneField(TournamentTable, on_delete=models.CASCADE, related_name="result")
    # One game score per seat, in seat order (CPU seats too).
    scores = models.JSONField(default=list)
    # Duplicate rounds: each deal's hand totals, one list per deal (in deal order), one
    # total per seat (the game's hand totals, RULES.md D38); empty otherwise.
    hands = models.JSONField(default=list, blank=True)
    source = models.CharField(max_length=8, choices=Source.choices, default=Source.ENTERED)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.table}: {self.scores}"


class AuditEntry(models.Model):
    """Who changed what and when, with the state before and after."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="audit")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    at = models.DateTimeField(auto_now_add=True, db_index=True)
    action = models.CharField(max_length=32)
    what = models.CharField(max_length=200, blank=True, default="")
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} {self.what}"
