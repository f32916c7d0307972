"""Tournament pages: function views that parse, authorise, call one service and render.

Permissions: a tournament nobody may see is 404 (unpublished, and the visitor
is neither an organiser nor one of its players); changing anything needs an
organiser (403 otherwise); ids of another tournament's players or tables are
404 (``TournamentError("no_such_...")`` from the actions).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from django.contrib import messages as flash
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Max, Q, TextField
from django.db.models.functions import Cast
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.common import heavy, pagecache
from games.engine.options import validate_options
from games.engine.refusals import Refusal
from games.engine.rules import rules_for
from games.models import Hand, Table

from . import actions, duplicate_rounds, exchange, presenter
from .forms import EntryForm, ImportForm, KeepApartForm, OrganiserForm, TournamentForm
from .messages import deal_problem_text, error_text, problem_text
from .models import AuditEntry, Deal, Entry, KeepApart, Round, Tournament, TournamentTable

NOT_FOUND_CODES = {"no_such_entry", "no_such_table", "no_such_pair"}


# ------------------------------------------------------------------ helpers


def _visible(request: HttpRequest, pk: int) -> Tournament:
    t = get_object_or_404(Tournament, pk=pk)
    if not presenter.can_view(t, request.user):
        raise Http404("no such tournament")
    return t


def _public(request: HttpRequest, pk: int) -> Tournament:
    """Pages with everybody's results: published, or an organiser."""
    t = _visible(request, pk)
    if not presenter.sees_all(t, request.user):
        raise Http404("not published")
    return t


def _organiser(request: HttpRequest, pk: int) -> Tournament:
    t = _visible(request, pk)
    if not t.is_organiser(request.user):
        raise PermissionDenied(_("Only the tournament's organisers can do that."))
    return t


def _refused(request: HttpRequest, e: actions.TournamentError) -> None:
    if e.code == "not_organiser":
        raise PermissionDenied(error_text(e.code, e.message))
    if e.code in NOT_FOUND_CODES:
        raise Http404(e.message)
    flash.error(request, error_text(e.code, e.message, **e.params))


def _desk(t: Tournament) -> HttpResponse:
    return redirect("tournaments:desk", pk=t.pk)


