"""Every change to a club goes through one function here: one transaction, the club row
locked, the actor checked (organisers only, ``ClubError("not_organiser")``), the ids
checked to belong to this club (``no_such_...``: another club's season or member is not
found here).

Decisions (docs/clubs.md):

* Whoever creates a club is its first organiser. An organiser invites an account by its
  username (no invite links: nothing to leak); the account sees the invitation (its
  invitations page, its profile, the club's page) and accepts or declines it. Nobody is
  in a club, listed publicly, without having said yes. An invitation as an organiser
  makes a member an organiser when accepted (how a club is handed over).
* Inviting says nothing about the name: an unknown username, an account already in the
  club or already invited, all get the same answer as a new invitation ("if that player
  exists, they have been invited"), and nothing is made for them; the invitations are
  counted per organiser (accounts/throttle.py ``CLUB_INVITE``), so the form is not a way
  to test which usernames exist. An organiser therefore sees no list of pending
  invitations (it would show which names are accounts).
* A member may leave; an organiser too while another organiser stays. The last
  organiser cannot leave (``last_organiser``): they invite a member as an organiser,
  who accepts, and then leave. An organiser may remove anyone but the last organiser.
* A season has a name and first and last days; a tournament may be attached to a season
  when it is finished, published, dated within the season, and in no other season of the
  club. Its weight is between 0.1 and 10 (1 = a normal club night).
* A name-only entry is ranked by its name until an organiser links the name to a member.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from accounts.names import clean_public_name
from games.tournaments.models import Tournament

from .models import (
    MAX_WEIGHT,
    MIN_WEIGHT,
    Club,
    Invitation,
    Membership,
    NameLink,
    Season,
    SeasonTournament,
)
from .standings import name_key

MESSAGES = {
    "not_organiser": _("Only the club's organisers can do that."),
    "no_such_member": _("That account is not in the club."),
    "last_organiser": _("A club keeps at least one organiser."),
    "last_organiser_leaves": _(
        "You are the club's only organiser: invite a member as an organiser first, "
        "then leave once they have accepted."
    ),
    "no_such_invitation": _("There is no such invitation."),
    "no_such_season": _("That season is not in this club."),
    "bad_dates": _("A season's last day cannot come before its first day."),
    "no_such_tournament": _("There is no such tournament."),
    "not_finished": _("Only a finished tournament can count in a season."),
    "not_published": _("Publish the tournament first: a club ranking is public."),
    "outside_season": _("The tournament's date is outside the season."),
    "already_attached": _("That tournament already counts in the season “%(season)s”."),
    "bad_weight": _("A weight is a number from 0.1 to 10."),
    "no_such_link": _("That tournament is not in this season."),
    "already_linked": _("The name “%(name)s” is already linked to a member."),
    "no_such_name": _("That name is not linked in this club."),
}


RESERVED_SLUGS = {"new", "invitations"}  # clubs/new/ is the form, then the invitations


class ClubError(Exception):
    """A refused change: a stable code, an English message, the parameters of its text."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code, self.message, self.params = code, message, params

    def text(self) -> str:
        """The reader's language (a name's problem comes translated from accounts/names.py)."""
        if self.code == "bad_name":
            return str(self.params["problem"])
        return str(MESSAGES[self.code]) % self.params if self.params else str(MESSAGES[self.code])


def _lock(club_id: int) -> Club:
    return Club.objects.select_for_update().get(pk=club_id)


def _require_organiser(club: Club, actor: Any) -> None:
    if not club.is_organiser(actor):
        raise ClubError("not_organiser", "only the club's organisers can do that")


def clean_name(value: str, max_length: int = 120) -> str:
    """A club's or a season's name, checked like a tournament's (accounts/names.py)."""
    try:
        name = clean_public_name(value.strip(), max_length)
    except ValidationError as e:
        raise ClubError("bad_name", "bad name", problem=" ".join(e.messages)) from e
    if not name:
        raise ClubError("bad_name", "a name is needed", problem=str(_("A name is needed.")))
    return name


def _unique_slug(name: str) -> str:
    base = slugify(name)[:120] or "club"
    if base in RESERVED_SLUGS:
        base = f"{base}-club"
    slug, i = base, 1
    while Club.objects.filter(slug=slug).exists():
        i += 1
        slug = f"{base}-{i}"
    return slug


