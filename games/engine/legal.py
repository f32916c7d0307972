"""The legal-move generator: ``legal_actions(state, seat)`` and what it uses.

It lists what ``seat`` may play now (complete for draw/take/discard/close/show/undo/flip;
a useful set of open/lay/add/swap, see API.md), and answers the CPU players' and the
assisted table's questions: ``take_useful`` (can the takeable discard be used as the rule
set requires?), ``penalty_tiles`` / ``is_penalty_tile`` (which discards cost a penalty).
It never changes a state: the transitions are in ``actions.py``.

What differs between rule sets is asked of the rules object (``state.rules``):
``legal_turn_actions`` and ``can_use_take`` (``rulebase.py``), whose whole-rack and
lay-down versions call the building blocks below (``whole_rack_turn_actions``,
``lay_down_turn_actions``, ``lay_down_take_useful``, ...). So this module sits below the
rules: it imports neither ``rules`` nor ``state`` (only their types, for annotations).
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any

from .evaluate import best_arrangement, is_winning
from .melds import GROUP, MELDS_OPENING, PAIR, PAIRS_OPENING, RUN, Shape, classify, plays_as
from .phases import DRAW, OVER, PLAY
from .table import (
    find_pairs,
    fits,
    is_usable,
    meld_close_candidates,
    open_slots,
    placements,
    support,
)
from .tiles import FALSE_KIND, kind_of

if TYPE_CHECKING:
    from .rulebase import LayDownRules
    from .state import HandState


def _with_tile(state: HandState, seat: int, tile: int) -> HandState:
    """A probe: ``state`` with ``tile`` taken into ``seat``'s rack [D12]."""
    probe = state.clone()
    probe.racks = tuple(r + (tile,) if i == seat else r for i, r in enumerate(state.racks))
    probe.taken = tile
    return probe


def penalty_tiles(state: HandState, tiles: Any) -> set[int]:
    """Which of ``tiles`` would be penalised if discarded now (not as the finishing
    discard): usable tiles, and okeys where the rule set penalises them."""
    if not state.melds:
        kinds: frozenset[int] = frozenset()
        any_slot = False
    else:
        kinds, any_slot = fits(state.melds, state.okey_kind, state.rules.ace_high)
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


def _closing_tiles(state: HandState, seat: int) -> list[int]:
    """Every tile of a full rack (the deal's size plus the drawn tile) whose putting down
    leaves a winning rack."""
    rack = state.racks[seat]
    ace_high = state.rules.ace_high
    if len(rack) != state.rules.rack_size + 1:
        return []
    cands = meld_close_candidates(rack, state.okey_kind, ace_high)
    if cands != set() and (cands is None or len(cands) > 4):
        # one search (about four winning checks) gates many: if the 15 tiles cannot be
        # arranged leaving at most one tile, no choice of tile to put down leaves a
        # runs-and-groups rack
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
    """Every pair ``tiles`` hold, as shapes (what a close's seven pairs or a pairs opening
    lays down)."""
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
    none, partial = support(kinds, ace_high)
    drop = list(partial if okeys == 0 else none)
    total = 0
    for k in kinds:
        if k in drop:
            drop.remove(k)
        else:
            total += k % 13 + 1
    return total + 13 * okeys


def _lay_suggestions(state: HandState, seat: int, r: LayDownRules) -> list[dict]:
    rack = state.racks[seat]
    out = []
    mine = state.opened[seat]
    if state.taken is not None and not r.taken_in_new_meld(mine):
        rack = tuple(t for t in rack if t != state.taken)  # it goes onto the table, or back
    if mine == MELDS_OPENING:
        arr = best_arrangement(list(rack), state.okey_kind, ace_high=r.ace_high, pairs=False)
        for sh in arr.melds:
            if sh.kind != PAIR and len(sh.tiles) < len(rack):
                out.append(_shape_action("lay", seat, [sh], state))
        if r.may_give_pairs(state, seat):
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
    if mine is None or not r.opener_may_add(mine):
        return []
    rack = state.racks[seat]
    okey_kind = state.okey_kind
    # per meld, once: the open slots and the okeys that could be swapped out
    slots: dict[int, list[tuple[int, str, int]]] = {}  # plays kind -> [(meld, end, kind)]
    any_slots: list[tuple[int, str, int]] = []
    swaps: dict[int, list[int]] = {}  # plays kind -> [meld ids]
    for m in state.melds:
        for end, kind in open_slots(m, r.ace_high):
            if r.end_used(state, m.id, end):
                continue
            slots.setdefault(kind, []).append((m.id, end, kind))
            any_slots.append((m.id, end, kind))
        for t, kind in zip(m.tiles, m.plays, strict=True):
            if kind_of(t) != okey_kind:
                continue
            if r.swap_refusal(state, m, t) is not None:
                continue
            swaps.setdefault(kind, []).append(m.id)
    out: list[dict] = []
    for tile in dict.fromkeys(rack):
        if state.taken == tile and not r.taken_onto_table(mine):
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
    """Can ``seat`` use the takeable discard this turn as its rule set requires? (A
    cheap, not exhaustive, check: the rules object's ``can_use_take``.)"""
    if state.takeable is None:
        return False
    return state.rules.can_use_take(state, seat)


