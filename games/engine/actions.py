"""The state machine: ``apply(state, action) -> (new_state, events)``.

The input state is never mutated: each handler works on a shallow clone and
replaces whole fields (tuples), and a ``Refusal`` raised anywhere discards the
clone. Variant differences come from ``state.rules`` (see ``rules.py``).
"""

from __future__ import annotations

from typing import Any

from .melds import GROUP, PAIR, RUN, classify, plays_as
from .refusals import Refusal
from .rules import MELDS_OPENING, PAIRS_OPENING, LayDownRules, WholeRackRules
from .state import DRAW, OVER, PLAY, HandState
from .table import (
    HIGH,
    TableMeld,
    added,
    is_usable,
    placements,
    seven_pairs,
    swap_index,
    swapped,
)
from .tiles import FALSE_KIND, N_TILES, kind_of, parse_kind

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


def _lay_down(s: HandState) -> LayDownRules:
    r = s.rules
    if not isinstance(r, LayDownRules):
        raise Refusal("not_allowed_in_variant")
    return r


def _whole(s: HandState) -> WholeRackRules:
    r = s.rules
    if not isinstance(r, WholeRackRules):
        raise Refusal("not_allowed_in_variant")
    return r


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
    r = s.rules
    if isinstance(r, LayDownRules):
        ending, lines = r.end_lines(s, None, False)
    else:
        ending, lines = "exhausted", []
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
    if isinstance(r, LayDownRules) or not s.pile:
        # [D12] the tile must be used this turn (whole-rack, empty pile [D4]: to close)
        s.taken = tile
        s.snapshot = before
    took = s.took or ((),) * s.n_players
    s.took = _set(took, seat, took[seat] + (tile,))
    ev.append({"type": "took", "seat": seat, "tile": tile, "from": prev})
    if isinstance(r, LayDownRules):
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
    r = _whole(s)
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
    r = _whole(s)
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
        from .evaluate import is_winning

        arr = is_winning(list(keep), s.okey_kind, ace_high=r.ace_high)
        if arr is None:
            raise Refusal("not_winning")
        shown = [list(sh.tiles) for sh in arr.melds]
    if "melds" in a and not pairs:
        shown = [list(m) for m in a["melds"]]  # the player's own arrangement
    from .scoring import close_ending

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
    r = _lay_down(s)
    _need_phase(s, PLAY)
    seat = a["seat"]
    if s.opened[seat] is not None:
        raise Refusal("already_opened")
    shapes = _shapes(s, a, r)
    _opening_kind(shapes)
    tiles = [t for sh in shapes for t in sh.tiles]
    _need_in_rack(s, seat, tiles)
    _check_keep(s, seat, len(tiles))
    prov = [m for m in s.melds if m.id in s.provisional]
    new = _place(s, seat, shapes)
    ev.append({"type": "laid", "seat": seat, "melds": [m.to_json() for m in new]})
    _opening_kind([*prov, *new])
    _confirm_opening(s, r, seat, [*prov, *new], ev)
    return s


def _lay(s: HandState, a: dict, ev: list[dict]) -> HandState:
    r = _lay_down(s)
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
    if mine is not None and r.take_opening_or_table_only and s.taken in tiles:
        raise Refusal("taken_not_in_new_meld")
    if mine is None:
        if not r.provisional:
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
            if not r.rg_opener_gives_pairs:
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
    if s.opened[seat] is None:
        raise Refusal("not_opened")
    if s.opened[seat] == PAIRS_OPENING and not r.pairs_opener_may_add:
        raise Refusal("pairs_opener_cannot_add")


