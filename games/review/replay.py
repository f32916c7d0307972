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
from games.live.messages import reason_label
from games.live.realtime import hand_record
from games.tilewords import tile_words


def record_for_hand(hand) -> dict[str, Any]:
    """The engine record of a stored hand, with its game context (rummy totals)."""
    return hand_record(hand)


def start_state(record: dict):
    return new_hand(
        record["variant"],
        record.get("options"),
        record["seed"],
        record["starter"],
        context=record.get("context"),
    )


def frame(state, totals: list[int] | None = None) -> dict[str, Any]:
    """The whole table after a step; ``totals`` (the hand's totals) when already known."""
    return {
        "racks": [list(r) for r in state.racks],
        "discards": [list(d) for d in state.discards],
        "melds": [{"id": m.id, "owner": m.owner, "tiles": list(m.tiles)} for m in state.melds],
        "pile": len(state.pile),
        "turn": state.turn,
        "phase": state.phase,
        "takeable": state.takeable,
        "opened": list(state.opened),
        "totals": state.hand_totals() if totals is None else totals,
        "over": state.over,
    }


def _tiles(ids, variant: str = "") -> str:
    return ", ".join(tile_words(notation(t), variant) for t in ids)


def describe(step: dict[str, Any], name: str, variant: str = "") -> str:
    """A one-line account of a step of ``compute_replay`` (everything revealed), tiles
    named in words in the reader's language ("black 6"; ``variant`` rummy says green)."""
    t = step["type"]
    tile = step.get("tile")
    args: dict[str, Any] = {"name": name}
    if tile is not None:
        args["tile"] = tile_words(notation(tile), variant)
    if t == "draw":
        if tile is not None:
            return _("%(name)s drew %(tile)s from the pile") % args
        return _("%(name)s drew from the empty pile: the hand ends") % args
    if t == "take":
        args.setdefault("tile", "?")
        return _("%(name)s took the discard %(tile)s") % args
    if t == "discard":
        return _("%(name)s discarded %(tile)s") % args
    if t == "close":
        return _("%(name)s finished, putting %(tile)s down") % args
    if t == "show":
        return _("%(name)s showed the indicator's twin %(tile)s") % args
    if t in ("open", "lay"):
        args["melds"] = " | ".join(_tiles(m, variant) for m in step.get("melds") or [])
        if t == "open":
            return _("%(name)s opened with %(melds)s") % args
        return _("%(name)s laid %(melds)s") % args
    if t == "add":
        return _("%(name)s added %(tile)s to a meld") % args
    if t == "swap":
        return _("%(name)s swapped %(tile)s for the okey") % args
    if t == "undo":
        return _("%(name)s gave the taken tile back") % args
    if t == "flip":
        return _("%(name)s turned an okey over") % args
    if t == "arrange":
        return _("%(name)s rearranged their rack") % args
    if t == "timeout":
        return _("%(name)s ran out of time") % args
    return f"{name}: {t}"


def _moved_tile(action: dict, before, after) -> int | None:
    """The tile an action moved: the one drawn, the discard taken, or the action's tile."""
    t = action["type"]
    seat = action["seat"]
    if t == "draw":
        new = [x for x in after.racks[seat] if x not in before.racks[seat]]
        return new[0] if new else None
    if t == "take":
        return before.takeable
    if t in ("open", "lay", "undo", "arrange", "timeout"):
        return None
    return action.get("tile")


def compute_replay(record: dict) -> dict[str, Any]:
    """Every step of a hand, language-neutral and JSON-ready: frames (len = actions + 1),
    steps (one per action: seat, type, the tile it moved, melds, score lines, over), the
    indicator, the okey's kind, the number of players and the engine's result. Imports
    store it, so that viewing an imported hand replays nothing."""
    return _compute(record)[0]


def _compute(record: dict) -> tuple[dict[str, Any], Any]:
    state = start_state(record)
    totals = state.hand_totals()
    frames = [frame(state, totals)]
    steps = []
    for action in record["actions"]:
        after, events = apply(state, action)
        steps.append(
            {
                "seat": action["seat"],
                "type": action["type"],
                "tile": _moved_tile(action, state, after),
                "melds": [list(m) for m in action.get("melds", [])],
                "scores": [
                    {"seat": e["seat"], "points": e["points"], "reason": e["reason"]}
                    for e in events
                    if e.get("type") == "score"
                ],
                "over": after.over,
            }
        )
        # score lines are only ever added: the totals change when their number does
        if len(after.scores) != len(state.scores):
            totals = after.hand_totals()
        frames.append(frame(after, totals))
        state = after
    return {
        "frames": frames,
        "steps": steps,
        "indicator": state.indicator,
        "okey_kind": state.okey_kind,
        "n_players": state.n_players,
        "result": dict(state.result) if state.result else None,
    }, state


def present_replay(data: dict[str, Any], names: list[str], variant: str = "") -> dict[str, Any]:
    """``compute_replay``'s steps as the viewer's timeline, in the visitor's language."""

    def name(seat: int) -> str:
        return names[seat] if seat < len(names) else "?"

    timeline = [
        {
            "step": i + 1,
            "seat": st["seat"],
            "type": st["type"],
            "text": describe(st, name(st["seat"]), variant),
            "tile": st["tile"],
            "scores": [
                {
                    "seat": e["seat"],
                    "name": name(e["seat"]),
                    "points": e["points"],
                    "label": reason_label(e["reason"], variant),
                }
                for e in st["scores"]
            ],
            "over": st["over"],
        }
        for i, st in enumerate(data["steps"])
    ]
    return {**data, "timeline": timeline}


def build_replay(record: dict, names: list[str], variant: str = "") -> dict[str, Any]:
    """Frames (len = actions + 1), timeline (one entry per action), result and the final
    engine state of a hand."""
    data, final = _compute(record)
    return {**present_replay(data, names, variant), "final": final}
