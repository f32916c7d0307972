"""The state machine: ``apply(state, action) -> (new_state, events)``.

The input state is never mutated: each handler works on a shallow clone and
replaces whole fields (tuples), and a ``Refusal`` raised anywhere discards the
clone. What differs between rule sets comes from the rules object ``state.rules``: its
data and its state-machine hooks (``rulebase.Rules``: ``action_types``,
``taken_must_be_used``, ``finishes_by_discard``, ``pile_exhausted``, the ``*_lines`` of
scoring, where tiles may go: ``opener_may_add``, ``swap_refusal``, ``discard_goes_back``
…); no handler asks which rule set it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from .evaluate import is_winning
from .legal import (  # noqa: F401 - re-exported: importable from here as before
    _closing_tiles,
    _opening_around,
    _pair_shapes,
    is_penalty_tile,
    legal_actions,
    penalty_tiles,
    take_useful,
)
from .melds import GROUP, MELDS_OPENING, PAIR, PAIRS_OPENING, RUN, classify
from .phases import DRAW, OVER, PLAY
from .refusals import Refusal
from .scoring import close_ending
from .table import (
    HIGH,
    TableMeld,
    added,
    placements,
    seven_pairs,
    swap_index,
    swapped,
)
from .tiles import N_TILES, parse_kind

if TYPE_CHECKING:
    from .rulebase import LayDownRules, Rules, WholeRackRules
    from .state import HandState

ACTION_FIELDS: dict[str, tuple[set[str], set[str]]] = {
    # type: (required fields besides type/seat, optional fields)
    "draw": (set(), set()),
    "take": (set(), set()),
    "discard": ({"tile"}, set()),
    "close": ({"tile"}, {"melds"}),
    "show": ({"tile"}, set()),
    "open": ({"melds"}, {"assign"}),
    "lay": ({"melds"}, {"assign", "to"}),
    "add": ({"tile", "meld"}, {"as"}),
    "swap": ({"tile", "meld"}, set()),
    "undo": (set(), set()),
    "flip": ({"tile"}, set()),
    "arrange": ({"tiles"}, set()),
    "timeout": (set(), set()),
}
# actions that do not need the turn
FREE_ACTIONS = {"flip", "arrange"}
# A free action never passes the turn, so nothing bounds how often a seat can send
# one. Where players' actions enter (the table service) at most this many free
# actions per seat are accepted between two moves of the game (any seat's
# non-free action): enough to turn both okeys face down and up again. It is a
# table policy, not a rule: ``apply`` accepts any number, so every record replays.
FREE_ACTION_LIMIT = 4


def _bad(msg: str) -> Refusal:
    return Refusal("bad_action", msg)


def _int(v: Any, what: str, lo: int, hi: int) -> int:
    if type(v) is not int or not lo <= v < hi:
        raise _bad(f"{what} must be an integer in [{lo}, {hi})")
    return v


def _kind(v: Any, what: str) -> int:
    """A tile kind given as notation ("R7") or as a kind int (0..51)."""
    if isinstance(v, str):
        try:
            k = parse_kind(v)
        except ValueError:
            raise _bad(f"{what}: {v!r} is not a tile") from None
    else:
        k = _int(v, what, 0, 52)
    if k >= 52:
        raise _bad(f"{what}: an okey stands for a numbered tile")
    return k


def normalize_action(action: Any, n_players: int) -> dict:
    """Validate the shape of an action; return a canonical copy. → ``bad_action``."""
    if not isinstance(action, dict):
        raise _bad("an action is an object with a type and a seat")
    t = action.get("type")
    if not isinstance(t, str) or t not in ACTION_FIELDS:
        raise _bad(f"unknown action type {t!r}")
    required, optional = ACTION_FIELDS[t]
    keys = set(action) - {"type", "seat"}
    if missing := required - keys:
        raise _bad(f"{t}: missing {sorted(missing)}")
    if extra := keys - required - optional:
        raise _bad(f"{t}: unknown fields {sorted(extra)}")
    out: dict[str, Any] = {"type": t, "seat": _int(action.get("seat"), "seat", 0, n_players)}
    if "tile" in action:
        out["tile"] = _int(action["tile"], "tile", 0, N_TILES)
    if "meld" in action:
        out["meld"] = _int(action["meld"], "meld", 0, 1 << 30)
    if "to" in action:
        out["to"] = _int(action["to"], "to", 0, n_players)
    if "as" in action:
        out["as"] = _kind(action["as"], "as")
    if "tiles" in action:
        ts = action["tiles"]
        if not isinstance(ts, list):
            raise _bad("tiles must be a list of tile ids")
        out["tiles"] = [_int(x, "tile", 0, N_TILES) for x in ts]
        if len(set(out["tiles"])) != len(out["tiles"]):
            raise _bad("duplicate tile ids")
    if "melds" in action:
        ms = action["melds"]
        if not isinstance(ms, list) or not ms or len(ms) > 20:
            raise _bad("melds must be a non-empty list of tile-id lists")
        melds = []
        seen: set[int] = set()
        for m in ms:
            if not isinstance(m, list) or not 2 <= len(m) <= 14:
                raise _bad("each meld is a list of 2 to 14 tile ids")
            ids = [_int(x, "tile", 0, N_TILES) for x in m]
            if seen & set(ids) or len(set(ids)) != len(ids):
                raise _bad("duplicate tile ids in melds")
            seen |= set(ids)
            melds.append(ids)
        out["melds"] = melds
    if "assign" in action:
        asg = action["assign"]
        if not isinstance(asg, dict):
            raise _bad("assign maps okey tile ids to the tile they stand for")
        clean: dict[str, int] = {}
        for key, v in asg.items():
            if isinstance(key, str) and key.isdigit():
                key = int(key)
            tid = _int(key, "assign key", 0, N_TILES)
            clean[str(tid)] = _kind(v, "assign value")
        out["assign"] = clean
    return out


# ------------------------------------------------------------------ helpers


def _set(tup: tuple, i: int, value: Any) -> tuple:
    return tup[:i] + (value,) + tup[i + 1 :]


def _remove(rack: tuple[int, ...], tiles: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    drop = set(tiles)
    return tuple(t for t in rack if t not in drop)


def _need_in_rack(s: HandState, seat: int, tiles: list[int] | tuple[int, ...]) -> None:
    rack = set(s.racks[seat])
    for t in tiles:
        if t not in rack:
            raise Refusal("tile_not_in_rack", tile=t)


def _score(s: HandState, lines: list[dict], events: list[dict]) -> None:
    if not lines:
        return
    s.scores = s.scores + tuple(lines)
    for ln in lines:
        events.append({"type": "score", **ln})


def _need_phase(s: HandState, phase: str) -> None:
    if s.phase != phase:
        if phase == PLAY:
            raise Refusal("must_draw")
        raise Refusal("already_drawn")


def _rules_with(s: HandState, action_type: str) -> Rules:
    """The rules object, if its rule set has ``action_type`` (``Rules.action_types``)."""
    r = s.rules
    if action_type not in r.action_types:
        raise Refusal("not_allowed_in_variant")
    return r


def _whole_rack_rules_with(s: HandState, action_type: str) -> WholeRackRules:
    """``_rules_with`` for an action of the whole-rack family alone (show, close): only
    ``WholeRackRules`` lists it in ``action_types``."""
    return cast("WholeRackRules", _rules_with(s, action_type))


def _lay_down_rules_with(s: HandState, action_type: str) -> LayDownRules:
    """``_rules_with`` for an action of the lay-down family alone (open, lay, add, swap):
    only ``LayDownRules`` lists it in ``action_types``."""
    return cast("LayDownRules", _rules_with(s, action_type))


def end_hand(
    s: HandState,
    ending: str,
    finisher: int | None,
    lines: list[dict],
    events: list[dict],
    **detail: Any,
) -> HandState:
    _score(s, lines, events)
    s.phase = OVER
    s.result = {
        "ending": ending,
        "finisher": finisher,
        "lines": lines,
        "totals": s.hand_totals(),
        "detail": detail,
        "closed_tile": detail.get("closed_tile"),
    }
    events.append({"type": "hand_over", "result": s.result})
    return s


def _end_turn(s: HandState) -> None:
    seat = s.turn
    s.turns_done = _set(s.turns_done, seat, s.turns_done[seat] + 1)
    s.turn_no += 1
    s.turn = s.next_seat(seat)
    s.phase = DRAW
    s.taken = None
    s.drawn = None
    s.undone = False
    s.snapshot = None
    s.turn_okeys = frozenset()
    s.turn_ends = frozenset()
    s.provisional = ()


def _exhausted(s: HandState, events: list[dict]) -> HandState:
    """[D4] the player to draw finds the pile empty: the hand is drawn."""
    ending, lines = s.rules.pile_exhausted(s)
    return end_hand(s, ending, None, lines, events)


# ----------------------------------------------------------------- handlers


def _draw(s: HandState, a: dict, ev: list[dict]) -> HandState:
    _need_phase(s, DRAW)
    seat = a["seat"]
    if not s.pile:
        return _exhausted(s, ev)
    tile = s.pile[-1]
    s.pile = s.pile[:-1]
    s.racks = _set(s.racks, seat, s.racks[seat] + (tile,))
    s.drawn = tile
    s.takeable = None
    s.phase = PLAY
    ev.append({"type": "drew", "seat": seat, "pile_count": len(s.pile)})
    return s


def _take(s: HandState, a: dict, ev: list[dict], before: HandState) -> HandState:
    _need_phase(s, DRAW)
    seat = a["seat"]
    if s.undone:
        raise Refusal("take_after_undo")
    tile = s.takeable
    prev = s.prev_seat(seat)
    if tile is None or not s.discards[prev] or s.discards[prev][-1] != tile:
        raise Refusal("nothing_to_take")
    r = s.rules
    s.discards = _set(s.discards, prev, s.discards[prev][:-1])
    s.racks = _set(s.racks, seat, s.racks[seat] + (tile,))
    s.takeable = None
    s.drawn = tile
    s.phase = PLAY
    if r.taken_must_be_used(s):
        # [D12] the tile must be used this turn (whole-rack, empty pile [D4]: to close)
        s.taken = tile
        s.snapshot = before
    took = s.took or ((),) * s.n_players
    s.took = _set(took, seat, took[seat] + (tile,))
    ev.append({"type": "took", "seat": seat, "tile": tile, "from": prev})
    _score(s, r.take_lines(s, seat, prev, tile), ev)
    return s


def _undo(s: HandState, a: dict, ev: list[dict]) -> HandState:
    if s.taken is None or s.snapshot is None:
        raise Refusal("nothing_to_undo")
    new = s.snapshot.clone()
    new.undone = True
    ev.append({"type": "undone", "seat": a["seat"], "tile": s.taken})
    return new


def _show(s: HandState, a: dict, ev: list[dict]) -> HandState:
    r = _whole_rack_rules_with(s, "show")
    seat, tile = a["seat"], a["tile"]
    if tile != (s.indicator ^ 1):
        raise Refusal("not_indicator_twin")
    _need_in_rack(s, seat, [tile])
    if seat in s.shown:
        raise Refusal("already_shown")
    if not r.show_allowed(s, seat):
        raise Refusal("show_too_late")
    s.shown = s.shown + (seat,)
    ev.append({"type": "shown", "seat": seat, "tile": tile})
    _score(s, r.show_lines(s, seat), ev)
    if r.show_ends_game(s, seat):
        return end_hand(s, "target", None, [], ev, shower=seat)
    return s


def _close(s: HandState, a: dict, ev: list[dict]) -> HandState:
    r = _whole_rack_rules_with(s, "close")
    _need_phase(s, PLAY)
    seat, tile = a["seat"], a["tile"]
    _need_in_rack(s, seat, [tile])
    if s.taken is not None and tile == s.taken:
        raise Refusal("must_use_taken_discard")
    keep = tuple(t for t in s.racks[seat] if t != tile)
    if "melds" in a:
        ids = [t for m in a["melds"] for t in m]
        if sorted(ids) != sorted(keep):
            raise Refusal("not_winning", "Your melds must hold exactly the 14 tiles you keep.")
        kinds = set()
        for m in a["melds"]:
            shape = classify(m, s.okey_kind, ace_high=r.ace_high)
            if shape is None:
                raise Refusal("not_a_meld", tiles=m)
            kinds.add(PAIR if shape.kind == PAIR else RUN)
        if len(kinds) > 1:
            raise Refusal("mixed_opening", "Pairs and melds never mix in a winning rack.")
    pairs = seven_pairs(keep, s.okey_kind)
    if pairs:
        shown = [list(sh.tiles) for sh in _pair_shapes(s, keep)]
    else:
        arr = is_winning(list(keep), s.okey_kind, ace_high=r.ace_high)
        if arr is None:
            raise Refusal("not_winning")
        shown = [list(sh.tiles) for sh in arr.melds]
    if "melds" in a and not pairs:
        shown = [list(m) for m in a["melds"]]  # the player's own arrangement
    ending = close_ending(pairs, s.is_okey(tile))
    s.racks = _set(s.racks, seat, keep)
    ev.append({"type": "closed", "seat": seat, "ending": ending})
    return end_hand(
        s,
        ending,
        seat,
        r.close_lines(s, seat, ending),
        ev,
        closed_tile=tile,
        pairs=pairs,
        arrangement=shown,
    )


def _shapes(s: HandState, a: dict, r: LayDownRules) -> list[Any]:
    """Classify the action's melds (runs/groups for 3+ tiles, pairs for 2)."""
    assign = {int(k): v for k, v in a.get("assign", {}).items()}
    out = []
    for m in a["melds"]:
        allow = (PAIR,) if len(m) == 2 else (RUN, GROUP)
        sub = {t: assign[t] for t in m if t in assign and s.is_okey(t)}
        shape = classify(m, s.okey_kind, ace_high=r.ace_high, allow=allow, assign=sub)
        if shape is None:
            raise Refusal("not_a_meld", tiles=m)
        out.append(shape)
    return out


