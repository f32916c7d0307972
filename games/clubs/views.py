"""Club pages: function views that parse, authorise, call one service and render.

Club, season and history pages are public (a club ranking is public; only published
tournaments can be attached). Changing anything needs an organiser of the club: 403
otherwise; an id of another club's season, member or link is 404. Nothing changes then.
An account's invitations are its own (another's is 404); it accepts or declines them on
its invitations page, its profile or the club's page, and leaves a club on its page.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages as flash
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import throttle
from games.tournaments.models import Tournament

from . import actions, presenter
from . import standings as club_standings
from .forms import AttachForm, ClubForm, MemberForm, NameLinkForm, SeasonForm, WeightForm
from .models import Club, Invitation, Membership, Season, SeasonTournament

NOT_FOUND_CODES = {
    "no_such_member",
    "no_such_season",
    "no_such_tournament",
    "no_such_link",
    "no_such_name",
    "no_such_invitation",
}


def _refused(request: HttpRequest, e: actions.ClubError) -> None:
    if e.code == "not_organiser":
        raise PermissionDenied(e.text())
    if e.code in NOT_FOUND_CODES:
        raise Http404(e.message)
    flash.error(request, e.text())


def _club(slug: str) -> Club:
    return get_object_or_404(Club, slug=slug)


def _organiser(request: HttpRequest, club: Club) -> None:
    if not club.is_organiser(request.user):
        raise PermissionDenied(_("Only the club's organisers can do that."))


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError) as e:
        raise Http404("no such id") from e


def _today():
    return timezone.localdate()


# -------------------------------------------------------------------- pages


def club_list(request: HttpRequest) -> HttpResponse:
    mine: list[Club] = []
    invited: list[Invitation] = []
    if request.user.is_authenticated:
        mine = list(Club.objects.filter(memberships__user=request.user).distinct())
        invited = invitations_for(request.user)
    context = {"mine": mine, "invitations": invited, "clubs": Club.objects.all()[:200]}
    return render(request, "clubs/list.html", context)


@login_required
def club_create(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = actions.do_create_club(request.user, form.cleaned_data["name"])
        except actions.ClubError as e:
            form.add_error("name", e.text())
        else:
            return redirect("clubs:detail", slug=club.slug)
    return render(request, "clubs/club_form.html", {"form": form})


def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(slug)
    today = _today()
    season = presenter.current_season(club, today)
    season_rows: list[dict[str, Any]] = []
    as_of = today
    if season is not None:
        as_of = club_standings.season_date(season, today)
        items = club_standings.counted(club_standings.season_links(season), club)
        season_rows = presenter.ranking_rows(club, items, as_of)
    all_items = club_standings.counted(club_standings.club_links_qs(club), club)
    memberships = list(club.memberships.select_related("user__profile"))
    is_organiser = club.is_organiser(request.user)
    mine = next((m for m in memberships if m.user_id == request.user.pk), None)
    organisers = [m for m in memberships if m.role == Membership.Role.ORGANISER]
    context = {
        "club": club,
        "season": season,
        "season_as_of": as_of,
        "season_rows": season_rows,
        "club_rows": presenter.ranking_rows(club, all_items, today),
        "today": today,
        "seasons": club.seasons.all(),
        "organisers": [_person(m) for m in memberships if m.role == m.Role.ORGANISER],
        "members": [_person(m) for m in memberships if m.role == m.Role.MEMBER],
        "is_organiser": is_organiser,
        "name_links": club.name_links.select_related("user") if is_organiser else [],
        "is_member": mine is not None,
        # the last organiser hands the club over first (actions.do_leave)
        "can_leave": mine is not None and not (is_organiser and len(organisers) == 1),
        "invitation": (
            Invitation.objects.filter(club=club, user=request.user).first()
            if request.user.is_authenticated
            else None
        ),
    }
    if is_organiser:
        context["member_form"] = MemberForm()
        context["name_form"] = NameLinkForm(choices=_member_choices(memberships))
    return render(request, "clubs/club.html", context)


def _person(m: Any) -> dict[str, Any]:
    profile = getattr(m.user, "profile", None)
    name = profile.name if profile is not None else m.user.get_username()
    return {"user_id": m.user_id, "slug": f"u{m.user_id}", "name": name}


def _member_choices(memberships: list) -> list[tuple[int, str]]:
    return [(m.user_id, m.user.get_username()) for m in memberships]


def _attachable(club: Club, season: Season) -> list[tuple[int, str]]:
    taken = SeasonTournament.objects.filter(season__club=club).values_list("tournament_id")
    qs = Tournament.objects.filter(
        status=Tournament.Status.FINISHED,
        published=True,
        date__gte=season.start,
        date__lte=season.end,
    ).exclude(pk__in=taken)
    return [(t.pk, f"{t.name} ({t.date.isoformat()})") for t in qs.order_by("date", "pk")[:300]]


def season_detail(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    club = _club(slug)
    season = get_object_or_404(Season, club=club, pk=season_id)
    today = _today()
    as_of = club_standings.season_date(season, today)
    links = list(club_standings.season_links(season))
    items = club_standings.counted(links, club)
    counted_ids = {item.link.pk: len(item.order) for item in items}
    is_organiser = club.is_organiser(request.user)
    context = {
        "club": club,
        "season": season,
        "as_of": as_of,
        "rows": presenter.ranking_rows(club, items, as_of),
        "links": [
            {"link": link, "players": counted_ids.get(link.pk), "weight_form": None}
            for link in links
        ],
        "is_organiser": is_organiser,
        "min_weight": presenter.ranking.MIN_WEIGHT,
    }
    if is_organiser:
        for row in context["links"]:
            row["weight_form"] = WeightForm(
                initial={"weight": row["link"].weight}, prefix=f"w{row['link'].pk}"
            )
        context["attach_form"] = AttachForm(choices=_attachable(club, season))
    return render(request, "clubs/season.html", context)


def player_history(request: HttpRequest, slug: str, player: str) -> HttpResponse:
    club = _club(slug)
    key = club_standings.parse_key_slug(player)
    if key is None:
        raise Http404("no such player")
    today = _today()
    data = presenter.history(club, key, today)
    if data["name"] is None:
        raise Http404("no such player in the club")
    return render(request, "clubs/player.html", {"club": club, "today": today, **data})


# ---------------------------------------------------------- organiser forms


@require_POST
@login_required
def invite(request: HttpRequest, slug: str) -> HttpResponse:
    """An organiser invites an account by its username. The answer is the same whether
    or not the name is an account's (actions.do_invite); invitations are counted per
    organiser (``accounts.throttle.CLUB_INVITE``), and past the limit nothing is done."""
    club = _club(slug)
    _organiser(request, club)
    form = MemberForm(request.POST)
    if not form.is_valid():
        flash.error(request, _("Give a username."))
    elif throttle.account_blocked(throttle.CLUB_INVITE, request.user):
        flash.error(request, _("You have sent many invitations lately. Try again in an hour."))
    else:
        throttle.record_account(throttle.CLUB_INVITE, request.user)
        username = form.cleaned_data["username"].strip()
        try:
            actions.do_invite(
                club.pk, request.user, username, organiser=form.cleaned_data["organiser"]
            )
        except actions.ClubError as e:
            _refused(request, e)
        else:
            flash.success(
                request,
                _(
                    "If a player called “%(username)s” exists and is not in the club yet, "
                    "they have been invited. They join when they accept."
                )
                % {"username": username},
            )
    return redirect("clubs:detail", slug=club.slug)


@login_required
def invitations(request: HttpRequest) -> HttpResponse:
    """The signed-in account's invitations, to accept or decline."""
    return render(request, "clubs/invitations.html", {"invitations": invitations_for(request.user)})


