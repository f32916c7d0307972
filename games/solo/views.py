"""Solo challenge pages: solo home, start, result, public record board, verify, CSV."""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from typing import Any

from django.contrib import messages as flash
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import F, Window
from django.db.models.functions import RowNumber
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from games import plugins
from games.engine.rules import RULES, rules_for
from games.engine.tiles import deal, kind_notation, kind_of, notation
from games.live import actions, cpu
from games.live.messages import refusal_text
from games.live.presenter import tile_ctx
from games.models import CPU_LEVELS, Table, variant_choices
from games.solo import records, sheets
from games.solo.models import RECORD_VARIANT, Mode, SoloResult
from games.views import guest_key, hint_counts

SOLO_VARIANTS = RULES  # every registered rule set (the registry itself, so one added later counts)
SOLO_OPTIONS: dict[str, Any] = {"clock": 0}  # no turn clock: a solo game waits for you
SESSION_LEVEL = "solo_level"
SESSION_VARIANT = "solo_variant"
SESSION_MODE = "solo_mode"
# The start form's modes, each with what it means (docs/solo.md): a challenge run's table
# is competitive (the server refuses "Show me"), a practice run's is not.
MODES = [
    (
        Mode.CHALLENGE,
        Mode.CHALLENGE.label,
        gettext_lazy(
            "No “Show me”: your own play only. A complete seven-round game of the record"
            " rule set can set a record and go on the public board."
        ),
    ),
    (
        Mode.PRACTICE,
        Mode.PRACTICE.label,
        gettext_lazy(
            "“Show me” asks the expert CPU for its move whenever it is your turn. Never a"
            " record: the game goes to your history marked practice."
        ),
    ),
]
BOARD_PAGE_SIZE = 25
PERIODS = [
    ("all", gettext_lazy("All time")),
    ("month", gettext_lazy("This month")),
    ("week", gettext_lazy("This week")),
]


def remembered(request: HttpRequest) -> tuple[str, str, str]:
    """The CPU level, rule set and mode this visitor chose last time (a first visit:
    medium, the record rule set, a challenge)."""
    level = request.session.get(SESSION_LEVEL, "medium")
    variant = request.session.get(SESSION_VARIANT, RECORD_VARIANT)
    mode = request.session.get(SESSION_MODE, Mode.CHALLENGE)
    return (
        level if level in cpu.LEVELS else "medium",
        variant if RULES.get(variant) is not None else RECORD_VARIANT,  # still registered
        mode if mode in Mode.values else Mode.CHALLENGE,
    )


def start_form_context(request: HttpRequest) -> dict[str, Any]:
    level, variant, mode = remembered(request)
    choices = variant_choices()
    variants = [c for c in choices if c[0] == RECORD_VARIANT] + [
        c for c in choices if c[0] != RECORD_VARIANT
    ]
    return {
        "levels": CPU_LEVELS,
        "level": level,
        "variants": variants,
        "variant": variant,
        "modes": MODES,
        "mode": mode,
        "record_variant": RECORD_VARIANT,
        "record_variant_name": dict(choices)[RECORD_VARIANT],
        "record_rules_page": rules_for(RECORD_VARIANT).rules_page,
    }


def _my_solo_tables(request: HttpRequest):
    tables = Table.objects.filter(kind=Table.Kind.SOLO)
    if request.user.is_authenticated:
        return tables.filter(seats__user=request.user).distinct()
    return tables.filter(seats__guest_key=guest_key(request), seats__user__isnull=True).distinct()


# ----------------------------------------------------------------- solo home


def solo_home(request: HttpRequest) -> HttpResponse:
    mine = _my_solo_tables(request)
    resumable = mine.filter(status__in=[Table.Status.PLAYING, Table.Status.WAITING]).order_by(
        "-updated_at"
    )[:20]
    if request.user.is_authenticated:
        history = SoloResult.objects.filter(user=request.user)
    else:
        history = SoloResult.objects.filter(table__in=mine)
    history_page = Paginator(history.select_related("table"), 20).get_page(request.GET.get("page"))
    bests = records.personal_bests(request.user)
    older = records.unverified_bests(request.user)
    return render(
        request,
        "solo/home.html",
        {
            **start_form_context(request),
            "resumable": resumable,
            "history": history_page,
            "bests": [
                (code, label, bests.get(code), older.get(code)) for code, label in CPU_LEVELS
            ],
            "has_older": bool(older),
        },
    )


