"""The ``expert`` CPU level and its evaluation API (games/engine/API.md, "Expert").

``evaluate(view, legal)`` scores every decision-relevant legal action of the seat
whose view it is, from that view alone (the other racks and the pile order are
never read: ``tests/engine/test_expert.py`` permutes every hidden tile and checks
the answer does not change). ``decide(view, legal, "expert")`` plays
``evaluate(...)[0].action``.

What it plays: the hard level's plan (``core.play``: finish, open, lay, add, take
when it helps, discard by hard's look-ahead and feed reading), with these changes:

* **Tiles it cannot see.** Each kind exists twice; the seat sees its rack, the
  discards, the table melds, the indicator (``Context.unseen``) and, here, the tiles
  other seats took from a discard pile and still hold (the public ``took`` log:
  ``unseen``), so its look-ahead does not wait for tiles that are in a rival's rack.
* **Openings.** The engine's ``legal_actions`` lists "a useful set" of openings,
  built around the arrangement with the fewest loose tiles; when none of them
  reaches the opening minimum the expert looks itself for the melds with the
  highest total (``best_opening``) and opens with them when they reach it
  (RULES.md §5, seventeen: a rack that opens for 18 against 17 opens on its
  first turn).

How it values the options (what ``evaluate`` reports and "Show me" words):

* **Tile efficiency.** A discard is valued by the loose tiles it leaves on the
  route the seat plays (``core.plan_route``: melds or pairs) and the *useful*
  unseen tiles it keeps (``useful_tiles``: the copies of every kind that would
  leave fewer loose tiles once drawn, weighted by the tiles saved). That is the
  "keeps 9 useful tiles instead of 6" of the hint.
* **Danger.** A tile the next player evidently collects (``core.collected``) costs
  (whole-rack); in lay-down rule sets hard's feed-risk cost does, and so do
  penalty tiles and okeys.
* **Scoring.** Values are estimates in the rule set's own points, seen from the
  seat (higher is better whatever ``Rules.higher_wins`` says): a finish is worth
  about what the rule set pays for it, each loose tile about what a tile left in
  the rack costs at the hand's end (``tile_points``). The action the plan plays is
  listed first, its value raised to the best value when the estimate ranks it
  lower.

A policy module per kind of rule set changes hard's plan where it measured better
(``_policy``: ``expert_whole``, ``expert_lay``; each returns None to leave a decision to
hard's plan): in whole-rack rule sets only the okey close waited for (the discard models
tried there measured no better than hard's and were left out); in lay-down rule sets the
discard before opening and, in fifty-one, the new melds kept in the rack once opened.
Against hard, on the arena's duplicate deals, it is better in every rule set (docs/bots.md
has the figures; docs/bots-experiments.md what was tried).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from ..legal import _melds_with
from ..melds import classify
from ..rulebase import LayDownRules, Rules
from ..tiles import notation
from . import core, expert_lay, expert_whole
from .core import _INC, Context, collected, pack, plan_route, route_left

if TYPE_CHECKING:
    from ..state import HandState

# The opening search's budget: a number of search steps, not a clock, so that a decision
# never depends on how busy the machine is (about 100 steps a millisecond here).
BUDGET_MS = 40.0
NODES_PER_MS = 100


@dataclass(frozen=True)
class Option:
    """One decision-relevant action and what the expert thinks of it.

    ``action``: one of the legal actions exactly as given (or, for an opening the
    listed set misses, an ``open`` the engine accepts: see ``best_opening``);
    ``value``: the estimated worth of playing it, in the rule set's points, from the
    seat's side (higher is better); ``reason``: a stable code worded by
    ``games.live.messages.hint_text``; ``detail``: the facts the sentence needs (JSON)."""

    action: dict
    value: float
    reason: str
    detail: dict = field(default_factory=dict)


def value_unit(rules: Rules) -> str:
    """ "points" where the highest total wins, "penalty points" where the lowest does."""
    return "points" if rules.higher_wins else "penalty points"


def tile_points(rules: Rules) -> float:
    """What one loose tile costs the seat, roughly, in the rule set's points.

    Whole-rack rule sets pay a finish (about 2 points, a seven-tile gap from a
    typical rack); lay-down ones charge the tiles left in the rack (seventeen: 10
    a tile; the number-valued rule sets about 7, an average number)."""
    if rules.whole_rack:
        return 2.0 / 7.0
    return 10.0 if rules.values == "seventeen" else 7.0


def finish_points(rules: Rules) -> float:
    """What finishing is worth, roughly, in the rule set's points."""
    return 2.0 if rules.whole_rack else 14 * tile_points(rules)


# ------------------------------------------------------------------ openings


