"""What one finished hand says about each person at it: pure Python, no Django.

``check_hand(record, people, evaluate)`` replays a hand's engine record (the shape of
``games.live.realtime.hand_record``) once and, for every seat in ``people`` (seat position ->
the indexes of the actions that person played themself, not a stand-in CPU), gives:

* ``decisions``, ``matches``, ``loss``, ``bits``: each of the person's counted decisions
  (``games.engine.analysis.evaluate_decision``: a real choice, not a forced move, not a
  free ``flip``/``arrange``) valued by the expert from that seat's own view
  (``view_for``: the expert never reads another rack), whether the move played was the
  expert's own choice (the same ``signature``: two copies of a tile are one choice), and
  the points it lost against the expert's best option (the rule set's points, the
  ``loss`` of ``evaluate_decision``). ``bits`` is one character a decision, ``1`` for a
  match, in the order played.
* ``feeder``: the seat before it, whose discards it may take.
* ``fed``: the seat finished the hand (the result's ``finisher``) still holding a tile it
  had taken from the discards of the seat before it (``HandState.prev_seat``: the only
  discards a seat may take, RULES.md §2), i.e. that neighbour's discard went into the
  finish. A taken tile stops counting once it is discarded again, put down as the
  closing tile, or given back (``undo``).

The expert is ``games.engine.bots.expert.evaluate`` at its own budget: the move the
expert CPU and "Show me" play, which is what a person copying an engine would copy.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from games.engine.actions import apply, legal_actions
from games.engine.analysis import DECISION_TYPES, evaluate_decision, signature, swing
from games.engine.bots import expert
from games.engine.state import HandState, new_hand
from games.engine.view import view_for

Evaluator = Callable[[dict, list[dict]], list[Any]]


def expert_evaluator(view: dict, legal: list[dict]) -> list[Any]:
    """The expert's values, as the expert CPU and "Show me" ask for them."""
    return expert.evaluate(view, legal)


def start_state(record: dict) -> HandState:
    return new_hand(
        record["variant"],
        record.get("options"),
        record["seed"],
        record["starter"],
        context=record.get("context"),
    )


def check_hand(
    record: dict,
    people: dict[int, Iterable[int]],
    evaluate: Evaluator | None = None,
) -> dict[int, dict[str, Any]]:
    """Per seat of ``people``: decisions, matches, loss, bits, fed (see the module)."""
    evaluate = evaluate or expert_evaluator
    own = {seat: set(indexes) for seat, indexes in people.items()}
    state = start_state(record)
    unit = swing(state.rules)
    out: dict[int, dict[str, Any]] = {
        seat: {
            "decisions": 0,
            "matches": 0,
            "loss": 0.0,
            "bits": "",
            "fed": False,
            "feeder": state.prev_seat(seat),
        }
        for seat in own
    }
    # seat -> {tile taken: the seat it was taken from}
    held: dict[int, dict[int, int]] = {s: {} for s in range(state.n_players)}
    for i, action in enumerate(record["actions"]):
        seat = action["seat"]
        if seat in own and i in own[seat] and action["type"] in DECISION_TYPES:
            item = evaluate_decision(
                view_for(state, seat), legal_actions(state, seat), action, unit, evaluate
            )
            if item is not None:
                row = out[seat]
                match = signature(action) == signature(item["best"]["action"])
                row["decisions"] += 1
                row["matches"] += int(match)
                row["loss"] += float(item["loss"])
                row["bits"] += "1" if match else "0"
        state, events = apply(state, action)
        for e in events:
            if e.get("type") == "took":
                held[e["seat"]][e["tile"]] = e["from"]
            elif e.get("type") == "undone":
                held[e["seat"]].pop(e["tile"], None)
        if action["type"] in ("discard", "close") and action.get("tile") is not None:
            held[seat].pop(action["tile"], None)
    finisher = (state.result or {}).get("finisher")
    if finisher is not None and finisher in out:
        feeder = state.prev_seat(finisher)
        out[finisher]["fed"] = feeder in held[finisher].values()
    for row in out.values():
        row["loss"] = round(row["loss"], 3)
    return out
