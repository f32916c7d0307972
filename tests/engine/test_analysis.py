"""The review that teaches, its pure part (games/engine/analysis.py): the classes by value
lost on constructed positions (each boundary), the accuracy, which decisions count, and
that the expert is asked from the seat's view only."""

from __future__ import annotations

import pytest

from games.engine import analysis as an
from games.engine import apply, new_hand
from games.engine.actions import legal_actions
from games.engine.bots import choose_action
from games.engine.rules import RULES, rules_for


def opts(*values: float) -> list[an.Option]:
    """Options of a constructed discard decision: tile ids 0, 2, 4, ... (distinct kinds)."""
    return [
        an.Option(action={"type": "discard", "seat": 0, "tile": 2 * i}, value=v, reason="r")
        for i, v in enumerate(values)
    ]


def decide(options: list[an.Option], played_tile: int, variant: str = "classic") -> dict:
    legal = [o.action for o in options]
    unit = an.swing(rules_for(variant))
    item = an.evaluate_decision(
        {"variant": variant},
        legal,
        {"type": "discard", "seat": 0, "tile": played_tile},
        unit,
        lambda view, legal: list(options),
    )
    assert item is not None
    return item


@pytest.mark.parametrize(
    ("share", "cls"),
    [
        (0.0, "best"),
        (0.01, "best"),  # a boundary belongs to the milder class
        (0.011, "good"),
        (0.04, "good"),
        (0.041, "inaccuracy"),
        (0.10, "inaccuracy"),
        (0.101, "mistake"),
        (0.25, "mistake"),
        (0.251, "blunder"),
        (1.0, "blunder"),
    ],
)
@pytest.mark.parametrize("variant", ["classic", "fifty-one"])
def test_class_by_value_lost_at_each_boundary(share, cls, variant):
    unit = an.swing(rules_for(variant))
    # the best move is worth 1 swing; the played one lost `share` of a swing
    item = decide(opts(unit, unit * (1 - share), -unit), played_tile=2, variant=variant)
    assert item["class"] == cls
    assert item["loss"] == pytest.approx(share * unit, abs=1e-3)


def test_the_classes_read_in_the_rule_sets_own_points():
    """Half a point is a blunder in classic okey (a finish pays 2) and nothing in
    fifty-one (a finish is worth a rack of tiles, about 98 points); a tile kept loose is a
    mistake in classic and an inaccuracy in fifty-one (its rack is twice as long)."""
    assert an.swing(rules_for("classic")) == 2.0
    assert an.swing(rules_for("fifty-one")) == 98.0
    assert decide(opts(0.0, -0.6), 2, "classic")["class"] == "blunder"
    assert decide(opts(0.0, -2.0 / 7), 2, "classic")["class"] == "mistake"
    assert decide(opts(0.0, -0.6), 2, "fifty-one")["class"] == "best"
    assert decide(opts(0.0, -7.0), 2, "fifty-one")["class"] == "inaccuracy"
    assert decide(opts(0.0, -20.0), 2, "fifty-one")["class"] == "mistake"
    assert decide(opts(0.0, -30.0), 2, "fifty-one")["class"] == "blunder"


def test_every_rule_set_has_a_swing_and_a_rules_object_may_give_its_own():
    for rules in RULES.values():
        assert an.swing(rules) > 0

    class Plugin:
        name = "plug-in"
        review_swing = 40

    assert an.swing(Plugin()) == 40.0
    assert an.classify(5.0, an.swing(Plugin())) == "mistake"  # 12.5 % of 40


def test_a_decision_shows_the_best_alternatives_and_the_move_played():
    item = decide(opts(-1.0, 0.5, 0.2, 0.1, -0.2), played_tile=0)
    assert item["best"]["action"]["tile"] == 2
    assert item["played"]["value"] == -1.0
    assert [o["action"]["tile"] for o in item["alternatives"]] == [2, 4, 6]  # best three
    assert item["loss"] == pytest.approx(1.5)
    # every discard is kept for retry mode
    assert {o["action"]["tile"] for o in item["options"]} == {0, 2, 4, 6, 8}


