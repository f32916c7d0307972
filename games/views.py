"""Function views: parse, authorise, call one service, render."""

from __future__ import annotations

from django.contrib import messages as flash
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from accounts import throttle
from games import plugins
from games.common import heavy, pagecache
from games.engine.rules import RULES, rules_for
from games.forms import CreateTableForm, default_variant, defaults_summary
from games.live import actions, follow, presenter
from games.live.messages import reason_label, refusal_text
from games.models import TURN_ENDS, HandAction, Seat, Table
from games.rules_pages import pictures
from games.rules_pages.render import load_page


def guest_key(request: HttpRequest) -> str:
    """The anonymous player's key: their session (kept while the session lives)."""
    if not request.session.session_key:
        request.session.save()
    return request.session.session_key or ""


def my_seat(request: HttpRequest, table: Table) -> Seat | None:
    return actions.seat_of(list(table.seats.all()), request.user, guest_key(request))


# "Play now" (the hero's one-click table, docs/first-ten-minutes.md): a casual table of the
# visitor against CPUs of this level, in the visitor's last rule set.
PLAY_NOW_LEVEL = "medium"
PLAY_NOW_FIRST_VARIANT = "classic"
UNFINISHED = (Table.Status.WAITING, Table.Status.PLAYING)
# Presses of "Play now" per player (an account, else the address) and window: each opens
# and deals a table, so a script cannot open them without end (accounts/throttle.py).
PLAY_NOW_PRESSES = throttle.Limit("play-now", "PLAY_NOW_LIMIT", "PLAY_NOW_WINDOW", 10, 60)
PLAY_NOW_REFUSED = _("You opened many tables in a short while. Wait a minute, then try again.")


def visitor_tables(request: HttpRequest):
    """The tables the visitor sits at: an account's by user, a guest's by session key (none
    without a session: reading never starts one). A seat given up in a competitive game
    (``Seat.forfeited_at``: its stand-in finishes the game) does not count."""
    if request.user.is_authenticated:
        mine = {"seats__user": request.user}
    elif request.session.session_key:
        mine = {"seats__guest_key": request.session.session_key, "seats__user__isnull": True}
    else:
        return Table.objects.none()
    return Table.objects.filter(**mine, seats__forfeited_at__isnull=True).distinct()


def last_variant(request: HttpRequest) -> str:
    """The rule set of the visitor's most recent table (of any kind), when it is still
    registered; classic the first time (the registry's first when classic is not there)."""
    for variant in (
        visitor_tables(request).order_by("-created_at", "-pk").values_list("variant", flat=True)[:1]
    ):
        if variant in RULES:
            return variant
    return PLAY_NOW_FIRST_VARIANT if PLAY_NOW_FIRST_VARIANT in RULES else default_variant()


def first_tables(request: HttpRequest) -> bool:
    """Whether the visitor is still at their first tables: a guest, or an account that has
    no finished table yet. There, "Play now" opens an assisted table."""
    if not request.user.is_authenticated:
        return True
    return not visitor_tables(request).filter(status=Table.Status.FINISHED).exists()


def play_now_seats(variant: str) -> list[actions.SeatSpec]:
    """A "Play now" table's seats: the visitor, then CPUs in the rule set's usual number
    of seats (its ``players`` option's default: four in every rule set today)."""
    rules = rules_for(variant)
    players = rules.options.get("players", ((), rules.players[0]))[1]
    return [actions.SeatSpec("me")] + [
        actions.SeatSpec("cpu", PLAY_NOW_LEVEL) for _ in range(players - 1)
    ]


def play_now_assisted(request: HttpRequest) -> bool:
    """The assisted aids of a "Play now" table (the engine option ``assisted``): on at the
    visitor's first tables, else the account's own default (``Profile.assisted_default``)."""
    if first_tables(request):
        return True
    profile = getattr(request.user, "profile", None)
    return bool(profile and profile.assisted_default)


