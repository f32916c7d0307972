"""The expert's own decisions in whole-rack rule sets (``Rules.whole_rack``: classic, rummy).

``pick(ctx, rng)`` returns the action the expert plays for a prepared context
(``core.Context`` with the expert's unseen count and route), or None to play hard's
plan (``core.play(ctx, "hard", rng)``). It reads the seat's view only (the tiles it
cannot see are counted from ``ctx.unseen()``; ``tests/engine/test_expert.py`` permutes
them), and it is deterministic: its only randomness is the ``rng`` passed in (seeded
from the view), and its budget is counted in steps, never by a clock.

Where the points are. A hand ends with one close (RULES.md §2, §3): in classic each other
player loses 2, 4 for an okey close or seven pairs, 8 for both; in rummy the closer scores
3, or 6. On the arena's duplicate deals a side's edge is, near enough, how much more often
it closes first (times what the close pays). Between hard CPUs about half the closes are
made with the previous player's discard, taken (RULES.md §1, "A turn"; 53 of 99 classic
hands), so a seat's next turns are draws *and* chances to take.

* **The discard**: hard's plan (``core._whole_discard``: the fewest loose tiles on the
  route, then its one-draw count of improving tiles, keeping back what the next player
  evidently collects), with the expert's count of unseen tiles. Models of its own (a
  chance-of-closing chain with a danger model, a determinised look-ahead, a fitted feed
  model) measured no better on fresh deals and are not played (docs/bots-experiments.md).
* **The okey close** (``_wait_plan``): complete now with an okey in the rack, it keeps the
  winning 14 and throws the 15th tile openly when one more round promises ``WAIT_MARGIN``
  more than closing now: the tiles that free the okey (``okey_outs``, drawn or taken)
  pay the okey close, a rival may close first, the thrown tile may feed the next player.
  Waiting, it takes a discard only when it frees the okey (hard takes any tile that
  closes), else draws. "Show me" says ``okey_wait``. It seldom applies.
* Taking, drawing, and everything else: hard's plan (other take rules measured worse:
  docs/bots-experiments.md).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, cast

from ..efficiency import _melds_deficiency, _pairs_deficiency
from . import core
from .core import _INC, Context, collected, pack

if TYPE_CHECKING:
    from ..rulebase import WholeRackRules
    from ..state import HandState

_M26 = (1 << 26) - 1
_OK = 112

# a wait for the okey close must promise this much more than the close it gives up
# (the hazard model's error; RULES.md §3's worked example, 4 tiles that free the okey
# on the second turn, estimates 5.6% more, and closes)
WAIT_MARGIN = 0.08

# looks at a tile a round: the draw, and the previous player's discard (taken when it
# helps), which is not a random tile
LOOKS = 1.5


def _vecs(V: int) -> tuple[list[int], int]:
    return [V >> (28 * c) & _M26 for c in range(4)], V >> _OK


def _tid(ctx: Context, k: int) -> int:
    """A tile id playing kind ``k`` (52: a real okey)."""
    if k == 52:
        return 2 * ctx.okey
    return 104 if k == ctx.okey else 2 * k


def hazard(round_no: float) -> float:
    """Chance one rival closes on its turn, by the round of the hand (measured on
    hard-vs-hard classic hands: about 1% a turn in the first rounds, 12% by the 8th)."""
    return min(0.16, 0.004 + 0.0012 * max(0.0, round_no) ** 2.2)


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
    rules = cast("WholeRackRules", ctx.rules)  # a close: a whole-rack rule set
    lines = rules.close_lines(cast("HandState", _Seats(ctx.n)), ctx.seat, ending)
    pts = [0.0] * ctx.n
    for line in lines:
        pts[line["seat"]] += line["points"]
    rivals = [p for s, p in enumerate(pts) if s != ctx.seat]
    return pts[ctx.seat] - sum(rivals) / max(1, len(rivals))


def finish_value(ctx: Context) -> float:
    """What a plain close earns (``close_edge`` of a plain close)."""
    return close_edge(ctx, "close")


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
    if "draw" in types and _ready(ctx) and ctx.view["pile_count"]:
        take = [a for a in acts if a["type"] == "take"]
        if take and _take_for_okey_close(ctx):
            return take[0]
        return next(a for a in acts if a["type"] == "draw")
    return None
