"""The bots' decision core: ``decide(view, legal, level, rng)``.

Everything here works from a seat's view (``view_for(state, seat)``) plus that
seat's legal actions: the racks of the other seats and the pile order are never
read. ``Context`` turns the view back into tile ids and table melds once per
decision.

Levels
------
* ``random``: a uniformly random legal action (flips excluded).
* ``easy``: finishes, opens, lays and adds like ``medium``; takes the previous
  discard only when it closes or is needed to open/lay (lay-down variants);
  picks its discard among the few best by leftover count with a random choice.
* ``medium``: greedy. Closes / finishes whenever possible; opens as soon as the
  opening reaches the limit; lays every meld, adds every fitting tile, swaps
  okeys out; never discards an okey or a penalty tile when it can help it;
  discards the leftover tile of the best arrangement with the fewest
  connections (tiles that could complete a meld with it).
* ``hard``: medium plus seen-tile tracking (each tile exists twice: the own rack,
  discards, table melds and the indicator are seen), connections weighted by how
  many completing tiles are still unseen, takes the previous discard when it
  improves the arrangement, keeps its okeys for an okey finish, avoids feeding
  the next player (tiles near the ones it took, the view's public ``took`` log,
  or that fit its melds), decides early between pairs and melds and keeps to it
  (``plan_route``), and ranks the best candidate discards by the unseen tiles
  that would improve the rack.
"""

from __future__ import annotations

import hashlib
import random
from functools import lru_cache
from typing import TYPE_CHECKING, cast

from ..evaluate import _INC, _LEFT, _OK_SHIFT, _SINGLE_BITS, _VAL, _masks, _search, best_arrangement
from ..melds import PAIR, classify
from ..rules import rules_for
from ..table import (
    TableMeld,
    find_pairs,
    is_usable,
    open_slots,
    placements,
    run_positions,
    seven_pairs,
)
from ..tiles import FALSE_KIND, kind_of, parse_kind

if TYPE_CHECKING:
    from ..state import HandState

LEVELS = ("random", "easy", "medium", "hard", "expert")
# Levels that live in a module of their own above this one, which registers its decide
# function here when imported (``bots/expert.py``; ``bots/__init__`` imports it), so this
# module never imports them (tests/engine/test_layers.py: no cycle).
PLUGGED: dict = {}
_SKIP = {"flip", "arrange", "timeout"}


# ----------------------------------------------------------------- evaluation


@lru_cache(maxsize=200_000)
def _arr_cached(key: tuple[int, ...], okey_kind: int, ace_high: bool, values, pairs: bool):
    return best_arrangement(list(key), okey_kind, ace_high=ace_high, values=values, pairs=pairs)


def arrangement(tiles, okey_kind: int, ace_high: bool, values=None, pairs: bool = True):
    """best_arrangement with a cache keyed by the sorted tile ids."""
    return _arr_cached(tuple(sorted(tiles)), okey_kind, ace_high, values, pairs)


# Leftover counts only (no shapes): the bots call this thousands of times per
# hard decision, so it works on the evaluator's packed rack (one int: 2 bits per
# kind, okeys at bit 112) and skips building the arrangement. It reads the
# evaluator's internals (imported above by name, so a renamed one fails at import);
# tests/engine/test_bots.py checks its counts against ``best_arrangement`` for every
# rule set's value mode, ace rule and rack size.
_LEFT_MEMO: dict[tuple, tuple[int, int]] = {}


def pack(tiles, okey_kind: int) -> int:
    inc = _INC[okey_kind]
    return sum(inc[t] for t in tiles)