@heavy.page
def home(request: HttpRequest) -> HttpResponse:
    """The lobby (docs/first-ten-minutes.md): "Play now" in the hero (``play_now``), the
    visitor's unfinished tables to resume beside it, and the new-table form folded behind
    "More options" with its defaults in the summary line (``defaults_summary``).
    Its heavy parts are kept rendered (``games.common.pagecache``): the new-table
    form's fields (the same for every visitor of a language and assisted default; the
    form's CSRF token is rendered per visitor around them) and the live tables
    (the watch app's, ``plugins.live_list``). A visitor without a session has no tables: the
    page does not start one for them (a session is a database write; joining or opening
    a table starts it)."""
    profile = getattr(request.user, "profile", None) if request.user.is_authenticated else None
    assisted = bool(profile and profile.assisted_default)
    create_fields = pagecache.fragment(
        "create-table",
        (assisted,),
        lambda: pagecache.render(
            "games/_create_table_fields.html",
            {"form": CreateTableForm(assisted_default=assisted)},
        ),
    )
    play_variant = last_variant(request)
    # "Resume your game": the visitor's unfinished tables, the last one played first
    mine = list(visitor_tables(request).filter(status__in=UNFINISHED).order_by("-updated_at")[:8])
    open_tables = (
        Table.objects.filter(status=Table.Status.WAITING, kind=Table.Kind.ONLINE)
        .exclude(pk__in=[t.pk for t in mine])
        .prefetch_related("seats")[:20]
    )
    return render(
        request,
        "games/home.html",
        {
            "create_fields": create_fields,
            "create_summary": defaults_summary(assisted),
            "play_variant": gettext(rules_for(play_variant).label),
            "play_cpus": len(play_now_seats(play_variant)) - 1,
            "my_tables": mine,
            "open_tables": open_tables,
            "live_list": plugins.live_list(6),
        },
    )


@require_POST
def play_now(request: HttpRequest) -> HttpResponse:
    """ "Play now" in the home page's hero: one click to a dealt casual table of the visitor
    against CPUs (``PLAY_NOW_LEVEL``) in their last rule set (``last_variant``), at the rule
    set's usual number of seats, assisted at their first tables (``play_now_assisted``); a
    guest's session is started here. No turn clock: one person and CPUs is not timed
    (``actions.with_turn_clock``). Opened by ``actions.do_create_table`` like any table.
    Presses are limited per player (``PLAY_NOW_PRESSES``): a refused one opens nothing."""
    who = f"u:{request.user.pk}" if request.user.is_authenticated else throttle.client_ip(request)
    if throttle.at_limit(PLAY_NOW_PRESSES, who):
        flash.error(request, PLAY_NOW_REFUSED)
        return redirect("home")
    throttle.hit(PLAY_NOW_PRESSES, who)
    variant = last_variant(request)
    try:
        table = actions.do_create_table(
            variant=variant,
            options={"assisted": play_now_assisted(request)},
            seats=play_now_seats(variant),
            user=request.user,
            guest_key=guest_key(request),
        )
    except actions.ActionRefused as e:
        flash.error(request, refusal_text(e.code, e.message))
        return redirect("home")
    return redirect("games:table", code=table.code)


@require_POST
def create_table(request: HttpRequest) -> HttpResponse:
    form = CreateTableForm(request.POST)
    if not form.is_valid():
        flash.error(request, refusal_text("bad_option", "That table option is not allowed."))
        return redirect("home")
    specs = [actions.SeatSpec(kind, level) for kind, level in form.seat_specs()]
    rated, why_casual = form.rated_choice(request.user)
    if why_casual is not None:
        flash.warning(request, why_casual)
    try:
        table = actions.do_create_table(
            variant=form.cleaned_data["variant"],
            options=form.options(),
            seats=specs,
            user=request.user,
            guest_key=guest_key(request),
            rated=rated,
            public=form.cleaned_data.get("public", False),
        )
    except actions.ActionRefused as e:
        flash.error(request, refusal_text(e.code, e.message))
        return redirect("home")
    return redirect("games:table", code=table.code)


def table_page(request: HttpRequest, code: str) -> HttpResponse:
    table = get_object_or_404(Table, code=code)
    seat = my_seat(request, table)
    if seat is None and plugins.deal_embargoed(table):
        # a duplicate round's table: watching it would show its deals to the players of
        # the round's other tables (RULES.md D38); it opens once every table has played
        return render(
            request,
            "games/not_watchable.html",
            {"table": table, "tournament_table": plugins.tournament_table(table)},
            status=403,
        )
    ctx = presenter.table_context(table, seat)
    # coming back: what the stand-in played meanwhile, on this page only (no frame
    # replaces it; the player dismisses it)
    ctx["away_summary"] = presenter.away_summary(table, seat)
    if seat is None:
        # a watcher's outcome dialog holds the seats to follow, as its socket's frames do
        # (following nobody yet): the socket's first frame then leaves the dialog alone
        follow.follow_context(ctx, None)
    ctx["tournament_table"] = plugins.tournament_table(table)
    return render(request, "games/table.html", ctx)


@require_POST
def join(request: HttpRequest, code: str) -> HttpResponse:
    table = get_object_or_404(Table, code=code)
    try:
        actions.do_join_table(table.pk, user=request.user, guest_key=guest_key(request))
    except actions.ActionRefused as e:
        flash.error(request, refusal_text(e.code, e.message))
    return redirect("games:table", code=code)


