"""Builds template contexts for a table, for one seat, from the engine's view only.

Nothing here reads another seat's rack, the pile or the seed while a hand is
in play: the only source is ``engine.view_for(state, seat)``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from games import messages, outcome
from games.engine import view_for
from games.engine.rules import rules_for
from games.matchmaking.waiting import waiting_context
from games.models import Seat, Table
from games.realtime import snapshot
from games.services import arrange_slots
from games.tilewords import tile_label, yellow_is_green

TOOK_SHOWN = 4  # the last tiles each opponent took from the discards


MELD_KINDS = {
    "run": pgettext_lazy("meld", "Run"),
    "group": pgettext_lazy("meld", "Group"),
    "pair": pgettext_lazy("meld", "Pair"),
}

SYMBOLS = {"R": "♥", "Y": "★", "B": "◆", "K": "♠", "F": "✿"}


def tile_ctx(tile: dict[str, Any], variant: str) -> dict[str, Any]:
    """A tile as the templates draw it. Where the rule set shows its yellow tiles green
    (``Rules.yellow_shown_green``: Okey Rummy) they get the green face (css ``rummy``)
    and the clover; ``variant`` rides along so the tile's words say the same."""
    t = tile["t"]
    colour = t[0]
    green = yellow_is_green(variant)
    return {
        **tile,
        "colour": colour,
        "number": "" if colour == "F" else t[1:],
        "symbol": "♣" if (colour == "Y" and green) else SYMBOLS[colour],
        "css": f"c-{colour.lower()}" + (" rummy" if green else ""),
        "variant": variant,
    }


def relative_positions(n: int, me: int, variant: str) -> dict[int, str]:
    """Where each seat sits on screen. Play passes s → s+1; the previous player sits on
    your left when the rule set draws play counter-clockwise, on your right when it draws
    it clockwise (``Rules.direction``: RULES.md §1, [D2])."""
    if n == 2:
        return {me: "bottom", (me + 1) % 2: "top"}
    clockwise = rules_for(variant).direction == "clockwise"
    left, right = ("right", "left") if clockwise else ("left", "right")
    places = {me: "bottom", (me - 1) % n: left, (me + 1) % n: right}
    if n == 4:
        places[(me + 2) % 4] = "top"
    return places


@lru_cache(maxsize=4096)
def table_urls(code: str) -> dict[str, str]:
    """Links on the live fragments, reversed once per table (not on every render)."""
    return {"sheet": reverse("games:sheet", args=[code]), "verify": reverse("solo:verify")}


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
        # a double tap on an okey turns it face down where the rules allow it (seventeen)
        "okeys_flip": rules_for(table.variant).okeys_flip,
        # melds lie on the table in the lay-down rule sets (fifty-one, seventeen)
        "lays_down": not rules_for(table.variant).whole_rack,
        # a game of a fixed number of hands says "Hand 2 of 7" (Rules.hands_shown)
        "hands_shown": rules_for(table.variant).hands_shown(table.options),
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
            # the felt shows the last three discards of each seat
            p["discards"] = [tile_ctx(t, table.variant) for t in view["discards"][s.position][-3:]]
            if p["discards"]:  # each seat's latest discard is marked as such
                p["discards"][-1]["last"] = True
            p["opened"] = view.get("opened", [None] * n)[s.position]
            # what this seat took from the discards (public at a real table)
            took = (view.get("took") or [[]] * n)[s.position]
            p["took"] = [tile_ctx({"t": t}, table.variant) for t in took[-TOOK_SHOWN:]]
            p["took_count"] = len(took)
        players.append(p)
    totals = game.totals()
    for p in players:
        p["total"] = totals[p["position"]] if p["position"] < len(totals) else 0
    ctx["players"] = players
    ctx["opponents"] = [p for p in players if not p["is_me"]]
    ctx["my_player"] = next((p for p in players if p["is_me"]), None)
    if view is not None:
        ctx["indicator"] = tile_ctx(view["indicator"], table.variant)
        ctx["melds"] = meld_ctx(view, players, table.variant)
        ctx["takeable"] = (
            tile_ctx(view["takeable"], table.variant) if view.get("takeable") else None
        )
        if ctx["takeable"] and hint and ctx["takeable"]["id"] in hint["tiles"]:
            ctx["takeable"]["hinted"] = True  # "Show me" suggests taking it
        ctx["legal"] = set(view.get("legal", []))
        ctx["my_turn"] = me is not None and view["turn"] == me and not view["over"]
        if view.get("rack") is not None and seat is not None:
            penalty = set(view.get("penalty_tiles") or [])  # assisted tables only
            hinted = set(hint["tiles"]) if hint else set()
            # the tile just drawn or taken stays marked until the player moves it
            # (their saved order then holds it): the seat's own view only
            drawn = drawn_unmoved(view, seat.rack_order or [])
            by_id = {
                t["id"]: {
                    **tile_ctx(t, table.variant),
                    "penalty": t["id"] in penalty,
                    "hinted": t["id"] in hinted,
                    "drawn": t["id"] == drawn,
                }
                for t in view["rack"]
            }
            slots = arrange_slots(list(by_id), seat.rack_order or [])
            ctx["slots"] = [by_id.get(t) if t is not None else None for t in slots]
        ctx["result"] = view.get("result") if view["over"] else None
        if ctx["result"]:
            finisher = ctx["result"].get("finisher")
            name = next((p["name"] for p in players if p["position"] == finisher), "")
            ctx["result_text"] = messages.ending_text(ctx["result"]["ending"], name, table.variant)
        ctx["revealed"] = view.get("revealed") if view["over"] else None
        ctx["hand_lines"] = [
            {**line, "label": messages.reason_label(line["reason"], table.variant)}
            for line in view.get("scores", [])
        ]
    ctx["totals"] = totals
    ctx["urls"] = table_urls(table.code)
    ctx["game_over"] = table.status == Table.Status.FINISHED
    ctx["winners"] = game.winners() if ctx["game_over"] else []
    # the outcome dialog and the running score table (games/outcome.py)
    names = {p["position"]: p["name"] for p in players}
    ctx["standing"] = outcome.game_standing(game, names)
    ctx["outcome"] = (
        outcome.hand_outcome(view, names, game, lambda t: tile_ctx(t, table.variant))
        if view is not None and ctx.get("result")
        else None
    )
    ctx["status_text"] = status_text(table, view, me)
    ctx["hint_text"] = (
        messages.hint_text(hint["reason"], hint["detail"], table.variant) if hint else ""
    )
    ctx["hint_action"] = hint_action(hint, view, table.variant) if hint and view else None
    ctx["announce"] = announce_text(view, players, me, table.variant, ctx.get("result_text"))
    # a waiting quick-match table's card: who waits, their ratings, "Fill with CPUs"
    ctx["quick_wait"] = waiting_context(table, seats, seat)
    return ctx


