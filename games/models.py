"""Persistence around the engine: tables, seats, hands, their actions and score lines.

A hand is stored as its seed plus the append-only list of accepted actions; the
engine's JSON state is kept beside it as a snapshot (``Hand.snapshot``), written when
the hand is dealt, every ``SNAPSHOT_EVERY`` actions and when it ends, never on every
action. The hand's current state is that snapshot plus the actions after it
(``Hand.state``; ``realtime.load_state``), and the whole hand can be rebuilt from its
seed and actions at any time (``realtime.rebuild_hand``).
"""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games.engine.rules import RULES
from games.engine.state import HandState, replay_from


def variant_choices() -> list[tuple[str, Promise]]:
    """Every registered rule set as (name, translated label), in menu order.

    Models pass this callable as ``choices`` (migrations store its reference, not the
    list), so a new module of ``games/engine/rulesets/`` needs no migration. The labels
    are the engine's ``gettext_noop`` msgids, translated lazily here."""
    return [(name, _(rules.label)) for name, rules in RULES.items()]


CPU_LEVELS = [
    ("easy", _("Easy")),
    ("medium", _("Medium")),
    ("hard", _("Hard")),
    ("expert", _("Expert")),
]


# the actions that end a turn (a time-out's move is the server's: ``HandAction.by_cpu``)
TURN_ENDS = ("discard", "close", "timeout")


def new_code() -> str:
    """Short unguessable code for invite links (base32-ish, 10 characters)."""
    return secrets.token_urlsafe(8)[:10]


class Table(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        ABANDONED = "abandoned", _("Abandoned")
        # A competitive game ended before it counted (every person gone before the first
        # hand was over, or one left before making a move): unrated, and the table says so.
        ABORTED = "aborted", _("Aborted")

    class Kind(models.TextChoices):
        ONLINE = "online", _("Online table")
        SOLO = "solo", _("Solo challenge")

    code = models.CharField(max_length=16, unique=True, default=new_code)
    variant = models.CharField(max_length=16, choices=variant_choices)
    options = models.JSONField(default=dict)
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.ONLINE)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.WAITING)
    # Every accepted change (an action, a new hand) bumps the version; clients
    # send the version they saw and stale actions are refused.
    version = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    guest_key = models.CharField(max_length=64, blank=True, default="")
    # When the next CPU move is due (visible delay), and the current turn's clock.
    cpu_due_at = models.DateTimeField(null=True, blank=True, db_index=True)
    turn_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # A rated table is a table of people (accounts, no CPU seat) whose game changes the
    # players' ratings when it finishes (games/ratings/); chosen at creation.
    rated = models.BooleanField(default=False)
    # A public table is listed in the lobby's live tables and anyone may watch it; a
    # private one is watched only through its link.
    public = models.BooleanField(default=False)
    # Opened by quick match (games/matchmaking/), not by the new-table form.
    quick_match = models.BooleanField(default=False)
    # A competitive table or run (a rated table, a tournament table, a solo challenge run
    # that can set records): no seat gets the engine's help ("Show me" is refused and not
    # shown). Casual and practice tables may ask for it.
    competitive = models.BooleanField(default=False)
    # A table seated by an organiser (a tournament's round): its games are played out
    # under the organiser's rules: a seat whose player is gone is played by its CPU and
    # scored as played, and hands are dealt even when no person is connected.
    organised = models.BooleanField(default=False)
    # Duplicate play (RULES.md D38): the game is exactly this many deals, each dealt as a
    # game's first hand; None: the rule set's own game.
    deals = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.get_variant_display()} #{self.pk}"

    @property
    def current_hand(self) -> Hand | None:
        return self.hands.order_by("-number").first()

    def turn_shares(self) -> dict[int, tuple[int, int]]:
        """Seat position -> (turns its person played, turns in all) over the whole game:
        the rest were played for the seat by its stand-in CPU (the person away, timed
        out, or gone). A turn is counted by the action that ends it."""
        out: dict[int, tuple[int, int]] = {}
        rows = HandAction.objects.filter(hand__table=self, payload__type__in=TURN_ENDS)
        for seat, by_cpu in rows.values_list("seat", "by_cpu"):
            own, total = out.get(seat, (0, 0))
            out[seat] = (own + (0 if by_cpu else 1), total + 1)
        return out


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    guest_key = models.CharField(max_length=64, blank=True, default="")
    name = models.CharField(max_length=60, blank=True, default="")
    is_cpu = models.BooleanField(default=False)
    cpu_level = models.CharField(max_length=8, choices=CPU_LEVELS, default="medium")
    # The player's own arrangement of their rack: a list of tile ids and None
    # (gaps), two rows of slots like a real istaka.
    rack_order = models.JSONField(default=list, blank=True)
    away_since = models.DateTimeField(null=True, blank=True)
    # Open websockets of this seat's owner (several tabs count once each).
    connections = models.IntegerField(default=0)
    # Turns in a row the clock ran out on (reset by the player's own move); at two the
    # seat's stand-in CPU plays until the player acts again.
    timeouts = models.PositiveSmallIntegerField(default=0)
    # When the player forfeited a competitive game (pressed Leave, or stayed away past the
    # forfeit grace): the stand-in finishes it, and the player ranks last in the rating
    # update (several leavers: by this time, the first to leave last).
    forfeited_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="one_seat_per_position")
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.position}"

    @property
    def is_open(self) -> bool:
        return not self.is_cpu and self.user_id is None and not self.guest_key

    def display_name(self) -> str:
        if self.name:
            return self.name
        if self.user_id:
            profile = getattr(self.user, "profile", None)
            return (profile.name if profile is not None else self.user.get_username())[:60]
        return str(_("Guest"))


