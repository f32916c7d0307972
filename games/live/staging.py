"""The running total of the melds a player is staging for an opening: "43 of 51".

Lay-down rule sets open with melds whose values reach a minimum (games/engine/RULES.md
§4-§6). While a player groups tiles into melds on the page, the page asks this view what
they are worth; the rules object answers (``Rules.opening_progress``: each meld classified
and valued, the minimum of the hand as it stands), so this view decides no rule and
knows no rule set. Only the asking seat's own rack tiles are valued; nothing of another
seat is read or told.
"""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.engine.rules import PAIRS_OPENING
from games.engine.state import HandState
from games.live.actions import snapshot
from games.models import Table

MAX_MELDS = 16


def staged_total(state: HandState, seat: int, melds: list[list[int]]) -> dict[str, Any]:
    """What ``melds`` (tile ids of ``seat``'s rack) are worth towards an opening
    (``Rules.opening_progress``); ``need`` is None when no minimum applies."""
    return state.rules.opening_progress(state, seat, melds)


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
