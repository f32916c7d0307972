"""Fit ``danger.WEIGHTS``: ``python -m games.engine.bots.danger_fit --hands N --seed S``.

Plays classic hands with hard CPUs in every seat. At every discard decision, each kind in
the deciding seat's rack (okeys left out) gives one row: ``danger.features`` read from the
seat's view, and the label, whether the next player's real rack (read here, from the
state, and nowhere else) closes with a tile of that kind taken. A logistic regression is
fitted by Newton's method (pure Python: the design matrix is small), with the negative
rows thinned to ``--keep`` of them (weighted back, so the chances stay calibrated). The
hands of ``--seed``'s second half are held out and the fit is judged on them: log loss
against the base rate, and the share of the feeding discards among the tenth of rows the
model finds most dangerous. It prints the weights as a Python tuple for ``danger.py``.

The weights in ``danger.py``: ``python -m games.engine.bots.danger_fit --hands 2000 --seed
danger`` (about 7 minutes of one core): 1,000 hands fitted, 1,000 held out (393,910 rows);
held out, 1.62 % of the rows feed a close, the model's log loss is 0.0699 against 0.0828
for that base rate, and the tenth of the rows it rates most dangerous holds 45.5 % of the
feeding rows.
"""

from __future__ import annotations

import argparse
import math
import random

from ..actions import apply, legal_actions
from ..evaluate import is_winning
from ..state import HandState, new_hand
from ..view import view_for
from . import expert
from .core import Context, decide
from .danger import FEATURES, Reading, features


def closes_with(state: HandState, seat: int, tile: int) -> bool:
    """Whether ``seat``'s real rack, with ``tile`` taken, holds a winning 14."""
    rack = [*state.racks[seat], tile]
    for r in rack:
        if r != tile:
            keep = [x for x in rack if x != r]
            if is_winning(keep, state.okey_kind, ace_high=state.rules.ace_high):
                return True
    return False


def rows_of_hand(
    seed: str, starter: int, variant: str = "classic"
) -> list[tuple[list[float], int]]:
    """The labelled rows of one hand played by hard CPUs."""
    state = new_hand(variant, None, seed, starter)
    out: list[tuple[list[float], int]] = []
    for _ in range(3000):
        if state.over:
            break
        seat = state.turn
        view = view_for(state, seat)
        legal = legal_actions(state, seat)
        action = decide(view, legal, "hard")
        if action["type"] == "discard":
            ctx = Context(view, legal)
            reading = Reading(ctx, expert.unseen(view, ctx))
            done: set[int] = set()
            for t in ctx.rack:
                k = ctx.kind(t)
                if k < 0 or k in done:
                    continue
                done.add(k)
                label = 1 if closes_with(state, ctx.next_seat, t) else 0
                out.append((features(reading, k), label))
        state, _ = apply(state, action)
    return out


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Solve a x = b (Gauss-Jordan with partial pivoting; a small ridge keeps it regular)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for i in range(n):
        m[i][i] += 1e-6
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        p = m[col][col]
        for j in range(col, n + 1):
            m[col][j] /= p
        for r in range(n):
            if r != col and m[r][col]:
                f = m[r][col]
                for j in range(col, n + 1):
                    m[r][j] -= f * m[col][j]
    return [m[i][n] for i in range(n)]


def fit(rows: list[tuple[list[float], int, float]], iters: int = 12) -> list[float]:
    """Weighted logistic regression by Newton's method (rows: features, label, weight)."""
    k = len(rows[0][0])
    w = [0.0] * k
    for _ in range(iters):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for x, y, wt in rows:
            z = sum(a * b for a, b in zip(w, x, strict=True))
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            g = wt * (y - p)
            h = wt * p * (1 - p)
            for i in range(k):
                xi = x[i]
                if xi:
                    grad[i] += g * xi
                    hi = h * xi
                    row = hess[i]
                    for j in range(i, k):
                        if x[j]:
                            row[j] += hi * x[j]
        for i in range(k):
            hess[i][i] += 1e-3  # a touch of ridge
            for j in range(i):
                hess[i][j] = hess[j][i]
        step = _solve(hess, grad)
        w = [a + b for a, b in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < 1e-6:
            break
    return w


def judge(rows: list[tuple[list[float], int]], w: list[float]) -> dict[str, float]:
    """Held-out figures: log loss of the model and of the base rate, and the share of
    the feeding rows among the tenth the model rates most dangerous."""
    ps = []
    for x, y in rows:
        z = sum(a * b for a, b in zip(w, x, strict=True))
        ps.append((1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z)))), y))
    base = sum(y for _, y in ps) / len(ps)

    def ll(p: float, y: int) -> float:
        p = min(max(p, 1e-9), 1 - 1e-9)
        return -(y * math.log(p) + (1 - y) * math.log(1 - p))

    ps.sort(key=lambda t: -t[0])
    top = ps[: len(ps) // 10]
    pos = sum(y for _, y in ps)
    return {
        "rows": len(ps),
        "base_rate": base,
        "log_loss": sum(ll(p, y) for p, y in ps) / len(ps),
        "log_loss_base": sum(ll(base, y) for _, y in ps) / len(ps),
        "top_tenth_share": sum(y for _, y in top) / max(1, pos),
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--seed", default="danger")
    ap.add_argument("--keep", type=float, default=0.1, help="share of negative rows kept")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    train: list[tuple[list[float], int, float]] = []
    test: list[tuple[list[float], int]] = []
    half = args.hands // 2
    for i in range(args.hands):
        rows = rows_of_hand(f"{args.seed}/{i}", i % 4)
        if i >= half:
            test += rows
            continue
        for x, y in rows:
            if y:
                train.append((x, y, 1.0))
            elif rng.random() < args.keep:
                train.append((x, y, 1.0 / args.keep))
    w = fit(train)
    print(judge(test, w))
    print("WEIGHTS = (")
    for name, v in zip(FEATURES, w, strict=True):
        print(f"    {v:.4f},  # {name}")
    print(")")


if __name__ == "__main__":
    main()