def _opening_kind(shapes: list[Any]) -> str:
    kinds = {PAIRS_OPENING if sh.kind == PAIR else MELDS_OPENING for sh in shapes}
    if len(kinds) > 1:
        raise Refusal("mixed_opening")
    return kinds.pop()


def _place(s: HandState, seat: int, shapes: list[Any], owner: int | None = None) -> list[TableMeld]:
    new = []
    for sh in shapes:
        m = TableMeld(
            s.next_meld_id, seat if owner is None else owner, seat, sh.kind, sh.tiles, sh.plays
        )
        s.next_meld_id += 1
        new.append(m)
    s.melds = s.melds + tuple(new)
    tiles = [t for sh in shapes for t in sh.tiles]
    s.racks = _set(s.racks, seat, _remove(s.racks[seat], tiles))
    s.turn_okeys = s.turn_okeys | {t for t in tiles if s.is_okey(t)}
    return new


def _check_keep(s: HandState, seat: int, n_out: int) -> None:
    if len(s.racks[seat]) - n_out < 1:
        raise Refusal("keep_one_tile")


def _confirm_opening(
    s: HandState, r: LayDownRules, seat: int, melds: list[TableMeld], ev: list[dict]
) -> None:
    kind = PAIRS_OPENING if melds[0].kind == PAIR else MELDS_OPENING
    total = sum(r.meld_value(m.kind, m.plays) for m in melds)
    r.check_opening(s, kind, total, len(melds))
    s.opened = _set(s.opened, seat, kind)
    s.opened_turn = _set(s.opened_turn, seat, s.turn_no)
    s.limit = r.after_open(s, kind, total)
    if s.taken is not None and any(s.taken in m.tiles for m in melds):
        s.taken = None
        s.snapshot = None
    s.provisional = ()
    ev.append(
        {
            "type": "opened",
            "seat": seat,
            "kind": kind,
            "total": total,
            "melds": [m.id for m in melds],
            "limit": s.limit,
        }
    )