def test_a_move_the_expert_left_out_lost_at_least_the_worst_option():
    item = decide(opts(0.5, 0.0), played_tile=40)
    assert item["played"]["value"] == 0.0 and item["loss"] == pytest.approx(0.5)


def test_a_forced_move_is_not_a_decision():
    one = opts(0.0)
    assert an.evaluate_decision({}, [o.action for o in one], one[0].action, 2.0, None) is None
    # two copies of one tile are one choice
    twins = [{"type": "discard", "seat": 0, "tile": 10}, {"type": "discard", "seat": 0, "tile": 11}]
    assert an.decision_options(twins) == twins[:1]
    # free actions are not choices
    free = [{"type": "arrange", "seat": 0}, {"type": "flip", "seat": 0, "tile": 3}]
    assert an.decision_options(free + twins[:1]) == twins[:1]


def test_move_scores_and_accuracy():
    assert an.move_score(0.0, 2.0) == 100.0
    assert an.move_score(0.5, 2.0) < an.move_score(0.2, 2.0) < an.move_score(0.1, 2.0) < 100
    # the score depends on the share of the swing only
    assert an.move_score(0.2, 2.0) == pytest.approx(an.move_score(9.8, 98.0))
    # the class boundaries in scores: good > 70, mistake's upper bound ~43, blunders < 13
    assert an.move_score(0.04 * 2, 2.0) > 70
    assert 40 < an.move_score(0.10 * 2, 2.0) < 45
    assert an.move_score(0.25 * 2, 2.0) < 13
    assert an.accuracy([100.0, 50.0]) == 75
    assert an.accuracy([]) is None
    assert (
        an.game_accuracy([{"decisions": [{"score": 100}]}, {"decisions": [{"score": 40}] * 3}])
        == 55
    )


def _played_hand(variant: str, seed: str) -> dict:
    state = new_hand(variant, None, seed, 0)
    actions = []
    while not state.over:
        action = choose_action(state, state.turn, "easy")
        actions.append(action)
        state, _events = apply(state, action)
    return {"variant": variant, "options": None, "seed": seed, "starter": 0, "actions": actions}


@pytest.mark.parametrize("variant", list(RULES))
def test_a_hand_is_analysed_from_the_seats_view_only(variant):
    record = _played_hand(variant, "analysis-1")
    seen: list[dict] = []

    def evaluate(view, legal):
        seen.append(view)
        return an.rack_evaluator(view, legal)

    progress: list[tuple[int, int]] = []
    result = an.analyse_hand(
        record, 1, evaluate=evaluate, progress=lambda d, t: progress.append((d, t))
    )
    assert seen and all(v["seat"] == 1 for v in seen)
    assert all(v["rack"] is not None and "racks" not in v for v in seen)
    assert progress[-1][0] == progress[-1][1] == an.decisions_of(record, 1)
    steps = [d["step"] for d in result["decisions"]]
    assert steps == sorted(steps) and all(record["actions"][s - 1]["seat"] == 1 for s in steps)
    assert sum(result["counts"].values()) == len(result["decisions"])
    assert 0 <= result["accuracy"] <= 100
    assert result["retry"] == [
        d["step"] for d in result["decisions"] if d["class"] in ("mistake", "blunder")
    ]
    assert result["steps"] == len(record["actions"])


def test_the_analysis_asks_the_expert_with_its_time_budget(monkeypatch):
    calls = []

    def evaluate(view, legal, *, budget_ms=None):
        calls.append(budget_ms)
        return an.rack_evaluator(view, legal)

    monkeypatch.setattr(an.expert, "evaluate", evaluate)
    record = _played_hand("classic", "analysis-2")
    an.analyse_hand(record, 0)
    assert calls and all(b == an.BUDGET_MS for b in calls)


def test_legal_actions_of_a_seat_out_of_turn_give_no_decision():
    state = new_hand("classic", None, "x", 0)
    assert an.decision_options(legal_actions(state, 2)) == []
