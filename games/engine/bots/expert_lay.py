"""The expert's own decisions in lay-down rule sets (fifty-one, seventeen, 101).

``pick(ctx, rng)`` returns the action the expert plays for a prepared context
(``core.Context`` with the expert's unseen count and route), or None to play hard's
plan (``core.play(ctx, "hard", rng)``). It reads the seat's view only, and what it
knows of the rule set it asks of the rules object (never the variant's name).

Where the points are. In the three rule sets a player who has not opened when the hand
ends pays the most by far: fifty-one 500 (RULES.md §4, Ending), seventeen the base,
400-800 (§5, Scoring), 101 202 (§6, Scoring), against a few tens for an opened loser. In
hard-against-hard hands about a third of the seats end unopened, and that line is most
of every seat's penalty. So the expert's play differs from hard's before it opens, on
the discard:

* **Fewest replacements from an opening.** Hard keeps the rack whose opening total
  (the runs and groups of its best arrangement) is nearest the minimum, looking one
  draw ahead. Among hard's best candidates the expert throws the tile that leaves the
  rack the fewest replacements from an opening at the table's current minimum
  (``efficiency``'s deficiency before opening: runs and groups reaching the limit, or
  a pairs opening, counting partial melds and the okeys), ties kept in hard's order.
  Seventeen, indicator B11: with R12 R12 K7 K7 Y7 in the rack hard throws an R12; the
  expert keeps the pair and throws R2, one Y7, R10, B10, K9 or okey away from a pairs
  opening of 26 (§5: a pair counts its number; 26 while nobody has opened).
* **Not feeding the next player's opening.** A discard the next player takes into its
  opening saves it the unopened line (and in fifty-one the discarder pays 10 × the
  number, §4 "Taking the discard"). Hard-against-hard hands show how often an
  unopened player takes a discard: about 1-2% for 1-6, 5-10% for 7-10, 10-20% for
  11-13 (101 twice that), and never a kind it threw itself or let pass before. The
  expert subtracts that expected loss (``feed_danger``: the chance, rising with the
  number, a tenth for such a "safe" kind, times the stake, ``open_stake``, read from
  the rules object's ``end_lines`` and ``take_lines`` on a made-up table) from each
  candidate's score, both as shares (of the opening minimum, of the stake).

After opening (fifty-one: the rules object's ``cpu_lays_off_on_rivals_first``, a
rival's lay-off costs the meld's owner) it keeps its new melds in the rack:

* **Melds kept in the rack.** Hard lays every meld as soon as it has opened. In
  fifty-one every tile a rival adds to a meld on the table costs its owner 10 × the
  number (§4, "Adding to a rival's meld"): about 65 points a seat and a hand in
  expert-against-hard hands, a third of what an unopened seat pays on average. A meld
  kept in the rack costs nothing until the hand ends, and then 5 × its numbers only if
  another seat finishes or the pile runs out. So the expert lays a new meld only when
  that lets it finish (no more than one tile of the rack fits neither a meld of its
  arrangement nor one on the table), when an opened rival (not its partner) holds
  ``HOLD_NEAR`` tiles or fewer, or when the pile is down to ``HOLD_PILE`` tiles; else it
  plays hard's plan without the lays (swaps, lay-offs, the discard). "Show me" says
  so (reason ``melds_kept``). Seventeen and 101 charge the owner nothing for a lay-off:
  there it lays like hard.

Taking, adding and the pairs route are hard's plan.

What was measured before these rules were kept: docs/bots-experiments.md.
"""

from __future__ import annotations

import random
from functools import lru_cache
from types import SimpleNamespace
from typing import TYPE_CHECKING, cast

# the deficiency's bounded form (a candidate no better than the best so far stops early)
from ..efficiency import _NO_BOUND, _deficiency_vec, _vectors
from ..rules import rules_for
from ..table import placements
from ..tiles import notation
from . import core
from .core import Context, pack, search_packed

if TYPE_CHECKING:
    from ..rulebase import LayDownRules
    from ..state import HandState

# how many of hard's best candidates (by its opening look-ahead) the deficiency ranks
DEFICIENCY_CANDIDATES = 5
# the feed danger's weight against the opening progress (both as shares)
FEED_WEIGHT = 1.0
# melds kept in the rack (fifty-one) until an opened rival holds this many tiles or fewer,
# or until the pile holds this many
HOLD_NEAR = 5
HOLD_PILE = 8


# ----------------------------------------------------------------- the stakes