def _open(s: HandState, a: dict, ev: list[dict]) -> HandState:
    r = _lay_down_rules_with(s, "open")
    _need_phase(s, PLAY)
    seat = a["seat"]
    if s.opened[seat] is not None:
        raise Refusal("already_opened")
    shapes = _shapes(s, a, r)
    _opening_kind(shapes)
    tiles = [t for sh in shapes for t in sh.tiles]
    _need_in_rack(s, seat, tiles)
    _check_keep(s, seat, len(tiles))
    refused = r.opening_refusal(s, seat, tiles)
    if refused is not None:
        raise refused
    prov = [m for m in s.melds if m.id in s.provisional]
    new = _place(s, seat, shapes)
    ev.append({"type": "laid", "seat": seat, "melds": [m.to_json() for m in new]})
    _opening_kind([*prov, *new])
    _confirm_opening(s, r, seat, [*prov, *new], ev)
    return s


def _lay(s: HandState, a: dict, ev: list[dict]) -> HandState:
    r = _lay_down_rules_with(s, "lay")
    _need_phase(s, PLAY)
    seat = a["seat"]
    shapes = _shapes(s, a, r)
    kind = _opening_kind(shapes)
    tiles = [t for sh in shapes for t in sh.tiles]
    _need_in_rack(s, seat, tiles)
    _check_keep(s, seat, len(tiles))
    mine = s.opened[seat]
    owner = None
    lines: list[dict] = []
    if mine is not None and s.taken in tiles and not r.taken_in_new_meld(mine):
        raise Refusal("taken_not_in_new_meld")
    if mine is None:
        if not r.may_lay_unopened(s, seat):
            raise Refusal("not_opened")
        if "to" in a:
            raise Refusal("bad_receiver")
        prov = [m for m in s.melds if m.id in s.provisional]
        _opening_kind([*prov, *shapes])
    elif mine == PAIRS_OPENING:
        if kind != PAIRS_OPENING or "to" in a:
            raise Refusal("wrong_meld_type")  # [D13] pairs openers lay pairs only
    else:
        if kind == PAIRS_OPENING:
            to = a.get("to")
            if not r.may_give_pairs(s, seat):
                raise Refusal("wrong_meld_type")
            if to is None or to == seat or s.opened[to] != PAIRS_OPENING:
                raise Refusal("bad_receiver")
            owner = to
            for sh in shapes:
                lines += r.give_pair_lines(s, seat, to, sh.plays[0])
        elif "to" in a:
            raise Refusal("bad_receiver")
    new = _place(s, seat, shapes, owner)
    ev.append({"type": "laid", "seat": seat, "melds": [m.to_json() for m in new]})
    if mine is None:
        s.provisional = s.provisional + tuple(m.id for m in new)
    elif s.taken is not None and s.taken in tiles:
        s.taken = None
        s.snapshot = None
    _score(s, lines, ev)
    return s