def _tile_onto_meld(s: HandState, a: dict) -> tuple[LayDownRules, int, int, TableMeld]:
    """Common checks of ``add`` and ``swap``: lay-down variant, play phase, an
    opener allowed to touch melds, the tile in the rack, the meld on the table."""
    r = _lay_down(s)
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
    if r.one_tile_per_end and (meld.id, end) in s.turn_ends:
        raise Refusal("end_used_this_turn")
    _check_keep(s, seat, 1)
    if s.taken == tile and r.take_new_meld_only:
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
    if r.swap_not_same_turn and okey in s.turn_okeys:
        raise Refusal("swap_forbidden", "An okey placed this turn cannot be swapped out this turn.")
    if r.swap_group_needs_four and meld.kind == GROUP and len(meld.tiles) < 4:
        raise Refusal("swap_forbidden", "To take an okey out of a group it must hold four colours.")
    if s.taken == tile and r.take_new_meld_only:
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


def _resolve_provisional(s: HandState, r: LayDownRules, seat: int, ev: list[dict]) -> None:
    """seventeen: at the discard a provisional opening is confirmed or returned."""
    if not s.provisional:
        return
    prov = [m for m in s.melds if m.id in s.provisional]
    try:
        _confirm_opening(s, r, seat, prov, ev)
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
    if isinstance(r, WholeRackRules):
        if s.taken is not None:
            raise Refusal("must_finish")
        final = False
    else:
        _resolve_provisional(s, r, seat, ev)
        if s.taken is not None:
            raise Refusal("must_use_taken_discard")
        final = s.opened[seat] is not None and len(s.racks[seat]) == 1
        lines = r.discard_lines(s, seat, tile, final)
        _score(s, lines, ev)
        if lines and r.discard_returns and not force:
            rest = [t for t in s.racks[seat] if t != tile]
            if any(not r.discard_lines(s, seat, t, False) for t in rest):
                # the penalised tile goes back to the rack; the turn goes on
                ev.append({"type": "discard_returned", "seat": seat, "tile": tile})
                return s
    s.racks = _set(s.racks, seat, _remove(s.racks[seat], [tile]))
    s.discards = _set(s.discards, seat, s.discards[seat] + (tile,))
    ev.append({"type": "discarded", "seat": seat, "tile": tile})
    if final:
        ending, lines = r.end_lines(s, seat, s.is_okey(tile))
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


def penalty_tiles(state: HandState, tiles: Any) -> set[int]:
    """Which of ``tiles`` would be penalised if discarded now (not as the finishing
    discard): usable tiles, and okeys in seventeen."""
    from .table import _fits

    if not state.melds:
        kinds: frozenset[int] = frozenset()
        any_slot = False
    else:
        kinds, any_slot = _fits(state.melds, state.okey_kind, state.rules.ace_high)
    okey_bad = state.rules.okey_discard_penalised
    out = set()
    for t in tiles:
        p = plays_as(t, state.okey_kind)
        if (p is None and (any_slot or okey_bad)) or (p is not None and p in kinds):
            out.add(t)
    return out


def is_penalty_tile(state: HandState, tile: int) -> bool:
    """Would discarding ``tile`` now (not as the finishing discard) be penalised?"""
    return is_usable(tile, state.melds, state.okey_kind, state.rules.ace_high) or (
        state.rules.okey_discard_penalised and state.is_okey(tile)
    )


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


# ------------------------------------------------------------ legal actions