@lru_cache(maxsize=256)
def _open_stake(variant: str, okey: int, n: int, options_key: tuple) -> float:
    """What being opened is worth to a seat when another seat finishes: the rule set's
    line for an unopened loser less the line for an opened one holding three middling
    tiles (5, 7, 9), asked of the rules object's ``end_lines`` on a made-up table."""
    rules = rules_for(variant)
    plain = [t for t in range(104) if t // 2 != okey]
    mid = tuple(next(t for t in plain if (t // 2) % 13 + 1 == n) for n in (5, 7, 9))
    opened = ("melds", "melds") + (None,) * (n - 2)
    table = SimpleNamespace(
        racks=((plain[0],),) + (mid,) * (n - 1),
        opened=opened,
        okey_kind=okey,
        options=dict(options_key),
        opened_turn=tuple(0 if o else None for o in opened),
        turn_no=1,
        limit=None,
        n_players=n,
        melds=(),
    )
    # a lay-down rule set; the made-up table stands in for a state
    lay_down = cast("LayDownRules", rules)
    _ending, lines = lay_down.end_lines(cast("HandState", table), 0, False)
    pay = {ln["seat"]: ln["points"] for ln in lines}
    sign = 1 if rules.higher_wins else -1
    return float(sign * (pay.get(1, 0) - pay.get(2, 0)))


def open_stake(ctx: Context) -> float:
    """``_open_stake`` for the view's table (solo: a partner pays nothing for the
    finish, which says nothing of what opening is worth)."""
    opts = ctx.view.get("options") or {}
    key = tuple(sorted((k, v) for k, v in opts.items() if k != "partners"))
    return _open_stake(ctx.view["variant"], ctx.okey, ctx.n, key)


def take_cost(ctx: Context, t: int) -> float:
    """What the seat pays when the next player takes its discard ``t`` (fifty-one:
    10 × its number; 101, seventeen: nothing), from the rules object's ``take_lines``."""
    table = SimpleNamespace(options=dict(ctx.view.get("options") or {}), okey_kind=ctx.okey)
    lines = ctx.rules.take_lines(cast("HandState", table), ctx.next_seat, ctx.seat, t)
    sign = 1 if ctx.rules.higher_wins else -1
    return float(-sign * sum(ln["points"] for ln in lines if ln["seat"] == ctx.seat))


# ----------------------------------------------------------------- feeding


def safe_kinds(ctx: Context) -> set[int]:
    """Kinds the next player evidently does not need for its opening: those it threw
    away itself, and those this seat threw that it let pass."""
    out = set()
    for s in (ctx.next_seat, ctx.seat):
        for x in ctx.view["discards"][s]:
            k = ctx.kind(x["id"])
            if k >= 0:
                out.add(k)
    return out


def take_chance(ctx: Context, t: int, safe: set[int]) -> float:
    """How likely an unopened next player takes ``t`` into its opening: 1% up to a 6,
    then 1.2% more a number (13: 9.4%), a tenth of that for a kind in ``safe``."""
    k = ctx.kind(t)
    if k < 0:
        return 0.3  # an okey fits any opening
    n = k % 13 + 1
    p = 0.01 + 0.012 * max(0, n - 6)
    return p * 0.1 if k in safe else p


def feed_danger(ctx: Context, t: int, safe: set[int]) -> float:
    """The points the seat expects to lose by discarding ``t`` when the next player
    has not opened (and is not its partner): ``take_chance`` × (the stake of opening
    + what the take costs the discarder)."""
    nxt = ctx.next_seat
    if ctx.opened[nxt] is not None or ctx.rules.partner(core.seat_state(ctx), ctx.seat) == nxt:
        return 0.0
    return take_chance(ctx, t, safe) * (open_stake(ctx) + take_cost(ctx, t))


# ------------------------------------------------------------------ discards


def _candidates(ctx: Context) -> list[int]:
    """One discard per kind; okeys and penalty tiles only when nothing else can go."""
    by_kind: dict[int, int] = {}
    for a in ctx.legal:
        if a["type"] == "discard":
            t = a["tile"]
            by_kind.setdefault(-2 if ctx.is_okey(t) else ctx.kind(t), t)
    cand = list(by_kind.values())
    plain = [t for t in cand if not ctx.is_okey(t)]
    if plain:
        cand = plain
    clean = [t for t in cand if not ctx.penalty(t)]
    return clean or cand


def opening_scores(ctx: Context, cand: list[int]) -> list[tuple[float, int]]:
    """Hard's opening look-ahead (``core._open_discard``) for hard's six first
    candidates: the opening total kept (up to the minimum) plus the unseen tiles that
    raise it, as a share of the minimum, less the feed danger as a share of the stake
    (``FEED_WEIGHT``); best first."""
    need = (ctx.view.get("opening_min") or {}).get("melds") or 0
    mode = ctx.values or "sum"
    unseen = ctx.unseen()
    pool = max(1, sum(unseen))
    rack = ctx.rack
    stake = max(1.0, open_stake(ctx))
    safe = safe_kinds(ctx)
    first = []
    for t in cand:
        V = pack([x for x in rack if x != t], ctx.okey)
        total = search_packed(V, mode, ctx.ace_high)[1]
        first.append((-min(total, need), core.potential(ctx, t, rack, True), t, V, total))
    first.sort()
    out = []
    for _pre, pot, t, V, total in first[:6]:
        base = min(total, need)
        gain = core.opening_gain(ctx, t, V, need, base, unseen)
        score = (base + 3.0 * gain / pool - 0.1 * pot) / need
        score -= FEED_WEIGHT * feed_danger(ctx, t, safe) / stake
        out.append((score, t))
    out.sort(key=lambda x: (-x[0], x[1]))
    return out


def fewest_replacements(ctx: Context, scored: list[tuple[float, int]]) -> int:
    """Of the scored candidates (best first), the first whose kept rack is the fewest
    replacements from an opening at the table's limit (``efficiency``'s deficiency
    before opening), among the first ``DEFICIENCY_CANDIDATES``."""
    v = ctx.view
    limit, options = v.get("limit"), v.get("options")
    best_t, best_d = scored[0][1], None
    for _s, t in scored[:DEFICIENCY_CANDIDATES]:
        vecs, j = _vectors([x for x in ctx.rack if x != t], ctx.okey)
        bound = _NO_BOUND if best_d is None else best_d
        d = _deficiency_vec(vecs, j, len(ctx.rack) - 1, ctx.rules, False, limit, options, bound)
        if best_d is None or d < best_d:
            best_t, best_d = t, d
    return best_t


def pre_open_discard(ctx: Context) -> dict | None:
    """Not opened yet: the discard of the module's docstring, or None (one candidate,
    or no minimum to reach)."""
    cand = _candidates(ctx)
    need = (ctx.view.get("opening_min") or {}).get("melds") or 0
    if len(cand) <= 1 or need <= 0:
        return None
    t = fewest_replacements(ctx, opening_scores(ctx, cand))
    _explain(ctx, t)
    return next(a for a in ctx.legal if a["type"] == "discard" and a["tile"] == t)


def _replacements(ctx: Context, t: int) -> int:
    vecs, j = _vectors([x for x in ctx.rack if x != t], ctx.okey)
    v = ctx.view
    n = len(ctx.rack) - 1
    return _deficiency_vec(vecs, j, n, ctx.rules, False, v.get("limit"), v.get("options"))


def _explain(ctx: Context, t: int) -> None:
    """Why "Show me" plays ``t`` where hard throws another tile (``ctx.why``, read by
    ``expert._discard_reasons``): ``opening_nearer`` (the rack stays fewer replacements
    from an opening) or ``opening_unfed`` (hard's tile is likelier to carry an unopened
    next player's opening); nothing when neither holds."""
    plain = core.play(ctx, "hard", random.Random(0))  # hard's lay-down plan draws no lots
    h = plain.get("tile") if plain.get("type") == "discard" else None
    if h is None or ctx.kind(h) == ctx.kind(t) or ctx.is_okey(h) != ctx.is_okey(t):
        return
    avoid = {"avoid": notation(h)}
    if _replacements(ctx, t) < _replacements(ctx, h):
        ctx.why = ("opening_nearer", avoid)
        return
    safe = safe_kinds(ctx)
    if feed_danger(ctx, h, safe) > feed_danger(ctx, t, safe):
        ctx.why = ("opening_unfed", avoid)


# ----------------------------------------------------------- after opening


def rival_near_finish(ctx: Context, tiles: int) -> bool:
    """Does an opened rival (not the seat's partner) hold ``tiles`` tiles or fewer?"""
    counts = ctx.view.get("rack_counts") or []
    partner = ctx.rules.partner(core.seat_state(ctx), ctx.seat)
    return any(
        s not in (ctx.seat, partner) and ctx.opened[s] is not None and counts[s] <= tiles
        for s in range(min(ctx.n, len(counts)))
    )


def keep_melds(ctx: Context) -> bool:
    """Opened with runs and groups where a lay-off costs the meld's owner: keep new
    melds in the rack (see the module's docstring) unless laying lets the seat finish,
    an opened rival is near finishing, or the pile is nearly out."""
    if not ctx.rules.cpu_lays_off_on_rivals_first or ctx.opened[ctx.seat] != "melds":
        return False
    if ctx.view.get("pile_count", 0) <= HOLD_PILE or rival_near_finish(ctx, HOLD_NEAR):
        return False
    arr = ctx.arr(ctx.rack, pairs=False)
    loose = [
        t
        for t in arr.leftover
        if not any(placements(t, m, ctx.okey, ctx.ace_high) for m in ctx.melds)
    ]
    return len(loose) > 1


def _without_lays(ctx: Context) -> Context:
    other = Context(ctx.view, [a for a in ctx.legal if a["type"] != "lay"])
    other._seen, other.route = ctx._seen, ctx.route
    return other


def pick(ctx: Context, rng: random.Random) -> dict | None:
    """The expert's action where it differs from hard's plan, else None: the discard
    before opening (not on the pairs route, which keeps hard's pairs discard), and,
    once opened, hard's plan without laying new melds while ``keep_melds`` says so."""
    if ctx.view.get("phase") != "play" or ctx.taken is not None:
        return None
    if any(a["type"] == "lay" for a in ctx.legal) and keep_melds(ctx):
        act = core.play(_without_lays(ctx), "hard", rng)
        if act["type"] == "discard":
            ctx.why = ("melds_kept", {})
        return act
    if ctx.opened[ctx.seat] is not None or ctx.route == "pairs" or len(ctx.rack) <= 1:
        return None
    types = {a["type"] for a in ctx.legal}
    if "discard" not in types or "open" in types:
        return None
    return pre_open_discard(ctx)
