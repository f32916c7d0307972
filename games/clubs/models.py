"""Clubs: organisers and members, seasons, and the tournaments that form a season.

A tournament (games.tournaments) is attached to a season with a weight by a
``SeasonTournament`` row of this app, so the tournaments app knows nothing of clubs.
How the ranking is computed: ``ranking.py``; what reads the tournaments: ``standings.py``.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.tournaments.models import Tournament

MIN_WEIGHT = Decimal("0.1")
MAX_WEIGHT = Decimal("10")


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("address"), max_length=140, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="created_clubs",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name

    def is_organiser(self, user: object) -> bool:
        if user is None or not getattr(user, "is_authenticated", False):
            return False
        return self.memberships.filter(
            user_id=getattr(user, "pk", None), role=Membership.Role.ORGANISER
        ).exists()


class Membership(models.Model):
    """An account in a club. Organisers manage members and seasons; members are ranked
    under their account. An account joins by accepting an organiser's invitation
    (``Invitation``) and may leave (actions.py)."""

    class Role(models.TextChoices):
        ORGANISER = "organiser", _("Organiser")
        MEMBER = "member", _("Member")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_memberships"
    )
    role = models.CharField(_("role"), max_length=12, choices=Role.choices, default=Role.MEMBER)
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="one_membership_per_account")
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.club} ({self.role})"


class Invitation(models.Model):
    """An organiser's invitation of an account to the club (as a member, or as an
    organiser: also how a member is made one). The account accepts (a ``Membership``
    with that role) or declines; either way the row goes. One per club and account."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_invitations"
    )
    role = models.CharField(
        _("role"), max_length=12, choices=Membership.Role.choices, default=Membership.Role.MEMBER
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="one_invitation_per_account")
        ]

    def __str__(self) -> str:
        return f"{self.user} invited to {self.club} ({self.role})"


class Season(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=120)
    start = models.DateField(_("first day"))
    end = models.DateField(_("last day"))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "-start", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(end__gte=models.F("start")), name="season_ends_after_start"
            )
        ]

    def __str__(self) -> str:
        return f"{self.club}: {self.name}"


class SeasonTournament(models.Model):
    """A finished tournament counted in a season, with its weight (1 = a normal event)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="links")
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="club_seasons"
    )
    weight = models.DecimalField(
        _("weight"),
        max_digits=4,
        decimal_places=2,
        default=Decimal("1"),
        validators=[MinValueValidator(MIN_WEIGHT), MaxValueValidator(MAX_WEIGHT)],
    )
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["season", "tournament__date", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["season", "tournament"], name="one_link_per_season_tournament"
            )
        ]

    def __str__(self) -> str:
        return f"{self.season}: {self.tournament} × {self.weight}"


class NameLink(models.Model):
    """An organiser's statement that a name-only tournament entry of this club is this
    member: results of entries with that name (compared case-insensitively) then count for
    the member. Without a link a name entry is ranked under its name alone."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="name_links")
    key = models.CharField(max_length=120)  # the name, casefolded (ß becomes ss)
    name = models.CharField(_("name"), max_length=60)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["club", "key"]
        constraints = [
            models.UniqueConstraint(fields=["club", "key"], name="one_link_per_club_name")
        ]

    def __str__(self) -> str:
        return f"{self.club}: {self.name} → {self.user}"