def _closing_tiles(state: HandState, seat: int) -> list[int]:
    """Every tile of a 15-tile rack whose putting down leaves a winning rack."""
    from .evaluate import is_winning
    from .table import meld_close_candidates

    rack = state.racks[seat]
    ace_high = state.rules.ace_high
    if len(rack) != 15:
        return []
    cands = meld_close_candidates(rack, state.okey_kind, ace_high)
    if cands != set() and (cands is None or len(cands) > 4):
        # one search (about four winning checks) gates many: if the 15 tiles cannot be
        # arranged leaving at most one tile, no choice of tile to put down leaves a
        # runs-and-groups rack
        from .evaluate import best_arrangement

        arr = best_arrangement(list(rack), state.okey_kind, ace_high=ace_high, pairs=False)
        if len(arr.leftover) > 1:
            cands = set()
    # seven pairs after putting down one tile, from the counts of the 15
    okeys = 0
    count: dict[int, int] = {}
    for t in rack:
        k = kind_of(t)
        if k == state.okey_kind:
            okeys += 1
        else:
            k = state.okey_kind if k == FALSE_KIND else k
            count[k] = count.get(k, 0) + 1
    singles = sum(1 for v in count.values() if v == 1)
    out = []
    tried: dict[int, bool] = {}
    for t in rack:
        if t == state.taken:
            continue
        k = kind_of(t)
        if k not in tried:
            if state.is_okey(t):
                j, sg = okeys - 1, singles
            else:
                pk = state.okey_kind if k == FALSE_KIND else k
                j, sg = okeys, singles + (-1 if count[pk] == 1 else 1)
            ok = sg <= j and (j - sg) % 2 == 0
            if not ok and (cands is None or (not state.is_okey(t) and _plain(state, t) in cands)):
                keep = [x for x in rack if x != t]
                ok = is_winning(keep, state.okey_kind, ace_high=ace_high) is not None
            tried[k] = ok
        if tried[k]:
            out.append(t)
    return out


def _plain(state: HandState, t: int) -> int:
    k = kind_of(t)
    return state.okey_kind if k == FALSE_KIND else k


def _shape_action(kind: str, seat: int, shapes: list[Any], state: HandState, **extra: Any) -> dict:
    act: dict[str, Any] = {"type": kind, "seat": seat, "melds": [list(sh.tiles) for sh in shapes]}
    assign = {
        str(t): k
        for sh in shapes
        for t, k in zip(sh.tiles, sh.plays, strict=True)
        if state.is_okey(t)
    }
    if assign:
        act["assign"] = assign
    act.update(extra)
    return act


def _trim_to_keep(shapes: list[Any], rack_len: int) -> list[Any]:
    """Drop melds from the end until at least one tile stays in the rack."""
    shapes = list(shapes)
    while shapes and sum(len(sh.tiles) for sh in shapes) >= rack_len:
        shapes.pop()
    return shapes


def _pair_shapes(state: HandState, tiles: Any) -> list[Any]:
    from .melds import Shape
    from .table import find_pairs

    out = []
    okey_kind = state.okey_kind
    for a, b in find_pairs(tiles, okey_kind):
        k = plays_as(a, okey_kind)
        if k is None:
            k = plays_as(b, okey_kind)
        if k is None:
            k = okey_kind  # the two okeys together are a pair of identical tiles
        out.append(Shape(PAIR, (a, b), (k, k)))
    return out


def _opening_suggestions(state: HandState, seat: int, r: LayDownRules) -> list[dict]:
    from .evaluate import best_arrangement

    rack = state.racks[seat]
    out = []
    need = r.opening_min(state, MELDS_OPENING)
    if r.values == "sum" and _sum_bound(rack, state.okey_kind, r.ace_high) < need:
        rg = []  # even every tile that could sit in a meld would not reach the barrier
    else:
        arr = best_arrangement(list(rack), state.okey_kind, ace_high=r.ace_high,
                               values=r.values, pairs=False)  # fmt: skip
        rg = [sh for sh in arr.melds if sh.kind != PAIR]
    rg.sort(key=lambda sh: -r.meld_value(sh.kind, sh.plays))
    rg = _trim_to_keep(rg, len(rack))
    if rg:
        total = sum(r.meld_value(sh.kind, sh.plays) for sh in rg)
        if total >= need:
            out.append(_shape_action("open", seat, rg, state))
    pairs = _pair_shapes(state, rack)
    pairs.sort(key=lambda sh: -r.meld_value(sh.kind, sh.plays))
    pairs = _trim_to_keep(pairs, len(rack))
    if pairs and len(pairs) >= r.pairs_opening_min_pairs:
        total = sum(r.meld_value(sh.kind, sh.plays) for sh in pairs)
        if total >= r.opening_min(state, PAIRS_OPENING):
            out.append(_shape_action("open", seat, pairs, state))
    if state.taken is not None:
        out = [o for o in out if any(state.taken in m for m in o["melds"])]
        if not any(o["melds"] and len(o["melds"][0]) > 2 for o in out):
            built = _opening_around(state, seat, r, state.taken, need)
            if built:
                out.insert(0, _shape_action("open", seat, built, state))
    return out