def search_packed(V: int, mode: str, ace_high: bool) -> tuple[int, int]:
    """(leftover tiles, meld total) of the best runs-and-groups arrangement of ``V``."""
    key = (V, mode, ace_high)
    hit = _LEFT_MEMO.get(key)
    if hit is not None:
        return hit
    j = V >> _OK_SHIFT
    _vecs, masks, two, three = _masks(V)
    score = _search(V, j, mode, ace_high, False, masks, two, three)[0]
    # score = _LEFT × leftover − _VAL × total (+ small)
    left = -(-score // _LEFT)
    res = (left, -((score - left * _LEFT) // _VAL))
    if len(_LEFT_MEMO) > 300_000:
        _LEFT_MEMO.clear()
    _LEFT_MEMO[key] = res
    return res


def left_packed(V: int, mode: str, ace_high: bool, pairs: bool) -> int:
    """Leftover tiles of the best arrangement of the packed rack ``V``."""
    left = search_packed(V, mode, ace_high)[0]
    if pairs:
        j = V >> _OK_SHIFT
        singles = (V & ~(V >> 1) & _SINGLE_BITS).bit_count()
        lp = singles - j if singles >= j else (j - singles) % 2
        left = min(left, lp)
    return left


def left_count(tiles, okey_kind: int, ace_high: bool, values, pairs: bool) -> int:
    """Leftover tiles of the best arrangement of ``tiles`` (as ``best_arrangement``)."""
    return left_packed(pack(tiles, okey_kind), values or "sum", ace_high, pairs)


# -------------------------------------------------------------------- context


class Context:
    """Public facts of one view, in engine terms."""

    # a policy's own reason for its discard, set only when it has one (read with getattr
    # by expert's "Show me" reasons): (reason code, details)
    why: tuple[str, dict]

    def __init__(self, view: dict, legal: list[dict]):
        self.view = view
        # what the rule set means for the play is asked of its rules object (its flags and
        # "CPU hooks", rulebase.Rules), never of the variant's name
        self.rules = rules_for(view["variant"])
        self.whole = self.rules.whole_rack
        self.ace_high = self.rules.ace_high
        self.values = self.rules.values
        self.seat = view["seat"]
        self.n = view["n_players"]
        self.okey = parse_kind(view["okey"])
        self.rack = [t["id"] for t in view["rack"]]
        self.melds = tuple(
            TableMeld(
                m["id"],
                m["owner"],
                m.get("laid_by", m["owner"]),
                m["kind"],
                tuple(t["id"] for t in m["tiles"]),
                tuple(parse_kind(t["plays"]) for t in m["tiles"]),
            )
            for m in view["melds"]
        )
        self.opened = view.get("opened") or [None] * self.n
        self.taken = view["taken"]["id"] if view.get("taken") else None
        self.takeable = view["takeable"]["id"] if view.get("takeable") else None
        self.legal = [a for a in legal if a["type"] not in _SKIP]
        self.next_seat = (self.seat + 1) % self.n
        self._seen: list[int] | None = None
        # the public log of taken discards, as played kinds (-1: a real okey)
        self.took = [[self._played(w) for w in row] for row in view.get("took") or []]
        self.route: str | None = None  # hard, whole-rack: "pairs" or "melds" (see plan_route)
        self.avoid_feeding = True

    # ---------------------------------------------------------------- tiles
    def _played(self, word: str) -> int:
        k = parse_kind(word)
        if k == self.okey:
            return -1
        return self.okey if k == FALSE_KIND else k

    def is_okey(self, t: int) -> bool:
        return kind_of(t) == self.okey

    def kind(self, t: int) -> int:
        """The kind a tile plays (a false joker plays the okey's kind); okey -> -1."""
        k = kind_of(t)
        if k == self.okey:
            return -1
        return self.okey if k == FALSE_KIND else k

    def penalty(self, t: int) -> bool:
        if self.whole:
            return False
        if self.rules.okey_discard_penalised and self.is_okey(t):
            return True
        return is_usable(t, self.melds, self.okey, self.ace_high)

    # ----------------------------------------------------------------- seen
    def unseen(self) -> list[int]:
        """Copies of each played kind (0..51) not seen by this seat; index 52 = okeys."""
        if self._seen is None:
            seen = [0] * 53
            v = self.view

            def mark(t: int) -> None:
                k = self.kind(t)
                seen[52 if k < 0 else k] += 1

            mark(v["indicator"]["id"])
            for t in self.rack:
                mark(t)
            for d in v["discards"]:
                for x in d:
                    mark(x["id"])
            for m in self.melds:
                for t in m.tiles:
                    mark(t)
            # the okey kind has two false jokers + (two okeys counted in slot 52)
            self._seen = [max(0, 2 - s) for s in seen]
        return self._seen

    # ----------------------------------------------------------- evaluation
    def left(self, tiles, pairs: bool | None = None) -> int:
        if pairs is None:
            pairs = self.whole
        vals = None if self.whole else self.values
        return left_count(tiles, self.okey, self.ace_high, vals, pairs)

    def arr(self, tiles, pairs: bool | None = None):
        if pairs is None:
            pairs = self.whole
        vals = None if self.whole else self.values
        return arrangement(tiles, self.okey, self.ace_high, vals, pairs)


def seed_rng(view: dict, level: str) -> random.Random:
    """A deterministic stream from public data of the view (version, seat, rack)."""
    rack = ",".join(str(t["id"]) for t in sorted(view["rack"] or [], key=lambda x: x["id"]))
    text = "|".join(
        str(x)
        for x in (view["variant"], view["version"], view["seat"], view["indicator"]["id"], rack)
    )
    text += "|" + level
    return random.Random(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big"))


# ------------------------------------------------------------ tile potential


def _near(a: int, b: int, ace_high: bool) -> int:
    """Run distance of two numbers of one colour (1 or 2), 0 when not near."""
    d = abs(a - b)
    if ace_high and {a, b} & {1}:
        other = b if a == 1 else a
        d = min(d, abs(14 - other))
    return d if d in (1, 2) else 0


def potential(ctx: Context, t: int, others: list[int], weighted: bool) -> float:
    """How much ``t`` may still become part of a meld with ``others`` (rack tiles)."""
    k = ctx.kind(t)
    if k < 0:
        return 100.0
    unseen = ctx.unseen() if weighted else None
    c, n = divmod(k, 13)
    n += 1
    score = 0.0
    okeys_unseen = unseen[52] if unseen else 2
    for u in others:
        if u == t:
            continue
        ku = ctx.kind(u)
        if ku < 0:
            continue
        cu, nu = divmod(ku, 13)
        nu += 1
        if ku == k:
            w = 1.0 if ctx.whole else 0.6
            if unseen is not None:
                w *= 0.3 + 0.7 * min(1, unseen[k])
            score += w
            continue
        if cu == c:
            d = _near(n, nu, ctx.ace_high)
            if d == 0:
                continue
            w = 3.0 if d == 1 else 2.0
            if unseen is not None:
                need = _run_needs(c, n, nu, d, ctx.ace_high)
                avail = sum(unseen[x] for x in need) + okeys_unseen * 0.5
                w *= min(1.0, 0.15 + avail / (2.0 * max(1, len(need))))
            score += w
        elif nu == n:
            w = 3.0
            if unseen is not None:
                need = [cc * 13 + n - 1 for cc in range(4) if cc not in (c, cu)]
                avail = sum(unseen[x] for x in need) + okeys_unseen * 0.5
                w *= min(1.0, 0.15 + avail / 4.0)
            score += w
    return score


def _run_needs(c: int, a: int, b: int, d: int, ace_high: bool) -> list[int]:
    """Kinds that would complete the partial run a,b (colour c) to three tiles."""
    lo, hi = sorted((a, b))
    if ace_high and lo == 1 and hi >= 12:
        lo, hi = hi, 14
    out = []
    cand = [lo + 1] if d == 2 else [lo - 1, hi + 1]
    top = 14 if ace_high else 13
    for x in cand:
        if 1 <= x <= top:
            out.append(c * 13 + (0 if x == 14 else x - 1))
    return out


# ------------------------------------------------------------------ decisions


def decide(
    view: dict,
    legal: list[dict],
    level: str,
    rng: random.Random | None = None,
    *,
    avoid_feeding: bool | None = None,
) -> dict:
    """The action for the seat of ``view``, chosen among ``legal`` (its legal actions).

    ``avoid_feeding=False`` switches off hard's reading of what the next player
    took (the hint compares both choices to explain a discard)."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r} (choose from {LEVELS})")
    if level == "expert":
        if level not in PLUGGED:
            raise ValueError("the expert level registers itself: import games.engine.bots")
        return PLUGGED[level](view, legal, rng)
    if rng is None:
        rng = seed_rng(view, level)
    ctx = Context(view, legal)
    acts = ctx.legal
    if not acts:
        raise ValueError("no legal action for this seat")
    if level == "random":
        return rng.choice(acts)
    types = {a["type"] for a in acts}
    if "show" in types:
        return next(a for a in acts if a["type"] == "show")
    if level == "hard":
        ctx.route = plan_route(ctx)
    ctx.avoid_feeding = True if avoid_feeding is None else avoid_feeding
    return play(ctx, level, rng)


def play(ctx: Context, level: str, rng: random.Random) -> dict:
    """The plan of ``level`` for a prepared context (the expert reuses hard's)."""
    acts = ctx.legal
    types = {a["type"] for a in acts}
    if ctx.whole:
        return _whole_rack(ctx, acts, types, level, rng)
    return _lay_down(ctx, acts, types, level, rng)


def _first(acts: list[dict], kind: str) -> list[dict]:
    return [a for a in acts if a["type"] == kind]


# ------------------------------------------------------------- whole-rack


def _whole_rack(ctx: Context, acts, types, level, rng) -> dict:
    if "close" in types:
        return _best_close(ctx, _first(acts, "close"))
    if "draw" in types:
        if "take" in types and _whole_take(ctx, level):
            return _first(acts, "take")[0]
        return _first(acts, "draw")[0]
    if ctx.taken is not None and "undo" in types:
        return _first(acts, "undo")[0]
    discards = _first(acts, "discard")
    if not discards:
        return acts[0]
    tile = choose_discard(ctx, [a["tile"] for a in discards], level, rng)
    return next(a for a in discards if a["tile"] == tile)


def _best_close(ctx: Context, closes: list[dict]) -> dict:
    def value(a: dict) -> tuple[int, int]:
        keep = [t for t in ctx.rack if t != a["tile"]]
        return (
            (2 if ctx.is_okey(a["tile"]) else 0) + (2 if seven_pairs(keep, ctx.okey) else 0),
            -a["tile"],
        )

    return max(closes, key=value)


def _whole_take(ctx: Context, level: str) -> bool:
    t = ctx.takeable
    if t is None:
        return False
    if not ctx.view["pile_count"]:
        return take_usable(ctx)  # [D4] only to close at once
    if level == "easy":
        return ctx.left([*ctx.rack, t]) <= 1  # closes at once
    now = ctx.left(ctx.rack)
    after = ctx.left([*ctx.rack, t])  # one more tile: after the discard, after - 1
    if after <= 1:
        return True
    if level == "medium":
        return after - 1 <= now - 2  # completes a meld outright
    if ctx.route is not None:  # hard: progress on the route it plays
        inc = _INC[ctx.okey]
        V = pack(ctx.rack, ctx.okey)
        now, after = route_left(ctx, V), route_left(ctx, V + inc[t])
        if after <= 1:
            return True
    return after - 1 < now  # hard: any improvement


# -------------------------------------------------------------- lay-down


def _lay_down(ctx: Context, acts, types, level, rng) -> dict:
    if "draw" in types:
        takes = _first(acts, "take")
        if takes and _lay_take(ctx, level):
            return takes[0]
        return _first(acts, "draw")[0]
    rack_n = len(ctx.rack)
    if ctx.taken is not None:
        use = [
            a for a in acts if a["type"] in ("open", "lay", "add", "swap") and _uses(a, ctx.taken)
        ]
        if use:
            return max(use, key=lambda a: _meld_size(a))
        undo = _first(acts, "undo")
        if undo:
            return undo[0]
    swaps = _first(acts, "swap")
    if swaps:
        return swaps[0]
    opens = _first(acts, "open")
    if opens:
        return max(opens, key=lambda a: (_is_melds(a, ctx), _meld_size(a)))
    lays = _first(acts, "lay")
    if ctx.opened[ctx.seat] is not None and lays:
        return max(lays, key=lambda a: (_meld_size(a), "to" in a))
    adds = [a for a in _first(acts, "add") if not ctx.is_okey(a["tile"])]
    if not adds:
        # okeys: only when the rack holds nothing but okeys (the last one finishes)
        okey_adds = [a for a in _first(acts, "add") if ctx.is_okey(a["tile"])]
        if okey_adds and all(ctx.is_okey(t) for t in ctx.rack) and rack_n > 1:
            adds = okey_adds
    if adds:
        if level == "easy" and rng.random() < 0.25 and rack_n > 3:
            pass  # easy sometimes forgets a lay-off
        else:
            return _best_add(ctx, adds)
    discards = _first(acts, "discard")
    if discards:
        tile = choose_discard(ctx, [a["tile"] for a in discards], level, rng)
        return next(a for a in discards if a["tile"] == tile)
    undo = _first(acts, "undo")
    if undo:
        return undo[0]
    return acts[0]


def _uses(a: dict, tile: int) -> bool:
    if "melds" in a:
        return any(tile in m for m in a["melds"])
    return a.get("tile") == tile


def _meld_size(a: dict) -> int:
    return sum(len(m) for m in a.get("melds", [])) or 1


def _is_melds(a: dict, ctx: Context) -> bool:
    return any(len(m) > 2 for m in a["melds"])


def _best_add(ctx: Context, adds: list[dict]) -> dict:
    owner = {m.id: m.owner for m in ctx.melds}
    rivals_first = ctx.rules.cpu_lays_off_on_rivals_first
    partner = ctx.rules.partner(seat_state(ctx), ctx.seat) if rivals_first else None

    def key(a: dict):
        # a lay-off onto a rival's meld costs its owner (fifty-one): prefer those; then
        # high tiles (they weigh most in the rack, and cost the owner most)
        rival = rivals_first and owner.get(a["meld"]) not in (ctx.seat, partner)
        return (rival, _num(ctx, a["tile"]), -a["meld"])

    return max(adds, key=key)


class _Seat:
    """Just enough of a state for ``rules.partner`` (options only)."""

    def __init__(self, ctx: Context):
        self.options = ctx.view["options"]


def seat_state(ctx: Context) -> HandState:
    """A ``_Seat`` of the view, typed as the state it stands in for."""
    return cast("HandState", _Seat(ctx))


def _num(ctx: Context, t: int) -> int:
    k = ctx.kind(t)
    return 0 if k < 0 else k % 13 + 1


def _lay_take(ctx: Context, level: str) -> bool:
    """Take the previous discard when it can be used this turn (lay-down rules)."""
    t = ctx.takeable
    if t is None or not take_usable(ctx):
        return False
    if ctx.opened[ctx.seat] is None:
        return True  # opens with it
    # already opened: take it when it fits (it leaves the rack at once)
    return level != "easy"


def take_usable(ctx: Context) -> bool:
    """Can the takeable tile be used this turn (from the view alone)?

    Whole-rack: with an empty pile only a close counts [D4]. Lay-down: in the
    opening (which must reach the limit), on a table meld, or (seventeen, not
    fifty-one: RULES.md §4, §5) in a new meld (pairs for a pairs opener)."""
    t = ctx.takeable
    if t is None:
        return False
    rack = ctx.rack
    both = [*rack, t]
    if ctx.whole:
        if ctx.view["pile_count"]:
            return True
        for d in dict.fromkeys(rack):
            keep = [x for x in both if x != d]
            if seven_pairs(keep, ctx.okey) or ctx.left(keep, pairs=False) == 0:
                return True
        return False
    r = ctx.rules
    mine = ctx.opened[ctx.seat]
    if mine is not None and r.taken_onto_table(mine) and r.opener_may_add(mine):
        for m in ctx.melds:
            if placements(t, m, ctx.okey, ctx.ace_high):
                return True
    if mine is not None and not r.taken_in_new_meld(mine):
        return False  # fifty-one: once opened, only onto a table meld (above)
    if mine is None:
        need = ctx.view.get("opening_min") or {}
        arr = ctx.arr(both, pairs=False)
        rg = sorted(
            (sh for sh in arr.melds if sh.kind != PAIR),
            key=lambda sh: -r.meld_value(sh.kind, sh.plays),
        )
        while rg and sum(len(sh.tiles) for sh in rg) >= len(both):
            rg.pop()
        total = sum(r.meld_value(sh.kind, sh.plays) for sh in rg)
        if rg and total >= need.get("melds", 0) and any(t in sh.tiles for sh in rg):
            return True
        pairs = find_pairs(both, ctx.okey)
        vals = []
        for a, b in pairs:
            sh = classify([a, b], ctx.okey, allow=(PAIR,))
            if sh is not None:
                vals.append((r.meld_value(PAIR, sh.plays), sh))
        vals.sort(key=lambda x: -x[0])
        while vals and 2 * len(vals) >= len(both):
            vals.pop()
        return (
            bool(vals)
            and len(vals) >= r.pairs_opening_min_pairs
            and sum(v for v, _ in vals) >= need.get("pairs", 0)
            and any(t in sh.tiles for _, sh in vals)
        )
    if mine == "pairs":
        return any(t in pr for pr in find_pairs(both, ctx.okey))
    arr = ctx.arr(both, pairs=False)
    return any(t in sh.tiles and len(sh.tiles) <= len(rack) for sh in arr.melds)


# ------------------------------------------------------------------ discards


def choose_discard(ctx: Context, tiles: list[int], level: str, rng: random.Random) -> int:
    rack = ctx.rack
    if len(rack) == 1:
        return rack[0]
    cand = list(dict.fromkeys(tiles))
    # never an okey when something else can go (lay-down: unless it finishes)
    plain = [t for t in cand if not ctx.is_okey(t)]
    if plain:
        cand = plain
    if not ctx.whole:
        clean = [t for t in cand if not ctx.penalty(t)]
        if clean:
            cand = clean
    if len(cand) == 1:
        return cand[0]
    if level == "hard" and ctx.whole:
        return _whole_discard(ctx, cand, [])
    if level == "hard" and ctx.route == "pairs" and not ctx.whole:
        return _pairs_discard(ctx, cand)
    arr = ctx.arr(rack)
    leftover = [t for t in arr.leftover if t in cand]
    if not leftover:
        # every candidate sits in a meld: take the one whose loss hurts least
        scored: list[tuple[float, int]] = [(ctx.left([x for x in rack if x != t]), t) for t in cand]
        best = min(s for s, _ in scored)
        leftover = [t for s, t in scored if s == best]
    # one tile per kind (both copies play the same)
    by_kind: dict[int, int] = {}
    for t in leftover:
        by_kind.setdefault(ctx.kind(t), t)
    leftover = list(by_kind.values())
    if len(leftover) == 1:
        return leftover[0]
    weighted = level == "hard"
    others = [x for x in arr.leftover]
    opened = ctx.opened[ctx.seat] is not None

    def base_cost(t: int) -> float:
        p = potential(ctx, t, others, weighted)
        if ctx.rules.cpu_sheds_high_tiles:
            # tiles left in the rack are counted by their number at the end;
            # before opening, high tiles help reach the barrier
            p += (-0.25 if opened else 0.1) * _num(ctx, t)
        if weighted:
            p += _feed_risk(ctx, t)
        return p

    scored = sorted(((base_cost(t), t) for t in leftover), key=lambda x: (x[0], x[1]))
    if level == "easy":
        top = scored[: min(3, len(scored))]
        return rng.choice(top)[1]
    if level == "medium":
        best = scored[0][0]
        ties = [t for s, t in scored if s - best < 1e-9]
        return ties[0] if len(ties) == 1 else rng.choice(ties)
    # hard: look ahead over the best few candidates
    if not ctx.whole and not opened:
        return _open_discard(ctx, cand)
    top = scored[: min(5, len(scored))]
    outs = {t: _outs(ctx, t) for _, t in top}
    return min(top, key=lambda x: (x[0] * 0.5 - outs[x[1]], x[1]))[1]


def _whole_discard(ctx: Context, cand: list[int], others: list[int]) -> int:
    """Hard, whole-rack: among the tiles whose discard keeps the fewest leftovers,
    the one that leaves the most unseen improving tiles."""
    okey_kind = ctx.okey
    inc = _INC[okey_kind]
    V = pack(ctx.rack, okey_kind)
    by_kind: dict[int, int] = {}
    for t in cand:
        by_kind.setdefault(ctx.kind(t), t)
    scored = []
    for t in by_kind.values():
        scored.append((route_left(ctx, V - inc[t]), t))
    low = min(x for x, _ in scored)
    best_t = [t for x, t in scored if x == low]
    if not others:
        others = list(ctx.arr(ctx.rack).leftover)
    if len(best_t) > 1 and ctx.avoid_feeding:
        # the next player evidently collects these (what it took): keep them
        # unless every equally good discard feeds it
        wants = collected(ctx, ctx.next_seat)
        if wants:
            least = min(wants.get(ctx.kind(t), 0.0) for t in best_t)
            cut = max(least, FEED_MIN - 0.5)
            best_t = [t for t in best_t if wants.get(ctx.kind(t), 0.0) <= cut]
    if len(best_t) == 1:
        return best_t[0]
    ranked = sorted(best_t, key=lambda t: (potential(ctx, t, others, True), t))[:4]
    return max(
        ranked,
        key=lambda t: (_outs(ctx, t) - 0.5 * potential(ctx, t, others, True)
                       - _feed_risk(ctx, t), -t),
    )  # fmt: skip


def _outs(ctx: Context, d: int) -> float:
    """Unseen tiles that would improve the rack kept after discarding ``d``:
    Σ unseen copies × leftover tiles saved (a closing tile counts extra)."""
    keep = [t for t in ctx.rack if t != d]
    unseen = ctx.unseen()
    okey_kind = ctx.okey
    vals = None if ctx.whole else ctx.values
    mode = vals or "sum"
    pairs = ctx.whole and ctx.route != "melds"
    V = pack(keep, okey_kind)

    def left_of(v: int) -> int:
        if ctx.whole and ctx.route is not None:
            return route_left(ctx, v)
        return left_packed(v, mode, ctx.ace_high, pairs)

    base = left_of(V)
    inc = _INC[okey_kind]
    kinds_here = {ctx.kind(t) for t in keep}
    kinds_here.discard(-1)
    near = _near_kinds(kinds_here, ctx.ace_high, pairs)
    slots = _table_slots(ctx)
    total = 0.0
    for k in set(near) | set(slots):
        u = unseen[k]
        if u <= 0:
            continue
        nxt = slots.get(k)
        if nxt is not None:
            # fits a table meld: it leaves the rack at once, and so may the
            # rack tiles it opens the way for (R8 onto a run ending R7, then R9)
            gain = 1 + sum(1 for x in nxt if x in kinds_here)
            total += u * gain
            continue
        tid = 104 if k == okey_kind else 2 * k
        b = inc[tid]
        if (V // b) & 3 >= 2:
            continue
        after = left_of(V + b)
        gain = base + 1 - after  # leftover tiles saved (the new tile included)
        if gain <= 0:
            continue
        if ctx.whole and after <= 1:
            gain += 4  # a closing tile
        total += u * gain
    return total * 0.35


def _table_slots(ctx: Context) -> dict[int, set[int]]:
    """Lay-down, opened (and allowed to add): kinds that fit a table meld now,
    each with the kinds that would fit next beyond it (runs only)."""
    if ctx.whole or not ctx.melds:
        return {}
    mine = ctx.opened[ctx.seat]
    if mine is None or not ctx.rules.opener_may_add(mine):
        return {}
    out: dict[int, set[int]] = {}
    top = 14 if ctx.ace_high else 13
    for m in ctx.melds:
        for end, kind in open_slots(m, ctx.ace_high):
            nxt = out.setdefault(kind, set())
            if m.kind == "run":
                pos = run_positions(m.plays)
                colour = m.plays[0] // 13
                step = -1 if end == "low" else 1
                p = (pos[0] if end == "low" else pos[-1]) + 2 * step
                while 1 <= p <= top and len(nxt) < 3:
                    nxt.add(colour * 13 + (0 if p == 14 else p - 1))
                    p += step
    return out


def _open_discard(ctx: Context, cand: list[int]) -> int:
    """Hard, lay-down, not opened yet: keep the rack whose opening total is nearest
    the limit, counting the unseen tiles that would bring it closer (or reach it)."""
    need = (ctx.view.get("opening_min") or {}).get("melds") or 0
    mode = ctx.values or "sum"
    okey_kind = ctx.okey
    unseen = ctx.unseen()
    pool = max(1, sum(unseen))
    rack = ctx.rack
    by_kind: dict[int, int] = {}
    for t in cand:
        by_kind.setdefault(ctx.kind(t), t)
    others = list(rack)
    first = []
    for k, t in by_kind.items():
        V = pack([x for x in rack if x != t], okey_kind)
        _left, total = search_packed(V, mode, ctx.ace_high)
        first.append((-min(total, need), potential(ctx, t, others, True), k, t, V, total))
    first.sort()
    best = None
    for _pre, pot, _k, t, V, total in first[:6]:
        base = min(total, need)
        gain = opening_gain(ctx, t, V, need, base, unseen)
        score = base + 3.0 * gain / pool - 0.1 * pot
        if best is None or score > best[0]:
            best = (score, t)
    assert best is not None  # a discard has candidates
    return best[1]


def opening_gain(ctx: Context, t: int, V: int, need: int, base: int, unseen: list[int]) -> float:
    """What the unseen tiles near the rack kept after discarding ``t`` (packed ``V``,
    its opening total ``base`` of ``need``) add to the opening: per kind, its unseen
    copies times the total it adds up to the minimum, half the minimum more when it
    reaches it."""
    mode = ctx.values or "sum"
    inc = _INC[ctx.okey]
    kinds_here = {ctx.kind(x) for x in ctx.rack if x != t}
    kinds_here.discard(-1)
    gain = 0.0
    for k in _near_kinds(kinds_here, ctx.ace_high, False):
        u = unseen[k]
        if u <= 0:
            continue
        b = inc[104 if k == ctx.okey else 2 * k]
        if (V // b) & 3 >= 2:
            continue
        t2 = search_packed(V + b, mode, ctx.ace_high)[1]
        g = min(t2, need) - base
        if g > 0:
            gain += u * (g + (need * 0.5 if t2 >= need else 0))
    return gain


_NEAR_CACHE: dict[tuple, tuple[int, ...]] = {}


def _near_kinds(kinds: set[int], ace_high: bool, pairs: bool) -> tuple[int, ...]:
    """Kinds that share a colour within two numbers, or a number, with ``kinds``."""
    key = (frozenset(kinds), ace_high, pairs)
    hit = _NEAR_CACHE.get(key)
    if hit is not None:
        return hit
    out: set[int] = set()
    for k in kinds:
        c, n = divmod(k, 13)
        n += 1
        for dn in (-2, -1, 1, 2):
            m = n + dn
            if ace_high:
                if m == 14:
                    m = 1
                elif m == 0:
                    m = 13 if dn == -1 else 0
                elif m == -1:
                    m = 12
            if 1 <= m <= 13:
                out.add(c * 13 + m - 1)
        for cc in range(4):
            if cc != c:
                out.add(cc * 13 + n - 1)
        if pairs:
            out.add(k)
    res = tuple(sorted(out))
    if len(_NEAR_CACHE) > 50_000:
        _NEAR_CACHE.clear()
    _NEAR_CACHE[key] = res
    return res


def _feed_risk(ctx: Context, t: int) -> float:
    """Hard: how much discarding ``t`` may help the next player (a cost)."""
    k = ctx.kind(t)
    if k < 0:
        return 0.0
    c, n = divmod(k, 13)
    n += 1
    risk = 0.0
    nxt = ctx.next_seat
    if ctx.rules.cpu_fears_next_opener and ctx.opened[nxt] is None:
        # an unopened next player may take it into an opening (worth the base,
        # 400-800, to them in seventeen): high tiles help openings most. Not where
        # the tiles left in the rack cost their number (fifty-one): high tiles go first.
        risk += 0.35 * n
    # tiles the next player threw away: it does not collect those
    for x in ctx.view["discards"][nxt][-4:]:
        kx = ctx.kind(x["id"])
        if kx < 0:
            continue
        cx, nx = divmod(kx, 13)
        nx += 1
        if kx == k or (cx == c and _near(n, nx, ctx.ace_high)) or (nx == n and cx != c):
            risk -= 0.5
    # tiles the next player took (the view's public log); whole-rack variants
    # read it through ``collected`` when choosing among equally good discards
    for kx in ctx.took[nxt] if nxt < len(ctx.took) and not ctx.whole else ():
        if kx >= 0:
            cx, nx = divmod(kx, 13)
            nx += 1
            if kx == k or (cx == c and _near(n, nx, ctx.ace_high)) or (nx == n and cx != c):
                risk += 1.5
    return risk


# ------------------------------------------------------- reading the next player


def _run_mates(n: int, ace_high: bool) -> list[tuple[int, float]]:
    """Numbers one or two away from ``n`` in a run of one colour, with a weight
    (12-13-1 is a run where 1 may be high, 13-1-2 never)."""
    out = []
    for dn, w in ((-1, 1.0), (1, 1.0), (-2, 0.5), (2, 0.5)):
        m = n + dn
        if ace_high and m == 14:
            m = 1  # 13-1, 12-13-1
        elif ace_high and n == 1 and m in (0, -1):
            m = 13 + m  # 1 after 13: 13 and 12
        if 1 <= m <= 13:
            out.append((m, w))
    return out


def collected(ctx: Context, seat: int) -> dict[int, float]:
    """Kinds ``seat`` evidently collects, read from the tiles it took (the view's
    public log): the other colours of a taken number (a group), the same colour
    one or two numbers away (a run), and in whole-rack variants its twin (a pair).
    Weights add up, so the tile that completes two taken tiles weighs double.
    A taken kind the seat threw away since no longer counts. Lay-down variants:
    a taken tile went into a meld on the table, whose slots are penalty tiles
    anyway, so only whole-rack variants read it here."""
    if not ctx.whole or seat >= len(ctx.took) or not ctx.took[seat]:
        return {}
    thrown = {ctx.kind(x["id"]) for x in ctx.view["discards"][seat]}
    out: dict[int, float] = {}
    for x in ctx.took[seat]:
        if x < 0 or x in thrown:
            continue
        c, n = divmod(x, 13)
        n += 1
        for cc in range(4):
            if cc != c:
                k = cc * 13 + n - 1
                out[k] = out.get(k, 0.0) + 1.0
        for m, w in _run_mates(n, ctx.ace_high):
            k = c * 13 + m - 1
            out[k] = out.get(k, 0.0) + w
        out[x] = out.get(x, 0.0) + 0.5
    return out


def feeds_next(ctx: Context, t: int) -> bool:
    """Would discarding ``t`` evidently help the next player (what it took)?"""
    k = ctx.kind(t)
    return k >= 0 and collected(ctx, ctx.next_seat).get(k, 0.0) >= FEED_MIN


# ------------------------------------------------------------ pairs or melds

FEED_MIN = 1.5  # a kind the next player collects with at least this weight is not fed
ROUTE_MARGIN = 2  # pairs when their leftover is this much below the melds' leftover


def pairs_left(V: int) -> int:
    """Leftover tiles of the packed rack ``V`` read as pairs only (okeys pair singles)."""
    j = V >> _OK_SHIFT
    singles = (V & ~(V >> 1) & _SINGLE_BITS).bit_count()
    return singles - j if singles >= j else (j - singles) % 2


def route_left(ctx: Context, V: int) -> int:
    """Leftover count of ``V`` on the route the hard bot plays (whole-rack)."""
    if ctx.route == "pairs":
        return pairs_left(V)
    return left_packed(V, "sum", ctx.ace_high, ctx.route is None)


def _route_gap(ctx: Context, tiles: list[int]) -> float:
    """How much better the pairs route looks than the melds route for ``tiles``:
    melds leftover − pairs leftover, a single whose twin is already seen (dead
    for pairs unless an okey covers it) counting half a tile more."""
    V = pack(tiles, ctx.okey)
    ml = left_packed(V, "sum", ctx.ace_high, False)
    pl = pairs_left(V)
    _two, singles, okeys = _rack_pairs(ctx, tiles)
    unseen = ctx.unseen()
    dead = sum(1 for k in singles if unseen[k] == 0)
    return ml - (pl + 0.5 * max(0, dead - okeys))


def _kept_last_turn(ctx: Context) -> list[int] | None:
    """The rack this seat kept at the end of its previous turn: the rack without
    the tile drawn or taken this turn (the engine appends it last), or None on
    the first turn / in the draw phase (then the rack itself is what it kept)."""
    v = ctx.view
    if v.get("phase") != "play" or len(ctx.rack) < 2:
        return None
    if not any(v["discards"]) and not any(v.get("took") or []):
        return None  # the starter's first turn: nothing drawn
    return ctx.rack[:-1]


def plan_route(ctx: Context) -> str | None:
    """Hard: decide early between pairs and melds and keep to it.

    Whole-rack (classic, rummy: seven pairs close, scored double): the route
    whose leftover is clearly lower, pairs only when their leftover is
    ``ROUTE_MARGIN`` below the melds'. The route of the rack kept last turn is
    kept unless the other becomes better by one more tile (a dead band), so a
    drawn tile does not flip the plan back and forth. Lay-down (fifty-one,
    seventeen), not opened yet: "pairs" when a pairs opening is in reach and
    the runs-and-groups opening is far (see ``_lay_pairs_route``); else None
    (the usual opening plan)."""
    if not ctx.whole:
        if ctx.opened[ctx.seat] is None and _lay_pairs_route(ctx):
            return "pairs"
        return None
    gap = _route_gap(ctx, ctx.rack)
    kept = _kept_last_turn(ctx)
    if kept is None:
        return "pairs" if gap >= ROUTE_MARGIN else "melds"
    before = "pairs" if _route_gap(ctx, kept) >= ROUTE_MARGIN else "melds"
    if before == "pairs":
        return "pairs" if gap >= ROUTE_MARGIN - 1 else "melds"
    return "pairs" if gap >= ROUTE_MARGIN + 1 else "melds"


def _rack_pairs(ctx: Context, tiles: list[int]) -> tuple[list[int], list[int], int]:
    """(kinds held twice, kinds held once, okeys) of ``tiles`` by played kind."""
    counts: dict[int, int] = {}
    okeys = 0
    for t in tiles:
        k = ctx.kind(t)
        if k < 0:
            okeys += 1
        else:
            counts[k] = counts.get(k, 0) + 1
    two = [k for k, c in counts.items() if c >= 2]
    one = [k for k, c in counts.items() if c == 1]
    return two, one, okeys


def _lay_pairs_route(ctx: Context) -> bool:
    """Lay-down, not opened: is a pairs opening the better plan?

    fifty-one: five pairs open with no barrier; four in hand (okeys pair a
    single) with the runs-and-groups opening under 60% of its barrier.
    seventeen: pairs (each worth its number once) within 80% of the pairs
    minimum, four or more of them, with the runs-and-groups opening under 60%."""
    need = ctx.view.get("opening_min") or {}
    two, one, okeys = _rack_pairs(ctx, ctx.rack)
    unseen = ctx.unseen()
    live = [k for k in one if unseen[k] > 0]
    n_pairs = len(two) + min(okeys, len(one))
    if n_pairs < 4:
        return False
    total = search_packed(pack(ctx.rack, ctx.okey), ctx.values or "sum", ctx.ace_high)[1]
    if total >= 0.6 * (need.get("melds") or 0):
        return False
    if ctx.rules.pairs_opening_min_pairs:
        return n_pairs >= ctx.rules.pairs_opening_min_pairs - 1 and bool(live)
    by_value = sorted((k % 13 + 1 for k in two), reverse=True)
    value = sum(by_value) + sum(sorted((k % 13 + 1 for k in one), reverse=True)[:okeys])
    return value >= 0.8 * (need.get("pairs") or 0)


def _pairs_discard(ctx: Context, cand: list[int]) -> int:
    """Lay-down pairs route: keep the pairs; throw a single, first one whose twin
    is already seen (it can no longer pair), then the least useful."""
    two, _one, _okeys = _rack_pairs(ctx, ctx.rack)
    keep = set(two)
    singles = [t for t in cand if ctx.kind(t) not in keep and not ctx.is_okey(t)]
    if not singles:
        singles = cand
    unseen = ctx.unseen()
    others = list(ctx.rack)
    low_first = ctx.rules.cpu_pairs_low_first  # seventeen: a pair is worth its number

    def key(t: int) -> tuple:
        k = ctx.kind(t)
        live = k >= 0 and unseen[k] > 0
        num = _num(ctx, t)
        return (
            live,
            num if low_first else -num,
            potential(ctx, t, others, True) + _feed_risk(ctx, t),
            t,
        )

    return min(singles, key=key)


__all__ = [
    "LEVELS",
    "Context",
    "decide",
    "seed_rng",
    "arrangement",
    "PAIR",
    "collected",
    "feeds_next",
    "plan_route",
]
