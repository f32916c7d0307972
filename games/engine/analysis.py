"""The review that teaches: every decision of one seat in a finished hand, valued.

Pure Python (no Django). ``analyse_hand(record, seat)`` replays the hand with the engine
and, at each decision of ``seat``, asks the expert (``bots.expert.evaluate``) for the value
of every decision-relevant legal action, from the seat's view only (``view_for(state,
seat)`` and ``legal_actions``: the expert never reads another rack or the pile order, so
the analysis of a move judges it by what the player could know then).

Values are in the rule set's own points, from the seat's point of view, higher = better.
What a move cost is its *loss*: the best option's value minus the value of the move
played. Losses are compared across rule sets by the rule set's **swing** (``swing()``):
what finishing the hand is worth on the expert's own scale (``expert.finish_points``:
classic and rummy 2, fifty-one and 101 98, seventeen 140), since the expert's values are
estimates on that scale (a loose tile costs a seventh of a finish in classic, a fourteenth
in fifty-one). The spread of real hand scores (classic 2, fifty-one about 950 over 30
hands of hard CPUs) was tried first: in the lay-down rule sets it is made of penalties no
single move's value carries, and every move of an easy player read as "best". A rules
object may give its own as ``review_swing``.

**Classes** by the loss as a share of the swing (``classify``; each boundary belongs to
the milder class): best (at most 1 %, so equal values and rounding noise count as the
best move), good (at most 4 %), inaccuracy (at most 10 %), mistake (at most 25 %),
blunder (more). In classic okey a blunder costs more than half a point (a tile kept loose
that a take would have fitted is a mistake), in fifty-one more than 24.5 points.

**Accuracy** (``move_score``, ``accuracy``): each decision scores 100·e^(-loss / (0.12 ×
swing)), 100 for the best move, about 72 at the good/inaccuracy boundary, 43 at a
mistake, 12 where blunders start (the shape of lichess's accuracy from the lost winning
chance); a hand's (or a game's) accuracy is the mean of its decisions' scores, 0-100.

**Which decisions count** (``decision_options``): a move of the seat's own (not the
clock's ``timeout``, not the free ``flip`` and ``arrange``) where it had at least two
different choices (two copies of a tile are one choice): draw or take, discard, close,
show, open, lay, add, swap, undo. A forced move (a draw with no discard to take, the
only legal discard) is skipped: it teaches nothing and would lift the accuracy.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from .actions import apply, legal_actions
from .bots import expert
from .evaluate import best_arrangement
from .rules import rules_for
from .state import new_hand
from .tiles import kind_of, parse_kind
from .view import view_for

CLASSES = ("best", "good", "inaccuracy", "mistake", "blunder")
# upper bound of each class's loss, as a share of the swing (the last has none)
THRESHOLDS = (0.01, 0.04, 0.10, 0.25)
SCORE_SCALE = 0.12
# the classes retry mode stops at
RETRY_CLASSES = frozenset({"mistake", "blunder"})
DECISION_TYPES = frozenset(
    {"draw", "take", "discard", "close", "show", "open", "lay", "add", "swap", "undo"}
)
DEFAULT_SWING = 100.0  # a rules object the expert cannot value
ALTERNATIVES = 3  # options shown beside the move played
BUDGET_MS = 250.0  # the expert's time per decision


@dataclass(frozen=True)
class Option:
    """One valued action (the expert's ``Option``; this one serves ``rack_evaluator``)."""

    action: dict
    value: float
    reason: str = ""
    detail: dict = field(default_factory=dict)


Evaluator = Callable[[dict, list[dict]], list[Any]]


def swing(rules: Any) -> float:
    """The rule set's typical hand swing (see the module's docstring)."""
    own = getattr(rules, "review_swing", None)
    if own:
        return float(own)
    try:
        return float(expert.finish_points(rules)) or DEFAULT_SWING
    except AttributeError:
        return DEFAULT_SWING


def classify(loss: float, unit: float) -> str:
    """The class of a move that lost ``loss`` points, in a rule set of swing ``unit``."""
    share = max(0.0, loss) / unit
    for cls, bound in zip(CLASSES, THRESHOLDS, strict=False):
        if share <= bound + 1e-12:
            return cls
    return CLASSES[-1]


def move_score(loss: float, unit: float) -> float:
    """A decision's score, 0-100 (100 = the best move)."""
    return 100.0 * math.exp(-max(0.0, loss) / (SCORE_SCALE * unit))


def accuracy(scores: Iterable[float]) -> int | None:
    """The mean of the decisions' scores, rounded; None without a decision."""
    values = list(scores)
    if not values:
        return None
    return round(sum(values) / len(values))


def signature(action: dict) -> tuple:
    """What makes two actions the same choice: their type, the kinds of the tiles they
    move (two copies of a tile are one choice), the meld they go to and what the okey
    stands for."""
    tiles: list[int] = []
    if action.get("tile") is not None:
        tiles.append(action["tile"])
    melds = tuple(sorted(tuple(sorted(kind_of(t) for t in m)) for m in action.get("melds") or []))
    assign = tuple(sorted((str(k), v) for k, v in (action.get("assign") or {}).items()))
    return (
        action["type"],
        tuple(sorted(kind_of(t) for t in tiles)),
        melds,
        action.get("meld"),
        action.get("as"),
        assign if not melds else (),
    )


def decision_options(legal: list[dict]) -> list[dict]:
    """The legal actions that are choices (no free ``flip``/``arrange``), one per
    signature."""
    seen: set[tuple] = set()
    out = []
    for a in legal:
        if a["type"] not in DECISION_TYPES:
            continue
        sig = signature(a)
        if sig not in seen:
            seen.add(sig)
            out.append(a)
    return out


def default_evaluator() -> Evaluator:
    """The expert's ``evaluate`` with the analysis's time budget."""

    def evaluate(view: dict, legal: list[dict]) -> list[Any]:
        return expert.evaluate(view, legal, budget_ms=BUDGET_MS)

    return evaluate


def rack_evaluator(view: dict, legal: list[dict]) -> list[Option]:
    """Values from the rack alone, a cheap stand-in for the expert where a test needs many
    evaluations or a player that misplays on purpose (tests build instructive hands with
    it): a move is worth
    minus the tiles it leaves outside melds (the best arrangement), times the swing over
    the rack size; finishing is worth the swing. Cruder than the expert, same shape."""
    rules = rules_for(view["variant"])
    unit = swing(rules) / max(1, rules.rack_size)
    rack = [t["id"] for t in view["rack"] or []]
    okey_kind = parse_kind(view["okey"])
    takeable = view["takeable"]["id"] if view.get("takeable") else None

    def loose(tiles: list[int]) -> int:
        if not tiles:
            return 0
        return len(best_arrangement(tiles, okey_kind, ace_high=rules.ace_high).leftover)

    def best_discard(tiles: list[int], keep: int | None = None) -> int:
        return min(
            (loose([x for x in tiles if x != d]) for d in set(tiles) if d != keep),
            default=0,
        )

    out = []
    for a in legal:
        t = a["type"]
        if t == "close":
            value = swing(rules)
        elif t == "discard":
            value = -loose([x for x in rack if x != a["tile"]]) * unit
        elif t == "take" and takeable is not None:
            value = -best_discard([*rack, takeable], keep=takeable) * unit
        elif t in ("open", "lay", "add", "swap"):
            used = {x for m in a.get("melds") or [] for x in m}
            if a.get("tile") is not None:
                used.add(a["tile"])
            value = -(loose([x for x in rack if x not in used]) - 0.5) * unit
        else:  # draw, show, undo: the rack as it stands, an unknown tile to come
            value = -best_discard(rack) * unit - 0.25 * unit
        out.append(Option(action=a, value=float(value), reason=t, detail={}))
    out.sort(key=lambda o: -o.value)
    return out


def _option_json(opt: Any) -> dict[str, Any]:
    return {
        "action": dict(opt.action),
        "value": round(float(opt.value), 3),
        "reason": opt.reason,
        "detail": dict(opt.detail or {}),
    }


def evaluate_decision(
    view: dict, legal: list[dict], played: dict, unit: float, evaluate: Evaluator
) -> dict[str, Any] | None:
    """One decision: the options (best first), the move played, its loss, class and score.
    None when the move was forced."""
    choices = decision_options(legal)
    if len(choices) < 2:
        return None
    options = list(evaluate(view, choices))
    if not options:
        return None
    options.sort(key=lambda o: -float(o.value))
    mine = signature(played)
    played_opt = next((o for o in options if signature(o.action) == mine), None)
    best = options[0]
    # a move the expert left out as hopeless lost at least what its worst option did
    played_value = float((played_opt or options[-1]).value)
    loss = max(0.0, float(best.value) - played_value)
    alternatives = [o for o in options if signature(o.action) != mine][:ALTERNATIVES]
    # every discard and draw/take stays (retry mode answers any tile or either pile)
    retry = [
        o
        for o in options
        if o.action["type"] in ("discard", "draw", "take")
        or o in alternatives
        or o is best
        or o is played_opt
    ]
    return {
        "type": played["type"],
        "played": {
            "action": dict(played),
            "value": round(played_value, 3),
            "reason": played_opt.reason if played_opt else "",
            "detail": dict(played_opt.detail or {}) if played_opt else {},
        },
        "best": _option_json(best),
        "alternatives": [_option_json(o) for o in alternatives],
        "options": [_option_json(o) for o in retry],
        "loss": round(loss, 3),
        "class": classify(loss, unit),
        "score": round(move_score(loss, unit), 1),
    }


def decisions_of(record: dict, seat: int) -> int:
    """How many of the record's actions are ``seat``'s moves (the progress bar's total;
    forced ones are found and skipped as the analysis goes)."""
    return sum(1 for a in record["actions"] if a["seat"] == seat and a["type"] in DECISION_TYPES)


def analyse_hand(
    record: dict,
    seat: int,
    *,
    evaluate: Evaluator | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """The analysis of ``seat`` in a finished hand's engine record (variant, options,
    seed, starter, context, actions): JSON-ready and language-neutral.

    ``decisions``: one per counted decision, ``step`` = the action's number (1-based, the
    replay's step after it; the position before it is step - 1). ``progress(done,
    total)`` is called after each of the seat's moves."""
    evaluate = evaluate or default_evaluator()
    state = new_hand(
        record["variant"],
        record.get("options"),
        record["seed"],
        record["starter"],
        context=record.get("context"),
    )
    unit = swing(state.rules)
    total = decisions_of(record, seat)
    done = 0
    decisions = []
    for i, action in enumerate(record["actions"]):
        if action["seat"] == seat and action["type"] in DECISION_TYPES:
            item = evaluate_decision(
                view_for(state, seat), legal_actions(state, seat), action, unit, evaluate
            )
            if item is not None:
                decisions.append({"step": i + 1, **item})
            done += 1
            if progress is not None:
                progress(done, total)
        state, _events = apply(state, action)
    return {
        "seat": seat,
        "variant": record["variant"],
        "swing": unit,
        "steps": len(record["actions"]),
        **summary(decisions),
    }


def summary(decisions: list[dict]) -> dict[str, Any]:
    """Counts per class and the accuracy of a list of decisions."""
    counts = {c: 0 for c in CLASSES}
    for d in decisions:
        counts[d["class"]] += 1
    return {
        "decisions": decisions,
        "counts": counts,
        "accuracy": accuracy(d["score"] for d in decisions),
        "retry": [d["step"] for d in decisions if d["class"] in RETRY_CLASSES],
    }


def game_accuracy(analyses: Iterable[dict]) -> int | None:
    """A game's accuracy: the mean score over every decision of its analysed hands."""
    return accuracy(d["score"] for a in analyses for d in a.get("decisions", []))
