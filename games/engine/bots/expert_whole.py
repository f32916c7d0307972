"""The expert's own decisions in whole-rack rule sets (``Rules.whole_rack``: classic, rummy).

``pick(ctx, rng)`` returns the action the expert plays for a prepared context
(``core.Context`` with the expert's unseen count and route), or None to play hard's
plan (``core.play(ctx, "hard", rng)``). It reads the seat's view only (the tiles it
cannot see are counted from ``ctx.unseen()``; ``tests/engine/test_expert.py`` permutes
them), and it is deterministic (no clock, no randomness of its own).

Where the points are. A hand ends with one close (RULES.md §2, §3): in classic each other
player loses 2, 4 for an okey close or seven pairs, 8 for both; in rummy the closer scores
3, or 6. Between hard CPUs about half the closes are made with the previous player's
discard, taken (RULES.md §1, "A turn"; measured on 100 classic hands: 53 of 99), and the
chance that a discard lets the next player close rises from under 1% in the first rounds
to 8% late in the hand, against about 1% for a kind the next player declined (it is in
the discarder's pile) or threw. So what a seat throws decides hands as much as what it
keeps; the expert reads both (below).

* **The discard** (``choose_discard``): every candidate (one per kind, okeys kept) is
  valued by the chance of closing with the 14 tiles kept, less what it may feed the next
  player. The chance (``value_rack``, ``p_win``): each route's deficiency (runs and
  groups, seven pairs: the definitions of ``efficiency.py``) and, one tile from
  complete, the exact count of unseen tiles that close it; a small chain over the rounds
  left, a step each time a useful tile is drawn or taken (``LOOKS`` a round), stopped
  when a rival closes first (``hazard``, by the round); seven pairs count at the rule
  set's pairs pay (``close_edge``). The danger (``_feed``): the chance the next player
  takes the tile and closes, by the round and by how many tiles it took (the public
  ``took`` log), near nothing for a kind it declined or threw, more for one it evidently
  collects (``core.collected``); it costs the hand's own chance plus the close paid.
  Hard's discard (its look-ahead over the far racks) is the default; another one is
  charged ``SHIFT`` per loose tile more, and one that keeps more than ``FAR`` loose
  tiles more gives the hand up (only its safety counts). "Show me" says
  ``discard_guard`` when the danger changed the choice.
* **The okey close** (``_wait_plan``): complete now with an okey in the rack, it keeps the
  winning 14 and throws the 15th tile openly when one more round promises ``WAIT_MARGIN``
  more than closing now: the tiles that free the okey (``okey_outs``, drawn or taken)
  pay the okey close, a rival may close first, the thrown tile may feed the next player.
  Waiting, it takes a discard only when it frees the okey (hard takes any tile that
  closes), else draws. "Show me" says ``okey_wait``. It seldom applies (complete early
  with several tiles that free the okey).
* Taking, drawing, and everything else: hard's plan.

Tried against hard on the arena's duplicate deals (edge per hand, 95% interval); "kept" is
the expert as described above:

| change | rule set, deals (seed) | edge | interval |
|---|---|---|---|
| all discards by deficiency + loose count | classic, 120 (dev1) | −0.200 | [−0.299, −0.101] |
| kept | classic, 100 (dev1) | +0.118 | [0.013, 0.222] |
| kept, no danger model | classic, 100 (dev1) | +0.008 | [−0.095, 0.110] |
| kept, no okey wait | classic, 100 (dev1) | +0.115 | [0.011, 0.219] |
| kept, the danger counted twice | classic, 100 (dev1) | +0.063 | [−0.053, 0.178] |
| kept, the danger counted three times | classic, 100 (dev1) | −0.033 | [−0.151, 0.086] |
| kept, ``SHIFT`` 1 (no charge) | classic, 100 (dev1) | +0.120 | [0.009, 0.232] |
| kept + take/draw valued alike near complete (1) | classic, 100 (dev1) | +0.133 | [0.024, 0.241] |
| kept | rummy, 100 (dev1) | +0.175 | [0.019, 0.331] |
| kept (final) | classic, 400 (dev-final) | −0.027 | [−0.077, 0.023] |
| kept (final) | rummy, 400 (dev-final) | −0.039 | [−0.114, 0.035] |
| kept, no danger model | classic, 400 (dev-final) | −0.011 | [−0.056, 0.034] |
| kept, danger halved, take factors refitted | classic, 400 (dev-final) | −0.031 | [−0.078, 0.017] |

On the larger sample of other deals (dev-final) the edge is gone: the dev1 figures were the
luck of those 100 deals (every variant tried on them scored alike, the danger model apart).
The expert is not yet clearly stronger than hard in whole-rack rule sets. Decision times
(arena, shared machine, load average 3-6): p50 3.4 ms, p99 234 ms (classic); p50 2.9 ms,
p99 213 ms (rummy).

(1) left out: no better within the noise, and its decisions took too long (p99 575 ms).
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from ..efficiency import _melds_deficiency, _pairs_deficiency
from ..tiles import notation
from . import core
from .core import _INC, Context, collected, pack

_M26 = (1 << 26) - 1
_OK = 112

# a wait for the okey close must promise this much more than the close it gives up
# (the hazard model's error; RULES.md §3's worked example, 4 tiles that free the okey
# on the second turn, estimates 5.6% more, and closes)
WAIT_MARGIN = 0.08

# one more loose tile than hard's discard keeps multiplies a rack's chance of closing
# by this (hard's look-ahead reads racks far from complete better than the typical
# counts used here)
SHIFT = 0.9
# looks at a tile a round: the draw, and the previous player's discard (taken when it
# helps), which is not a random tile
LOOKS = 1.5


def _vecs(V: int) -> tuple[list[int], int]:
    return [V >> (28 * c) & _M26 for c in range(4)], V >> _OK


_DEF_MEMO: dict[tuple, tuple[int, int]] = {}
# the melds deficiency is searched up to this (a rack four tiles or more from complete
# is read as four: its chance of closing is small either way, and the search is slow)
DEF_CAP = 4
# a discard that keeps more than this many loose tiles more than hard's gives the hand up
# (its chance of closing is read as none): only what it keeps from the next player counts
FAR = 2


def defs(V: int, ace_high: bool) -> tuple[int, int]:
    """(melds deficiency, pairs deficiency) of the packed 14-tile rack ``V``."""
    key = (V, ace_high)
    hit = _DEF_MEMO.get(key)
    if hit is not None:
        return hit
    vecs, j = _vecs(V)
    p = _pairs_deficiency(vecs, j, 7)
    m = None
    for bound in range(1, DEF_CAP + 1):  # deepening: a tight bound prunes the search
        m = _melds_deficiency(vecs, j, 14, ace_high, bound)
        if m is not None:
            break
    res = (DEF_CAP if m is None else m, p)
    if len(_DEF_MEMO) > 200_000:
        _DEF_MEMO.clear()
    _DEF_MEMO[key] = res
    return res


def _tid(ctx: Context, k: int) -> int:
    """A tile id playing kind ``k`` (52: a real okey)."""
    if k == 52:
        return 2 * ctx.okey
    return 104 if k == ctx.okey else 2 * k


def waits(ctx: Context, V: int, unseen: list[int]) -> tuple[int, float, int, int]:
    """(melds deficiency, tiles that close, pairs deficiency, tiles that close) of
    the packed 14-tile rack ``V``: where a route is one tile from complete (its
    deficiency 1), the unseen copies of the kinds that complete it; else 0."""
    dm, dp = defs(V, ctx.ace_high)
    inc = _INC[ctx.okey]
    um = 0.0
    up = 0
    if dm != 1 and dp != 1:
        return dm, um, dp, up
    key = (V, ctx.okey, ctx.ace_high, tuple(unseen))
    hit = _WAITS_MEMO.get(key)
    if hit is not None:
        return hit
    # a closing tile meets a tile of the rack (same colour within two, same number, its
    # twin), or is an okey; with two okeys in the rack any tile may close
    if V >> _OK >= 2:
        near: Iterable[int] = range(53)
    else:
        here = {k for k in range(52) if (V >> (28 * (k // 13) + 2 * (k % 13))) & 3}
        near = (*core._near_kinds(here, ctx.ace_high, True), ctx.okey, 52)
    for k in dict.fromkeys(near):
        u = unseen[k]
        if u <= 0:
            continue
        b = inc[_tid(ctx, k)]
        if k != 52 and (V // b) & 3 >= 2:
            continue
        if k == 52 and (V >> _OK) >= 2:
            continue
        vecs, j = _vecs(V + b)
        if dp == 1 and _pairs_deficiency(vecs, j, 7) == 0:
            up += u
        if dm == 1 and _melds_deficiency(vecs, j, 14, ctx.ace_high, 1) == 0:
            um += u
    if len(_WAITS_MEMO) > 50_000:
        _WAITS_MEMO.clear()
    _WAITS_MEMO[key] = (dm, um, dp, up)
    return dm, um, dp, up


_WAITS_MEMO: dict[tuple, tuple[int, float, int, int]] = {}


_TYP_M = (0, 6, 16, 24, 30, 34, 36, 38)
_TYP_P = (0, 1.5, 3, 4.5, 6, 7, 8, 9)


def hazard(round_no: float) -> float:
    """Chance one rival closes on its turn, by the round of the hand (measured on
    hard-vs-hard classic hands: about 1% a turn in the first rounds, 12% by the 8th)."""
    return min(0.16, 0.004 + 0.0012 * max(0.0, round_no) ** 2.2)


def p_win(
    s: int, u: float, typ: tuple, pool: int, round_no: float, rivals: int, rounds_left: int
) -> float:
    """Chance of completing the rack before a rival closes or the pile runs out,
    from deficiency ``s`` with ``u`` useful unseen tiles (later steps: a typical count)."""
    if s >= len(typ):
        return 0.0
    if s == 0:
        return (1 - hazard(round_no)) ** rivals
    looks = LOOKS
    dist = {s: 1.0}
    total = 0.0
    surv = 1.0
    for r in range(max(1, rounds_left)):
        surv *= (1 - hazard(round_no + r)) ** rivals
        new: dict[int, float] = {}
        for j, p in dist.items():
            c = u if j == s else typ[j]
            q = 1 - (1 - min(0.95, c / pool)) ** looks
            if j == 1:
                total += surv * p * q
            else:
                new[j - 1] = new.get(j - 1, 0.0) + p * q
            new[j] = new.get(j, 0.0) + p * (1 - q)
        dist = new
        if surv < 0.02:
            break
    return total


def _stage(ctx: Context) -> tuple[float, int, int]:
    """(round of the hand, my rounds left, pool of unseen tiles)."""
    v = ctx.view
    n = ctx.n
    start = 106 - 1 - 14 * n - 1
    pile = v.get("pile_count") or 0
    takes = sum(len(r) for r in ctx.took)
    draws = max(0, start - pile) + takes
    return draws / n, max(1, pile // n), max(1, sum(ctx.unseen()))


def _feed(ctx: Context, k: int, round_no: float) -> float:
    """Chance the next player closes with a discard of kind ``k`` (a taken discard
    closes about half the hands: RULES.md §1, a turn may take the previous discard).
    Measured on hard-vs-hard classic hands: rises with the round and with the tiles
    the next player took; a kind it declined (in my discards) or threw is near safe."""
    if k < 0:
        return 0.0
    nx = ctx.next_seat
    base = hazard(round_no) * 0.45
    nt = len(ctx.took[nx]) if nx < len(ctx.took) else 0
    base *= (0.3, 1.0, 1.5, 2.5)[min(nt, 3)]
    mine = {ctx.kind(x["id"]) for x in ctx.view["discards"][ctx.seat]}
    thrown = {ctx.kind(x["id"]) for x in ctx.view["discards"][nx]}
    if k in mine or k in thrown:
        base *= 0.15
    elif collected(ctx, nx).get(k, 0.0) >= 1.0:
        base *= 1.8
    return base


class _Seats:
    """Just enough of a state for ``Rules.close_lines``: the number of players."""

    def __init__(self, n: int):
        self.n_players = n


def close_edge(ctx: Context, ending: str) -> float:
    """What a close with ``ending`` earns the closer against the average rival, read
    from the rule set's own score lines (``Rules.close_lines``: classic, each other
    player loses 2, 4 with the okey or seven pairs, 8 with both; rummy, the closer
    scores 3, or 6)."""
    lines = ctx.rules.close_lines(_Seats(ctx.n), ctx.seat, ending)
    pts = [0.0] * ctx.n
    for line in lines:
        pts[line["seat"]] += line["points"]
    rivals = [p for s, p in enumerate(pts) if s != ctx.seat]
    return pts[ctx.seat] - sum(rivals) / max(1, len(rivals))


def finish_value(ctx: Context) -> float:
    """What a plain close earns (``close_edge`` of a plain close)."""
    return close_edge(ctx, "close")


def value_rack(ctx: Context, V: int, stage: tuple[float, int, int]) -> float:
    """Chance of closing with the packed 14-tile rack ``V`` kept, a seven-pairs close
    counting double (RULES.md §2, §3: classic 4 instead of 2, rummy 6 instead of 3)."""
    round_no, left, pool = stage
    dm, um, dp, up = waits(ctx, V, ctx.unseen())
    if dm != 1:
        um = _TYP_M[min(dm, 7)]
    if dp != 1:
        up = _TYP_P[min(dp, 7)]
    rivals = ctx.n - 1
    pm = p_win(dm, um, _TYP_M, pool, round_no, rivals, left)
    pp = p_win(dp, up, _TYP_P, pool, round_no, rivals, left)
    plain, _okey_c, pairs_c, _both = close_values(ctx)
    return max(pm, pairs_c / plain * pp)


def choose_discard(ctx: Context, cand: list[int], rng: random.Random) -> int:
    """Hard's discard unless another one is worth more: it leaves a rack one tile from
    complete with more tiles that close it (counted exactly over the unseen tiles,
    seven pairs at double pay), or it feeds the next player less (``_feed``) for a
    small loss of pace. A discard other than hard's is charged ``SHIFT`` a loose tile
    more than hard's (hard's look-ahead sees the far racks better)."""
    okey = ctx.okey
    inc = _INC[okey]
    V = pack(ctx.rack, okey)
    hard = core.choose_discard(ctx, cand, "hard", rng)
    by_kind: dict[int, int] = {}
    for t in cand:
        if ctx.is_okey(t):
            continue
        by_kind.setdefault(ctx.kind(t), t)
    by_kind[-9 if ctx.is_okey(hard) else ctx.kind(hard)] = hard
    if len(by_kind) == 1:
        return hard
    stage = _stage(ctx)
    left_h = core.route_left(ctx, V - inc[hard])
    scores = []
    for _k, t in by_kind.items():
        W = V - inc[t]
        dl = 0 if t == hard else core.route_left(ctx, W) - left_h
        if t == hard:
            w = value_rack(ctx, W, stage)
        else:
            w = 0.0 if dl > FAR else value_rack(ctx, W, stage) * SHIFT ** max(1.0, dl)
        pace = w
        w -= _feed(ctx, ctx.kind(t), stage[0]) * (1 + w)
        scores.append((w, t == hard, dl, t, pace))
    # ties: hard's discard, then the fewest loose tiles
    scores.sort(key=lambda x: (-x[0], not x[1], x[2], x[3]))
    pick = scores[0][3]
    fast = min(scores, key=lambda x: (-x[4], not x[1], x[2], x[3]))[3]
    if ctx.kind(fast) != ctx.kind(pick):
        # the danger model changed the choice: "Show me" says which tile it kept back
        ctx.why = ("discard_guard", {"avoid": notation(fast)})
    return pick


def _complete(ctx: Context, V: int) -> tuple[bool, bool]:
    """(winning with runs and groups, winning with seven pairs) for the packed 14 tiles."""
    vecs, j = _vecs(V)
    pairs = _pairs_deficiency(vecs, j, 7) == 0
    melds = _melds_deficiency(vecs, j, 14, ctx.ace_high, 1) == 0
    return melds, pairs


def okey_outs(ctx: Context, V: int) -> tuple[float, float]:
    """The packed 14-tile rack ``V`` is winning and holds an okey: the unseen copies of
    the kinds that, drawn, make the rack winning without that okey (an okey close:
    RULES.md §2, the okey goes down as the 15th tile), split into (melds, pairs)."""
    inc = _INC[ctx.okey]
    okey_b = 1 << _OK
    if V >> _OK == 0:
        return 0.0, 0.0
    base = V - okey_b
    unseen = ctx.unseen()
    om = op = 0.0
    for k in range(53):
        u = unseen[k]
        if u <= 0:
            continue
        b = inc[_tid(ctx, k)]
        if k != 52 and (base // b) & 3 >= 2:
            continue
        m, p = _complete(ctx, base + b)
        if p:
            op += u
        elif m:
            om += u
    return om, op


def close_values(ctx: Context) -> tuple[float, float, float, float]:
    """What the rule set pays a close: (plain, okey close, seven pairs, both)."""
    return tuple(
        close_edge(ctx, e) for e in ("close", "okey_close", "pairs_close", "pairs_okey_close")
    )  # type: ignore[return-value]


def _wait_plan(ctx: Context) -> dict | None:
    """Complete now with an okey in the rack: keep the winning 14 and discard the
    15th tile openly when waiting one more round for the okey close is worth more
    than closing now (the chance of drawing or taking a tile that frees the okey,
    against the chance that a rival closes first and what the discard may feed)."""
    closes = [a for a in ctx.legal if a["type"] == "close"]
    best = core._best_close(ctx, closes)
    if ctx.is_okey(best["tile"]):
        return None
    plain, okey_c, pairs_c, both = close_values(ctx)
    inc = _INC[ctx.okey]
    V = pack(ctx.rack, ctx.okey)
    if V >> _OK == 0:
        return None
    keep_best = [t for t in ctx.rack if t != best["tile"]]
    now = pairs_c if core.seven_pairs(keep_best, ctx.okey) else plain
    round_no, _left, pool = _stage(ctx)
    rivals = ctx.n - 1
    surv = (1 - hazard(round_no)) ** rivals
    looks = LOOKS
    discards = {a["tile"]: a for a in ctx.legal if a["type"] == "discard"}
    top = None
    for a in closes:
        t = a["tile"]
        if ctx.is_okey(t) or t not in discards:
            continue
        W = V - inc[t]
        m, p = _complete(ctx, W)
        if not (m or p):
            continue
        om, op = okey_outs(ctx, W)
        later = pairs_c if p else plain
        q_m = 1 - (1 - min(0.95, om / pool)) ** looks
        q_p = 1 - (1 - min(0.95, op / pool)) ** looks
        ev = surv * (q_p * both + q_m * okey_c + (1 - q_p - q_m) * later)
        ev -= (1 - surv) * plain
        ev -= _feed(ctx, ctx.kind(t), round_no) * (later + plain)
        if ev > now * (1 + WAIT_MARGIN) and (top is None or ev > top[0]):
            top = (ev, discards[t])
    if top is None:
        return None
    ctx.why = ("okey_wait", {})
    return top[1]


def _ready(ctx: Context) -> bool:
    """The 14 tiles kept are winning and hold an okey (waiting for the okey close)."""
    V = pack(ctx.rack, ctx.okey)
    if len(ctx.rack) != 14 or V >> _OK == 0:
        return False
    m, p = _complete(ctx, V)
    return m or p


def _take_for_okey_close(ctx: Context) -> bool:
    t = ctx.takeable
    if t is None:
        return False
    inc = _INC[ctx.okey]
    V = pack(ctx.rack, ctx.okey) - (1 << _OK) + inc[t]
    m, p = _complete(ctx, V)
    return m or p


def pick(ctx: Context, rng: random.Random) -> dict | None:
    """The expert's action where it differs from hard's plan, else None."""
    acts = ctx.legal
    types = {a["type"] for a in acts}
    if ctx.taken is not None:
        return None
    if "close" in types:
        return _wait_plan(ctx)
    if "draw" in types:
        if _ready(ctx) and ctx.view["pile_count"]:
            take = [a for a in acts if a["type"] == "take"]
            if take and _take_for_okey_close(ctx):
                return take[0]
            return next(a for a in acts if a["type"] == "draw")
        return None
    discards = [a for a in acts if a["type"] == "discard"]
    if not discards:
        return None
    if len(ctx.rack) != 15:
        return None
    tile = choose_discard(ctx, [a["tile"] for a in discards], rng)
    return next(a for a in discards if a["tile"] == tile)