def _can_add(s: HandState, r: LayDownRules, seat: int) -> None:
    mine = s.opened[seat]
    if mine is None:
        raise Refusal("not_opened")
    if not r.opener_may_add(mine):
        raise Refusal("pairs_opener_cannot_add")


def _tile_onto_meld(s: HandState, a: dict) -> tuple[LayDownRules, int, int, TableMeld]:
    """Common checks of ``add`` and ``swap``: a rule set that has them, play phase, an
    opener allowed to touch melds, the tile in the rack, the meld on the table."""
    r = _lay_down_rules_with(s, a["type"])
    _need_phase(s, PLAY)
    seat, tile = a["seat"], a["tile"]
    _can_add(s, r, seat)
    _need_in_rack(s, seat, [tile])
    meld = s.meld_by_id(a["meld"])
    if meld is None:
        raise Refusal("unknown_meld")
    return r, seat, tile, meld


def _add(s: HandState, a: dict, ev: list[dict]) -> HandState:
    r, seat, tile, meld = _tile_onto_meld(s, a)
    options = placements(tile, meld, s.okey_kind, r.ace_high)
    if "as" in a:
        options = [o for o in options if o[1] == a["as"]]
    if not options:
        raise Refusal("does_not_fit")
    end, kind = next((o for o in options if o[0] == HIGH), options[0])
    if r.end_used(s, meld.id, end):
        raise Refusal("end_used_this_turn")
    _check_keep(s, seat, 1)
    if s.taken == tile and not r.taken_onto_table(s.opened[seat]):
        raise Refusal("must_use_in_new_meld")
    lines = r.add_lines(s, seat, meld, tile, kind)
    new = added(meld, tile, end, kind)
    s.melds = tuple(new if m.id == meld.id else m for m in s.melds)
    s.racks = _set(s.racks, seat, _remove(s.racks[seat], [tile]))
    s.turn_ends = s.turn_ends | {(meld.id, end)}
    if s.is_okey(tile):
        s.turn_okeys = s.turn_okeys | {tile}
    if s.taken == tile:
        s.taken = None
        s.snapshot = None
    ev.append(
        {"type": "added", "seat": seat, "tile": tile, "meld": meld.id, "end": end, "plays": kind}
    )
    _score(s, lines, ev)
    return s


