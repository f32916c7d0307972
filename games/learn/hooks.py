"""The learn app's side of ``games/plugins.py``: the lesson's deal, its CPUs' moves, the
checks of the learner's moves and the lesson panel. Every hook answers None at any table
that is not a lesson's, known by its hand's seed (``script.PREFIX``) at no extra query."""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _

from games.engine.rules import rules_for
from games.engine.tiles import notation, parse_kind
from games.learn import script as lesson
from games.live.presenter import tile_ctx
from games.models import Seat

# The lesson being opened in this call stack (``actions.do_start_lesson``): the table's
# first deal asks ``seed_for`` inside ``do_create_table``, before anything is stored.
opening: ContextVar[lesson.Script | None] = ContextVar("learn_opening", default=None)


def seed_for(table: Any, number: int) -> str | None:
    script = opening.get()
    return script.seed if script is not None and number == 0 else None


def scripted_move(hand: Any, state: Any, seat: int) -> dict[str, Any] | None:
    script = lesson.script_for_seed(getattr(hand, "seed", None))
    return lesson.cpu_move(script, state, seat) if script is not None else None


# what each lesson check says to the learner (its code is the refusal's)
SAYS = {
    "lesson_draw": _("That discard fits none of your runs or groups: draw from the pile."),
    "lesson_take": _("The discard completes a run of yours: take it instead of drawing."),
    "lesson_arrange": _(
        "Arrange your rack first: press “Sort: runs”, or drag tiles so that each run and "
        "group sits together."
    ),
    "lesson_keep_okey": _("Never throw the okey away: it stands in for any tile."),
    "lesson_keep_false": _("Keep the false joker: it plays as the okey's own tile."),
    "lesson_keep_taken": _("You took that tile for a run: keep it."),
    "lesson_discard": _("That tile belongs to a run or group of yours: keep it."),
    "lesson_not_yet": _("Your rack does not win yet: discard a tile and wait for your turn."),
    "lesson_close": _("Your rack wins now: finish with the lone tile instead of discarding it."),
    "lesson_open_first": _(
        "Your runs and groups reach the opening minimum: open with them before you discard."
    ),
    "lesson_add_first": _("The tile you drew fits a meld on the table: add it there first."),
    "lesson_discard_this": _("For this lesson, discard the tile the panel names."),
}


def _arranged(hand: Any, state: Any, seat: int) -> bool:
    """Whether the learner's own rack order shows two runs or groups (one query, asked
    only on the turn of the arrange step)."""
    from games.live.actions import arrange_slots

    order = (
        Seat.objects.filter(table_id=hand.table_id, position=seat)
        .values_list("rack_order", flat=True)
        .first()
    )
    slots = arrange_slots(list(state.racks[seat]), order or [])
    return lesson.is_arranged(slots, state.okey_kind)


def lesson_refusal(
    hand: Any, state: Any, seat: int, action: dict[str, Any]
) -> tuple[str, Any] | None:
    script = lesson.script_for_seed(getattr(hand, "seed", None))
    if script is None or seat != script.seat:
        return None
    needs_order = len(state.discards[seat]) == 1 and state.phase == "play"
    arranged = _arranged(hand, state, seat) if needs_order else False
    found = lesson.refusal(script, state, seat, action, arranged)
    if found is None:
        return None
    code, _message, _detail = found
    return code, SAYS[code]


def _tile(text: str, variant: str) -> Any:
    return tile_ctx({"t": text}, variant)


def panel_context(script: lesson.Script, ctx: dict[str, Any]) -> dict[str, Any] | None:
    """What the panel shows the learner, from their own view (``ctx["view"]``) and rack."""
    view = ctx.get("view")
    me = ctx.get("me")
    if view is None or me != script.seat:
        return None
    okey_text = view["okey"]
    slots = [t["id"] if t else None for t in ctx.get("slots") or ()]
    arranged = lesson.is_arranged(slots, parse_kind(okey_text))
    step = lesson.step_of(
        script,
        discarded=len(view["discards"][me]),
        turn=view["turn"],
        phase=view["phase"],
        over=view["over"],
        arranged=arranged,
        opened=view["opened"][me] is not None,
        added=any(
            m["owner"] == me and any(t["t"] == script.add for t in m["tiles"])
            for m in view["melds"]
        ),
    )
    won = bool(view["over"] and (view.get("result") or {}).get("finisher") == me)
    error = ctx.get("error") or None
    variant = script.variant
    steps = script.steps
    done = steps.index(step) if step in steps else None
    return {
        "script": script,
        "rules_page": rules_for(script.variant).rules_page,
        "step": step,
        "won": won,
        "number": (done or 0) + 1,
        "count": len(steps),
        "opening": [[_tile(t, variant) for t in meld.split()] for meld in script.opening],
        "add": _tile(script.add, variant) if script.add else None,
        "opening_min": (view.get("opening_min") or {}).get("melds"),
        "progress": done,
        "error": error,
        "okey": _tile(okey_text, variant),
        "false_joker": _tile("F", variant),
        "first": _tile(script.discards[0], variant),
        "second": _tile(script.discards[1], variant),
        "take": _tile(script.take, variant) if script.take else None,
        "close": _tile(script.close, variant) if script.close else None,
        "indicator": _tile(view["indicator"]["t"], variant),
        "takeable": _tile(view["takeable"]["t"], variant) if view.get("takeable") else None,
        "takeable_name": notation(view["takeable"]["id"]) if view.get("takeable") else "",
    }


def lesson_panel(ctx: dict[str, Any]) -> dict[str, Any] | None:
    hand = ctx.get("hand")
    script = lesson.script_for_seed(getattr(hand, "seed", None))
    if script is None:
        return None
    panel = panel_context(script, ctx)
    if panel is None:
        return None
    error = panel["error"]
    key = (
        script.slug,
        panel["step"],
        panel["won"],
        error["code"] if error else None,
        str(error["message"]) if error else None,
        panel["takeable_name"],
    )
    return {"key": key, "html": render_to_string("learn/_panel.html", panel)}
