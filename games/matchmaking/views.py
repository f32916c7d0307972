"""Quick-match views: parse, authorise, call one ``do_*`` function of ``actions``, render."""

from __future__ import annotations

from django.contrib import messages as flash
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts import throttle
from games.engine.rules import RULES
from games.live import actions as table_actions
from games.matchmaking import actions
from games.matchmaking.messages import refusal
from games.matchmaking.waiting import waiting_context
from games.models import Table


def guest_key(request: HttpRequest, *, start: bool = False) -> str:
    """A guest's key: their session key ("" for an account, and for a guest without a
    session unless ``start``: a press starts the guest's session, reading pages does not)."""
    if request.user.is_authenticated:
        return ""
    if start and not request.session.session_key:
        request.session.save()
    return request.session.session_key or ""


def _press_counted(request: HttpRequest) -> bool:
    """Count a press against the player's limit (``accounts.throttle.QUICK_PRESS``); False
    when they are at it already (the press is refused and not counted). An account is
    counted per account; a guest per address (a guest who drops the session cookie gets a
    new session on every press)."""
    if request.user.is_authenticated:
        if throttle.account_blocked(throttle.QUICK_PRESS, request.user):
            return False
        throttle.record_account(throttle.QUICK_PRESS, request.user)
        return True
    who = "ip:" + throttle.client_ip(request)
    if throttle.at_limit(throttle.QUICK_PRESS, who):
        return False
    throttle.hit(throttle.QUICK_PRESS, who)
    return True


@require_POST
def play_now(request: HttpRequest) -> HttpResponse:
    """ "Play now" for the posted rule set: to the table the player was seated at. An
    account plays rated; a guest plays casual, with other guests (``actions``), their
    session started by the press. Presses are throttled per player
    (``accounts.throttle.QUICK_PRESS``): past the limit the press changes nothing and the
    lobby says why."""
    variant = request.POST.get("variant", "")
    if variant not in RULES:
        flash.error(request, refusal("no_rule_set", "There is no such rule set."))
        return redirect("home")
    if not _press_counted(request):
        flash.error(request, refusal("too_many_presses", "Too many presses."))
        return redirect(reverse("home") + "#quick-match")
    try:
        match = actions.do_quick_match(
            request.user, variant, guest_key=guest_key(request, start=True)
        )
    except table_actions.ActionRefused as e:
        flash.error(request, refusal(e.code, e.message))
        return redirect("home")
    return redirect("games:table", code=match.table.code)


@require_GET
def waiting_card(request: HttpRequest, code: str) -> HttpResponse:
    """The waiting card of a quick-match table, as the table page shows it (fetched
    again by the card after each live frame and when "Fill with CPUs" comes due)."""
    table = get_object_or_404(Table, code=code, quick_match=True)
    seats = list(table.seats.select_related("user__profile"))
    seat = table_actions.seat_of(seats, request.user, guest_key(request))
    quick = waiting_context(table, seats, seat)
    return render(
        request, "matchmaking/_waiting.html", {"table": table, "seat": seat, "quick": quick}
    )


@require_POST
def leave(request: HttpRequest, code: str) -> HttpResponse:
    """ "Leave" on the waiting card: back to the lobby, the seat free for someone else."""
    table = get_object_or_404(Table, code=code, quick_match=True)
    try:
        actions.do_leave_wait(table.pk, user=request.user, guest_key=guest_key(request))
    except table_actions.ActionRefused as e:
        flash.error(request, refusal(e.code, e.message))
        return redirect("games:table", code=code)
    flash.success(request, _("You have left the quick match."))
    return redirect(reverse("home") + "#quick-match")


@require_POST
def fill(request: HttpRequest, code: str) -> HttpResponse:
    """ "Fill with CPUs" at a quick-match table that has waited long enough."""
    table = get_object_or_404(Table, code=code)
    try:
        actions.do_quick_fill(table.pk, user=request.user, guest_key=guest_key(request))
    except table_actions.ActionRefused as e:
        flash.error(request, refusal(e.code, e.message))
    return redirect("games:table", code=code)
