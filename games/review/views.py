"""Review pages: my games, replays, CPU commentary, export/import and share links.

Privacy: a hand is reviewable only once it is over (``Hand.result`` set), and only by the
players of its game (a seat with their user, or their guest session), by anyone holding a
share link of a finished game that was not revoked, or, for imported files, by their
importer.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.contrib import messages as flash
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import plugins
from games.common import heavy, pagecache
from games.engine.tiles import N_TILES, kind_notation, kind_of, notation
from games.live import actions
from games.live.presenter import relative_positions, tile_ctx
from games.models import Hand, Seat, Table
from games.review import actions as review_actions
from games.views import guest_key, hint_counts

from . import analysis, commentary, records
from . import par as review_par
from .forms import FilterForm, ImportForm
from .models import HandAnalysis, HandCommentary, ImportedHand, ImportedRecord, ShareLink
from .replay import build_replay, compute_replay, present_replay, record_for_hand

PER_PAGE = 10


# ------------------------------------------------------------------ helpers


def denied(request: HttpRequest, status: int, message: str) -> HttpResponse:
    return render(request, "review/denied.html", {"message": message}, status=status)


def not_yours(request: HttpRequest) -> HttpResponse:
    return denied(
        request,
        404,
        _(
            "There is no such game among yours. You can review the games you played and the ones "
            "shared with you by a link."
        ),
    )


def in_progress(request: HttpRequest) -> HttpResponse:
    return denied(
        request,
        403,
        _("This hand is still being played. Replays, exports and commentary open when it is over."),
    )


def still_dealt(request: HttpRequest) -> HttpResponse:
    """A duplicate round's hand whose deal another table of the round still plays
    (``plugins.deal_embargoed``, RULES.md D38): its replay would show every rack."""
    return denied(
        request,
        403,
        _(
            "This deal is still being played at another table of the tournament round. "
            "Its replay, export and commentary open when every table has played it."
        ),
    )


def my_seat(request: HttpRequest, table: Table) -> Seat | None:
    return actions.seat_of(list(table.seats.all()), request.user, guest_key(request))


def my_tables(request: HttpRequest):
    if request.user.is_authenticated:
        qs = Table.objects.filter(seats__user=request.user)
    else:
        qs = Table.objects.filter(seats__guest_key=guest_key(request), seats__user__isnull=True)
    return qs.distinct()


def players_of(table: Table) -> list[dict[str, Any]]:
    return [
        {"seat": s.position, "name": s.display_name(), "cpu": s.cpu_level if s.is_cpu else None}
        for s in table.seats.select_related("user__profile").order_by("position")
    ]


def _owner_filter(request: HttpRequest) -> dict[str, Any]:
    if request.user.is_authenticated:
        return {"owner": request.user}
    return {"owner__isnull": True, "guest_key": guest_key(request)}


def _json_download(data: dict, filename: str, *, sign: bool = True) -> HttpResponse:
    """A JSON attachment; the site's own records are signed (imports keep what they had)."""
    if sign:
        data = records.sign(data)
    response = HttpResponse(
        json.dumps(data, ensure_ascii=False, indent=1), content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def hint_uses(hand: Hand, players: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Who asked "Show me" in a finished hand and on how many turns (``Hand.hints``),
    in seat order; nothing for a hand in play (the review shows finished hands only)."""
    if hand.result is None:
        return []
    counts = hint_counts(hand.hints, len(players))
    return [
        {"seat": p["seat"], "name": p["name"], "n": counts[p["seat"]]}
        for p in players
        if p["seat"] < len(counts) and counts[p["seat"]]
    ]


def _result_lines(timeline: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every score line of the hand, in the order play wrote them: the ones written
    during play (101's okey or işlek discard, RULES.md §6 [D32], fifty-one's
    penalties) and the hand's end lines, so the result table adds up to its totals.
    ``present_replay`` has put each reason in words with the table's variant (a rule
    set's own reasons, ``Rules.reason_labels``, included)."""
    return [
        {"name": e["name"], "points": e["points"], "label": e["label"]}
        for step in timeline
        for e in step["scores"]
    ]


def replay_context(
    *,
    record: dict | None = None,
    stored: dict | None = None,
    players: list[dict],
    variant: str,
    variant_name: str,
    title: str,
    me: int | None,
    commentary_url: str | None,
    commentary_seat: int | None,
    export_url: str | None,
    back_url: str,
    nav: dict[str, str | None],
    analysis_url: str | None = None,
    hints: list[dict[str, Any]] | None = None,
    par_url: str | None = None,
) -> dict[str, Any]:
    """The replay page of a hand: replayed from ``record`` now (a played hand: one hand,
    bounded by the rules), or read from ``stored`` (an import's ``compute_replay``).
    ``hints``: who used "Show me" in the hand (``hint_uses``; a played hand only)."""
    names = [p["name"] for p in players]
    r = (
        present_replay(stored, names, variant)
        if stored is not None
        else build_replay(record, names, variant)
    )
    n = r["n_players"]
    okey_kind = r["okey_kind"]
    tiles = [
        tile_ctx({"id": i, "t": notation(i), "okey": kind_of(i) == okey_kind}, variant)
        for i in range(N_TILES)
    ]
    places = relative_positions(n, me if me is not None else 0, variant)
    seats = [
        {
            "position": s,
            "name": names[s] if s < len(names) else "?",
            "cpu": players[s].get("cpu") if s < len(players) else None,
            "place": places.get(s, "top"),
            "is_me": s == me,
        }
        for s in range(n)
    ]
    result = r["result"]
    data = {
        "frames": r["frames"],
        "events": [{"seat": e["seat"], "tile": e["tile"]} for e in r["timeline"]],
        "n": n,
    }
    return {
        "title": title,
        "variant": variant,
        "variant_name": variant_name,
        "seats": seats,
        "me": me,
        "tiles": tiles,
        "indicator": tiles[r["indicator"]],
        "okey": kind_notation(okey_kind),
        "timeline": r["timeline"],
        "steps": len(r["timeline"]),
        "data": data,
        "result": result,
        "result_lines": _result_lines(r["timeline"]) if result else [],
        "result_totals": [{"name": names[s], "points": p} for s, p in enumerate(result["totals"])]
        if result
        else [],
        "hint_uses": hints,  # None: not known (an imported hand)
        "commentary_url": commentary_url,
        "commentary_seat": commentary_seat,
        "analysis_url": analysis_url,
        "par_url": par_url,
        "export_url": export_url,
        "back_url": back_url,
        "nav": nav,
    }


def _commentary_response(
    request: HttpRequest, data: dict, players: list[dict], url: str
) -> HttpResponse:
    return HttpResponse(_commentary_html(data, players, url))


def _commentary_html(data: dict, players: list[dict], url: str) -> str:
    return pagecache.render(
        "review/_commentary.html",
        {
            "c": commentary.present(data),
            "name": players[data["seat"]]["name"] if data["seat"] < len(players) else "?",
            "players": players,
            "url": url,
        },
    )


def _players_key(players: list[dict]) -> tuple:
    """What a replay or a commentary shows of the players (their names can change)."""
    return tuple((p.get("seat"), p.get("name"), p.get("cpu")) for p in players)


def _cached_commentary(
    parts: tuple, players: list[dict], url: str, data: Callable[[], dict]
) -> HttpResponse:
    """The commentary fragment of a finished hand (its data never changes once stored:
    the first one kept wins), kept per hand, seat, players' names and language."""
    html = pagecache.fragment(
        "commentary",
        (parts, _players_key(players), url),
        lambda: _commentary_html(data(), players, url),
    )
    return HttpResponse(html)


def _replay_page(
    request: HttpRequest, parts: tuple, head: dict[str, Any], context: Callable[[], dict]
) -> HttpResponse:
    """The replay page: its body (``review/_replay_body.html``, everything but the site's
    header around it) rendered once per ``parts`` and language and kept
    (``games.common.pagecache``); a finished hand never changes, so ``parts`` names the hand,
    the viewer's seat and what else the body shows (players' names, the links to the
    previous and next hands). ``head``: the page title's parts."""
    body = pagecache.fragment(
        "replay", parts, lambda: pagecache.render("review/_replay_body.html", context())
    )
    return render(request, "review/replay.html", {**head, "body": body})


def _seat_param(request: HttpRequest, n: int, default: int | None) -> int | None:
    raw = request.GET.get("seat")
    if raw is not None and raw.isdigit() and int(raw) < n:
        return int(raw)
    return default


def _first_human(players: list[dict]) -> int:
    return next((p["seat"] for p in players if not p.get("cpu")), 0)


# ------------------------------------------------------------------ my games


def my_games(request: HttpRequest) -> HttpResponse:
    """Every game of the user (or guest session) with finished hands; filters; pages."""
    form = FilterForm(request.GET or None)
    qs = my_tables(request).filter(hands__result__isnull=False).distinct()
    result_filter = ""
    if form.is_valid():
        cd = form.cleaned_data
        if cd.get("variant"):
            qs = qs.filter(variant=cd["variant"])
        if cd.get("date_from"):
            qs = qs.filter(created_at__date__gte=cd["date_from"])
        if cd.get("date_to"):
            qs = qs.filter(created_at__date__lte=cd["date_to"])
        result_filter = cd.get("result") or ""
    games = []
    for table in qs.order_by("-created_at").prefetch_related("seats__user__profile"):
        seat = actions.seat_of(list(table.seats.all()), request.user, guest_key(request))
        if seat is None:
            continue
        game = actions.game_for(table)
        finished = table.status == Table.Status.FINISHED
        outcome = ""
        if finished:
            outcome = "won" if seat.position in game.winners() else "lost"
        if result_filter and outcome != result_filter:
            continue
        games.append({"table": table, "seat": seat, "outcome": outcome, "finished": finished})
    page = Paginator(games, PER_PAGE).get_page(request.GET.get("page"))
    for g in page.object_list:
        table, seat = g["table"], g["seat"]
        names = [s.display_name() for s in table.seats.all()]
        g["players"] = names
        g["totals"] = actions.game_for(table).totals()
        g["hands"] = [
            {
                "hand": h,
                "number": h.number + 1,
                "ending": (h.result or {}).get("ending", ""),
                "points": ((h.result or {}).get("totals") or [0] * len(names))[seat.position],
                "finisher": (h.result or {}).get("finisher"),
            }
            for h in table.hands.filter(result__isnull=False).order_by("number")
        ]
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "review/my_games.html",
        {"form": form, "page": page, "query": query.urlencode()},
    )


def game_detail(request: HttpRequest, code: str) -> HttpResponse:
    table = Table.objects.filter(code=code).first()
    seat = my_seat(request, table) if table is not None else None
    if table is None or seat is None:
        return not_yours(request)
    players = players_of(table)
    hands = list(table.hands.order_by("number"))
    links = [
        {
            "link": link,
            "url": request.build_absolute_uri(reverse("review:shared", args=[link.token])),
        }
        for link in table.share_links.all()
    ]
    # the accuracy of one's own analysed hands, beside each and over the game
    analysed = list(
        HandAnalysis.objects.filter(
            hand__table=table, seat=seat.position, status=HandAnalysis.Status.DONE
        )
    )
    accuracy = {row.hand_id: row.data.get("accuracy") for row in analysed}
    for h in hands:
        h.accuracy = accuracy.get(h.pk)
        h.hint_uses = hint_uses(h, players)
    return render(
        request,
        "review/game.html",
        {
            "table": table,
            "seat": seat,
            "players": players,
            "hands": hands,
            "game_accuracy": analysis.game_accuracy(analysed) if analysed else None,
            "analysed": len(analysed),
            "finished": table.status == Table.Status.FINISHED,
            "totals": actions.game_for(table).totals(),
            "links": links,
        },
    )


# ------------------------------------------------------------------ replays


def _own_finished_hand(request: HttpRequest, hand_id: int):
    hand = Hand.objects.select_related("table").filter(pk=hand_id).first()
    if hand is None:
        return None, None, not_yours(request)
    seat = my_seat(request, hand.table)
    if seat is None:
        return None, None, not_yours(request)
    if hand.result is None:
        return None, None, in_progress(request)
    if plugins.deal_embargoed(hand.table):
        return None, None, still_dealt(request)
    return hand, seat, None


def _hand_nav(hand: Hand, url_for) -> dict[str, str | None]:
    numbers = list(
        hand.table.hands.filter(result__isnull=False).order_by("number").values_list("number", "pk")
    )
    prev = next_ = None
    for i, (number, _pk) in enumerate(numbers):
        if number == hand.number:
            prev = url_for(numbers[i - 1]) if i > 0 else None
            next_ = url_for(numbers[i + 1]) if i + 1 < len(numbers) else None
    return {"prev": prev, "next": next_}


@heavy.page
def hand_replay(request: HttpRequest, hand_id: int) -> HttpResponse:
    hand, seat, refusal = _own_finished_hand(request, hand_id)
    if refusal is not None:
        return refusal
    table = hand.table
    players = players_of(table)
    nav = _hand_nav(hand, lambda x: reverse("review:hand", args=[x[1]]))
    head = {
        "variant_name": table.get_variant_display(),
        "title": _("Hand %(n)s") % {"n": hand.number + 1},
    }
    return _replay_page(
        request,
        ("hand", hand.pk, table.code, seat.position, _players_key(players), nav),
        head,
        lambda: replay_context(
            record=record_for_hand(hand),
            players=players,
            variant=table.variant,
            me=seat.position,
            commentary_url=reverse("review:hand_commentary", args=[hand.pk]),
            commentary_seat=seat.position,
            analysis_url=reverse("review:hand_analysis", args=[hand.pk]),
            par_url=reverse("review:hand_par", args=[hand.pk]),
            export_url=reverse("review:hand_export", args=[hand.pk]),
            back_url=reverse("review:game", args=[table.code]),
            nav=nav,
            hints=hint_uses(hand, players),
            **head,
        ),
    )


def _stored_commentary(hand: Hand, seat: int) -> dict:
    cached = HandCommentary.objects.filter(hand=hand, seat=seat).first()
    if cached is not None:
        return cached.data
    data = commentary.compute(record_for_hand(hand), seat)
    return review_actions.do_note_hand_commentary(hand.pk, seat, data)  # the first one kept wins


@heavy.page
def hand_commentary(request: HttpRequest, hand_id: int) -> HttpResponse:
    hand, seat, refusal = _own_finished_hand(request, hand_id)
    if refusal is not None:
        return refusal
    players = players_of(hand.table)
    which = _seat_param(request, len(players), seat.position)
    return _cached_commentary(
        ("hand", hand.pk, hand.table.code, which),
        players,
        reverse("review:hand_commentary", args=[hand.pk]),
        lambda: _stored_commentary(hand, which),
    )


def hand_export(request: HttpRequest, hand_id: int) -> HttpResponse:
    hand, _seat, refusal = _own_finished_hand(request, hand_id)
    if refusal is not None:
        return refusal
    table = hand.table
    doc = records.document(
        table.variant,
        table.options,
        players_of(table),
        [records.hand_export(record_for_hand(hand), hand.number + 1)],
    )
    return _json_download(doc, f"okey-{table.code}-hand-{hand.number + 1}.json")


def _game_document(table: Table) -> dict:
    hands = [
        records.hand_export(record_for_hand(h), h.number + 1)
        for h in table.hands.filter(result__isnull=False).order_by("number")
    ]
    return records.document(
        table.variant, table.options, players_of(table), hands, deals=table.deals
    )


def game_export(request: HttpRequest, code: str) -> HttpResponse:
    table = Table.objects.filter(code=code).first()
    if table is None or my_seat(request, table) is None:
        return not_yours(request)
    if not table.hands.filter(result__isnull=False).exists():
        return in_progress(request)
    if plugins.deal_embargoed(table):
        return still_dealt(request)
    return _json_download(_game_document(table), f"okey-{table.code}.json")


# ------------------------------------------------------------------ sharing


@require_POST
def share_create(request: HttpRequest, code: str) -> HttpResponse:
    table = Table.objects.filter(code=code).first()
    if table is None:
        return not_yours(request)
    try:
        review_actions.do_share_table(table.pk, user=request.user, guest_key=guest_key(request))
    except actions.ActionRefused as e:
        if e.code != "game_not_over":
            return not_yours(request)
        return denied(request, 403, _("Only a finished game can be shared: finish the game first."))
    flash.success(request, _("Share link created: anyone with it can watch the replays."))
    return redirect("review:game", code=table.code)


@require_POST
def share_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    if not ShareLink.objects.filter(pk=pk).exists():
        return not_yours(request)
    try:
        link = review_actions.do_revoke_share(pk, user=request.user, guest_key=guest_key(request))
    except actions.ActionRefused:
        return not_yours(request)
    flash.success(request, _("The share link was revoked: it shows nothing any more."))
    return redirect("review:game", code=link.table.code)


def _live_link(request: HttpRequest, token: str):
    link = ShareLink.objects.select_related("table").filter(token=token).first()
    if link is None:
        return None, denied(request, 404, _("This share link does not exist."))
    if link.revoked_at is not None:
        return None, denied(request, 404, _("This share link was revoked by a player."))
    if link.table.status != Table.Status.FINISHED:
        return None, in_progress(request)
    if plugins.deal_embargoed(link.table):
        return None, still_dealt(request)
    return link, None


def shared_game(request: HttpRequest, token: str) -> HttpResponse:
    link, refusal = _live_link(request, token)
    if refusal is not None:
        return refusal
    table = link.table
    players = players_of(table)
    hands = list(table.hands.filter(result__isnull=False).order_by("number"))
    for h in hands:
        h.hint_uses = hint_uses(h, players)
    return render(
        request,
        "review/shared.html",
        {
            "link": link,
            "table": table,
            "players": players,
            "hands": hands,
            "totals": actions.game_for(table).totals(),
        },
    )


def _shared_hand(link: ShareLink, number: int) -> Hand | None:
    return link.table.hands.filter(number=number - 1, result__isnull=False).first()


@heavy.page
def shared_hand(request: HttpRequest, token: str, number: int) -> HttpResponse:
    link, refusal = _live_link(request, token)
    if refusal is not None:
        return refusal
    hand = _shared_hand(link, number)
    if hand is None:
        return denied(request, 404, _("This game has no such finished hand."))
    table = link.table
    players = players_of(table)
    nav = _hand_nav(hand, lambda x: reverse("review:shared_hand", args=[token, x[0] + 1]))
    head = {"variant_name": table.get_variant_display(), "title": _("Hand %(n)s") % {"n": number}}
    return _replay_page(
        request,
        ("shared", token, hand.pk, table.code, _players_key(players), nav),
        head,
        lambda: replay_context(
            record=record_for_hand(hand),
            players=players,
            variant=table.variant,
            me=None,
            commentary_url=reverse("review:shared_commentary", args=[token, number]),
            commentary_seat=_first_human(players),
            analysis_url=reverse("review:shared_analysis", args=[token, number]),
            par_url=reverse("review:shared_par", args=[token, number]),
            export_url=reverse("review:shared_export", args=[token]),
            back_url=reverse("review:shared", args=[token]),
            nav=nav,
            hints=hint_uses(hand, players),
            **head,
        ),
    )


@heavy.page
def shared_commentary(request: HttpRequest, token: str, number: int) -> HttpResponse:
    link, refusal = _live_link(request, token)
    if refusal is not None:
        return refusal
    hand = _shared_hand(link, number)
    if hand is None:
        return denied(request, 404, _("This game has no such finished hand."))
    players = players_of(link.table)
    which = _seat_param(request, len(players), _first_human(players))
    return _cached_commentary(
        ("hand", hand.pk, link.table.code, which),
        players,
        reverse("review:shared_commentary", args=[token, number]),
        lambda: _stored_commentary(hand, which),
    )


def shared_export(request: HttpRequest, token: str) -> HttpResponse:
    link, refusal = _live_link(request, token)
    if refusal is not None:
        return refusal
    return _json_download(_game_document(link.table), f"okey-{link.table.code}.json")


# ------------------------------------------------------------------ import


def _busy(request: HttpRequest) -> HttpResponse:
    return denied(
        request,
        503,
        _("The server is busy with another import. Nothing was changed: try again in a moment."),
    )


def _replayed_hands(loaded: dict) -> list[ImportedHand]:
    """Each verified hand with its replay (``compute_replay``), not saved yet."""
    hands = []
    for i, hd in enumerate(loaded["hands"], start=1):
        engine_record = hd.record(loaded["variant"], loaded["options"])
        hands.append(
            ImportedHand(
                number=i,
                engine_record=engine_record,
                replay=ImportedHand.pack(compute_replay(engine_record)),
            )
        )
    return hands


def _store_import(request: HttpRequest, loaded: dict, title: str) -> ImportedRecord:
    """The verified file and, per hand, its replay: computed before the write transaction,
    so the database is locked only for the inserts."""
    return review_actions.do_import_record(
        variant=loaded["variant"],
        title=title,
        document=loaded["document"],
        hands=_replayed_hands(loaded),
        user=request.user,
        guest_key=guest_key(request),
    )


def import_page(request: HttpRequest) -> HttpResponse:
    error = None
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST":
        if not form.is_valid():
            error = {"code": "no_file", "message": _("Choose a file to import.")}
        else:
            upload = form.cleaned_data["file"]
            try:
                if upload.size > records.MAX_BYTES:
                    raise records.ImportRefused(
                        "too_large",
                        _("The file is too large (%(size)s bytes; at most %(max)s).")
                        % {"size": upload.size, "max": records.MAX_BYTES},
                    )
                with heavy.one_at_a_time(client=heavy.client_of(request)):
                    loaded = records.load_document(upload.read(records.MAX_BYTES + 1))
                    rec = _store_import(request, loaded, str(upload.name))
            except records.ImportRefused as exc:
                error = {"code": exc.code, "message": exc.message}
            except heavy.Busy:
                return _busy(request)
            else:
                return redirect("review:imported_hand", pk=rec.pk, number=1)
    mine = ImportedRecord.objects.filter(**_owner_filter(request))[:20]
    return render(
        request,
        "review/import.html",
        {"form": form, "error": error, "imports": mine, "max_bytes": records.MAX_BYTES},
        status=400 if error else 200,
    )


def _own_import(request: HttpRequest, pk: int, number: int):
    """The import, its players, its options and hand ``number`` (stored at import)."""
    rec = ImportedRecord.objects.filter(pk=pk, **_owner_filter(request)).first()
    if rec is None:
        return None, None, denied(request, 404, _("There is no such import among yours."))
    if not rec.hands.exists():
        # imported before replays were stored: replay the file once, store it, never again
        try:
            _store_old_import(rec)
        except heavy.Busy:
            return None, None, _busy(request)
        except records.ImportRefused as exc:
            return None, None, denied(request, 400, exc.message)
    hand = rec.hands.filter(number=number).first()
    if hand is None:
        return None, None, denied(request, 404, _("This file has no such hand."))
    return rec, hand, None


def _store_old_import(rec: ImportedRecord) -> None:
    """A file imported before replays were stored: replayed once here, then read."""
    with heavy.one_at_a_time():
        hands = _replayed_hands(records.load_document(json.dumps(rec.data)))
        review_actions.do_store_imported_hands(rec, hands)  # unless a parallel view stored them


@heavy.page
def imported_hand(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    rec, hand, refusal = _own_import(request, pk, number)
    if refusal is not None:
        return refusal
    count = rec.hands.count()
    players = rec.data["players"]
    variant = rec.variant
    head = {
        "variant_name": dict(records_variant_names()).get(variant, variant),
        "title": _("Imported: %(title)s · hand %(n)s") % {"title": rec, "n": number},
    }

    def context() -> dict[str, Any]:
        ctx = replay_context(
            stored=hand.replay_data,
            players=players,
            variant=variant,
            me=None,
            commentary_url=reverse("review:imported_commentary", args=[pk, number]),
            commentary_seat=_first_human(players),
            analysis_url=reverse("review:imported_analysis", args=[pk, number]),
            export_url=reverse("review:imported_export", args=[pk]),
            back_url=reverse("review:import"),
            nav={
                "prev": reverse("review:imported_hand", args=[pk, number - 1])
                if number > 1
                else None,
                "next": reverse("review:imported_hand", args=[pk, number + 1])
                if number < count
                else None,
            },
            **head,
        )
        ctx["provenance"] = "signed" if "signature" in rec.data else "unsigned"
        return ctx

    # an import never changes: its hand, its count and its title name the body
    return _replay_page(request, ("import", pk, hand.pk, number, count, str(rec)), head, context)


def records_variant_names():
    from games.models import variant_choices

    return [(k, str(v)) for k, v in variant_choices()]


def imported_commentary(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    rec, hand, refusal = _own_import(request, pk, number)
    if refusal is not None:
        return refusal
    players = rec.data["players"]
    which = _seat_param(request, len(players), _first_human(players))
    key = f"{number}:{which}"
    data = rec.commentary.get(key)
    if data is None:
        data = review_actions.do_note_import_commentary(
            rec.pk, key, commentary.compute(hand.engine_record, which)
        )
    return _commentary_response(
        request, data, players, reverse("review:imported_commentary", args=[pk, number])
    )


def imported_export(request: HttpRequest, pk: int) -> HttpResponse:
    rec = ImportedRecord.objects.filter(pk=pk, **_owner_filter(request)).first()
    if rec is None:
        return denied(request, 404, _("There is no such import among yours."))
    return _json_download(rec.data, f"okey-import-{rec.pk}.json", sign=False)


# ------------------------------------------------------------------ the expert's analysis


def _analysis_response(
    request: HttpRequest,
    *,
    players: list[dict],
    seat: int,
    me: int | None,
    url: str,
    variant: str,
    hand: Hand | None = None,
    imported: ImportedHand | None = None,
    game_rows=None,
) -> HttpResponse:
    """The analysis fragment: its progress while it runs (the fragment polls itself every
    second), then the classes, the accuracy, the graph and retry mode's data. A new
    analysis beyond the requester's quota or a full queue (``analysis.Quota``) is not
    started: the fragment says why and offers to try again (200: htmx swaps it in)."""
    ctx: dict[str, Any] = {
        "url": url,
        "players": players,
        "seat": seat,
        "name": players[seat]["name"] if seat < len(players) else "?",
        "is_me": seat == me,
    }
    try:
        row = analysis.do_ensure(
            seat=seat, hand=hand, imported=imported, quota=analysis.Quota.of(request)
        )
    except analysis.AnalysisRefused as e:
        ctx["refused"] = {"code": e.code, "message": e.message}
        return render(request, "review/_analysis.html", ctx)
    ctx["row"] = row
    ctx["running"] = row.status in (HandAnalysis.Status.PENDING, HandAnalysis.Status.RUNNING)
    if row.status == HandAnalysis.Status.DONE:
        ctx["a"] = analysis.present(row, variant)
        rows = list(game_rows.filter(seat=seat, status=HandAnalysis.Status.DONE))
        ctx["game_accuracy"] = analysis.game_accuracy(rows) if len(rows) > 1 else None
        ctx["game_hands"] = len(rows)
    return render(request, "review/_analysis.html", ctx)


def hand_analysis(request: HttpRequest, hand_id: int) -> HttpResponse:
    hand, seat, refusal = _own_finished_hand(request, hand_id)
    if refusal is not None:
        return refusal
    players = players_of(hand.table)
    return _analysis_response(
        request,
        players=players,
        seat=_seat_param(request, len(players), seat.position),
        me=seat.position,
        url=reverse("review:hand_analysis", args=[hand.pk]),
        variant=hand.table.variant,
        hand=hand,
        game_rows=HandAnalysis.objects.filter(hand__table=hand.table),
    )


def shared_analysis(request: HttpRequest, token: str, number: int) -> HttpResponse:
    link, refusal = _live_link(request, token)
    if refusal is not None:
        return refusal
    hand = _shared_hand(link, number)
    if hand is None:
        return denied(request, 404, _("This game has no such finished hand."))
    players = players_of(link.table)
    return _analysis_response(
        request,
        players=players,
        seat=_seat_param(request, len(players), _first_human(players)),
        me=None,
        url=reverse("review:shared_analysis", args=[token, number]),
        variant=link.table.variant,
        hand=hand,
        game_rows=HandAnalysis.objects.filter(hand__table=link.table),
    )


def imported_analysis(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    rec, hand, refusal = _own_import(request, pk, number)
    if refusal is not None:
        return refusal
    players = rec.data["players"]
    return _analysis_response(
        request,
        players=players,
        seat=_seat_param(request, len(players), _first_human(players)),
        me=None,
        url=reverse("review:imported_analysis", args=[pk, number]),
        variant=rec.variant,
        imported=hand,
        game_rows=HandAnalysis.objects.filter(imported__record=rec),
    )


# ------------------------------------------------------------------ par


def _par_response(
    request: HttpRequest, *, hand: Hand, players: list[dict], me: int | None, url: str
) -> HttpResponse:
    """The par card of a finished hand (games/review/par.py): each person's result, par,
    result against par and the luck of their deal. A missing par is started here, within
    the visitor's quota (``analysis.Quota``: the pool and its queue are the analyses');
    while one is computed the card asks for itself every two seconds. Nothing is shown
    while the hand's deal is embargoed (a duplicate round still plays it)."""
    ctx: dict[str, Any] = {"url": url}
    if not review_par.visible(hand):
        ctx["hidden"] = True
        return render(request, "review/_par.html", ctx)
    try:
        review_par.do_ensure(hand, quota=analysis.Quota.of(request))
    except analysis.AnalysisRefused as e:
        messages = {
            "analysis_queue_full": _(
                "The expert is busy with other hands; try again in a few minutes."
            ),
            "analysis_quota": _("Too many pars and analyses requested; try again later."),
        }
        ctx["refused"] = {"code": e.code, "message": messages.get(e.code, e.message)}
    ctx.update(review_par.present(hand, players, me))
    return render(request, "review/_par.html", ctx)


def hand_par(request: HttpRequest, hand_id: int) -> HttpResponse:
    hand, seat, refusal = _own_finished_hand(request, hand_id)
    if refusal is not None:
        return refusal
    return _par_response(
        request,
        hand=hand,
        players=players_of(hand.table),
        me=seat.position,
        url=reverse("review:hand_par", args=[hand.pk]),
    )


def shared_par(request: HttpRequest, token: str, number: int) -> HttpResponse:
    link, refusal = _live_link(request, token)
    if refusal is not None:
        return refusal
    hand = _shared_hand(link, number)
    if hand is None:
        return denied(request, 404, _("This game has no such finished hand."))
    return _par_response(
        request,
        hand=hand,
        players=players_of(link.table),
        me=None,
        url=reverse("review:shared_par", args=[token, number]),
    )