def drawn_unmoved(view: dict[str, Any], saved: list[int | None]) -> int | None:
    """The tile this seat just drew or took (its own view's ``drawn``) while it
    still sits in the slot it landed in: once the player moves it, no mark."""
    drawn = view.get("drawn")
    if drawn is None or drawn not in saved:
        return drawn
    rack = [t["id"] for t in view.get("rack") or ()]
    landed = arrange_slots(rack, [None if t == drawn else t for t in saved])
    return drawn if saved.index(drawn) == landed.index(drawn) else None


def meld_ctx(view: dict[str, Any], players: list[dict], variant: str) -> list[dict[str, Any]]:
    """The table's melds, each with its owner's name (and team with partners) and
    its okeys marked: a meld tile that is the okey shows the tile it stands for."""
    names = {p["position"]: p["name"] for p in players}
    partners = bool((view.get("options") or {}).get("partners"))
    out = []
    for m in view.get("melds", []):
        tiles = [{**tile_ctx(t, variant), "okey": t["t"] == view["okey"]} for t in m["tiles"]]
        owner = m["owner"]
        # fifty-one with partners: seats 0 and 2 against 1 and 3 [D14]
        team = (owner % 2) + 1 if partners and owner is not None else None
        kind = str(MELD_KINDS.get(m["kind"], m["kind"]))
        label = _("%(kind)s of %(name)s") % {"kind": kind, "name": names.get(owner, "")}
        if team:
            label += " · " + _("team %(n)s") % {"n": team}
        out.append(
            {**m, "tiles": tiles, "owner_name": names.get(owner, ""), "team": team, "label": label}
        )
    return out


def hint_action(hint: dict, view: dict[str, Any], variant: str) -> dict[str, Any] | None:
    """The hinted move as the fields the table's form sends, with its button's label
    ("Discard black 6"): acting on a hint is one click."""
    action = hint.get("action") or {}
    kind = action.get("type")
    tile_id = action.get("tile")
    tile = None
    words = None
    if isinstance(tile_id, int):
        held = next((t for t in view.get("rack") or () if t["id"] == tile_id), None)
        if held is not None:
            tile = held["t"]
            words = tile_label(held, variant) if held.get("okey") else None
    if kind == "take" and view.get("takeable"):
        tile = view["takeable"]["t"]
    label = messages.hint_action_label(kind or "", tile, variant, words)
    if not label:
        return None
    fields: dict[str, Any] = {"action": kind}
    for k in ("tile", "meld", "as"):
        if action.get(k) is not None:
            fields[k] = action[k]
    if action.get("melds"):
        fields["melds"] = action["melds"]
    return {"label": label, "fields": fields}


def announce_text(
    view: dict[str, Any] | None,
    players: list[dict],
    me: int | None,
    variant: str,
    result_text: str | None = None,
) -> str:
    """What the screen-reader region reads: the latest move of another seat and
    whose turn it is ("Mehmet discarded red 7. Your turn."), from the view only."""
    if view is None:
        return ""
    if view["over"]:
        return str(result_text or "")
    names = {p["position"]: p["name"] for p in players}
    parts = []
    move = view.get("last_move")
    if move and move.get("seat") != me and move.get("seat") in names:
        parts.append(
            messages.move_text(move["type"], names[move["seat"]], move.get("tile"), variant)
        )
    turn = view["turn"]
    if me is not None and turn == me:
        parts.append(_("Your turn."))
    elif turn in names:
        parts.append(_("%(name)s's turn.") % {"name": names[turn]})
    return " ".join(p for p in parts if p)


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