def _melds_with(state: HandState, tile: int, rack: tuple[int, ...], r: LayDownRules) -> list:
    """Runs (3 to 5 tiles) and groups holding ``tile``, from ``rack`` and its okeys."""
    from itertools import combinations

    okey_kind = state.okey_kind
    p = plays_as(tile, okey_kind)
    if p is None:
        return []
    okeys = [t for t in rack if t != tile and plays_as(t, okey_kind) is None]
    by_kind: dict[int, int] = {}
    for t in rack:
        q = plays_as(t, okey_kind)
        if t != tile and q is not None:
            by_kind.setdefault(q, t)
    c, n0 = divmod(p, 13)
    out = []

    def build(kinds: list[int | None], allow: tuple[str, ...]) -> None:
        tiles, assign, used = [], {}, 0
        for k in kinds:
            if k is None:
                tiles.append(tile)
                continue
            t = by_kind.get(k)
            if t is None:
                if used >= len(okeys):
                    return
                t = okeys[used]
                used += 1
                assign[t] = k
            tiles.append(t)
        sh = classify(tiles, okey_kind, ace_high=r.ace_high, allow=allow, assign=assign)
        if sh is not None:
            out.append(sh)

    others = [cc for cc in range(4) if cc != c]
    for size in (2, 3):
        for combo in combinations(others, size):
            build([None, *(cc * 13 + n0 for cc in combo)], (GROUP,))
    pos_list = [1, 14] if (n0 == 0 and r.ace_high) else [n0 + 1]
    top = 14 if r.ace_high else 13
    for pos in pos_list:
        for start in range(max(1, pos - 4), pos + 1):
            for end in range(max(pos, start + 2), min(top, start + 4) + 1):
                build(
                    [
                        None if q == pos else c * 13 + (0 if q == 14 else q - 1)
                        for q in range(start, end + 1)
                    ],
                    (RUN,),
                )
    return out


def _opening_around(
    state: HandState, seat: int, r: LayDownRules, tile: int, need: int
) -> list | None:
    """A runs-and-groups opening that holds ``tile`` (the taken discard) and reaches
    ``need``: each meld holding it, plus the best arrangement of the rest."""
    from .evaluate import best_arrangement

    rack = state.racks[seat]
    cands = _melds_with(state, tile, rack, r)
    cands.sort(key=lambda sh: -r.meld_value(sh.kind, sh.plays))
    for m in cands[:24]:
        rest = [t for t in rack if t not in m.tiles]
        arr = best_arrangement(
            rest, state.okey_kind, ace_high=r.ace_high, values=r.values, pairs=False
        )
        more = [sh for sh in arr.melds if sh.kind != PAIR]
        more.sort(key=lambda sh: -r.meld_value(sh.kind, sh.plays))
        melds = [m, *_trim_to_keep(more, len(rack) - len(m.tiles))]
        if len(rack) - sum(len(sh.tiles) for sh in melds) < 1:
            continue
        if sum(r.meld_value(sh.kind, sh.plays) for sh in melds) >= need:
            return melds
    return None


