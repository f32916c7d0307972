"""Rating pages: the board of one rule set and a player's public page. Read only."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.db.models import Case, IntegerField, Value, When
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from games.engine.rules import RULES
from games.models import variant_choices
from games.ratings import api
from games.ratings.chart import history_chart
from games.ratings.models import Rating, RatingChange

BOARD_PAGE_SIZE = 50
RECENT_GAMES = 10


def board_queryset(variant: str):
    """The opted-in players' ratings in one rule set (the record board's opt-in, read at
    query time; accounts marked for fair play left out): established players first, then
    provisional ones, each by rating."""
    return (
        Rating.objects.filter(
            variant=variant,
            games__gt=0,
            user__profile__public_records=True,
            # an account staff marked for fair play (games/fairplay/) leaves the board
            user__profile__fair_play_marked=False,
        )
        .annotate(
            settled=Case(
                When(games__gte=api.PROVISIONAL_GAMES, then=Value(0)),
                default=Value(1),
                output_field=IntegerField(),
            )
        )
        .select_related("user__profile")
        .order_by("settled", "-mu", "user__username")
    )


def index(request: HttpRequest) -> HttpResponse:
    """The ratings menu link: the first rule set's board."""
    return redirect("ratings:board", variant=next(iter(RULES)))


def board(request: HttpRequest, variant: str) -> HttpResponse:
    if variant not in RULES:
        raise Http404
    page = Paginator(board_queryset(variant), BOARD_PAGE_SIZE).get_page(request.GET.get("page"))
    rows = [
        {
            "rank": page.start_index() + i,
            "name": r.user.profile.name,
            "username": r.user.get_username(),
            "shown": api.shown(r.mu, r.sigma, r.games),
        }
        for i, r in enumerate(page.object_list)
    ]
    opted_in = bool(
        request.user.is_authenticated
        and getattr(getattr(request.user, "profile", None), "public_records", False)
    )
    return render(
        request,
        "ratings/board.html",
        {
            "variant": variant,
            "variant_label": dict(variant_choices())[variant],
            "rule_sets": variant_choices(),
            "rows": rows,
            "page": page,
            "opted_in": opted_in,
            "provisional_games": api.PROVISIONAL_GAMES,
        },
    )


def player_ratings(user: Any, *, own: bool) -> dict[str, Any]:
    """A player's ratings, one per rule set played (with its history chart), and their
    latest rated games: the profile page (``own``: links to the game's review) and the
    public player page (links to the score sheet) show it."""
    labels = dict(variant_choices())
    sets = []
    for variant, shown in api.ratings_of(user).items():
        sets.append(
            {
                "variant": variant,
                "label": labels.get(variant, variant),
                "shown": shown,
                "chart": history_chart(api.history(user, variant)),
            }
        )
    recent = []
    for c in (
        RatingChange.objects.filter(user=user)
        .select_related("table")
        .order_by("-created_at", "-id")[:RECENT_GAMES]
    ):
        recent.append(
            {
                "change": c,
                "label": labels.get(c.variant, c.variant),
                "delta": round(api.SCALE * c.mu_after) - round(api.SCALE * c.mu_before),
                "after": round(api.SCALE * c.mu_after),
            }
        )
    return {
        "rating_sets": sets,
        "recent_rated": recent,
        "ratings_own": own,
        "provisional_games": api.PROVISIONAL_GAMES,
    }


def player(request: HttpRequest, username: str) -> HttpResponse:
    """An opted-in player's public page; any other player is not found, and neither is an
    account staff marked for fair play (games/fairplay/marks.py: the mark takes its
    ratings off every public page, as off the boards)."""
    user = get_object_or_404(
        get_user_model(),
        username=username,
        profile__public_records=True,
        profile__fair_play_marked=False,
        is_active=True,
    )
    ctx = player_ratings(user, own=False)
    ctx["player"] = user
    ctx["player_name"] = user.profile.name
    return render(request, "ratings/player.html", ctx)