class _Okeys:
    """What ``legal._melds_with`` reads of a state: the okey's kind."""

    def __init__(self, okey_kind: int):
        self.okey_kind = okey_kind


def best_opening(ctx: Context, node_limit: int = 4000) -> tuple[int, list[Any]]:
    """Lay-down: the runs and groups of the rack with the highest opening total
    (keeping one tile to discard), as (total, shapes). A bounded search: each step
    either leaves the first remaining tile in the rack or puts it in a meld."""
    rules = cast(LayDownRules, ctx.rules)  # an opening: a lay-down rule set
    shim = cast("HandState", _Okeys(ctx.okey))
    best: list[Any] = [0, []]
    nodes = [0]
    memo: dict[tuple[int, ...], int] = {}

    def rec(rest: tuple[int, ...], total: int, melds: list[Any]) -> None:
        nodes[0] += 1
        if rest and total > best[0]:
            best[0], best[1] = total, list(melds)
        if not rest or nodes[0] > node_limit:
            return
        key = tuple(sorted(rest))
        if memo.get(key, -1) >= total:
            return
        memo[key] = total
        t = rest[0]
        if ctx.is_okey(t):
            rec(rest[1:] + (t,), total, melds) if any(not ctx.is_okey(x) for x in rest) else None
            return
        for sh in _melds_with(shim, t, rest, rules):
            if len(sh.tiles) >= len(rest):
                continue
            nr = tuple(x for x in rest if x not in sh.tiles)
            rec(nr, total + rules.meld_value(sh.kind, sh.plays), [*melds, sh])
        rec(rest[1:], total, melds)

    rack = tuple(sorted(ctx.rack, key=lambda t: (ctx.is_okey(t), ctx.kind(t))))
    rec(rack, 0, [])
    return best[0], best[1]


def _opening_action(ctx: Context, shapes: list[Any]) -> dict:
    act: dict[str, Any] = {
        "type": "open",
        "seat": ctx.seat,
        "melds": [list(s.tiles) for s in shapes],
    }
    assign = {
        str(t): k for s in shapes for t, k in zip(s.tiles, s.plays, strict=True) if ctx.is_okey(t)
    }
    if assign:
        act["assign"] = assign
    return act


def _open_total(ctx: Context, action: dict) -> int:
    total = 0
    assign = {int(k): v for k, v in (action.get("assign") or {}).items()}
    for m in action.get("melds") or []:
        sub = {t: assign[t] for t in m if t in assign}
        sh = classify(m, ctx.okey, ace_high=ctx.ace_high, assign=sub or None)
        if sh is not None:
            total += ctx.rules.meld_value(sh.kind, sh.plays)
    return total


def _missed_opening(ctx: Context, budget_ms: float) -> Option | None:
    """An opening the listed actions miss (see the module's docstring), or None."""
    v = ctx.view
    if ctx.whole or ctx.opened[ctx.seat] is not None or v.get("phase") != "play":
        return None
    if ctx.taken is not None or not any(a["type"] == "discard" for a in ctx.legal):
        return None
    if any(a["type"] == "open" for a in ctx.legal):
        return None
    need = (v.get("opening_min") or {}).get("melds") or 0
    total, shapes = best_opening(ctx, node_limit=max(200, int(NODES_PER_MS * budget_ms)))
    if not shapes or total < need:
        return None
    act = _opening_action(ctx, shapes)
    gain = tile_points(ctx.rules) * sum(len(m) for m in act["melds"]) + finish_points(ctx.rules)
    return Option(act, round(gain, 3), "open_now", {"total": total, "need": need})


# ------------------------------------------------------------------ discards