class Hand(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    seed = models.CharField(max_length=128)
    seed_commitment = models.CharField(max_length=64)
    starter = models.PositiveSmallIntegerField()
    # The engine state after the first ``len(snapshot["actions"])`` actions (at the
    # deal, every SNAPSHOT_EVERY actions, at the end); the column keeps its old name.
    snapshot = models.JSONField(default=dict, db_column="state")
    result = models.JSONField(null=True, blank=True)
    # "Show me" use: seat position (a string, as JSON keys are) -> the turn numbers on which
    # that seat asked; one entry a turn however often it asked (shown on the score sheet
    # and the review).
    hints = models.JSONField(default=dict, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="one_hand_per_number")
        ]

    def __str__(self) -> str:
        return f"{self.table} hand {self.number + 1}"

    @property
    def state(self) -> dict:
        """The hand's current engine state as JSON: the snapshot and the actions
        stored after it (one query while the hand is played; none once it is over,
        as its last snapshot is its final state)."""
        snap = self.snapshot
        if self.pk is None or not snap or self.result is not None:
            return snap
        later = list(
            self.actions.filter(index__gte=len(snap.get("actions", ()))).values_list(
                "payload", flat=True
            )
        )
        if not later:
            return snap
        return replay_from(HandState.from_json(snap), later).to_json()

    @state.setter
    def state(self, value: dict) -> None:
        self.snapshot = value

    @staticmethod
    def commit_to(seed: str) -> str:
        return hashlib.sha256(seed.encode()).hexdigest()


# A hand's snapshot is rewritten after every SNAPSHOT_EVERY-th action (and when it
# ends): a state read without the in-process cache (another server process, a
# restart) replays at most SNAPSHOT_EVERY - 1 actions, and an action costs one
# INSERT instead of an INSERT and an UPDATE of the whole state. A classic hand is
# about 100-200 actions: four to six snapshots.
SNAPSHOT_EVERY = 32


class HandAction(models.Model):
    """One accepted engine action: append-only, ordered by ``index``."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="actions")
    index = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    payload = models.JSONField()
    by_cpu = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["hand", "index"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "index"], name="one_action_per_index")
        ]

    def __str__(self) -> str:
        return f"{self.hand} #{self.index} {self.payload.get('type')}"


class ScoreLine(models.Model):
    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="score_lines")
    seat = models.PositiveSmallIntegerField()
    points = models.IntegerField()
    reason = models.CharField(max_length=40)
    detail = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["hand", "id"]

    def __str__(self) -> str:
        return f"{self.hand} seat {self.seat}: {self.points:+d} ({self.reason})"


class SeatConnection(models.Model):
    """One open websocket of a seat's owner, held by one server process.

    Presence is counted from these rows (``Seat.connections`` is their count): a
    process refreshes ``seen_at`` of its own rows while their sockets live and
    drops the rows of sockets that ended without saying so; the rows of a process
    that died (``kill -9``) expire. See ``games.live.actions.presence.do_reconcile_presence``.
    """

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="live_connections")
    process = models.CharField(max_length=32)
    channel = models.CharField(max_length=200, unique=True)
    seen_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["process"]), models.Index(fields=["seen_at"])]

    def __str__(self) -> str:
        return f"{self.seat} via {self.channel}"