def do_create_club(actor: Any, name: str) -> Club:
    name = clean_name(name)
    with transaction.atomic():
        club = Club.objects.create(name=name, slug=_unique_slug(name), created_by=actor)
        Membership.objects.create(
            club=club, user=actor, role=Membership.Role.ORGANISER, added_by=actor
        )
        return club


def do_invite(club_id: int, actor: Any, username: str, *, organiser: bool = False) -> None:
    """Invite the account called ``username`` (any case) to the club. Returns nothing,
    whatever the name: an unknown name, a member (as a member again) or an account
    already invited changes nothing and is answered alike (the module's docstring). An
    invitation as an organiser to an account invited as a member raises it."""
    role = Membership.Role.ORGANISER if organiser else Membership.Role.MEMBER
    with transaction.atomic():
        club = _lock(club_id)
        _require_organiser(club, actor)
        user = get_user_model().objects.filter(username__iexact=username.strip()).first()
        if user is None:
            return
        membership = club.memberships.filter(user=user).first()
        if membership is not None and (
            membership.role == Membership.Role.ORGANISER or not organiser
        ):
            return  # already in the club with that role (or more)
        invitation, made = Invitation.objects.get_or_create(
            club=club, user=user, defaults={"role": role, "invited_by": actor}
        )
        if not made and organiser and invitation.role != role:
            invitation.role, invitation.invited_by = role, actor
            invitation.save(update_fields=["role", "invited_by"])


def _invitation(invitation_id: int, user: Any) -> Invitation:
    """``user``'s own invitation (another's is not found: ``no_such_invitation``)."""
    found = Invitation.objects.filter(pk=invitation_id, user_id=getattr(user, "pk", None)).first()
    if found is None:
        raise ClubError("no_such_invitation", "no such invitation")
    return found


def do_accept_invitation(invitation_id: int, user: Any) -> Membership:
    """``user`` accepts their invitation: they are in the club with its role (a member
    invited as an organiser becomes one)."""
    club_id = _invitation(invitation_id, user).club_id
    with transaction.atomic():
        _lock(club_id)
        invitation = _invitation(invitation_id, user)
        membership = Membership.objects.filter(club_id=club_id, user=user).first()
        if membership is None:
            membership = Membership.objects.create(
                club_id=club_id, user=user, role=invitation.role, added_by=invitation.invited_by
            )
        elif invitation.role == Membership.Role.ORGANISER:
            membership.role = Membership.Role.ORGANISER
            membership.save(update_fields=["role"])
        invitation.delete()
        return membership


def do_decline_invitation(invitation_id: int, user: Any) -> None:
    """``user`` declines their invitation: it goes, and nothing else changes (they may
    be invited again)."""
    club_id = _invitation(invitation_id, user).club_id
    with transaction.atomic():
        _lock(club_id)
        _invitation(invitation_id, user).delete()


def do_leave(club_id: int, user: Any) -> None:
    """``user`` leaves the club. The last organiser cannot (``last_organiser_leaves``):
    a club keeps an organiser, who hands it over first (the module's docstring)."""
    with transaction.atomic():
        club = _lock(club_id)
        membership = club.memberships.filter(user_id=getattr(user, "pk", None)).first()
        if membership is None:
            raise ClubError("no_such_member", "not in the club")
        organisers = club.memberships.filter(role=Membership.Role.ORGANISER)
        if membership.role == Membership.Role.ORGANISER and organisers.count() == 1:
            raise ClubError("last_organiser_leaves", "the last organiser cannot leave")
        membership.delete()


def do_remove_member(club_id: int, actor: Any, user_id: int) -> None:
    with transaction.atomic():
        club = _lock(club_id)
        _require_organiser(club, actor)
        membership = club.memberships.filter(user_id=user_id).first()
        if membership is None:
            raise ClubError("no_such_member", "no such member")
        organisers = club.memberships.filter(role=Membership.Role.ORGANISER)
        if membership.role == Membership.Role.ORGANISER and organisers.count() == 1:
            raise ClubError("last_organiser", "a club keeps one organiser")
        membership.delete()


