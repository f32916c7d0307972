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
  evidently collects), with the expert's count of unseen tiles. Two models of its own
  were built and measured against it and neither was better on fresh deals (tables
  below), so neither is played: a p_win chain over each route's deficiency with a
  danger model (the previous round), and a determinised look-ahead (this round): the
  discards leaving at most one loose tile more than the best, when that best is at most
  3, played over the same 32 futures of 4 turns each (pairs of the previous player's
  discard, taken when it closes or lowers the loose count, and the drawn tile, sampled
  without replacement from the unseen tiles with the seat's rng; the continuation
  throws the tile whose loss leaves the fewest loose tiles), a close counting what the
  rule set pays for it (seven pairs and the okey close included) times the chance no
  rival closed first (``hazard``). Its code is in the repository's history (the commit
  "Expert, whole-rack: the discard by a determinised look-ahead ...").
* **The okey close** (``_wait_plan``): complete now with an okey in the rack, it keeps the
  winning 14 and throws the 15th tile openly when one more round promises ``WAIT_MARGIN``
  more than closing now: the tiles that free the okey (``okey_outs``, drawn or taken)
  pay the okey close, a rival may close first, the thrown tile may feed the next player.
  Waiting, it takes a discard only when it frees the okey (hard takes any tile that
  closes), else draws. "Show me" says ``okey_wait``. It seldom applies.
* Taking, drawing, and everything else: hard's plan (the look-ahead also chose between
  taking and drawing, and a stricter take rule was tried: both worse, below).

Tried against hard on the arena's duplicate deals (edge per hand, 95% interval, one
worker on the shared machine). Earlier model (a p_win chain over each route's deficiency
and exact closing tiles, with a danger model for feeding the next player):

| change | rule set, deals (seed) | edge | interval |
|---|---|---|---|
| all discards by deficiency + loose count | classic, 120 (dev1) | −0.200 | [−0.299, −0.101] |
| p_win chain + danger + okey wait | classic, 100 (dev1) | +0.118 | [0.013, 0.222] |
| the same | rummy, 100 (dev1) | +0.175 | [0.019, 0.331] |
| the same | classic, 400 (dev-final) | −0.027 | [−0.077, 0.023] |
| the same | rummy, 400 (dev-final) | −0.039 | [−0.114, 0.035] |
| the same, no danger model | classic, 400 (dev-final) | −0.011 | [−0.056, 0.034] |
| the same, danger halved, takes refitted | classic, 400 (dev-final) | −0.031 | [−0.078, 0.017] |

(On dev1 the danger model, the okey wait, ``SHIFT`` and the take factors were each
varied on the same 100 deals: every variant read +0.06 to +0.13, the luck of those deals.)

The determinised look-ahead (32 futures of 4 turns, gate 3, unless said), each row on the
same 400 classic deals of seed dev-w2a:

| change | edge | interval | expert ms p50 / p99 |
|---|---|---|---|
| look-ahead discard | +0.029 | [−0.008, 0.065] | 0.8 / 86 |
| + danger cost (``_feed`` × a plain close) | +0.034 | [−0.006, 0.074] | 0.8 / 125 |
| 128 futures | +0.026 | [−0.007, 0.059] | 1.3 / 273 |
| futures as slices of shuffled pools (stratified) | +0.015 | [−0.022, 0.052] | 1.1 / 189 |
| + take or draw chosen by the same look-ahead | −0.019 | [−0.070, 0.033] | 6.4 / 148 |
| + take only a tile that closes or saves two loose tiles | −0.050 | [−0.104, 0.004] | 1.0 / 239 |

Confirmed on fresh deals (seed dev-w2b, 400 deals each; machine load average 3-5):

| version | rule set | edge | interval | expert ms p50 / p99 |
|---|---|---|---|---|
| look-ahead discard | classic | −0.029 | [−0.067, 0.009] | 0.9 / 131 |
| look-ahead discard | rummy | +0.002 | [−0.057, 0.061] | 0.8 / 92 |
| the previous round's p_win chain | classic | −0.006 | [−0.055, 0.042] | 2.0 / 57 |
| hard's discards, the okey wait (this module) | classic | −0.004 | [−0.027, 0.018] | 0.8 / 40 |
| hard's discards, the okey wait (this module) | rummy | −0.008 | [−0.042, 0.027] | 0.8 / 41 |

Over 800 classic deals the look-ahead reads 0.000 against hard, the p_win chain −0.015
over 1,200: the whole-rack expert is not stronger than hard, and the look-ahead's changes
read as noise, so they are not played. On the 400 deals of dev-w2a its variants read
from −0.050 to +0.034; taking less often read 0.08 below the plain look-ahead on those
same deals (not confirmed on others), the largest move, so taken discards matter, but
the look-ahead's own choice between taking and drawing was no better than hard's "take
whatever lowers the loose count". Not tried: reading the rivals' racks from their
discards (what they let go they do not need) in the sampled futures, and a longer
horizon with a value for the rack left at its end.

