"""The running total of the melds a player is staging for an opening: "43 of 51".

Fifty-one and seventeen open with melds whose values reach a minimum
(games/engine/RULES.md §4-§5: fifty-one 51, or one more than the highest opening so
far with doubling [D10]; seventeen 17, then one more than the last opening [D17], and
pairs their own minimum). While a player groups tiles into melds on the page, the page
asks this view what they are worth: each meld is classified and valued by the engine
(``melds.classify``, ``Rules.meld_value``) and the minimum is ``Rules.opening_min`` of
the hand as it stands, so the page decides no rule. Only the asking seat's own rack
tiles are valued; nothing of another seat is read or told.
"""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.engine.melds import GROUP, PAIR, RUN, classify
from games.engine.rules import MELDS_OPENING, PAIRS_OPENING
from games.engine.state import HandState
from games.models import Table
from games.services import snapshot

MAX_MELDS = 16


def staged_total(state: HandState, seat: int, melds: list[list[int]]) -> dict[str, Any]:
    """What ``melds`` (tile ids of ``seat``'s rack) are worth towards an opening.

    ``need`` is None when the seat has opened already (then melds count no minimum)."""
    r = state.rules
    if r.whole_rack:
        return {"total": 0, "need": None, "kind": None, "melds": []}
    rack = set(state.racks[seat])
    out = []
    for m in melds:
        ok_tiles = len(set(m)) == len(m) and all(t in rack for t in m)
        allow = (PAIR,) if len(m) == 2 else (RUN, GROUP)
        shape = classify(m, state.okey_kind, ace_high=r.ace_high, allow=allow) if ok_tiles else None
        out.append(
            {
                "kind": shape.kind if shape else None,
                "points": r.meld_value(shape.kind, shape.plays) if shape else 0,
            }
        )
    # seventeen: provisional melds already placed this turn count towards the opening
    provisional = [m for m in state.melds if m.id in state.provisional and m.owner == seat]
    total = sum(x["points"] for x in out) + sum(r.meld_value(m.kind, m.plays) for m in provisional)
    kinds = {x["kind"] for x in out if x["kind"]} | {m.kind for m in provisional}
    kind = PAIRS_OPENING if kinds == {PAIR} else MELDS_OPENING
    need = r.opening_min(state, kind) if state.opened[seat] is None else None
    if kind == PAIRS_OPENING and not need:
        need = None  # fifty-one pairs openings have no barrier; the count of pairs matters
    return {"total": total, "need": need, "kind": kind, "melds": out}


def staged_text(data: dict[str, Any]) -> str:
    """The line the page shows under the staged melds."""
    bad = sum(1 for m in data["melds"] if m["kind"] is None)
    parts = []
    if data["need"] is not None:
        if data["kind"] == PAIRS_OPENING:
            parts.append(
                _("%(total)s of %(need)s needed to open with pairs")
                % {"total": data["total"], "need": data["need"]}
            )
        else:
            parts.append(
                _("%(total)s of %(need)s needed to open")
                % {"total": data["total"], "need": data["need"]}
            )
        if data["total"] < data["need"]:
            parts.append(_("%(n)s more") % {"n": data["need"] - data["total"]})
    else:
        parts.append(_("%(total)s points") % {"total": data["total"]})
    if bad:
        parts.append(_("a group is not a run, group or pair"))
    return " · ".join(parts)


def _melds(raw: str) -> list[list[int]] | None:
    try:
        value = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(value, list) or len(value) > MAX_MELDS:
        return None
    out = []
    for m in value:
        if not isinstance(m, list) or not 1 <= len(m) <= 14:
            return None
        if not all(type(t) is int for t in m):
            return None
        out.append(m)
    return out


@require_GET
def staging_total(request: HttpRequest, code: str) -> HttpResponse:
    """GET /t/<code>/staging/?melds=[[ids…]…] → the staged melds' total and the minimum."""
    from games.views import my_seat  # the views' own way of finding the asking seat

    table = get_object_or_404(Table, code=code)
    seat = my_seat(request, table)
    melds = _melds(request.GET.get("melds", ""))
    if seat is None or melds is None:
        return JsonResponse({"error": "bad_action"}, status=400)
    _hand, state, _game = snapshot(table)
    if state is None or state.over:
        return JsonResponse({"error": "hand_over"}, status=409)
    data = staged_total(state, seat.position, melds)
    return JsonResponse({**data, "text": staged_text(data)})