def _swap(s: HandState, a: dict, ev: list[dict]) -> HandState:
    r, seat, tile, meld = _tile_onto_meld(s, a)
    idx = swap_index(tile, meld, s.okey_kind)
    if idx is None:
        raise Refusal("no_okey_to_swap")
    okey = meld.tiles[idx]
    refused = r.swap_refusal(s, meld, okey)
    if refused is not None:
        raise refused
    if s.taken == tile and not r.taken_onto_table(s.opened[seat]):
        raise Refusal("must_use_in_new_meld")
    kind = meld.plays[idx]
    lines = r.swap_lines(s, seat, meld, kind)
    new = swapped(meld, idx, tile)
    s.melds = tuple(new if m.id == meld.id else m for m in s.melds)
    rack = _remove(s.racks[seat], [tile]) + (okey,)
    s.racks = _set(s.racks, seat, rack)
    if s.taken == tile:
        s.taken = None
        s.snapshot = None
    ev.append({"type": "swapped", "seat": seat, "tile": tile, "meld": meld.id, "okey": okey})
    _score(s, lines, ev)
    return s


def _resolve_provisional(s: HandState, r: Rules, seat: int, ev: list[dict]) -> None:
    """At the discard a provisional opening (``Rules.may_lay_unopened``, seventeen) is
    confirmed or returned; without one, nothing happens."""
    if not s.provisional:
        return
    prov = [m for m in s.melds if m.id in s.provisional]
    try:
        # only lay-down rule sets place provisional melds (``Rules.may_lay_unopened``)
        _confirm_opening(s, cast("LayDownRules", r), seat, prov, ev)
        return
    except Refusal:
        if s.taken is not None and any(s.taken in m.tiles for m in prov):
            raise Refusal(
                "must_use_taken_discard",
                "Your opening with the taken discard does not reach the limit: undo the take.",
            ) from None
    back = [t for m in prov for t in m.tiles]
    s.melds = tuple(m for m in s.melds if m.id not in s.provisional)
    s.racks = _set(s.racks, seat, s.racks[seat] + tuple(back))
    s.turn_okeys = s.turn_okeys - set(back)
    s.provisional = ()
    ev.append({"type": "returned", "seat": seat, "tiles": back})