@require_POST
def start(request: HttpRequest) -> HttpResponse:
    level = request.POST.get("level", "medium")
    variant = request.POST.get("variant", RECORD_VARIANT)
    mode = request.POST.get("mode", Mode.CHALLENGE)
    if level not in cpu.LEVELS or variant not in SOLO_VARIANTS or mode not in Mode.values:
        flash.error(request, refusal_text("bad_option", "That table option is not allowed."))
        return redirect("solo:home")
    request.session[SESSION_LEVEL] = level
    request.session[SESSION_VARIANT] = variant
    request.session[SESSION_MODE] = mode
    seats = [actions.SeatSpec("me")] + [actions.SeatSpec("cpu", level)] * 3
    try:
        table = actions.do_create_table(
            variant=variant,
            options=dict(SOLO_OPTIONS),
            seats=seats,
            user=request.user,
            guest_key=guest_key(request),
            kind=Table.Kind.SOLO,
            # a challenge run gets no engine help (actions.do_show_hint refuses it)
            competitive=mode == Mode.CHALLENGE,
        )
    except actions.ActionRefused as e:
        flash.error(request, refusal_text(e.code, e.message))
        return redirect("solo:home")
    return redirect("games:table", code=table.code)


@require_POST
def abandon(request: HttpRequest, code: str) -> HttpResponse:
    """Give up an unfinished solo game: it leaves the resume list and never counts."""
    table = get_object_or_404(Table, code=code)
    try:
        actions.do_abandon_solo(table.pk, user=request.user, guest_key=guest_key(request))
    except actions.ActionRefused:
        raise Http404("not your solo game") from None
    flash.info(request, _("The game was abandoned; it does not count."))
    return redirect("solo:home")


# --------------------------------------------------------------------- result


def result(request: HttpRequest, code: str) -> HttpResponse:
    table = get_object_or_404(Table, code=code, kind=Table.Kind.SOLO)
    row = SoloResult.objects.filter(table=table).select_related("user__profile").first()
    players, lines, totals = sheets.sheet_lines(table)
    hands: dict[int, list[list[dict[str, Any]]]] = {}
    hints: dict[int, list[int]] = {}  # hand number -> per seat, turns with "Show me"
    deals = []  # finished hands only: a hand in play keeps its seed secret
    for h in table.hands.filter(result__isnull=False).order_by("number"):
        hands[h.number + 1] = [[] for _p in players]
        hints[h.number + 1] = hint_counts(h.hints, len(players))
        deals.append(
            {
                "number": h.number + 1,
                "seed": h.seed,
                "commitment": h.seed_commitment,
                "starter": h.starter,
            }
        )
    for line in lines:
        hands.setdefault(line["hand"], [[] for _p in players])[line["seat"]].append(line)
    seat = records.human_seat(table)
    best = None
    if row is not None and row.counts_for_records:
        best = records.personal_bests(row.user).get(row.level)
    hint_totals = [sum(per_hand[p] for per_hand in hints.values()) for p in range(len(players))]
    me = seat.position if seat is not None else None
    return render(
        request,
        "solo/result.html",
        {
            "table": table,
            "result": row,
            "finished": table.status == Table.Status.FINISHED and row is not None,
            "players": players,
            "hands": [
                (number, [{"lines": c, "hints": hints[number][p]} for p, c in enumerate(cells)])
                for number, cells in sorted(hands.items())
            ],
            "hint_totals": hint_totals if any(hint_totals) else None,
            "my_hints": hint_totals[me] if me is not None else 0,
            # a run finished or not: its table says how it is played
            "mode": row.mode if row is not None else _mode_of(table),
            "deals": deals,
            "totals": totals,
            "me": me,
            "new_record": row is not None and records.is_new_record(row),
            "best": best,
            "level_name": cpu.describe(records.cpu_level(table)),
            "variant_name": table.get_variant_display(),
            "is_record_variant": rules_for(table.variant).records,
            "record_variant_name": dict(variant_choices())[RECORD_VARIANT],
        },
    )


def _mode_of(table: Table) -> str:
    return Mode.CHALLENGE if table.competitive else Mode.PRACTICE


# ---------------------------------------------------------------------- board


def period_start(period: str, now: datetime | None = None) -> datetime | None:
    """Start of this week (Monday 00:00) or this month, in the site's time zone."""
    now = timezone.localtime(now or timezone.now())
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    if period == "week":
        return midnight - timedelta(days=midnight.weekday())
    if period == "month":
        return midnight.replace(day=1)
    return None


def board_queryset(
    level: str = "", period: str = "all", now: datetime | None = None, *, unverified: bool = False
):
    """Each opted-in player's best verified seventeen record (per CPU level) in the
    period, best first. The opt-in is read at query time, so opting out removes the rows
    at once. ``unverified`` ranks older unverified records too (each row says which it
    is); practice runs are never records."""
    rows = SoloResult.objects.public(unverified=unverified)
    if level:
        rows = rows.filter(level=level)
    since = period_start(period, now)
    if since is not None:
        rows = rows.filter(finished_at__gte=since)
    rows = rows.annotate(
        nth=Window(
            RowNumber(),
            partition_by=[F("user_id"), F("level")],
            order_by=[F("total").asc(), F("finished_at").asc(), F("id").asc()],
        )
    ).filter(nth=1)
    return rows.select_related("user__profile", "table").order_by("total", "finished_at", "id")


