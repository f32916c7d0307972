"""The bot pages (function views, docs/bots-api.md): the bots page (every bot account, the
online ones first), making one's own account a bot (a confirmation page: irreversible), and
the table page's "Invite a bot" form (the host of a waiting table seats an online bot)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.models import Profile
from games.api.bot_stream import do_upgrade_to_bot, online_bot_ids, played_rated
from games.api.errors import ApiError
from games.live import actions
from games.live.messages import refusal_text
from games.models import Table

# the most bots the page lists
LISTED = 200


def bots_page(request: HttpRequest) -> HttpResponse:
    online = online_bot_ids()
    profiles = list(
        Profile.objects.filter(is_bot=True).select_related("user").order_by("bot_since")[:LISTED]
    )
    rows = [{"name": p.name, "online": p.user_id in online, "since": p.bot_since} for p in profiles]
    rows.sort(key=lambda r: not r["online"])
    return render(request, "api/bots.html", {"bots": rows})


@login_required
@require_http_methods(["GET", "POST"])
def bot_upgrade(request: HttpRequest) -> HttpResponse:
    profile = Profile.objects.filter(user=request.user).first()
    if request.method == "POST" and request.POST.get("confirm") == "yes":
        try:
            do_upgrade_to_bot(request.user)
        except ApiError as e:
            messages.error(request, e.message)
        else:
            messages.success(request, _("This account is now a bot account."))
        return redirect("accounts:profile")
    ctx = {
        "profile": profile,
        "rated": played_rated(request.user),
    }
    return render(request, "api/bot_upgrade.html", ctx)


@login_required
@require_POST
def invite_bot(request: HttpRequest, code: str) -> HttpResponse:
    table = get_object_or_404(Table, code=code)
    bot = get_user_model().objects.filter(pk=request.POST.get("bot") or 0).first()
    if bot is None or bot.pk not in online_bot_ids():
        messages.error(request, _("That bot is not online any more."))
        return redirect("games:table", code=code)
    try:
        actions.do_invite_bot(table.pk, bot, user=request.user)
    except actions.ActionRefused as e:
        messages.error(request, refusal_text(e.code, e.message))
    return redirect("games:table", code=code)
