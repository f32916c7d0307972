"""Builds template contexts for a table, for one seat, from the engine's view only.

Nothing here reads another seat's rack, the pile or the seed while a hand is
in play: the only source is ``engine.view_for(state, seat)``.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from django.utils.translation import gettext as _

from games import messages
from games.engine import view_for
from games.models import Seat, Table
from games.services import game_for, load_state

RACK_SLOTS = 32  # two rows of 16, like a real istaka
_SNAPSHOTS: OrderedDict[tuple[Any, ...], tuple[Any, Any, Any]] = OrderedDict()
_SNAPSHOT_LIMIT = 512


def snapshot(table: Table) -> tuple[Any, Any, Any]:
    """(current hand, its engine state, the game) for this table version.

    Every accepted change bumps the version, and engine states are immutable,
    so the four seats' renders of one version share one snapshot (per process).
    """
    key = (table.pk, table.version, table.updated_at)
    hit = _SNAPSHOTS.get(key)
    if hit is not None:
        _SNAPSHOTS.move_to_end(key)
        return hit
    hand = table.current_hand
    state = load_state(hand) if hand is not None else None
    value = (hand, state, game_for(table))
    _SNAPSHOTS[key] = value
    if len(_SNAPSHOTS) > _SNAPSHOT_LIMIT:
        _SNAPSHOTS.popitem(last=False)
    return value


SYMBOLS = {"R": "♥", "Y": "★", "B": "◆", "K": "♠", "F": "✿"}


def tile_ctx(tile: dict[str, Any], variant: str) -> dict[str, Any]:
    t = tile["t"]
    colour = t[0]
    return {
        **tile,
        "colour": colour,
        "number": "" if colour == "F" else t[1:],
        "symbol": "♣" if (colour == "Y" and variant == "rummy") else SYMBOLS[colour],
        "css": f"c-{colour.lower()}" + (" rummy" if variant == "rummy" else ""),
    }


def arrange_slots(rack_ids: list[int], saved: list[int | None]) -> list[int | None]:
    """The seat's own order of its rack: keep saved slots of tiles still held,
    put new tiles in the first free slots after the last placed tile."""
    held = set(rack_ids)
    slots: list[int | None] = [None] * RACK_SLOTS
    placed: set[int] = set()
    for i, tid in enumerate(saved[:RACK_SLOTS]):
        if isinstance(tid, int) and tid in held and tid not in placed:
            slots[i] = tid
            placed.add(tid)
    missing = [t for t in rack_ids if t not in placed]
    if missing:
        last = max((i for i, t in enumerate(slots) if t is not None), default=-1)
        free = [i for i in range(last + 1, RACK_SLOTS) if slots[i] is None]
        free += [i for i in range(0, last + 1) if slots[i] is None]
        for tid, i in zip(missing, free, strict=False):
            slots[i] = tid
    return slots


def relative_positions(n: int, me: int, variant: str) -> dict[int, str]:
    """Where each seat sits on screen. Play passes s → s+1; the previous
    player sits on your left (counter-clockwise), except rummy (clockwise)."""
    if n == 2:
        return {me: "bottom", (me + 1) % 2: "top"}
    left, right = ("right", "left") if variant == "rummy" else ("left", "right")
    places = {me: "bottom", (me - 1) % n: left, (me + 1) % n: right}
    if n == 4:
        places[(me + 2) % 4] = "top"
    return places


def table_context(
    table: Table,
    seat: Seat | None,
    *,
    error: dict | None = None,
    hint: dict | None = None,
    seats: list[Seat] | None = None,
) -> dict[str, Any]:
    if seats is None:
        seats = list(table.seats.select_related("user__profile").all())
    hand, state, game = snapshot(table)
    me = seat.position if seat is not None else None
    ctx: dict[str, Any] = {
        "table": table,
        "seat": seat,
        "me": me,
        "version": table.version,
        "error": error,
        "variant_name": table.get_variant_display(),
        "assisted": bool(table.options.get("assisted")),
        "hand": hand,
        "view": None,
    }
    view = None
    if hand is not None:
        view = view_for(state, me)
        ctx["view"] = view
        ctx["hand_number"] = hand.number + 1
    n = len(seats)
    places = relative_positions(n, me if me is not None else 0, table.variant)
    players = []
    for s in seats:
        p: dict[str, Any] = {
            "position": s.position,
            "name": s.display_name(),
            "is_cpu": s.is_cpu,
            "is_open": s.is_open,
            "away": s.away_since is not None,
            "place": places.get(s.position, "top"),
            "is_me": s.position == me,
        }
        if view is not None:
            p["count"] = view["rack_counts"][s.position]
            p["turn"] = view["turn"] == s.position and not view["over"]
            p["discards"] = [tile_ctx(t, table.variant) for t in view["discards"][s.position]]
            p["opened"] = view.get("opened", [None] * n)[s.position]
        players.append(p)
    totals = game.totals()
    for p in players:
        p["total"] = totals[p["position"]] if p["position"] < len(totals) else 0
    ctx["players"] = players
    ctx["opponents"] = [p for p in players if not p["is_me"]]
    ctx["my_player"] = next((p for p in players if p["is_me"]), None)
    if view is not None:
        ctx["indicator"] = tile_ctx(view["indicator"], table.variant)
        ctx["melds"] = [
            {**m, "tiles": [tile_ctx(t, table.variant) for t in m["tiles"]]}
            for m in view.get("melds", [])
        ]
        ctx["takeable"] = (
            tile_ctx(view["takeable"], table.variant) if view.get("takeable") else None
        )
        ctx["legal"] = set(view.get("legal", []))
        ctx["my_turn"] = me is not None and view["turn"] == me and not view["over"]
        if view.get("rack") is not None and seat is not None:
            penalty = set(view.get("penalty_tiles") or [])  # assisted tables only
            hinted = set(hint["tiles"]) if hint else set()
            by_id = {
                t["id"]: {
                    **tile_ctx(t, table.variant),
                    "penalty": t["id"] in penalty,
                    "hinted": t["id"] in hinted,
                }
                for t in view["rack"]
            }
            slots = arrange_slots(list(by_id), seat.rack_order or [])
            ctx["slots"] = [by_id.get(t) if t is not None else None for t in slots]
        ctx["result"] = view.get("result") if view["over"] else None
        if ctx["result"]:
            finisher = ctx["result"].get("finisher")
            name = next((p["name"] for p in players if p["position"] == finisher), "")
            ctx["result_text"] = messages.ending_text(ctx["result"]["ending"], name)
        ctx["revealed"] = view.get("revealed") if view["over"] else None
        ctx["hand_lines"] = [
            {**line, "label": messages.reason_label(line["reason"])}
            for line in view.get("scores", [])
        ]
    ctx["totals"] = totals
    ctx["game_over"] = table.status == Table.Status.FINISHED
    ctx["winners"] = game.winners() if ctx["game_over"] else []
    ctx["status_text"] = status_text(table, view, me)
    ctx["hint_text"] = messages.hint_text(hint["reason"], hint["detail"]) if hint else ""
    return ctx


def status_text(table: Table, view: dict | None, me: int | None) -> str:
    if table.status == Table.Status.WAITING:
        return _("Waiting for players to join.")
    if table.status == Table.Status.FINISHED:
        return _("The game is over.")
    if view is None:
        return ""
    if view["over"]:
        return _("The hand is over.")
    if me is not None and view["turn"] == me:
        if view["phase"] == "draw":
            return _("Your turn: draw from the pile or take the discard.")
        return _("Your turn: discard a tile to end it.")
    return _("Waiting for the other players.")