def _discard(s: HandState, a: dict, ev: list[dict], force: bool = False) -> HandState:
    _need_phase(s, PLAY)
    seat, tile = a["seat"], a["tile"]
    _need_in_rack(s, seat, [tile])
    r = s.rules
    _resolve_provisional(s, r, seat, ev)
    if s.taken is not None:
        raise Refusal(r.unused_take_refusal)
    final = r.finishes_by_discard(s, seat)
    lines = r.discard_lines(s, seat, tile, final)
    _score(s, lines, ev)
    if lines and not force and r.discard_goes_back(s, seat, tile):
        # the penalised tile goes back to the rack; the turn goes on
        ev.append({"type": "discard_returned", "seat": seat, "tile": tile})
        return s
    s.racks = _set(s.racks, seat, _remove(s.racks[seat], [tile]))
    s.discards = _set(s.discards, seat, s.discards[seat] + (tile,))
    ev.append({"type": "discarded", "seat": seat, "tile": tile})
    if final:
        # only lay-down rule sets finish by a discard (``Rules.finishes_by_discard``)
        ending, lines = cast("LayDownRules", r).end_lines(s, seat, s.is_okey(tile))
        return end_hand(s, ending, seat, lines, ev, last_tile=tile)
    _end_turn(s)
    s.takeable = tile
    return s


