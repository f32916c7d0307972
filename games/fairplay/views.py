"""The staff-only fair-play page: the figures of the scan, and marking an account.

Anyone who is not active staff gets a plain 404 (the page's existence is not told)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.models import variant_choices

from . import report
from .conf import setting
from .marks import MarkRefused, do_set_mark
from .models import LogEntry

LOG_ROWS = 30
PAIR_ROWS = 20


def staff_only(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        user = request.user
        if not (user.is_authenticated and user.is_active and user.is_staff):
            raise Http404
        return view(request, *args, **kwargs)

    return wrapped


@staff_only
def page(request: HttpRequest) -> HttpResponse:
    labels = dict(variant_choices())
    show_all = request.GET.get("all") == "1"
    sets = []
    for variant in report.variants_with_figures():
        matches = report.match_rows(variant)
        feeds = report.feed_rows(variant)
        together = report.together_rows(variant)
        sets.append(
            {
                "variant": variant,
                "label": labels.get(variant, variant),
                "pool": matches["pool"],
                "scored": matches["players"],
                "players": [r for r in matches["rows"] if show_all or r["flagged"]],
                "flagged_players": sum(r["flagged"] for r in matches["rows"]),
                "feeds": [r for r in feeds["rows"] if show_all or r["flagged"]][:PAIR_ROWS],
                "feed_base_pct": feeds["base_pct"],
                "feed_hands": feeds["hands"],
                "together": [r for r in together if show_all or r["flagged"]][:PAIR_ROWS],
            }
        )
    marked = (
        get_user_model()
        .objects.filter(profile__fair_play_marked=True)
        .select_related("profile")
        .order_by("-profile__fair_play_marked_at")
    )
    return render(
        request,
        "fairplay/page.html",
        {
            "sets": sets,
            "show_all": show_all,
            "totals": report.totals(),
            "marked": marked,
            "log": LogEntry.objects.select_related("actor", "target")[:LOG_ROWS],
            "last": int(setting("LAST_DECISIONS")),
            "least": int(setting("MIN_DECISIONS")),
            "threshold": float(setting("Z")),
            "min_feeds": int(setting("MIN_FEEDS")),
            "together_games": int(setting("TOGETHER_MIN_GAMES")),
            "together_share_pct": 100 * float(setting("TOGETHER_SHARE")),
        },
    )


@staff_only
@require_POST
def mark(request: HttpRequest) -> HttpResponse:
    """Mark (``action=mark``, with a reason) or unmark an account by username."""
    username = (request.POST.get("username") or "").strip()
    marked = request.POST.get("action") != "unmark"
    target = get_user_model().objects.filter(username=username).first()
    if target is None:
        messages.error(request, _("No account is called %(name)s.") % {"name": username})
        return redirect("fairplay:page")
    try:
        do_set_mark(target, marked=marked, by=request.user, reason=request.POST.get("reason", ""))
    except MarkRefused as e:
        if e.code == "reason_required":
            messages.error(request, _("Say why the account is marked."))
        else:
            messages.info(
                request, _("Nothing changed: %(name)s is already so.") % {"name": username}
            )
        return redirect("fairplay:page")
    if marked:
        text = _("%(name)s is marked: off the boards, ratings recomputed without them.")
    else:
        text = _("%(name)s is no longer marked: ratings recomputed.")
    messages.success(request, text % {"name": username})
    return redirect("fairplay:page")