def _int_or_none(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _slug(t: Tournament) -> str:
    return slugify(t.name) or f"tournament-{t.pk}"


# -------------------------------------------------------------------- lists


def tournament_list(request: HttpRequest) -> HttpResponse:
    published = Tournament.objects.filter(published=True)[:50]
    mine: list[Tournament] = []
    playing: list[Tournament] = []
    if request.user.is_authenticated:
        mine = list(
            Tournament.objects.filter(
                Q(owner=request.user) | Q(organisers=request.user)
            ).distinct()[:50]
        )
        playing = list(Tournament.objects.filter(entries__user=request.user).distinct()[:50])
    return render(
        request,
        "tournaments/list.html",
        {"published": published, "mine": mine, "playing": playing},
    )


@login_required
def tournament_create(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            t = actions.do_create_tournament(request.user, **form.values())
        except actions.TournamentError as e:
            flash.error(request, error_text(e.code, e.message, **e.params))
        else:
            flash.success(
                request,
                _("The tournament is created. Register the players, then seat round 1."),
            )
            return _desk(t)
    return render(request, "tournaments/form.html", {"form": form, "t": None})


@login_required
def tournament_import(request: HttpRequest) -> HttpResponse:
    form = ImportForm(request.POST or None, request.FILES or None)
    error = None
    busy = False
    if request.method == "POST":
        if not form.is_valid():
            error = _("Choose a file to import.")
        else:
            upload = form.cleaned_data["file"]
            try:
                if upload.size > exchange.MAX_BYTES:
                    raise exchange.too_large(upload.size)
                with heavy.one_at_a_time(client=heavy.client_of(request)):
                    data = exchange.load(upload.read(exchange.MAX_BYTES + 1))
                    t = exchange.do_import_tournament(request.user, data)
            except actions.TournamentError as e:
                error = error_text(e.code, e.message, **e.params)
            except heavy.Busy:
                error = _(
                    "The server is busy with another import. Nothing was changed: "
                    "try again in a moment."
                )
                busy = True
            else:
                flash.success(request, _("The tournament was imported."))
                return _desk(t)
    return render(
        request,
        "tournaments/import.html",
        {"form": form, "error": error, "max_players": exchange.MAX_PLAYERS},
        status=503 if busy else 400 if error else 200,
    )


# ------------------------------------------------------------- public pages


def page_version(t: Tournament) -> tuple[Any, ...]:
    """A key of everything the tournament's page and matrix are rendered from, read
    from its rows (the same in every process), changing with each change of it: the
    settings, registrations, results and audit log (``presenter._standings_key``: the
    desk writes an audit entry for each change), the rounds and tables seated, and the
    state of its online games (how many are waiting, playing, finished; how many hands
    the playing ones have dealt and ended: a game between hands shows as such). A
    game's status and its hands only move forward, so equal counts mean equal states."""
    seated = Round.objects.filter(tournament=t).aggregate(
        rounds=Count("id", distinct=True), n_tables=Count("tables"), last_table=Max("tables__id")
    )
    games = tuple(
        TournamentTable.objects.filter(round__tournament=t, game__isnull=False)
        .values_list("game__status")
        .annotate(n=Count("id"))
        .order_by("game__status")
    )
    hands = Hand.objects.filter(
        table__tournament_table__round__tournament=t, table__status=Table.Status.PLAYING
    ).aggregate(n=Count("id"), done=Count("result"))
    return (presenter._standings_key(t), tuple(seated.values()), games, tuple(hands.values()))


@heavy.page
def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The page's header for each visitor; its body (their table, the standings, the
    rounds) kept per :func:`page_version`, the visitor's view (``full``) and entry (their
    own row and table) and the language (``games.common.pagecache``)."""
    t = _visible(request, pk)
    full = presenter.sees_all(t, request.user)
    mine = presenter.entry_of(t, request.user)
    body = pagecache.fragment(
        "tournament",
        (t.pk, page_version(t), full, mine.pk if mine else None),
        lambda: pagecache.render(
            "tournaments/_detail_body.html", presenter.page_context(t, request.user)
        ),
    )
    return render(
        request,
        "tournaments/detail.html",
        {
            "t": t,
            "full": full,
            "is_organiser": t.is_organiser(request.user),
            "seated_rounds": t.seated_rounds,
            "body": body,
        },
    )


def round_tables(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """One round's table cards, loaded when its collapsed line on the tournament's page
    is first opened (``presenter.shown_rounds``); who sees what as on the page."""
    t = _visible(request, pk)
    if not Round.objects.filter(tournament=t, number=number).exists():
        raise Http404("no such round")
    full = presenter.sees_all(t, request.user)
    mine = None if full else presenter.entry_of(t, request.user)
    entries = {e.pid: e for e in t.entries.all()}
    found = presenter.table_rows(t, entries, mine, numbers=[number])
    rnd = found[0] if found else {"number": number, "tables": []}
    return render(
        request, "tournaments/detail.html#round_tables", {"t": t, "full": full, "rnd": rnd}
    )


def player_history(request: HttpRequest, pk: int, entry_id: int) -> HttpResponse:
    t = _visible(request, pk)
    entry = get_object_or_404(Entry, tournament=t, pk=entry_id)
    if not presenter.sees_all(t, request.user):
        mine = presenter.entry_of(t, request.user)
        if mine is None or mine.pk != entry.pk:
            raise Http404("not published")
    rows = presenter.standing_rows(t, {e.pid: e for e in t.entries.all()})
    standing = next((r for r in rows if r["entry"].pk == entry.pk), None)
    return render(
        request,
        "tournaments/player.html",
        {
            "t": t,
            "entry": entry,
            "history": presenter.history(t, entry),
            "standing": standing if presenter.sees_all(t, request.user) else None,
            "sees_all": presenter.sees_all(t, request.user),
            "is_organiser": t.is_organiser(request.user),
        },
    )


# The matrix is shown in blocks of MATRIX_BLOCK × MATRIX_BLOCK players (a page of rows and
# a page of columns): a page renders at most 24 × 24 cells, whatever the size of the
# tournament; counting the meetings is linear in the tables played.
MATRIX_BLOCK = 24


def _block(request: HttpRequest, name: str, pages: int) -> int:
    number = _int_or_none(request.GET.get(name)) or 1
    return min(max(number, 1), pages)


def _cell(count: int | None) -> tuple[str, str]:
    """(class, text) of one matrix cell: the player themself, never met, met, met again."""
    if count is None:
        return "self", "·"
    return ("repeat" if count > 1 else "met" if count else ""), (str(count) if count else "")


@heavy.page
def meeting_matrix(request: HttpRequest, pk: int) -> HttpResponse:
    return _meeting_matrix(request, pk)


def _meeting_matrix(request: HttpRequest, pk: int) -> HttpResponse:
    """The page around the matrix for each visitor; the matrix of the block asked for
    kept per :func:`page_version` and language (``games.common.pagecache``)."""
    t = _public(request, pk)
    pages = max(1, -(-t.entries.count() // MATRIX_BLOCK))
    block = _block(request, "rows", pages), _block(request, "cols", pages)
    body = pagecache.fragment(
        "matrix",
        (t.pk, page_version(t), block),
        lambda: pagecache.render("tournaments/_matrix_body.html", _matrix_context(t, *block)),
    )
    return render(
        request,
        "tournaments/matrix.html",
        {"t": t, "is_organiser": t.is_organiser(request.user), "body": body},
    )


def _matrix_context(t: Tournament, row_page: int, col_page: int) -> dict[str, Any]:
    entries = [
        {"pk": pk, "pid": str(pk), "name": name}
        for pk, name in t.entries.order_by("id").values_list("pk", "name")
    ]
    pages = max(1, -(-len(entries) // MATRIX_BLOCK))
    row_start, col_start = (row_page - 1) * MATRIX_BLOCK, (col_page - 1) * MATRIX_BLOCK
    row_entries = entries[row_start : row_start + MATRIX_BLOCK]
    columns = [
        {"number": col_start + i + 1, "entry": e}
        for i, e in enumerate(entries[col_start : col_start + MATRIX_BLOCK])
    ]
    # Only the block's pairs are counted, from the seats alone (no model per table): a page
    # costs one pass over the tables played, whatever the number of players.
    row_ids = {e["pid"] for e in row_entries}
    col_ids = {c["entry"]["pid"] for c in columns}
    counts: Counter[tuple[str, str]] = Counter()
    starts: Counter[str] = Counter()
    # the seats as JSON text, decoded in one go (not one JSON value per table)
    texts = TournamentTable.objects.filter(round__tournament=t).values_list(
        Cast("seats", output_field=TextField()), flat=True
    )
    for seats in json.loads("[" + ",".join(texts) + "]"):
        if seats and seats[0] in row_ids:
            starts[seats[0]] += 1
        people = {p for p in seats if p is not None}
        for a in people & row_ids:
            for b in people & col_ids:
                counts[a, b] += 1
    rows = []
    for i, a in enumerate(row_entries):
        cells = []
        for col in columns:
            b = col["entry"]
            cells.append(None if a["pk"] == b["pk"] else counts[a["pid"], b["pid"]])
        rows.append(
            {
                "number": row_start + i + 1,
                "entry": a,
                "cells": cells,
                "tds": [_cell(c) for c in cells],
                "starts": starts[a["pid"]],
            }
        )

    def link(rows_page: int, cols_page: int) -> str | None:
        if not (1 <= rows_page <= pages and 1 <= cols_page <= pages):
            return None
        return f"?rows={rows_page}&cols={cols_page}"

    def span(start: int, count: int) -> dict[str, int]:
        return {"first": start + 1, "last": start + count}

    return {
        "t": t,
        "entries": entries,
        "columns": columns,
        "rows": rows,
        "seated": t.round_set.exists(),
        "paged": pages > 1,
        "row_span": span(row_start, len(row_entries)),
        "col_span": span(col_start, len(columns)),
        "nav": {
            "up": link(row_page - 1, col_page),
            "down": link(row_page + 1, col_page),
            "left": link(row_page, col_page - 1),
            "right": link(row_page, col_page + 1),
        },
    }


def round_deals(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A complete duplicate round deal by deal: each seat's holder at every table, their
    hand total and points (published, or an organiser). A round still being played is
    404: its scores would tell another table what the deals hold."""
    t = _public(request, pk)
    if not t.duplicate or not Round.objects.filter(tournament=t, number=number).exists():
        raise Http404("no such round")
    if number in duplicate_rounds.rounds_in_play(t):
        raise Http404("round still being played")
    entries = {e.pid: e for e in t.entries.all()}
    try:
        breakdown = presenter.round_breakdown(t, entries, number)
    except duplicate_rounds.DuplicateRefused as e:
        flash.error(request, error_text(e.code, e.message))
        breakdown = None
    ctx = {"t": t, "number": number, "breakdown": breakdown}
    ctx["duplicate"] = {
        "imps": t.duplicate_scoring == Tournament.DuplicateScoring.IMPS,
        "method": t.get_duplicate_scoring_display(),
    }
    return render(request, "tournaments/deals.html", ctx)


