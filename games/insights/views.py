"""The Insights page: a player's figures in one rule set. Read only (a visit adds the
hands whose duplicate-round embargo is over: ``actions.do_release_embargoed``).

Private by default: the player always sees their own page; anyone else only when the
player shows their records publicly (``Profile.public_records``, the switch of the public
boards) and staff have not marked the account for fair play; else the page is not found,
as a page that does not exist."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Sum
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone

from games.engine.rules import RULES
from games.insights import actions
from games.insights.chart import par_chart
from games.insights.figures import LEVELS, PERIODS, RATED, Filters, figures
from games.insights.models import HandStat, MonthStat
from games.models import variant_choices


def _player(request: HttpRequest, username: str) -> tuple[Any, bool]:
    """The player whose page this is, and whether the visitor is that player; 404 for a
    page the visitor may not see."""
    user = get_object_or_404(get_user_model(), username=username, is_active=True)
    own = request.user.is_authenticated and request.user.pk == user.pk
    profile = getattr(user, "profile", None)
    public = profile is not None and profile.public_records and not profile.fair_play_marked
    if not (own or public):
        raise Http404
    return user, own


def index(request: HttpRequest, username: str) -> HttpResponse:
    """The player's insights in the rule set they played most."""
    user, _own = _player(request, username)
    most = (
        MonthStat.objects.filter(user=user)
        .values("variant")
        .annotate(n=Sum("hands"))
        .order_by("-n", "variant")
        .first()
    )
    variant = most["variant"] if most and most["variant"] in RULES else next(iter(RULES))
    return redirect("insights:player", username=user.get_username(), variant=variant)


def player(request: HttpRequest, username: str, variant: str) -> HttpResponse:
    user, own = _player(request, username)
    if variant not in RULES:
        raise Http404
    if HandStat.objects.filter(user=user, embargoed=True).exists():
        actions.do_release_embargoed([user.pk])
    filters = Filters.from_query(request.GET)
    data = figures(user, variant, filters, timezone.now())
    query = request.GET.urlencode()
    return render(
        request,
        "insights/player.html",
        {
            "player": user,
            "player_name": user.profile.name,
            "own": own,
            "public": user.profile.public_records,
            "variant": variant,
            "variant_label": dict(variant_choices())[variant],
            "rule_sets": variant_choices(),
            "query": f"?{query}" if query else "",
            "filters": filters,
            "periods": [(k, label) for k, (_days, label) in PERIODS.items()],
            "rated_choices": list(RATED.items()),
            "levels": list(LEVELS.items()),
            "f": data,
            "chart": par_chart(data["months"]),
        },
    )
