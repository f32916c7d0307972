"""CPU commentary: the hard CPU's choice beside each decision of one seat.

For every decision of the reviewed seat (draw or take, discard, close, show, open, lay,
add, swap) the hand is rebuilt up to that moment and ``bots.choose_action(state, seat,
"hard")`` is asked what it would play. Both are described, marked when they differ, with a
one-line reason from a plain measure: how many tiles stay outside melds in the best
arrangement of the rack (``evaluate.best_arrangement``).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine import apply
from games.engine.bots import choose_action
from games.engine.evaluate import best_arrangement
from games.engine.tiles import kind_of, notation

from .replay import start_state

DECISIONS = {"draw", "take", "discard", "close", "show", "open", "lay", "add", "swap"}
LEVEL = "hard"


def _kinds(ids) -> list[int]:
    return sorted(kind_of(t) for t in ids)


def _signature(action: dict) -> tuple:
    t = action["type"]
    tiles: list[int] = []
    if "tile" in action:
        tiles.append(action["tile"])
    for m in action.get("melds", []):
        tiles.extend(m)
    return (t, tuple(_kinds(tiles)))


def move_text(kind: str) -> str | None:
    """The sentence of a move of type ``kind`` in the active language, with ``%(tile)s``
    and ``%(melds)s`` for its tiles (None for a type that has none); the commentary and
    the expert's analysis word moves alike."""
    texts = {
        "draw": _("draw from the pile"),
        "take": _("take the discard"),
        "discard": _("discard %(tile)s"),
        "close": _("finish with %(tile)s"),
        "show": _("show %(tile)s"),
        "open": _("open with %(melds)s"),
        "lay": _("lay %(melds)s"),
        "add": _("add %(tile)s to a meld"),
        "swap": _("swap %(tile)s for the okey"),
        "undo": _("give the tile back"),
        "timeout": _("let the clock play"),
    }
    return texts.get(kind)


def label(action: dict) -> str:
    """A move with its tiles in notation (``K7``)."""
    args: dict[str, Any] = {}
    if "tile" in action:
        args["tile"] = notation(action["tile"])
    if action.get("melds"):
        args["melds"] = " | ".join(
            " ".join(notation(x) for x in m) for m in action.get("melds", [])
        )
    text = move_text(action["type"])
    return text % args if text else action["type"]


class _Measure:
    def __init__(self, state):
        self.state = state
        self.ace_high = state.rules.ace_high

    def loose(self, tiles) -> int:
        if not tiles:
            return 0
        return len(
            best_arrangement(list(tiles), self.state.okey_kind, ace_high=self.ace_high).leftover
        )

    def after_discard(self, rack, tile) -> int:
        rest = list(rack)
        rest.remove(tile)
        return self.loose(rest)

    def best_after_take(self, rack, tile) -> int:
        grown = [*rack, tile]
        return min(self.after_discard(grown, d) for d in set(grown) if d != tile)


REASONS = {
    "same": gettext_lazy("Same choice as the hard CPU."),
    "cpu_closes": gettext_lazy("The CPU finishes here: the rack was already a winning one."),
    "you_closed": gettext_lazy("You finished; the CPU would have played on."),
    "cpu_takes": gettext_lazy(
        "The CPU takes %(tile)s: it fits the rack (loose tiles %(now)s → %(best)s)."
    ),
    "cpu_draws": gettext_lazy(
        "The CPU draws instead: %(tile)s does not improve the rack enough "
        "(loose tiles %(now)s → %(best)s)."
    ),
    "okey_thrown": gettext_lazy("You threw an okey away; the CPU keeps its okeys for the finish."),
    "breaks_meld": gettext_lazy(
        "Your discard breaks a meld or a near meld: %(yours)s loose tiles left "
        "instead of %(theirs)s."
    ),
    "tighter": gettext_lazy(
        "Your discard keeps the rack tighter (%(yours)s loose tiles against %(theirs)s); "
        "the CPU avoids feeding the next player."
    ),
    "equal": gettext_lazy(
        "Both leave %(yours)s loose tiles; the CPU keeps the tile with more unseen partners "
        "and avoids feeding the next player."
    ),
    "cpu_lays": gettext_lazy("The CPU puts tiles on the table first."),
    "cpu_keeps": gettext_lazy("The CPU would keep these tiles in the rack for now."),
    "other_tiles": gettext_lazy(
        "Same kind of move with other tiles: the CPU's arrangement scores better."
    ),
    "other": gettext_lazy("The CPU prefers another move here."),
}


def reason_text(code: str, args: dict) -> str:
    text = REASONS.get(code, REASONS["other"])
    try:
        return str(text) % args
    except (KeyError, TypeError, ValueError):
        return str(REASONS["other"])


def reason(state, seat: int, mine: dict, cpu: dict, same: bool) -> tuple[str, dict]:
    """Why the CPU's choice differs (or that it agrees): a code and its arguments."""
    if same:
        return "same", {}
    m = _Measure(state)
    rack = list(state.racks[seat])
    mt, ct = mine["type"], cpu["type"]
    if ct == "close":
        return "cpu_closes", {}
    if mt == "close":
        return "you_closed", {}
    if {mt, ct} == {"draw", "take"} and state.takeable is not None:
        args = {
            "tile": notation(state.takeable),
            "now": m.loose(rack),
            "best": m.best_after_take(rack, state.takeable),
        }
        return ("cpu_takes" if ct == "take" else "cpu_draws"), args
    if mt == "discard" and ct == "discard":
        if kind_of(mine["tile"]) == state.okey_kind:
            return "okey_thrown", {}
        args = {
            "yours": m.after_discard(rack, mine["tile"]),
            "theirs": m.after_discard(rack, cpu["tile"]),
        }
        if args["yours"] > args["theirs"]:
            return "breaks_meld", args
        if args["yours"] < args["theirs"]:
            return "tighter", args
        return "equal", args
    table_moves = ("open", "lay", "add", "swap")
    if ct in table_moves and mt not in table_moves:
        return "cpu_lays", {}
    if mt in table_moves and ct == "discard":
        return "cpu_keeps", {}
    if mt == ct:
        return "other_tiles", {}
    return "other", {}


def present(data: dict) -> dict:
    """The cached (language-neutral) commentary with its texts in the current language."""
    items = [
        {
            **it,
            "mine_text": label(it["mine"]),
            "cpu_text": label(it["cpu"]),
            "reason_text": reason_text(it["reason"], it.get("args") or {}),
        }
        for it in data.get("items", [])
    ]
    return {**data, "items": items}


def compute(record: dict, seat: int) -> dict[str, Any]:
    """Commentary of ``seat`` in a finished hand's record: items and the agreement."""
    state = start_state(record)
    items = []
    for i, action in enumerate(record["actions"]):
        if action["seat"] == seat and action["type"] in DECISIONS:
            cpu = choose_action(state, seat, LEVEL)
            same = _signature(action) == _signature(cpu)
            code, args = reason(state, seat, action, cpu, same)
            items.append(
                {
                    "step": i + 1,
                    "mine": dict(action),
                    "cpu": dict(cpu),
                    "same": same,
                    "reason": code,
                    "args": args,
                }
            )
        state, _events = apply(state, action)
    agree = sum(1 for it in items if it["same"])
    return {
        "seat": seat,
        "level": LEVEL,
        "items": items,
        "agree": agree,
        "total": len(items),
        "percent": round(100 * agree / len(items)) if items else None,
    }
