"""What one seat may see (rules.md §1 "Information"): ``view_for(state, seat)``.

A seat sees its own rack, the indicator, the discards, the table melds, which
tiles each seat took from a discard pile (``took``: they were face up) and the
counts of tiles in the other racks and the pile; a spectator (``None``) sees
no rack. Never: another rack's tiles, the pile order, the tile just drawn, the
seed — until the hand is over, when every rack and the seed are revealed. The
tile a seat just drew (``drawn``) is in that seat's own view only; ``last_move``
is the latest move of the game, with a tile only where everyone saw its face.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from .actions import FREE_ACTIONS
from .refusals import Refusal
from .state import DRAW, OVER, PLAY, HandState
from .table import is_usable
from .tiles import kind_notation, notation

if TYPE_CHECKING:
    from .rulebase import LayDownRules


def tile_json(t: int) -> dict:
    return {"id": t, "t": notation(t)}


def _line_json(line: dict) -> dict:
    detail = dict(line["detail"])
    if "tile" in detail:  # shown as notation only: the tile may be back in a rack
        detail["tile"] = notation(detail["tile"])
    return {**line, "detail": detail}


# moves whose tile every seat saw face up (a discard, a taken discard, a shown
# indicator twin, the finishing tile put down on the table)
_PUBLIC_TILE_MOVES = frozenset({"discard", "take", "show", "close"})


def last_move(state: HandState) -> dict | None:
    """The latest move of the game (free actions, private to their seat, are
    skipped): ``{"type", "seat", "tile": notation|None}``; the tile only for
    moves everyone saw face up, never a drawn tile."""
    for a in reversed(state.actions):
        kind = a.get("type")
        if kind in FREE_ACTIONS:
            continue
        tile = a.get("tile") if kind in _PUBLIC_TILE_MOVES else None
        if kind == "take" and state.took and state.took[a["seat"]]:
            tile = state.took[a["seat"]][-1]  # a take names no tile: the public log does
        return {
            "type": kind,
            "seat": a.get("seat"),
            "tile": notation(tile) if isinstance(tile, int) else None,
        }
    return None


def legal_types(state: HandState, seat: int | None) -> list[str]:
    """The action types ``seat`` may attempt now (the engine still checks each).

    Structural, hence hint-free: ``close`` or ``open`` appear whenever the seat
    may try them, not only when its rack allows them.
    """
    if seat is None or state.phase == OVER:
        return []
    r = state.rules
    out: list[str] = ["arrange"]
    rack = state.racks[seat]
    if r.okeys_flip and any(state.is_okey(t) for t in rack):
        out.append("flip")
    if seat != state.turn:
        return out
    twin = state.indicator ^ 1
    if twin in rack and seat not in state.shown and r.show_allowed(state, seat):
        out.append("show")
    if state.phase == DRAW:
        out.append("draw")
        if state.takeable is not None and not state.undone:
            out.append("take")
    elif state.phase == PLAY:
        if state.taken is not None:
            out.append("undo")
        out += r.play_action_types(state, seat)
    return sorted(set(out))


# The part of a view every seat sees alike, per state (``_public``): a state is never
# changed once made (``state.py``), and a table's frames ask for the views of one state
# for each of its seats and watchers. Keyed by the state's id and holding the state, so
# an id is never taken for another state's; the oldest are dropped past the limit.
_PUBLIC: dict[int, tuple[HandState, dict[str, Any]]] = {}
_PUBLIC_LIMIT = 256  # the renders right after an action read its state; older ones rarely


def _public(state: HandState) -> dict[str, Any]:
    """Every key of the view, in its order, with what no one seat owns filled in and
    the seat's own keys (``seat``, ``rack``, ``legal``, ``taken``, ``drawn``) empty."""
    hit = _PUBLIC.get(id(state))
    if hit is not None and hit[0] is state:
        return hit[1]
    r = state.rules
    over = state.phase == OVER
    melds = []
    for m in state.melds:
        melds.append(
            {
                "id": m.id,
                "owner": m.owner,
                "laid_by": m.laid_by,
                "kind": m.kind,
                "tiles": [
                    {**tile_json(t), "plays": kind_notation(k)}
                    for t, k in zip(m.tiles, m.plays, strict=True)
                ],
                "points": r.meld_value(m.kind, m.plays),
                "provisional": m.id in state.provisional,
            }
        )
    prev = state.prev_seat(state.turn)
    view: dict[str, Any] = {
        "format": 1,
        "variant": state.variant,
        "options": dict(state.options),
        "seat": None,
        "n_players": state.n_players,
        "starter": state.starter,
        "direction": state.rules.direction,
        "turn": state.turn,
        "phase": state.phase,
        "version": state.version,
        "indicator": tile_json(state.indicator),
        "okey": kind_notation(state.okey_kind),
        "pile_count": len(state.pile),
        "rack": None,
        "rack_counts": [len(x) for x in state.racks],
        "discards": [[tile_json(t) for t in d] for d in state.discards],
        # public: the tiles each seat took from a discard pile this hand (they
        # were face up); notation only, as the tiles may sit in a hidden rack
        "took": [[notation(t) for t in x] for x in (state.took or ((),) * state.n_players)],
        "takeable": tile_json(state.takeable) if state.takeable is not None else None,
        "takeable_from": prev if state.takeable is not None else None,
        "melds": melds,
        "opened": list(state.opened),
        "limit": None,
        "shown": list(state.shown),
        "scores": [_line_json(x) for x in state.scores],
        "hand_totals": state.hand_totals(),
        "legal": [],
        "taken": None,
        "must_use_taken": state.taken is not None,
        "drawn": None,
        "last_move": last_move(state),
        "over": over,
        "result": None,
        "revealed": None,
    }
    if not r.whole_rack:  # lay-down tables show the limit and the opening minimums
        lay_down = cast("LayDownRules", r)
        view["limit"] = state.limit
        view["opening_min"] = {
            "melds": lay_down.opening_min(state, "melds"),
            "pairs": lay_down.opening_min(state, "pairs"),
        }
    if over:
        assert state.result is not None  # a hand that is over has its result
        view["result"] = {
            **state.result,
            "lines": [_line_json(x) for x in state.result["lines"]],
        }
        view["revealed"] = {
            "racks": [[tile_json(t) for t in x] for x in state.racks],
            "seed": state.seed,
            "closed_tile": state.result.get("closed_tile"),
        }
    while len(_PUBLIC) >= _PUBLIC_LIMIT:
        try:  # another thread may be dropping the same entry
            _PUBLIC.pop(next(iter(_PUBLIC)), None)
        except (RuntimeError, StopIteration):
            break
    _PUBLIC[id(state)] = (state, view)
    return view