def standings_print(request: HttpRequest, pk: int) -> HttpResponse:
    t = _public(request, pk)
    ctx = presenter.page_context(t, request.user)
    return render(request, "tournaments/standings_print.html", ctx)


def standings_csv(request: HttpRequest, pk: int) -> HttpResponse:
    t = _public(request, pk)
    response = HttpResponse(exchange.standings_csv(t), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{_slug(t)}-standings.csv"'
    return response


def results_csv(request: HttpRequest, pk: int) -> HttpResponse:
    t = _public(request, pk)
    response = HttpResponse(exchange.results_csv(t), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{_slug(t)}-results.csv"'
    return response


# ---------------------------------------------------------------- the desk


def desk(request: HttpRequest, pk: int) -> HttpResponse:
    t = _organiser(request, pk)
    ctx = presenter.page_context(t, request.user, every_round=True)
    form = TournamentForm(initial=TournamentForm.initial_for(t))
    next_round = t.seated_rounds + 1
    last = t.round_set.order_by("-number").first()
    until = t.late_entry_until
    # the last round a registration can start in (actions.do_register_entry refuses later)
    last_entry_round = t.rounds if until is None else min(t.rounds, max(1, until))
    ctx.update(
        {
            "form": form,
            "entry_form": EntryForm(initial={"joins_round": next_round}),
            "last_entry_round": last_entry_round,
            "registration_closed": next_round > last_entry_round,
            "apart_form": KeepApartForm(entries=ctx["entries"]),
            "apart_pairs": list(
                KeepApart.objects.filter(tournament=t).select_related("first", "second")
            ),
            "organiser_form": OrganiserForm(),
            "organisers": list(t.organisers.all()),
            "next_round": next_round,
            "can_seat": next_round <= t.rounds
            and t.status != Tournament.Status.FINISHED
            and (last is None or last.complete),
            "players_next": [e for e in ctx["entries"] if e.plays_round(next_round)],
            "started": t.seated_rounds > 0,
        }
    )
    return render(request, "tournaments/desk.html", ctx)


@require_POST
def tournament_edit(request: HttpRequest, pk: int) -> HttpResponse:
    t = _organiser(request, pk)
    form = TournamentForm(request.POST)
    if not form.is_valid():
        for field, errors in form.errors.items():
            for err in errors:
                flash.error(
                    request, f"{form.fields[field].label if field in form.fields else ''}: {err}"
                )
        return _desk(t)
    try:
        actions.do_update_tournament(t.pk, request.user, **form.values())
    except actions.TournamentError as e:
        _refused(request, e)
    else:
        flash.success(request, _("Saved."))
    return _desk(t)


@require_POST
def organiser_add(request: HttpRequest, pk: int) -> HttpResponse:
    t = _organiser(request, pk)
    form = OrganiserForm(request.POST)
    if form.is_valid():
        try:
            user = actions.do_add_organiser(t.pk, request.user, form.cleaned_data["username"])
        except actions.TournamentError as e:
            _refused(request, e)
        else:
            flash.success(
                request,
                _("%(username)s can now run this tournament's desk.")
                % {"username": user.get_username()},
            )
    else:
        flash.error(request, _("Give the username of the co-organiser to add."))
    return _desk(t)


@require_POST
def organiser_remove(request: HttpRequest, pk: int, user_id: int) -> HttpResponse:
    t = _organiser(request, pk)
    try:
        actions.do_remove_organiser(t.pk, request.user, user_id)
    except actions.TournamentError as e:
        if e.code == "not_owner":
            raise PermissionDenied(error_text(e.code, e.message)) from e
        _refused(request, e)
    else:
        flash.success(request, _("The co-organiser was removed."))
    return _desk(t)


@require_POST
def entry_add(request: HttpRequest, pk: int) -> HttpResponse:
    t = _organiser(request, pk)
    form = EntryForm(request.POST)
    if form.is_valid():
        d = form.cleaned_data
        try:
            entry = actions.do_register_entry(
                t.pk,
                request.user,
                username=d.get("username") or "",
                name=d.get("name") or "",
                joins_round=d.get("joins_round"),
            )
        except actions.TournamentError as e:
            _refused(request, e)
        else:
            if entry.joins_round > max(t.seated_rounds + 1, 1):
                text = _("%(name)s is registered and plays from round %(n)s.") % {
                    "name": entry.name,
                    "n": entry.joins_round,
                }
            else:
                text = _("%(name)s is registered.") % {"name": entry.name}
            flash.success(request, text)
    else:
        # the form says what is wrong with a name (invisible characters, a CPU lookalike)
        flash.error(request, " ".join(form.errors.get("name", [])) or error_text("name_needed"))
    return _desk(t)


@require_POST
def keep_apart_add(request: HttpRequest, pk: int) -> HttpResponse:
    t = _organiser(request, pk)
    form = KeepApartForm(request.POST, entries=t.entries.all())
    if not form.is_valid():
        flash.error(request, " ".join(form.non_field_errors()) or _("Choose two players."))
        return _desk(t)
    d = form.cleaned_data
    try:
        pair = actions.do_add_keep_apart(t.pk, request.user, d["first"], d["second"])
    except actions.TournamentError as e:
        _refused(request, e)
    else:
        flash.success(
            request,
            _("%(a)s and %(b)s will never sit at the same table.")
            % {"a": pair.first.name, "b": pair.second.name},
        )
    return _desk(t)


@require_POST
def keep_apart_remove(request: HttpRequest, pk: int, pair_id: int) -> HttpResponse:
    t = _organiser(request, pk)
    try:
        actions.do_remove_keep_apart(t.pk, request.user, pair_id)
    except actions.TournamentError as e:
        _refused(request, e)
    else:
        flash.success(request, _("The pair may sit together again."))
    return _desk(t)


@require_POST
def entry_drop(request: HttpRequest, pk: int, entry_id: int) -> HttpResponse:
    t = _organiser(request, pk)
    try:
        entry = actions.do_drop_entry(
            t.pk, request.user, entry_id, _int_or_none(request.POST.get("round"))
        )
    except actions.TournamentError as e:
        _refused(request, e)
    else:
        flash.success(
            request,
            _("%(name)s plays no more rounds from round %(n)s on; their results so far count.")
            % {"name": entry.name, "n": entry.dropped_from_round},
        )
    return _desk(t)


@require_POST
def entry_reinstate(request: HttpRequest, pk: int, entry_id: int) -> HttpResponse:
    t = _organiser(request, pk)
    try:
        entry = actions.do_reinstate_entry(t.pk, request.user, entry_id)
    except actions.TournamentError as e:
        _refused(request, e)
    else:
        flash.success(request, _("%(name)s plays again.") % {"name": entry.name})
    return _desk(t)


@require_POST
def entry_no_show(request: HttpRequest, pk: int, entry_id: int) -> HttpResponse:
    t = _organiser(request, pk)
    round_no = _int_or_none(request.POST.get("round")) or t.seated_rounds + 1
    absent = request.POST.get("absent", "1") == "1"
    try:
        entry = actions.do_set_no_show(t.pk, request.user, entry_id, round_no, absent)
    except actions.TournamentError as e:
        _refused(request, e)
    else:
        if absent:
            text = _("%(name)s is marked absent in round %(n)s and will not be seated in it.")
        else:
            text = _("%(name)s is no longer marked absent in round %(n)s.")
        flash.success(request, text % {"name": entry.name, "n": round_no})
    return _desk(t)


@require_POST
def entry_remove(request: HttpRequest, pk: int, entry_id: int) -> HttpResponse:
    t = _organiser(request, pk)
    try:
        actions.do_remove_entry(t.pk, request.user, entry_id)
    except actions.TournamentError as e:
        _refused(request, e)
    else:
        flash.success(request, _("The registration was removed."))
    return _desk(t)


@require_POST
def seat_round(request: HttpRequest, pk: int) -> HttpResponse:
    t = _organiser(request, pk)
    try:
        rnd = actions.do_seat_next_round(t.pk, request.user)
    except actions.TournamentError as e:
        _refused(request, e)
    else:
        flash.success(request, _("Round %(n)s is seated.") % {"n": rnd.number})
    return _desk(t)


@require_POST
def next_hand(request: HttpRequest, pk: int, table_id: int) -> HttpResponse:
    t = _organiser(request, pk)
    try:
        actions.do_deal_next_hand(t.pk, request.user, table_id)
    except actions.TournamentError as e:
        _refused(request, e)
    else:
        flash.success(request, _("The next hand is dealt."))
    return _desk(t)


def result_form(request: HttpRequest, pk: int, table_id: int) -> HttpResponse:
    """Enter or correct one table's result (a phone-sized form)."""
    t = _organiser(request, pk)
    tt = get_object_or_404(
        TournamentTable.objects.select_related("round"), pk=table_id, round__tournament=t
    )
    if t.duplicate:
        if tt.round.number in presenter.rounds_played_in(t, presenter.entry_of(t, request.user)):
            raise PermissionDenied(
                _(
                    "You play in this round: its results open to you when every table of "
                    "the round has played the deals."
                )
            )
        return _deal_result_form(request, t, tt)
    entries = {e.pid: e for e in t.entries.all()}
    existing = getattr(tt, "result", None) if tt.has_result else None
    values: list[str] = [str(s) for s in existing.scores] if existing else [""] * len(tt.seats)
    problems: list[dict[str, Any]] = []
    status = 200
    if request.method == "POST":
        values = [request.POST.get(f"seat_{i}", "").strip() for i in range(len(tt.seats))]
        scores: list[Any] = []
        for v in values:
            try:
                scores.append(int(v))
            except ValueError:
                scores.append(v)
        try:
            actions.do_enter_result(t.pk, request.user, tt.pk, scores)
        except actions.ResultRefused as e:
            problems = [
                {
                    "code": p.code,
                    "seat": p.seat,
                    "text": problem_text(p.code, p.message, t.variant),
                }
                for p in e.problems
            ]
            status = 400
        except actions.TournamentError as e:
            _refused(request, e)
            status = 400
        else:
            flash.success(
                request,
                _("Result of round %(r)s, table %(n)s saved.")
                % {"r": tt.round.number, "n": tt.number},
            )
            following = _next_open_table(tt)
            if request.POST.get("then") == "next" and following is not None:
                return redirect("tournaments:result", pk=t.pk, table_id=following.pk)
            return redirect(f"{reverse('tournaments:desk', args=[t.pk])}#round-{tt.round.number}")
    seats = []
    for i, pid in enumerate(tt.seats):
        entry = entries.get(pid) if pid is not None else None
        seats.append(
            {
                "index": i,
                "name": entry.name if entry else _("CPU"),
                "value": values[i] if i < len(values) else "",
                "problems": [p for p in problems if p["seat"] == i],
            }
        )
    return render(
        request,
        "tournaments/result_form.html",
        {
            "t": t,
            "tt": tt,
            "seats": seats,
            "general_problems": [p for p in problems if p["seat"] is None],
            "existing": existing,
            "hint": _score_hint(t, len(tt.seats)),
            "next_table": _next_open_table(tt),
        },
        status=status,
    )


def _deal_result_form(request: HttpRequest, t: Tournament, tt: TournamentTable) -> HttpResponse:
    """A duplicate table's result, one line per deal of the round: each seat's hand total
    in that deal, copied from the table's score sheet (``actions.do_enter_deal_results``)."""
    entries = {e.pid: e for e in t.entries.all()}
    existing = getattr(tt, "result", None) if tt.has_result else None
    n_deals = Deal.objects.filter(round_id=tt.round_id).count()
    seats = len(tt.seats)
    values = [[""] * seats for _ in range(n_deals)]
    if existing is not None and existing.hands:
        values = [[str(v) for v in line] for line in existing.hands]
    problems: list[dict[str, Any]] = []
    status = 200
    if request.method == "POST":
        values = [
            [request.POST.get(f"deal_{d}_seat_{i}", "").strip() for i in range(seats)]
            for d in range(1, n_deals + 1)
        ]
        lines = [[_int_or_text(v) for v in line] for line in values]
        try:
            actions.do_enter_deal_results(t.pk, request.user, tt.pk, lines)
        except actions.DealResultRefused as e:
            problems = [
                {
                    "code": p.code,
                    "deal": p.deal,
                    "seat": p.seat,
                    "text": deal_problem_text(p.code, p.message),
                }
                for p in e.problems
            ]
            status = 400
        except actions.TournamentError as e:
            _refused(request, e)
            status = 400
        else:
            flash.success(
                request,
                _("Result of round %(r)s, table %(n)s saved.")
                % {"r": tt.round.number, "n": tt.number},
            )
            following = _next_open_table(tt)
            if request.POST.get("then") == "next" and following is not None:
                return redirect("tournaments:result", pk=t.pk, table_id=following.pk)
            return redirect(f"{reverse('tournaments:desk', args=[t.pk])}#round-{tt.round.number}")
    names = [
        entries[pid].name if pid is not None and pid in entries else _("CPU") for pid in tt.seats
    ]
    deals = [
        {
            "number": d,
            "starter": (d - 1) % seats,
            "cells": [
                {
                    "seat": i,
                    "name": names[i],
                    "value": values[d - 1][i] if d - 1 < len(values) else "",
                    "problems": [p for p in problems if p["deal"] == d and p["seat"] == i],
                }
                for i in range(seats)
            ],
            "problems": [p for p in problems if p["deal"] == d and p["seat"] is None],
        }
        for d in range(1, n_deals + 1)
    ]
    return render(
        request,
        "tournaments/deal_result_form.html",
        {
            "t": t,
            "tt": tt,
            "names": names,
            "deals": deals,
            "general_problems": [p for p in problems if p["deal"] is None],
            "existing": existing,
            "next_table": _next_open_table(tt),
        },
        status=status,
    )


def _int_or_text(value: str) -> Any:
    try:
        return int(value)
    except ValueError:
        return value


def _score_hint(t: Tournament, seats: int) -> str:
    """What to type in each field, in the rule set's own terms (its rules object's
    ``score_hint``)."""
    try:
        opts = validate_options(t.variant, actions.table_options(t, seats))
    except Refusal:
        return ""
    msgid, values = rules_for(t.variant).score_hint(opts)
    return _(msgid) % values if msgid else ""


def _next_open_table(tt: TournamentTable) -> TournamentTable | None:
    """The next table of the same round still without a result (for "next table")."""
    return (
        TournamentTable.objects.filter(round_id=tt.round_id, result__isnull=True)
        .exclude(pk=tt.pk)
        .order_by("number")
        .first()
    )


def table_cards(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Printable table cards and score sheets of one round (in person)."""
    t = _organiser(request, pk)
    rnd = get_object_or_404(Round, tournament=t, number=number)
    entries = {e.pid: e for e in t.entries.all()}
    tables = []
    for tt in rnd.tables.order_by("number"):
        tables.append(
            {
                "number": tt.number,
                "seats": [
                    {
                        "position": i + 1,
                        "name": entries[p].name if p else _("CPU"),
                        "cpu": p is None,
                    }
                    for i, p in enumerate(tt.seats)
                ],
            }
        )
    try:
        opts = validate_options(t.variant, actions.table_options(t, 4))
        hands = rules_for(t.variant).score_card_rows(opts)
    except Refusal:
        hands = 12
    return render(
        request,
        "tournaments/cards.html",
        {"t": t, "round": rnd, "tables": tables, "sheet_rows": range(hands)},
    )


def audit_log(request: HttpRequest, pk: int) -> HttpResponse:
    t = _organiser(request, pk)
    entries = list(AuditEntry.objects.filter(tournament=t).select_related("actor")[:500])
    # an organiser who plays in a duplicate round still being played: its results' scores
    # wait, as on the desk (presenter.rounds_played_in)
    playing = presenter.rounds_played_in(t, presenter.entry_of(t, request.user))
    held = tuple(f"round {n} table " for n in playing)
    for a in entries:
        a.withheld = bool(held) and "result" in a.action and a.what.startswith(held)
    return render(request, "tournaments/audit.html", {"t": t, "log": entries})


def export_json(request: HttpRequest, pk: int) -> HttpResponse:
    t = _organiser(request, pk)
    response = HttpResponse(exchange.dumps(t), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{_slug(t)}.okey-tournament.json"'
    return response