@require_POST
def fill(request: HttpRequest, code: str) -> HttpResponse:
    table = get_object_or_404(Table, code=code)
    try:
        actions.do_fill_with_cpus(table.pk, user=request.user, guest_key=guest_key(request))
    except actions.ActionRefused as e:
        flash.error(request, refusal_text(e.code, e.message))
    return redirect("games:table", code=code)


@require_POST
def come_back(request: HttpRequest, code: str) -> HttpResponse:
    """ "I'm back" (the time-out notice's button, sent by htmx): the stand-in gives the
    seat back (actions.do_come_back); the table's frames show it. Without htmx, back to
    the table page."""
    table = get_object_or_404(Table, code=code)
    try:
        actions.do_come_back(table.pk, user=request.user, guest_key=guest_key(request))
    except actions.ActionRefused as e:
        if request.headers.get("HX-Request"):
            return HttpResponse(refusal_text(e.code, e.message), status=403)
        flash.error(request, refusal_text(e.code, e.message))
    if request.headers.get("HX-Request"):
        return HttpResponse(status=204)
    return redirect("games:table", code=code)


def hint_counts(hints: dict | None, players: int) -> list[int]:
    """Per seat, the turns of a hand on which it asked "Show me" (``Hand.hints``: seat
    position as a string -> the turn numbers it asked on, one entry a turn)."""
    hints = hints or {}
    return [len(hints.get(str(p)) or ()) for p in range(players)]


def score_sheet(request: HttpRequest, code: str) -> HttpResponse:
    """Every finished hand with every score line and its reason, and the totals; and, per
    hand and seat, how many turns the seat asked "Show me" (finished hands only, like the
    rest of the sheet)."""
    table = get_object_or_404(Table, code=code)
    # a duplicate round's seeds stay secret while another table plays them (RULES.md D38),
    # and its sheet is for its players meanwhile, as the table itself is
    withheld = plugins.deal_embargoed(table)
    if withheld and my_seat(request, table) is None:
        return render(
            request,
            "games/not_watchable.html",
            {"table": table, "tournament_table": plugins.tournament_table(table)},
            status=403,
        )
    seats = list(table.seats.select_related("user__profile"))
    hands = []
    hint_totals = [0] * len(seats)
    # per hand and person's seat, the turns its stand-in CPU played (away, timed out, or
    # gone): a tournament scores such a seat as played, and the sheet marks it
    stand_in: dict[tuple[int, int], int] = {}
    people = {s.position for s in seats if not s.is_cpu}
    for hand_id, seat in HandAction.objects.filter(
        hand__table=table, hand__result__isnull=False, by_cpu=True, payload__type__in=TURN_ENDS
    ).values_list("hand_id", "seat"):
        if seat in people:
            stand_in[hand_id, seat] = stand_in.get((hand_id, seat), 0) + 1
    stand_in_totals = [0] * len(seats)
    for hand in table.hands.filter(result__isnull=False).prefetch_related("score_lines"):
        per_seat = {s.position: [] for s in seats}
        for line in hand.score_lines.all():
            per_seat.setdefault(line.seat, []).append(
                {"points": line.points, "label": reason_label(line.reason, table.variant)}
            )
        hints = hint_counts(hand.hints, len(seats))
        hint_totals = [a + b for a, b in zip(hint_totals, hints, strict=True)]
        for s in seats:
            stand_in_totals[s.position] += stand_in.get((hand.pk, s.position), 0)
        hands.append(
            {
                "number": hand.number + 1,
                "seed": None if withheld else hand.seed,
                "commitment": hand.seed_commitment,
                "cells": [
                    {
                        "lines": per_seat[s.position],
                        "hints": hints[s.position],
                        "stand_in": stand_in.get((hand.pk, s.position), 0),
                    }
                    for s in seats
                ],
                "totals": [sum(x["points"] for x in per_seat[s.position]) for s in seats],
            }
        )
    game = actions.game_for(table)
    return render(
        request,
        "games/sheet.html",
        {
            "table": table,
            "players": [s.display_name() for s in seats],
            "hands": hands,
            "totals": game.totals(),
            "hint_totals": hint_totals if any(hint_totals) else None,
            "stand_in_totals": stand_in_totals if any(stand_in_totals) else None,
            "over": table.status == Table.Status.FINISHED,
            "winners": [seats[i].display_name() for i in game.winners()]
            if table.status == Table.Status.FINISHED
            else [],
            "variant_name": table.get_variant_display(),
        },
    )


def rules(request: HttpRequest, slug: str = "index") -> HttpResponse:
    try:
        # tile notation drawn as tiles, decision tags left out (games/rules_pages/pictures.py)
        title, html = load_page((get_language() or "en")[:2], slug, tile=pictures.tile_for(slug))
    except KeyError:
        raise Http404("no such page") from None
    return render(request, "games/rules.html", {"title": title, "html": html, "slug": slug})