def do_create_season(club_id: int, actor: Any, name: str, start: dt.date, end: dt.date) -> Season:
    name = clean_name(name)
    with transaction.atomic():
        club = _lock(club_id)
        _require_organiser(club, actor)
        if end < start:
            raise ClubError("bad_dates", "the season ends before it starts")
        return Season.objects.create(club=club, name=name, start=start, end=end)


def _season(club: Club, season_id: int) -> Season:
    season = Season.objects.filter(club=club, pk=season_id).first()
    if season is None:
        raise ClubError("no_such_season", "no such season")
    return season


def clean_weight(value: Any) -> Decimal:
    try:
        weight = Decimal(str(value).strip().replace(",", "."))
    except (InvalidOperation, ValueError) as e:
        raise ClubError("bad_weight", "bad weight") from e
    if not weight.is_finite() or not MIN_WEIGHT <= weight <= MAX_WEIGHT:
        raise ClubError("bad_weight", "bad weight")
    if weight != weight.quantize(Decimal("0.01")):
        raise ClubError("bad_weight", "bad weight")
    return weight


def do_attach_tournament(
    club_id: int, actor: Any, season_id: int, tournament_id: int, weight: Any = 1
) -> SeasonTournament:
    weight = clean_weight(weight)
    with transaction.atomic():
        club = _lock(club_id)
        _require_organiser(club, actor)
        season = _season(club, season_id)
        t = Tournament.objects.filter(pk=tournament_id).first()
        if t is None:
            raise ClubError("no_such_tournament", "no such tournament")
        if t.status != Tournament.Status.FINISHED:
            raise ClubError("not_finished", "the tournament is not finished")
        if not t.published:
            raise ClubError("not_published", "the tournament is not published")
        if not season.start <= t.date <= season.end:
            raise ClubError("outside_season", "the tournament is outside the season")
        other = SeasonTournament.objects.filter(season__club=club, tournament=t).first()
        if other is not None:
            raise ClubError("already_attached", "already attached", season=other.season.name)
        return SeasonTournament.objects.create(
            season=season, tournament=t, weight=weight, added_by=actor
        )


def _link(club: Club, season_id: int, link_id: int) -> SeasonTournament:
    season = _season(club, season_id)
    link = SeasonTournament.objects.filter(season=season, pk=link_id).first()
    if link is None:
        raise ClubError("no_such_link", "no such tournament in the season")
    return link


def do_set_weight(
    club_id: int, actor: Any, season_id: int, link_id: int, weight: Any
) -> SeasonTournament:
    weight = clean_weight(weight)
    with transaction.atomic():
        club = _lock(club_id)
        _require_organiser(club, actor)
        link = _link(club, season_id, link_id)
        link.weight = weight
        link.save(update_fields=["weight"])
        return link


def do_detach_tournament(club_id: int, actor: Any, season_id: int, link_id: int) -> None:
    with transaction.atomic():
        club = _lock(club_id)
        _require_organiser(club, actor)
        _link(club, season_id, link_id).delete()


def do_link_name(club_id: int, actor: Any, name: str, user_id: int) -> NameLink:
    """Results of name-only entries called ``name`` (any case) count for this member."""
    try:
        name = clean_public_name(name.strip(), 60)
    except ValidationError as e:
        raise ClubError("bad_name", "bad name", problem=" ".join(e.messages)) from e
    if not name:
        raise ClubError("bad_name", "a name is needed", problem=str(_("A name is needed.")))
    with transaction.atomic():
        club = _lock(club_id)
        _require_organiser(club, actor)
        if not club.memberships.filter(user_id=user_id).exists():
            raise ClubError("no_such_member", "no such member")
        if NameLink.objects.filter(club=club, key=name_key(name)).exists():
            raise ClubError("already_linked", "already linked", name=name)
        return NameLink.objects.create(
            club=club, key=name_key(name), name=name, user_id=user_id, added_by=actor
        )


def do_unlink_name(club_id: int, actor: Any, link_id: int) -> None:
    with transaction.atomic():
        club = _lock(club_id)
        _require_organiser(club, actor)
        link = NameLink.objects.filter(club=club, pk=link_id).first()
        if link is None:
            raise ClubError("no_such_name", "no such name link")
        link.delete()