Taking more often is far worse: hard's discards with the okey wait, plus a take whenever
the taken tile leaves the route's loose count no higher after the discard (hard takes
only when it lowers it), read −0.692 [−0.731, −0.653] in classic and −1.043 [−1.101,
−0.984] in rummy against hard (600 deals each, seed dev-xw1). Likely reasons (not
measured): a tile taken for nothing shows the next player what the seat collects, and it
gives up a blind draw.

A feed model, built and measured and left out (code: commit 55d8317, "Expert,
whole-rack: equally loose discards weighed by a fitted chance of feeding the next
player's close"). Its ceiling first: with the next player's real rack in view (a script,
never a level), a seat that throws the first discard of the expert's ranking that does not
let the next player close read +0.172 [0.119, 0.225] a hand against hard over 300 classic
deals (seed orc), where the expert without it read −0.018 [−0.057, 0.021] on the same
deals; on the 2,000 deals of seed final (``games/tools/engine/ceiling.py``, the same measurement) it
reads +0.226 [0.206, 0.246] in classic and +0.339 [0.309, 0.368] in rummy, where the
expert as played reads +0.015 and +0.022 and hard's edge over medium is +0.195 and
+0.327; choosing only among the discards the expert values equally (``--slack 0``), classic
+0.183 [0.164, 0.202]. Feeding the next player's close is where the whole-rack edge is,
seeing the next rack is worth about as much as hard's whole edge over medium, and most of
it needs no pace given up, only knowing which of the equally loose tiles it waits on. The model
(``danger.py`` there) was a logistic regression over what the view shows of the next
player (the tiles it took and still holds, what it threw, what it let pass from the seat's
pile, the unseen tiles that would make a run or a group with the kind, the rounds played),
fitted by Newton's method on 1,000 classic hands of hard CPUs labelled by whether the next
player's real rack closes with the kind (``danger_fit.py --hands 2000 --seed danger``).
Held out (1,000 hands, 393,910 rows): 1.62 % of the rows feed a close, log loss 0.0699
against 0.0828 for that base rate, and the tenth of the rows it rates most dangerous holds
45.5 % of the feeding ones (two more inputs, the latest pass and the next player's latest
discard, read the same 0.06988). The expert then threw, among the discards hard counts as
equally loose (what the next player evidently collects left out first), the one with the
lowest feed chance plus 0.005 times what it gave up of hard's tie-break. Paired trials,
each against the expert without it (this module) over the same classic deals, both
against hard (``diff``: the change's gain a hand):

Rows: (a) any discard with at most one loose tile more, 0.15 a loose tile, 0.02 for
leaving hard's choice; (b) the same, the feed chance counted 2.5 times; (c) equally loose
discards only, 0.02 for leaving hard's choice; (d) the same at 0.06; (e) equally loose,
hard's tie-break given up at 0.0125 a point; (f) at 0.002; (g) at 0.005 (the version
measured on; on g1 and g2 it read the same with and without the collected tiles left out).

| change | rule set | deals (seed) | with | without | diff |
|---|---|---|---|---|---|
| a | classic | 400 (g1) | −0.043 | +0.001 | −0.044 [−0.093, 0.006] |
| b | classic | 400 (g1) | −0.051 | +0.001 | −0.053 [−0.110, 0.005] |
| c | classic | 400 (g1) | −0.044 | +0.001 | −0.045 [−0.094, 0.004] |
| d | classic | 400 (g1) | 0.000 | +0.001 | −0.001 [−0.026, 0.023] |
| e | classic | 400 (g1) | +0.019 | +0.001 | +0.018 [−0.042, 0.078] |
| f | classic | 400 (g1) | +0.029 | +0.001 | +0.028 [−0.032, 0.088] |
| g | classic | 400 (g1) | +0.047 | +0.001 | +0.046 [−0.017, 0.108] |
| g | classic | 400 (g1, 400-799) | +0.023 | −0.016 | +0.039 [−0.020, 0.099] |
| g | classic | 400 (g2) | +0.034 | −0.019 | +0.053 [−0.010, 0.116] |
| g | classic | 2000 (final) | +0.018 [−0.007, 0.043] | +0.015 | +0.003 |
| g | rummy | 2000 (final) | +0.026 [−0.012, 0.064] | +0.022 | +0.004 |

("without" on seed final: docs/bots.md's 2,000-deal rows of the expert as played.)

On the 2,000 deals of seed final the gain was +0.003 and +0.004 and the expert's interval
against hard came to include 0 in both rule sets, so it is not played. Of 2,239 decisions
of the expert at 0.02 a leaving (150 hands, the real racks read to count), 285 left hard's
choice and 13 of those kept back a closing tile: the model tells a feeding tile from the
others only roughly, so leaving hard's choice has to be nearly free, and then it seldom
matters. What would be needed: a far sharper reading of the next player's rack (its
waits), from what it let pass and threw over the whole hand.

The route between seven pairs and runs and groups (``core.plan_route``: pairs when their
loose count is ``ROUTE_MARGIN`` = 2 below the melds') taken at a margin of 1 for the
expert alone, paired against the expert as kept over the same 800 deals (seed rm):
classic −0.02 [−0.05, 0.00], rummy −0.03 [−0.08, 0.01] (126 and 124 of the 800 deals
played differently); seven pairs pay double, yet chasing them sooner does not pay.
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