def _sum_bound(rack: tuple[int, ...], okey_kind: int, ace_high: bool) -> int:
    """An upper bound of a runs-and-groups opening's number total (fifty-one): without
    okeys only tiles with a complete real meld around them count, with one okey only
    tiles with a partner; each okey counts 13."""
    from .table import _support

    okeys = 0
    kinds = []
    for t in rack:
        k = kind_of(t)
        if k == okey_kind:
            okeys += 1
        else:
            kinds.append(okey_kind if k == FALSE_KIND else k)
    if okeys >= 2:
        return 13 * len(rack)
    none, partial = _support(kinds, ace_high)
    drop = list(partial if okeys == 0 else none)
    total = 0
    for k in kinds:
        if k in drop:
            drop.remove(k)
        else:
            total += k % 13 + 1
    return total + 13 * okeys


def _lay_suggestions(state: HandState, seat: int, r: LayDownRules) -> list[dict]:
    from .evaluate import best_arrangement

    rack = state.racks[seat]
    out = []
    mine = state.opened[seat]
    if r.take_opening_or_table_only and state.taken is not None:
        rack = tuple(t for t in rack if t != state.taken)  # it goes onto the table, or back
    if mine == MELDS_OPENING:
        arr = best_arrangement(list(rack), state.okey_kind, ace_high=r.ace_high, pairs=False)
        for sh in arr.melds:
            if sh.kind != PAIR and len(sh.tiles) < len(rack):
                out.append(_shape_action("lay", seat, [sh], state))
        if r.rg_opener_gives_pairs:
            receivers = [s for s, o in enumerate(state.opened) if o == PAIRS_OPENING]
            for sh in _pair_shapes(state, rack):
                if len(rack) > 2:
                    for to in receivers:
                        out.append(_shape_action("lay", seat, [sh], state, to=to))
    else:
        for sh in _pair_shapes(state, rack):
            if len(rack) > 2:
                out.append(_shape_action("lay", seat, [sh], state))
    return out


def _add_swap_suggestions(state: HandState, seat: int, r: LayDownRules) -> list[dict]:
    mine = state.opened[seat]
    if mine is None or (mine == PAIRS_OPENING and not r.pairs_opener_may_add):
        return []
    from .table import open_slots

    rack = state.racks[seat]
    okey_kind = state.okey_kind
    # per meld, once: the open slots and the okeys that could be swapped out
    slots: dict[int, list[tuple[int, str, int]]] = {}  # plays kind -> [(meld, end, kind)]
    any_slots: list[tuple[int, str, int]] = []
    swaps: dict[int, list[int]] = {}  # plays kind -> [meld ids]
    for m in state.melds:
        for end, kind in open_slots(m, r.ace_high):
            if r.one_tile_per_end and (m.id, end) in state.turn_ends:
                continue
            slots.setdefault(kind, []).append((m.id, end, kind))
            any_slots.append((m.id, end, kind))
        for t, kind in zip(m.tiles, m.plays, strict=True):
            if kind_of(t) != okey_kind:
                continue
            if r.swap_not_same_turn and t in state.turn_okeys:
                continue
            if r.swap_group_needs_four and m.kind == GROUP and len(m.tiles) < 4:
                continue
            swaps.setdefault(kind, []).append(m.id)
    out: list[dict] = []
    for tile in dict.fromkeys(rack):
        if state.taken == tile and r.take_new_meld_only:
            continue
        p = plays_as(tile, okey_kind)
        if len(rack) > 1:
            if p is None:
                for mid, _, kind in any_slots:
                    out.append({"type": "add", "seat": seat, "tile": tile, "meld": mid, "as": kind})
            else:
                for mid, _, _ in slots.get(p, ()):
                    out.append({"type": "add", "seat": seat, "tile": tile, "meld": mid})
        if p is not None:
            for mid in dict.fromkeys(swaps.get(p, ())):
                out.append({"type": "swap", "seat": seat, "tile": tile, "meld": mid})
    return out


def take_useful(state: HandState, seat: int) -> bool:
    """Can ``seat`` use the takeable discard this turn as its variant requires? (A
    cheap, not exhaustive, check: whole-rack with a pile left → always; else a close,
    an opening, an add, or (not in fifty-one once opened, RULES.md §4) a new meld
    that holds the tile is found.)"""
    if state.takeable is None:
        return False
    return _take_useful(state, seat)