def board(request: HttpRequest) -> HttpResponse:
    level = request.GET.get("level", "")
    level = level if level in cpu.LEVELS else ""
    period = request.GET.get("period", "all")
    period = period if period in dict(PERIODS) else "all"
    unverified = request.GET.get("unverified") == "1"
    page = Paginator(
        board_queryset(level, period, unverified=unverified), BOARD_PAGE_SIZE
    ).get_page(request.GET.get("page"))
    rows = [
        {"rank": page.start_index() + i, "result": r, "name": r.user.profile.name}
        for i, r in enumerate(page.object_list)
    ]
    opted_in = bool(
        request.user.is_authenticated
        and getattr(getattr(request.user, "profile", None), "public_records", False)
    )
    return render(
        request,
        "solo/board.html",
        {
            "page": page,
            "rows": rows,
            "level": level,
            "period": period,
            "levels": CPU_LEVELS,
            "periods": PERIODS,
            "opted_in": opted_in,
            "unverified": unverified,
            "query": f"level={level}&period={period}" + ("&unverified=1" if unverified else ""),
        },
    )


# --------------------------------------------------------------------- verify


def verify_deal(
    seed: str, players: int = 4, starter: int = 0, variant: str = RECORD_VARIANT
) -> dict[str, Any]:
    """Everything the verify page shows for a seed: the deal and the seed's SHA-256. The
    rule set says how many tiles each seat is dealt (``Rules.rack_size``) and how its
    tiles are shown."""
    d = deal(seed, players, starter, rules_for(variant).rack_size)

    def tiles(ids) -> list[dict[str, Any]]:
        return [
            {
                **tile_ctx({"id": t, "t": notation(t)}, variant),
                "okey": kind_of(t) == d.okey_kind,
            }
            for t in ids
        ]

    return {
        "sha256": hashlib.sha256(seed.encode()).hexdigest(),
        "racks": [
            {"seat": i, "tiles": tiles(r), "text": " ".join(notation(t) for t in r)}
            for i, r in enumerate(d.racks)
        ],
        "indicator": tiles([d.indicator])[0],
        "okey": kind_notation(d.okey_kind),
        # pile[-1] is the top of the pile (drawn first): show it first
        "pile": tiles(reversed(d.pile)),
        "pile_text": " ".join(notation(t) for t in reversed(d.pile)),
    }


def verify(request: HttpRequest) -> HttpResponse:
    seed = request.GET.get("seed", "")[:128]
    commitment = request.GET.get("commitment", "").strip().lower()[:64]
    try:
        players = int(request.GET.get("players", "4"))
        starter = int(request.GET.get("starter", "0"))
    except ValueError:
        players, starter = 4, 0
    variant = request.GET.get("variant", RECORD_VARIANT)
    if variant not in RULES:
        variant = RECORD_VARIANT
    error = ""
    if players not in (2, 3, 4):
        players, error = 4, _("A table has 2, 3 or 4 players.")
    if not 0 <= starter < players:
        starter, error = 0, _("The starter must be a seat of the table (0 to players − 1).")
    outcome = verify_deal(seed, players, starter, variant) if seed and not error else None
    return render(
        request,
        "solo/verify.html",
        {
            "seed": seed,
            "players": players,
            "starter": starter,
            "commitment": commitment,
            "matches": outcome is not None and commitment and commitment == outcome["sha256"],
            "outcome": outcome,
            "error": error,
            "player_choices": [2, 3, 4],
            "starter_choices": [0, 1, 2, 3],
            "variant": variant,
            "variants": variant_choices(),
        },
    )


# ------------------------------------------------------------------------ CSV


def sheet_csv(request: HttpRequest, code: str) -> HttpResponse:
    """``/t/<code>/sheet.csv``: the score sheet's lines, then one total row per player.
    While a duplicate round still plays this table's deals it is for the table's players
    only, as the sheet page is (``plugins.deal_embargoed``, RULES.md D38): its hand scores
    would tell the round's other tables what the deals hold."""
    table = get_object_or_404(Table, code=code)
    if plugins.deal_embargoed(table):
        seats = list(table.seats.all())
        if actions.seat_of(seats, request.user, guest_key(request)) is None:
            raise PermissionDenied(
                _(
                    "This deal is still being played at another table of the tournament "
                    "round. Its score sheet opens when every table has played it."
                )
            )
    response = HttpResponse(
        sheets.sheet_csv(table, total_label=_("total")), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="okey-{table.code}.csv"'
    return response