def view_for(state: HandState, seat: int | None) -> dict[str, Any]:
    """The JSON-ready view of the hand for ``seat`` (int) or a spectator (None).

    A new dict each time; what every seat sees alike (the discards, the melds, the
    scores ...) is made once per state and shared by the views of that state
    (``_public``): read it, never change it."""
    if seat is not None and not (type(seat) is int and 0 <= seat < state.n_players):
        raise Refusal("bad_action", "seat must be None or a seat number")
    view = dict(_public(state))
    if seat is None:
        view["legal"] = []
        return view
    view["seat"] = seat
    view["rack"] = [
        {**tile_json(t), "okey": state.is_okey(t), "face_down": t in state.flipped}
        for t in state.racks[seat]
    ]
    view["legal"] = legal_types(state, seat)
    # the taken discard still to be used [D12]: shown to its taker only
    mine = seat == state.turn
    view["taken"] = tile_json(state.taken) if state.taken is not None and mine else None
    # the tile this seat just drew or took, while its turn lasts: its own view only
    view["drawn"] = state.drawn if mine and state.drawn in state.racks[seat] else None
    if not state.rules.whole_rack and state.options.get("assisted"):
        view["penalty_tiles"] = [
            t
            for t in state.racks[seat]
            if is_usable(t, state.melds, state.okey_kind, state.rules.ace_high)
        ]
        # what a discard of each tile would cost now (``Rules.discard_penalty``), on the
        # seat's own turn: the table asks for a second tap before such a discard
        costs = []
        if mine and "discard" in view["legal"]:
            for t in state.racks[seat]:
                cost = state.rules.discard_penalty(state, seat, t)
                if cost is not None:
                    costs.append({"tile": t, "points": cost[0], "msgid": cost[1]})
        view["discard_costs"] = costs
    return view