def whole_rack_take_useful(state: HandState, seat: int) -> bool:
    """Whole-rack: a take is always of use while the pile lasts; with the pile empty the
    taken tile must close the hand [D4] [D12], so a close that keeps it is found."""
    if state.pile:
        return True
    assert state.takeable is not None  # asked by take_useful, with a takeable discard
    return bool(_closing_tiles(_with_tile(state, seat, state.takeable), seat))


def lay_down_take_useful(state: HandState, seat: int, r: LayDownRules) -> bool:
    """Lay-down [D12]: an opening, an add, or (not in fifty-one once opened, RULES.md
    §4) a new meld that holds the takeable discard is found."""
    tile = state.takeable
    assert tile is not None  # asked by take_useful, with a takeable discard
    rack = state.racks[seat]
    mine = state.opened[seat]
    if mine is not None and r.taken_onto_table(mine) and r.opener_may_add(mine):
        for m in state.melds:
            if placements(tile, m, state.okey_kind, r.ace_high):
                return True
    if mine is not None and not r.taken_in_new_meld(mine):
        return False  # once opened, only onto a table meld (above)
    probe = _with_tile(state, seat, tile)
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
    twin = state.indicator ^ 1
    if twin in state.racks[seat] and seat not in state.shown and r.show_allowed(state, seat):
        out.append({"type": "show", "seat": seat, "tile": twin})
    if state.phase == DRAW:
        out.append({"type": "draw", "seat": seat})
        if state.takeable is not None and not state.undone:
            out.append({"type": "take", "seat": seat})
        return out
    if state.taken is not None:
        out.append({"type": "undo", "seat": seat})
    return out + r.legal_turn_actions(state, seat)


def _discards(state: HandState, seat: int) -> list[dict]:
    return [{"type": "discard", "seat": seat, "tile": t} for t in state.racks[seat]]


def whole_rack_turn_actions(state: HandState, seat: int) -> list[dict]:
    """Whole-rack, after the draw: every close, and every discard unless a taken discard
    waits to close the hand [D4] [D12]."""
    out = [{"type": "close", "seat": seat, "tile": t} for t in _closing_tiles(state, seat)]
    if state.taken is None:
        out += _discards(state, seat)
    return out


def lay_down_turn_actions(state: HandState, seat: int, r: LayDownRules) -> list[dict]:
    """Lay-down, after the draw: the discards (none while a taken discard waits to be
    used [D12], unless a provisional opening holding it reaches the limit), then useful
    openings, or, once opened, lays, adds and swaps."""
    out: list[dict] = []
    taken_ok = False
    if state.taken is not None and state.provisional:
        prov = [m for m in state.melds if m.id in state.provisional]
        if any(state.taken in m.tiles for m in prov):
            kind = PAIRS_OPENING if prov[0].kind == PAIR else MELDS_OPENING
            total = sum(r.meld_value(m.kind, m.plays) for m in prov)
            taken_ok = total >= r.opening_min(state, kind)
    if state.taken is None or taken_ok:
        out += _discards(state, seat)
    if state.opened[seat] is None:
        if not state.provisional:
            out += _opening_suggestions(state, seat, r)
    else:
        out += _lay_suggestions(state, seat, r)
        out += _add_swap_suggestions(state, seat, r)
    return out
