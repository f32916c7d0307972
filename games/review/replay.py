"""Step states of a finished hand, computed once on the server by replaying its actions.

``build_replay(record, names)`` applies the record's actions one by one with the engine and
keeps, for every step (0 = the deal, k = after k actions), a compact frame of the whole table
with every rack revealed (tile ids; the page draws them with the tile partial), and a
timeline entry per action (who did what, and the score lines it caused).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.engine import apply, new_hand
from games.engine.tiles import notation
from games.messages import reason_label


def record_for_hand(hand) -> dict[str, Any]:
    """The engine record of a stored hand, with its game context (rummy totals)."""
    table = hand.table
    rec: dict[str, Any] = {
        "format": 1,
        "variant": table.variant,
        "options": table.options,
        "seed": hand.seed,
        "starter": hand.starter,
        "actions": [a.payload for a in hand.actions.order_by("index")],
    }
    context = (hand.state or {}).get("context")
    if context:
        rec["context"] = context
    return rec


def start_state(record: dict):
    return new_hand(
        record["variant"],
        record.get("options"),
        record["seed"],
        record["starter"],
        context=record.get("context"),
    )


def frame(state) -> dict[str, Any]:
    return {
        "racks": [list(r) for r in state.racks],
        "discards": [list(d) for d in state.discards],
        "melds": [{"id": m.id, "owner": m.owner, "tiles": list(m.tiles)} for m in state.melds],
        "pile": len(state.pile),
        "turn": state.turn,
        "phase": state.phase,
        "takeable": state.takeable,
        "opened": list(state.opened),
        "totals": state.hand_totals(),
        "over": state.over,
    }


def _tiles(ids) -> str:
    return " ".join(notation(t) for t in ids)


def describe(action: dict, before, after, name: str) -> tuple[str, int | None]:
    """A one-line account of an action (everything revealed) and the tile it moved."""
    t = action["type"]
    seat = action["seat"]
    tile = action.get("tile")
    args: dict[str, Any] = {"name": name}
    if tile is not None:
        args["tile"] = notation(tile)
    if t == "draw":
        new = [x for x in after.racks[seat] if x not in before.racks[seat]]
        if new:
            args["tile"] = notation(new[0])
            return _("%(name)s drew %(tile)s from the pile") % args, new[0]
        return _("%(name)s drew from the empty pile: the hand ends") % args, None
    if t == "take":
        got = before.takeable
        args["tile"] = notation(got) if got is not None else "?"
        return _("%(name)s took the discard %(tile)s") % args, got
    if t == "discard":
        return _("%(name)s discarded %(tile)s") % args, tile
    if t == "close":
        return _("%(name)s finished, putting %(tile)s down") % args, tile
    if t == "show":
        return _("%(name)s showed the indicator's twin %(tile)s") % args, tile
    if t in ("open", "lay"):
        args["melds"] = " | ".join(_tiles(m) for m in action.get("melds", []))
        if t == "open":
            return _("%(name)s opened with %(melds)s") % args, None
        return _("%(name)s laid %(melds)s") % args, None
    if t == "add":
        return _("%(name)s added %(tile)s to a meld") % args, tile
    if t == "swap":
        return _("%(name)s swapped %(tile)s for the okey") % args, tile
    if t == "undo":
        return _("%(name)s gave the taken tile back") % args, None
    if t == "flip":
        return _("%(name)s turned an okey over") % args, tile
    if t == "arrange":
        return _("%(name)s rearranged their rack") % args, None
    if t == "timeout":
        return _("%(name)s ran out of time") % args, None
    return f"{name}: {t}", tile


def build_replay(record: dict, names: list[str]) -> dict[str, Any]:
    """Frames (len = actions + 1) and timeline (one entry per action) of a hand."""
    state = start_state(record)
    frames = [frame(state)]
    timeline = []
    for i, action in enumerate(record["actions"]):
        after, events = apply(state, action)
        seat = action["seat"]
        text, tile = describe(action, state, after, names[seat] if seat < len(names) else "?")
        scores = [
            {
                "seat": e["seat"],
                "name": names[e["seat"]] if e["seat"] < len(names) else "?",
                "points": e["points"],
                "label": reason_label(e["reason"]),
            }
            for e in events
            if e.get("type") == "score"
        ]
        timeline.append(
            {
                "step": i + 1,
                "seat": seat,
                "type": action["type"],
                "text": text,
                "tile": tile,
                "scores": scores,
                "over": after.over,
            }
        )
        frames.append(frame(after))
        state = after
    return {
        "frames": frames,
        "timeline": timeline,
        "final": state,
        "indicator": state.indicator,
        "okey_kind": state.okey_kind,
        "n_players": state.n_players,
    }