def _flip(s: HandState, a: dict, ev: list[dict]) -> HandState:
    if not s.rules.okeys_flip:
        raise Refusal("not_allowed_in_variant")
    seat, tile = a["seat"], a["tile"]
    _need_in_rack(s, seat, [tile])
    if not s.is_okey(tile):
        raise Refusal("not_an_okey")
    s.flipped = s.flipped ^ {tile}
    ev.append({"type": "flipped", "seat": seat})
    return s


def _arrange(s: HandState, a: dict, ev: list[dict]) -> HandState:
    seat = a["seat"]
    if sorted(a["tiles"]) != sorted(s.racks[seat]):
        raise Refusal("bad_arrangement")
    s.racks = _set(s.racks, seat, tuple(a["tiles"]))
    return s


def _timeout(s: HandState, a: dict, ev: list[dict], before: HandState) -> HandState:
    """[D8] the clock ran out: draw the top of the pile and discard that same tile
    (opening turn: the rightmost tile; an empty pile ends the hand per [D4])."""
    seat = a["seat"]
    ev.append({"type": "timed_out", "seat": seat})
    if s.taken is not None and s.snapshot is not None:
        s = _undo(s, a, ev)
        s = s.clone()
    if s.phase == DRAW:
        if not s.pile:
            return _exhausted(s, ev)
        s = _draw(s, a, ev)
    rack = s.racks[seat]
    tile = s.drawn if s.drawn in rack else rack[-1]
    return _discard(s, {"type": "discard", "seat": seat, "tile": tile}, ev, force=True)


_HANDLERS = {
    "draw": _draw,
    "discard": _discard,
    "close": _close,
    "show": _show,
    "open": _open,
    "lay": _lay,
    "add": _add,
    "swap": _swap,
    "undo": _undo,
    "flip": _flip,
    "arrange": _arrange,
}


def apply(state: HandState, action: dict) -> tuple[HandState, list[dict]]:
    """Apply one action; return the new state and the public events.

    Raises ``Refusal`` (state untouched) for anything illegal or malformed.
    """
    a = normalize_action(action, state.n_players)
    if state.phase == OVER:
        raise Refusal("hand_over")
    if a["type"] not in FREE_ACTIONS and a["seat"] != state.turn:
        raise Refusal("not_your_turn")
    s = state.clone()
    events: list[dict] = []
    t = a["type"]
    if t == "take":
        s = _take(s, a, events, state)
    elif t == "timeout":
        s = _timeout(s, a, events, state)
    else:
        s = _HANDLERS[t](s, a, events)
    s.actions = state.actions + (a,)
    return s, events


def free_actions_in_a_row(state: HandState, seat: int) -> int:
    """How many free actions (``FREE_ACTIONS``) ``seat`` has played since the
    hand's last move (the last action of any seat that is not a free action)."""
    n = 0
    for a in reversed(state.actions):
        if a["type"] not in FREE_ACTIONS:
            break
        if a["seat"] == seat:
            n += 1
    return n


def check_free_action_limit(state: HandState, action: dict) -> None:
    """Refuse (``too_many_free_actions``) a free action past ``FREE_ACTION_LIMIT``
    in a row for its seat; any other action passes. The service calls it before
    ``apply`` for the actions players send."""
    if not isinstance(action, dict) or action.get("type") not in FREE_ACTIONS:
        return
    seat = action.get("seat")
    if type(seat) is int and free_actions_in_a_row(state, seat) >= FREE_ACTION_LIMIT:
        raise Refusal("too_many_free_actions", limit=FREE_ACTION_LIMIT)


__all__ = [
    "ACTION_FIELDS",
    "FREE_ACTIONS",
    "FREE_ACTION_LIMIT",
    "apply",
    "check_free_action_limit",
    "end_hand",
    "free_actions_in_a_row",
    "is_penalty_tile",
    "legal_actions",
    "normalize_action",
    "penalty_tiles",
    "take_useful",
    "timeout_action",
]


def timeout_action(state: HandState) -> dict | None:
    """[D8] the action the server plays when the turn clock runs out (None when over)."""
    if state.phase == OVER:
        return None
    return {"type": "timeout", "seat": state.turn}
