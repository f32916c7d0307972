"""The rule sets and their table options, read from the engine's registry
(``games.engine.options.VARIANTS``: a rule set registered later is listed too)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Router

from games.api.auth import PUBLIC, Anyone
from games.api.errors import ErrorOut, not_found
from games.api.schemas import RuleSetOut
from games.engine.options import VARIANTS
from games.engine.rules import rules_for

router = Router(tags=["rule sets"], auth=Anyone())


def ruleset(name: str) -> dict[str, Any]:
    meta = VARIANTS[name]
    return {
        "name": name,
        "label": _(rules_for(name).label),
        "title": meta["name"],
        "players": list(meta["players"]),
        "direction": meta["direction"],
        "whole_rack": meta["whole_rack"],
        "options": [
            {"name": key, "allowed": list(allowed), "default": default}
            for key, (allowed, default) in meta["options"].items()
        ],
    }


@router.get(
    "/rulesets",
    response={200: list[RuleSetOut], 401: ErrorOut, 429: ErrorOut},
    openapi_extra=PUBLIC,
    summary="Every rule set and its table options",
)
def list_rulesets(request: HttpRequest) -> list[dict[str, Any]]:
    return [ruleset(name) for name in VARIANTS]


@router.get(
    "/rulesets/{name}",
    response={200: RuleSetOut, 401: ErrorOut, 404: ErrorOut, 429: ErrorOut},
    openapi_extra=PUBLIC,
    summary="One rule set",
)
def get_ruleset(request: HttpRequest, name: str) -> dict[str, Any]:
    if name not in VARIANTS:
        raise not_found(_("There is no such rule set."))
    return ruleset(name)
