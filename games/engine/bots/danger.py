"""How likely a discard lets the next player close (whole-rack rule sets, RULES.md §2, §3).

Between CPUs about half the closes are made with the previous player's discard, taken, so
a discard that completes the next player's rack hands them the hand. Played with the
next player's rack in view (a test of the ceiling only, never a level), a seat that
never feeds such a close gains about as much on hard as hard gains on medium; the seat
does not see that rack, so this module estimates the chance from what it does see.

``feed_chance(ctx, kind)`` is a logistic model over ``features(ctx, kind)``: the public
facts the seat has about the next player's rack (the tiles it took and still holds, its
discards, the tiles it let pass from the seat's own pile), the unseen copies of the tiles
that would make a meld with the kind (a run or a group the next player may be one tile
from), and how far the hand has gone. Its weights (``WEIGHTS``) were fitted by
``danger_fit.py`` on hands played by hard CPUs, labelled by whether the next player's
real rack closes with the kind (the label is the only place a hidden rack is read; the
model reads the view only).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .core import Context, _run_mates, collected

FEATURES = (
    "bias",
    "unseen_same",  # unseen copies of the kind itself (a pair wait)
    "group_colours",  # other colours of the number the next player may hold
    "group_known",  # other colours of the number it took and holds
    "run_shapes",  # two-tile run shapes the kind completes that the next player may hold
    "run_known",  # tiles of those shapes it took and holds
    "collected",  # hard's reading of what it took (core.collected)
    "thrown_same",  # it threw this kind
    "thrown_near",  # it threw a tile the kind would make a meld with
    "passed",  # it let this kind pass from the seat's pile
    "round",  # rounds played / 10
    "round2",
    "round_x_group",
    "round_x_run",
    "round_x_known",
    "held",  # taken tiles it still holds
)

# fitted by danger_fit.py (see its docstring for the data and the held-out figures)
WEIGHTS: tuple[float, ...] = (
    -8.1627,  # bias
    -0.1464,  # unseen_same
    0.1987,  # group_colours
    1.2972,  # group_known
    0.1002,  # run_shapes
    0.9606,  # run_known
    -0.4127,  # collected
    -2.3283,  # thrown_same
    -0.1109,  # thrown_near
    -1.3685,  # passed
    7.0928,  # round
    -2.9929,  # round2
    0.0432,  # round_x_group
    0.2212,  # round_x_run
    -0.5619,  # round_x_known
    0.3702,  # held
)


def _held(ctx: Context, seat: int) -> dict[int, int]:
    """Kinds ``seat`` took (face up) and has not thrown again: tiles known to be in its rack."""
    if seat >= len(ctx.took):
        return {}
    thrown: dict[int, int] = {}
    for x in ctx.view["discards"][seat]:
        k = ctx.kind(x["id"])
        thrown[k] = thrown.get(k, 0) + 1
    out: dict[int, int] = {}
    for k in ctx.took[seat]:
        if k < 0:
            continue
        if thrown.get(k, 0) > 0:
            thrown[k] -= 1
            continue
        out[k] = out.get(k, 0) + 1
    return out


def rounds_played(ctx: Context) -> float:
    """Rounds of turns played so far, read from the discards and takes on view."""
    moves = sum(len(p) for p in ctx.view["discards"]) + sum(len(r) for r in ctx.took)
    return moves / max(1, ctx.n)


class Reading:
    """What the seat knows of the next player, read once per decision."""

    def __init__(self, ctx: Context, unseen: Sequence[int]):
        nxt = ctx.next_seat
        self.unseen = unseen
        self.held = _held(ctx, nxt)
        self.thrown = {ctx.kind(x["id"]) for x in ctx.view["discards"][nxt]} - {-1}
        self.passed = {ctx.kind(x["id"]) for x in ctx.view["discards"][ctx.seat]} - {-1}
        self.wants = collected(ctx, nxt)
        self.round = rounds_played(ctx) / 10.0
        self.ace_high = ctx.ace_high


def features(r: Reading, kind: int) -> list[float]:
    """The model's inputs for discarding a tile of ``kind`` (0-51), in ``FEATURES`` order."""
    c, n0 = divmod(kind, 13)
    n = n0 + 1
    u, held = r.unseen, r.held

    def avail(k: int) -> int:
        return u[k] + held.get(k, 0)

    group_colours = group_known = 0
    thrown_near = 0
    for cc in range(4):
        if cc == c:
            continue
        k = cc * 13 + n0
        if avail(k):
            group_colours += 1
        if held.get(k):
            group_known += 1
        if k in r.thrown:
            thrown_near += 1
    mates = {m: c * 13 + m - 1 for m, _w in _run_mates(n, r.ace_high)}
    for k in mates.values():
        if k in r.thrown:
            thrown_near += 1
    run_shapes = 0
    run_known = 0
    for ka, kb in _shapes(c, n, r.ace_high):
        if avail(ka) and avail(kb):
            run_shapes += 1
            run_known += (1 if held.get(ka) else 0) + (1 if held.get(kb) else 0)
    known = group_known + run_known
    rd = r.round
    return [
        1.0,
        float(u[kind]),
        float(group_colours),
        float(group_known),
        float(run_shapes),
        float(run_known),
        r.wants.get(kind, 0.0),
        1.0 if kind in r.thrown else 0.0,
        float(thrown_near),
        1.0 if kind in r.passed else 0.0,
        rd,
        rd * rd,
        rd * group_colours,
        rd * run_shapes,
        rd * known,
        float(sum(held.values())),
    ]


def _shapes(c: int, n: int, ace_high: bool) -> list[tuple[int, int]]:
    """The two-tile run shapes of colour ``c`` that a tile of number ``n`` completes, as
    kinds (12-13-1 when the ace may be high; 13-1-2 never, RULES.md §1)."""
    out = []
    pairs = [(n - 2, n - 1), (n - 1, n + 1), (n + 1, n + 2)]
    if ace_high and n == 1:
        pairs.append((12, 13))
    for a, b in pairs:
        if ace_high and b == 14:
            b = 1
        if 1 <= a <= 13 and 1 <= b <= 13 and not (a == 13 and b == 1 and n != 12):
            out.append((c * 13 + a - 1, c * 13 + b - 1))
    return out


def feed_chance(r: Reading, kind: int, weights: Sequence[float] = WEIGHTS) -> float:
    """The estimated chance that the next player closes with a discarded ``kind``."""
    z = sum(w * x for w, x in zip(weights, features(r, kind), strict=True))
    if z < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))
