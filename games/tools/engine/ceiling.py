"""How much never feeding the next player's close is worth: a measuring tool, not a level.

In the whole-rack rule sets (classic, rummy) about half the closes are made with the
previous player's discard, taken (RULES.md §1, "A turn"). This tool plays the arena's
duplicate deals (``arena.py``) with a *sighted* expert on side A: it decides as the
expert does (``expert.evaluate``, best first), except that it looks at the next
player's real rack, which no level may, and of the expert's discards it throws the
first, in the expert's order, that does not let that player close by taking it (the
rack plus the tile holds a winning 14: ``efficiency.deficiency`` of the 15 tiles is 0);
when every discard feeds, the expert's own. Side B plays its level as usual. With
``--slack S`` it only looks among the discards the expert values within S points of its
best (``--slack 0``: the equally valued ones, which cost the expert nothing by its own
measure): how much of the ceiling a perfect reading gets without giving up pace.

Against hard this measures the ceiling of what any reading of the next player's rack
from the view can add to the expert (a perfect reading, with the pace of the expert's
discards otherwise unchanged), in the rule set's points a hand, with its 95% interval.

``python -m games.tools.engine.ceiling --variant classic --b hard --deals 500 --seed S
[--first F] [--workers 2] [--sums]`` prints the arena's JSON report (side A is listed as
``expert``); ranges merge with ``arena.merge``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from functools import partial
from typing import Any

from games.engine.actions import legal_actions
from games.engine.bots import expert
from games.engine.bots.core import LEVELS
from games.engine.efficiency import deficiency
from games.engine.rules import RULES, rules_for
from games.engine.view import view_for
from games.tools.engine import arena

SIGHTED = "expert"  # the level on side A whose seats look at the next rack


def feeds(state: Any, seat: int, tile: int) -> bool:
    """Would the next player close by taking ``tile``, thrown by ``seat``? Read from its
    real rack (a measuring tool's privilege)."""
    nxt = (seat + 1) % state.n_players
    rack = list(state.racks[nxt])
    if len(rack) != 14:
        return False
    return deficiency([*rack, tile], state.okey_kind, rules_for(state.variant)) == 0


def sighted(state: Any, seat: int, level: str, slack: float = math.inf) -> dict | None:
    """The sighted expert's action for a seat of the ``SIGHTED`` level (its discard
    chosen as above, among the discards valued within ``slack`` of its best), None for
    any other seat (it plays its level)."""
    if level != SIGHTED or not rules_for(state.variant).whole_rack:
        return None
    options = expert.evaluate(view_for(state, seat), legal_actions(state, seat))
    first = options[0].action
    if first["type"] != "discard":
        return first
    floor = options[0].value - slack - 1e-9
    for option in options:
        action = option.action
        if option.value < floor:
            break
        if action["type"] == "discard" and not feeds(state, seat, action["tile"]):
            return action
    return first


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="ceiling", description=__doc__.splitlines()[0])
    whole = sorted(v for v in RULES if rules_for(v).whole_rack)
    p.add_argument("--variant", required=True, choices=whole)
    p.add_argument("--b", default="hard", choices=[lv for lv in LEVELS if lv != SIGHTED])
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--seed", default="0")
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--sums", action="store_true", help="keep per-deal edges (for merging)")
    p.add_argument("--slack", type=float, default=math.inf,
                   help="look only among discards valued within this of the best")  # fmt: skip
    args = p.parse_args(argv)
    if args.slack < 0:
        p.error("--slack must be 0 or more")
    chooser = sighted if math.isinf(args.slack) else partial(sighted, slack=args.slack)
    report = arena.arena(args.variant, SIGHTED, args.b, args.deals, args.seed,
                         first=args.first, workers=args.workers, chooser=chooser)  # fmt: skip
    slack = "" if math.isinf(args.slack) else f", slack {args.slack:g}"
    report["a"] = f"expert, sighted{slack} (ceiling.py)"
    if not args.sums:
        report.pop("sums")
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
