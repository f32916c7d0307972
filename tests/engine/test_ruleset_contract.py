"""The rule-set plug-in contract, engine side (rulebase.py, docs/rule-sets.md).

A rule set is one module; nothing else is edited to add one. The throw-away rule sets of
``tests/support/rulesets.py`` (a classic counted down from 4 points, a fifty-one with a
fixed 61 barrier) are defined only there and registered through the public registry: the
registry lists them, their options validate, whole games play to their end with the CPU
players and replay, and the hooks the web layer reads (``opening_progress``,
``explain_line``, ``teams``, ``score_card_rows``, ``result_problems``) answer for them.
"""

from __future__ import annotations

import random

import pytest

from games.engine import VARIANTS, Game, Refusal, apply, replay, rules_for, validate_options
from games.engine.bots import choose_action
from games.engine.rules import RULES, register, unregister
from games.engine.testing import make_state
from tests.support.rulesets import QuickClassic, SixtyOne, quick_classic, sixty_one, throwaway

__all__ = ["quick_classic", "sixty_one", "throwaway"]  # fixtures


def play_game(variant: str, options: dict | None = None, max_hands: int = 60) -> Game:
    """A whole game of CPU players (medium), each hand checked to replay from its record."""
    game = Game(variant, validate_options(variant, options))
    for number in range(max_hands):
        state = game.new_hand(f"contract-{variant}-{number}")
        rng = random.Random(number)
        while not state.over:
            state, _ = apply(state, choose_action(state, state.turn, "medium", rng=rng))
        assert replay(state.record()) == state
        game.record_hand(state)
        if game.is_over():
            return game
    raise AssertionError(f"{variant}: no end after {max_hands} hands")


def test_a_registered_rule_set_is_listed_wherever_the_registry_is_read(throwaway):
    name = throwaway.name
    assert rules_for(name) is throwaway and RULES[name] is throwaway
    assert name in VARIANTS and VARIANTS[name] == throwaway.meta()
    # in menu order: after every shipped rule set of a lower ``order``
    assert list(RULES).index(name) > list(RULES).index("classic")
    assert validate_options(name)["clock"] == throwaway.options["clock"][1]
    with pytest.raises(Refusal) as refused:
        validate_options(name, {"no_such_option": 1})
    assert refused.value.code == "bad_option"


def test_unregistering_removes_it_and_a_taken_name_is_refused():
    rules = register(QuickClassic())
    try:
        with pytest.raises(ValueError):
            register(QuickClassic())
    finally:
        unregister(rules.name)
    assert rules.name not in RULES and rules.name not in VARIANTS
    with pytest.raises(Refusal) as refused:
        rules_for(rules.name)
    assert refused.value.code == "bad_variant"
    with pytest.raises(Refusal):
        validate_options(rules.name)


def test_the_quick_classic_counts_down_from_its_own_start(quick_classic):
    """Its one difference, the target: 4 points each, the game ends once someone reaches
    0 [D5] [D6], so after a few hands (a shipped classic starts from 10 at least)."""
    game = play_game(quick_classic.name)
    assert game.start_points() == 4
    before_last = [4 + sum(h.totals[s] for h in game.hands[:-1]) for s in range(4)]
    assert min(before_last) > 0 >= min(game.totals())
    best = max(game.totals())
    assert game.winners() == [s for s, v in enumerate(game.totals()) if v == best]
    options = validate_options(quick_classic.name)
    assert quick_classic.score_card_rows(options) == 12
    problems = quick_classic.result_problems(options, [5, 2, 2, -2])
    assert "above_start" in {p.code for p in problems}  # 5 is above the 4 everyone starts with
    assert not quick_classic.result_problems(options, [4, 1, 1, -2])


def test_the_sixty_one_barrier_is_what_opening_needs_and_what_staging_shows(sixty_one):
    state = make_state(
        sixty_one.name,
        racks=["R10 R11 R12 K7 Y7 B7 B1 B2 Y9 K3 K5 R2 R5 Y11 B13", None, None, None],
        indicator="B4",
        options={"clock": 0},
        phase="play",
    )
    run, group = list(state.racks[0][:3]), list(state.racks[0][3:6])
    progress = sixty_one.opening_progress(state, 0, [run, group])
    assert (progress["total"], progress["need"]) == (33 + 21, 61)
    assert [m["kind"] for m in progress["melds"]] == ["run", "group"]
    with pytest.raises(Refusal) as refused:
        apply(state, {"type": "open", "seat": 0, "melds": [run, group]})
    assert refused.value.code == "below_opening_limit"
    assert refused.value.detail == {"total": 54, "need": 61}


def test_whole_games_play_to_their_end_and_replay(throwaway):
    game = play_game(throwaway.name)
    assert game.is_over() and game.winners()
    assert len(game.hands) <= throwaway.max_hands(game.options)


def _check_explained(rules, line: dict, n: int) -> None:
    parts = rules.explain_line(line)
    for part in parts:
        assert isinstance(part["msgid"], str) and part["msgid"]
        assert isinstance(part["params"], dict)
        assert all(0 <= seat < n for seat in part["seats"].values())


def test_a_hands_score_lines_are_explained_as_data(throwaway):
    """Every line a hand of the throw-away rule set writes has an explanation of msgids
    and parameters; a lay-down finish explains its tiles-left lines."""
    said = set()
    for number in range(12):
        state = Game(throwaway.name, validate_options(throwaway.name)).new_hand(f"lines-{number}")
        rng = random.Random(number)
        while not state.over:
            state, _ = apply(state, choose_action(state, state.turn, "medium", rng=rng))
        for line in state.scores:
            _check_explained(throwaway, line, state.n_players)
            said |= {p["msgid"] for p in throwaway.explain_line(line)}
    assert said, "no line of twelve hands was explained"


def test_teams_come_from_the_rule_set(sixty_one):
    assert sixty_one.teams(validate_options(sixty_one.name)) is None
    assert sixty_one.teams(validate_options(sixty_one.name, {"partners": True})) == [[0, 2], [1, 3]]
    assert isinstance(SixtyOne(), type(RULES["fifty-one"]))