def _take_useful(state: HandState, seat: int) -> bool:
    tile = state.takeable
    r = state.rules
    rack = state.racks[seat]
    if isinstance(r, WholeRackRules):
        if state.pile:
            return True
        probe = state.clone()
        probe.racks = _set(probe.racks, seat, rack + (tile,))
        probe.taken = tile
        return bool(_closing_tiles(probe, seat))
    assert isinstance(r, LayDownRules)
    from .evaluate import best_arrangement

    mine = state.opened[seat]
    if (
        mine is not None
        and not r.take_new_meld_only
        and (mine == MELDS_OPENING or r.pairs_opener_may_add)
    ):
        for m in state.melds:
            if placements(tile, m, state.okey_kind, r.ace_high):
                return True
    if mine is not None and r.take_opening_or_table_only:
        return False  # once opened, only onto a table meld (above)
    probe = state.clone()
    probe.racks = _set(probe.racks, seat, rack + (tile,))
    probe.taken = tile
    probe.phase = PLAY
    if mine is None:
        return bool(_opening_suggestions(probe, seat, r))
    if mine == PAIRS_OPENING:
        return any(tile in sh.tiles for sh in _pair_shapes(probe, rack + (tile,)))
    arr = best_arrangement([*rack, tile], state.okey_kind, ace_high=r.ace_high, pairs=False)
    return any(tile in sh.tiles and len(sh.tiles) <= len(rack) for sh in arr.melds)


def legal_actions(state: HandState, seat: int) -> list[dict]:
    """The actions ``seat`` may play now: complete for draw/take/discard/close/show/
    undo/flip; a useful set of open/lay/add/swap (see API.md)."""
    if state.phase == OVER or not (isinstance(seat, int) and 0 <= seat < state.n_players):
        return []
    r = state.rules
    out: list[dict] = []
    if r.okeys_flip:
        for t in state.racks[seat]:
            if state.is_okey(t):
                out.append({"type": "flip", "seat": seat, "tile": t})
    if seat != state.turn:
        return out
    rack = state.racks[seat]
    if isinstance(r, WholeRackRules):
        twin = state.indicator ^ 1
        if twin in rack and seat not in state.shown and r.show_allowed(state, seat):
            out.append({"type": "show", "seat": seat, "tile": twin})
    if state.phase == DRAW:
        out.append({"type": "draw", "seat": seat})
        if state.takeable is not None and not state.undone:
            out.append({"type": "take", "seat": seat})
        return out
    if state.taken is not None:
        out.append({"type": "undo", "seat": seat})
    if isinstance(r, WholeRackRules):
        for t in _closing_tiles(state, seat):
            out.append({"type": "close", "seat": seat, "tile": t})
        if state.taken is None:
            out += [{"type": "discard", "seat": seat, "tile": t} for t in rack]
        return out
    assert isinstance(r, LayDownRules)
    taken_ok = False
    if state.taken is not None and state.provisional:
        prov = [m for m in state.melds if m.id in state.provisional]
        if any(state.taken in m.tiles for m in prov):
            kind = PAIRS_OPENING if prov[0].kind == PAIR else MELDS_OPENING
            total = sum(r.meld_value(m.kind, m.plays) for m in prov)
            taken_ok = total >= r.opening_min(state, kind)
    if state.taken is None or taken_ok:
        out += [{"type": "discard", "seat": seat, "tile": t} for t in rack]
    if state.opened[seat] is None:
        if not state.provisional:
            out += _opening_suggestions(state, seat, r)
    else:
        out += _lay_suggestions(state, seat, r)
        out += _add_swap_suggestions(state, seat, r)
    return out


def timeout_action(state: HandState) -> dict | None:
    """[D8] the action the server plays when the turn clock runs out (None when over)."""
    if state.phase == OVER:
        return None
    return {"type": "timeout", "seat": state.turn}