def useful_tiles(ctx: Context, keep_V: int) -> tuple[int, float, int]:
    """(loose tiles, weighted useful unseen tiles, plain useful count) of the packed
    rack ``keep_V`` after a discard: the unseen copies of every kind that would
    lower its loose-tile count if drawn, a closing one counting double, a kind the
    next player collects counting half (it is less likely to be let go)."""
    unseen = ctx.unseen()
    inc = _INC[ctx.okey]
    base = _left(ctx, keep_V)
    wants = collected(ctx, ctx.next_seat) if ctx.whole else {}
    weighted = 0.0
    plain = 0
    for k in range(53):
        u = unseen[k]
        if u <= 0:
            continue
        kind = ctx.okey if k == 52 else k
        # a real okey (slot 52) is tile 2 × the okey's kind; the okey's kind itself is
        # played by the false jokers (tile 104)
        tid = 2 * ctx.okey if k == 52 else (104 if k == ctx.okey else 2 * k)
        b = inc[tid]
        if (keep_V // b) & 3 >= 2:
            continue
        after = _left(ctx, keep_V + b)
        if after > base:
            continue  # drawn and a loose tile thrown, the rack would be no better
        w = float(base + 1 - after) + (1.0 if ctx.whole and after <= 1 else 0.0)
        if wants.get(kind, 0.0) >= core.FEED_MIN:
            w *= 0.5
        weighted += u * w
        plain += u
    return base, weighted, plain


def _left(ctx: Context, V: int) -> int:
    if ctx.whole and ctx.route is not None:
        return route_left(ctx, V)
    mode = (None if ctx.whole else ctx.values) or "sum"
    return core.left_packed(V, mode, ctx.ace_high, ctx.whole)


def rank_discards(ctx: Context, cand: list[int]) -> list[tuple[float, int, dict]]:
    """Every candidate discard (one per kind) with its value and facts, best first."""
    inc = _INC[ctx.okey]
    V = pack(ctx.rack, ctx.okey)
    by_kind: dict[int, int] = {}
    for t in cand:
        by_kind.setdefault(-2 if ctx.is_okey(t) else ctx.kind(t), t)
    T = tile_points(ctx.rules)
    wants = collected(ctx, ctx.next_seat) if ctx.whole else {}
    pool = max(1, sum(ctx.unseen()))
    out = []
    for t in by_kind.values():
        left, weighted, plain = useful_tiles(ctx, V - inc[t])
        danger = 0.0
        feeds = ctx.whole and wants.get(ctx.kind(t), 0.0) >= core.FEED_MIN
        if feeds:
            danger = 0.6
        elif not ctx.whole:
            danger = 0.05 * core._feed_risk(ctx, t)
        if ctx.is_okey(t):
            danger += 3.0  # an okey is worth keeping while anything else can go
        if not ctx.whole and ctx.penalty(t):
            danger += 3.0
        if not ctx.whole and ctx.rules.cpu_sheds_high_tiles and ctx.opened[ctx.seat] is not None:
            danger -= 0.02 * core._num(ctx, t)  # the tiles left in the rack cost their number
        value = -T * (left - min(0.9, 6.0 * weighted / pool) + danger)
        detail = {"tile": notation(t), "leftover": left, "useful": plain, "feeds": feeds}
        out.append((value, t, detail))
    out.sort(key=lambda x: (-x[0], x[1]))
    return out


def unseen(view: dict, ctx: Context) -> list[int]:
    """Copies of each played kind (index 52: okeys) the seat cannot place: the hard
    level's count (rack, discards, table melds, indicator) less the tiles other
    seats took from a discard pile and still hold (the public ``took`` log: a
    taken tile is face up, so the seat knows whose rack it is in; one the taker
    threw again is already among the discards)."""
    out = list(ctx.unseen())
    for s, row in enumerate(ctx.took):
        if s == ctx.seat:
            continue  # its own takes are in its rack, counted already
        thrown: dict[int, int] = {}
        for x in view["discards"][s] if s < len(view["discards"]) else ():
            k = ctx.kind(x["id"])
            thrown[k] = thrown.get(k, 0) + 1
        for k in row:
            if thrown.get(k, 0) > 0:
                thrown[k] -= 1
                continue
            i = 52 if k < 0 else k
            out[i] = max(0, out[i] - 1)
    return out


# ---------------------------------------------------------------- evaluation


def evaluate(view: dict, legal: list[dict], *, budget_ms: float | None = None) -> list[Option]:
    """Every decision-relevant legal action of the view's seat, valued, best first.

    Equivalent actions are grouped (a discard of either copy of a kind is listed
    once). ``budget_ms`` bounds the opening search (default ``BUDGET_MS``), counted in
    search steps (``NODES_PER_MS`` a millisecond) so the answer is deterministic."""
    ctx = Context(view, legal)
    acts = ctx.legal
    if not acts:
        raise ValueError("no legal action for this seat")
    ctx._seen = unseen(view, ctx)
    ctx.route = plan_route(ctx)
    rng = core.seed_rng(view, "expert")
    T = tile_points(ctx.rules)
    F = finish_points(ctx.rules)
    options: list[Option] = []
    types = {a["type"] for a in acts}

    missed = _missed_opening(ctx, BUDGET_MS if budget_ms is None else budget_ms)
    if missed is not None:
        pick = missed.action
    elif "show" in types:
        pick = next(a for a in acts if a["type"] == "show")
    else:
        pick = _policy(ctx, rng)

    discards = [a for a in acts if a["type"] == "discard"]
    ranked = rank_discards(ctx, [a["tile"] for a in discards]) if discards else []
    for value, t, detail in ranked:
        act = next(a for a in discards if a["tile"] == t)
        options.append(Option(act, round(value, 3), "discard_loose", detail))
    if pick["type"] == "discard" and ranked:
        options = _discard_reasons(ctx, options, pick, rng)
    base = ranked[0][0] if ranked else 0.0
    for a in acts:
        k = a["type"]
        if k == "discard":
            continue
        detail = {}
        if k == "close":
            reason = "okey_close" if ctx.is_okey(a["tile"]) else "finish"
            value = F * (2 if reason == "okey_close" else 1)
            detail = {"tile": notation(a["tile"]), "points": value}
        elif k == "show":
            reason, value, detail = "show", F * 0.5, {"tile": notation(a["tile"])}
        elif k == "open":
            reason = "open_now"
            need = (view.get("opening_min") or {}).get("melds" if _is_melds(a) else "pairs") or 0
            detail = {"total": _open_total(ctx, a), "need": need}
            value = T * sum(len(m) for m in a["melds"]) + F * 0.5
        elif k == "lay":
            reason, value = "lay", T * sum(len(m) for m in a["melds"])
        elif k in ("add", "swap"):
            reason, value = k, T * (1.0 if k == "add" else 2.0)
            detail = {"tile": notation(a["tile"])}
        elif k == "take":
            reason, value = "take_fits", T
            if ctx.takeable is not None:
                detail = {"tile": notation(ctx.takeable)}
        elif k == "draw":
            reason, value = "draw", 0.0
        elif k == "undo":
            reason, value = "undo", -T
        else:
            continue
        options.append(Option(a, round(base + value, 3), reason, detail))

    if missed is not None:
        options.append(missed)
    # the chosen action first: its value is at least the others' (it is what the
    # expert's plan plays: finishing, opening and laying before discarding)
    chosen = next((o for o in options if o.action == pick), None)
    if chosen is None:
        chosen = Option(pick, round(base, 3), pick["type"], {})
    others = sorted((o for o in options if o is not chosen), key=lambda o: -o.value)
    top = max([chosen.value, *(o.value for o in others)])
    chosen = Option(chosen.action, top, chosen.reason, chosen.detail)
    return [chosen, *others]


def _policy(ctx: Context, rng: random.Random) -> dict:
    """The expert's own choice where its policy module has one (``expert_whole`` for
    whole-rack rule sets, ``expert_lay`` for lay-down ones; each returns None to leave
    the decision to hard's plan), else hard's plan."""
    mod = expert_whole if ctx.whole else expert_lay
    pick = mod.pick(ctx, rng)
    return pick if pick is not None else core.play(ctx, "hard", rng)


def _kind_key(ctx: Context, t: int) -> int:
    return -2 if ctx.is_okey(t) else ctx.kind(t)


def _discard_reasons(
    ctx: Context, options: list[Option], pick: dict, rng: random.Random
) -> list[Option]:
    """The chosen discard's option (its action exactly ``pick``) and why: it keeps
    back a tile the next player collects (``discard_safe``), it keeps more useful
    tiles than the other discards as loose (``keeps_useful``), or it is the loose
    tile (``discard_loose``)."""
    t = pick["tile"]
    idx = next(
        i
        for i, o in enumerate(options)
        if o.action["type"] == "discard" and _kind_key(ctx, o.action["tile"]) == _kind_key(ctx, t)
    )
    mine = options[idx]
    detail = dict(mine.detail)
    reason = "discard_loose"
    plain = None
    if ctx.whole and len(options) > 1:
        other = Context(ctx.view, ctx.legal)
        other._seen, other.route = ctx._seen, ctx.route
        other.avoid_feeding = False
        plain = core.play(other, "hard", rng)
    if (
        plain is not None
        and plain.get("tile") is not None
        and _kind_key(ctx, plain["tile"]) != _kind_key(ctx, t)
        and core.feeds_next(ctx, plain["tile"])
        and not core.feeds_next(ctx, t)
    ):
        reason = "discard_safe"
        detail["avoid"] = notation(plain["tile"])
    elif getattr(ctx, "why", None) is not None:
        # the policy module's own reason (expert_whole: a tile kept back from a next
        # player who may be one tile from closing, or the okey close waited for)
        reason, extra = ctx.why
        detail.update(extra)
    else:
        same = [
            o.detail["useful"]
            for o in options
            if o is not mine and o.detail["leftover"] == detail["leftover"]
        ]
        if same and detail["useful"] > max(same):
            reason = "keeps_useful"
            detail["instead"] = max(same)
    options[idx] = Option(pick, mine.value, reason, detail)
    return options


def _is_melds(a: dict) -> bool:
    return any(len(m) > 2 for m in a.get("melds") or [])


def choose(view: dict, legal: list[dict], rng: random.Random | None = None) -> dict:
    """The expert's action (``core.decide(..., "expert")``)."""
    return evaluate(view, legal)[0].action


core.PLUGGED["expert"] = choose

__all__ = ["Option", "evaluate", "value_unit", "tile_points", "best_opening", "choose"]