def invitations_for(user: Any) -> list[Invitation]:
    """``user``'s pending invitations, newest first (also shown on the profile)."""
    return list(Invitation.objects.filter(user=user).select_related("club", "invited_by__profile"))


@require_POST
@login_required
def invitation_accept(request: HttpRequest, invitation_id: int) -> HttpResponse:
    try:
        membership = actions.do_accept_invitation(invitation_id, request.user)
    except actions.ClubError as e:
        _refused(request, e)
        return redirect("clubs:invitations")
    club = membership.club
    flash.success(request, _("Welcome to %(club)s.") % {"club": club.name})
    return redirect("clubs:detail", slug=club.slug)


@require_POST
@login_required
def invitation_decline(request: HttpRequest, invitation_id: int) -> HttpResponse:
    try:
        actions.do_decline_invitation(invitation_id, request.user)
    except actions.ClubError as e:
        _refused(request, e)
    else:
        flash.success(request, _("The invitation was declined."))
    return redirect("clubs:invitations")


@require_POST
@login_required
def club_leave(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(slug)
    try:
        actions.do_leave(club.pk, request.user)
    except actions.ClubError as e:
        flash.error(request, e.text())
    else:
        flash.success(request, _("You have left %(club)s.") % {"club": club.name})
    return redirect("clubs:detail", slug=club.slug)


@require_POST
@login_required
def member_remove(request: HttpRequest, slug: str, user_id: int) -> HttpResponse:
    club = _club(slug)
    try:
        actions.do_remove_member(club.pk, request.user, user_id)
    except actions.ClubError as e:
        _refused(request, e)
    return redirect("clubs:detail", slug=club.slug)


@require_POST
@login_required
def name_link(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(slug)
    try:
        actions.do_link_name(
            club.pk, request.user, request.POST.get("name", ""), _int(request.POST.get("member"))
        )
    except actions.ClubError as e:
        _refused(request, e)
    return redirect("clubs:detail", slug=club.slug)


@require_POST
@login_required
def name_unlink(request: HttpRequest, slug: str, link_id: int) -> HttpResponse:
    club = _club(slug)
    try:
        actions.do_unlink_name(club.pk, request.user, link_id)
    except actions.ClubError as e:
        _refused(request, e)
    return redirect("clubs:detail", slug=club.slug)


@login_required
def season_create(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(slug)
    _organiser(request, club)
    form = SeasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            season = actions.do_create_season(
                club.pk, request.user, data["name"], data["start"], data["end"]
            )
        except actions.ClubError as e:
            if e.code == "not_organiser":
                raise
            form.add_error(None, e.text())
        else:
            return redirect("clubs:season", slug=club.slug, season_id=season.pk)
    return render(request, "clubs/season_form.html", {"club": club, "form": form})


@require_POST
@login_required
def season_attach(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    club = _club(slug)
    try:
        actions.do_attach_tournament(
            club.pk,
            request.user,
            season_id,
            _int(request.POST.get("tournament")),
            request.POST.get("weight", "1"),
        )
    except actions.ClubError as e:
        _refused(request, e)
    return redirect("clubs:season", slug=club.slug, season_id=season_id)


@require_POST
@login_required
def season_weight(request: HttpRequest, slug: str, season_id: int, link_id: int) -> HttpResponse:
    club = _club(slug)
    try:
        actions.do_set_weight(
            club.pk, request.user, season_id, link_id, request.POST.get(f"w{link_id}-weight", "")
        )
    except actions.ClubError as e:
        _refused(request, e)
    return redirect("clubs:season", slug=club.slug, season_id=season_id)


@require_POST
@login_required
def season_detach(request: HttpRequest, slug: str, season_id: int, link_id: int) -> HttpResponse:
    club = _club(slug)
    try:
        actions.do_detach_tournament(club.pk, request.user, season_id, link_id)
    except actions.ClubError as e:
        _refused(request, e)
    return redirect("clubs:season", slug=club.slug, season_id=season_id)
