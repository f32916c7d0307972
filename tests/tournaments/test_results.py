"""Result validation: real finished games pass, impossible totals are
refused with their stable code."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Game, apply
from games.engine.options import validate_options
from games.engine.rules import RULES
from games.engine.simulate import choose
from games.tournaments.messages import RESULT_PROBLEMS
from games.tournaments.results import CODES, ResultProblem, validate_table_result


def play_game(variant: str, options: dict, seed: str) -> list[int]:
    """A whole random game with the engine; its final per-seat scores."""
    game = Game(variant, options)
    rng = random.Random(seed)
    k = 0
    while not game.is_over():
        state = game.new_hand(f"{seed}-{k}")
        steps = 0
        while not state.over:
            state, _ = apply(state, choose(state, rng))
            steps += 1
            assert steps < 5000
        game.record_hand(state)
        k += 1
        assert k < 500
    return game.totals()


def codes(problems: list[ResultProblem]) -> set[str]:
    return {p.code for p in problems}


GAMES = [
    ("classic", {"start_points": 10}),
    ("classic", {}),
    ("rummy", {"players": 2, "length": "short"}),
    ("rummy", {"players": 3, "length": "short"}),
    ("rummy", {"length": "short"}),
    ("fifty-one", {}),
    ("fifty-one", {"hands": 3, "partners": True}),
    ("fifty-one", {"hands": 3, "doubling": False}),
    ("seventeen", {}),
]
# every registered rule set with its default options (a new rule set is covered too)
GAMES += [(name, {}) for name in RULES if (name, {}) not in GAMES]


@pytest.mark.parametrize("variant,options", GAMES)
@pytest.mark.parametrize("seed", ["a", "b", "c"])
def test_real_games_are_accepted(variant, options, seed):
    scores = play_game(variant, options, f"{variant}-{seed}")
    assert validate_table_result(variant, options, scores) == []


def test_every_problem_has_a_known_code_and_sentence():
    bad = [
        ("classic", {}, [25, 30, 1.5, 0]),
        ("rummy", {}, [-1, 20, 9, 9]),
        ("fifty-one", {}, [-2000, 3, 0, 0]),
        ("seventeen", {}, [5, 0, 0, 0]),
    ]
    for variant, options, scores in bad:
        for p in validate_table_result(variant, options, scores):
            assert p.code in CODES
            assert p.message.endswith(".")


@pytest.mark.parametrize("name", list(RULES))
def test_every_rule_sets_problems_have_a_sentence_and_a_text_the_pages_translate(name):
    """Whatever a rule set's checks say, the result form can say it in the reader's
    language: by the rule set's own wording of the code, or the shared one."""
    rules = RULES[name]
    n = validate_options(name, {})["players"]
    said = []
    for scores in ([-(10**6)] * n, [10**6] * n, [7] * n, [-7, *[3] * (n - 1)], [0] * n):
        for p in validate_table_result(name, {}, scores):
            assert p.message.endswith(".")
            assert p.seat is None or 0 <= p.seat < n
            assert p.code in RESULT_PROBLEMS or p.code in rules.problem_texts
            said.append(p.code)
    assert said  # everybody at -1,000,000 is no finished game of okey


# ------------------------------------------------------------------ every variant


def test_bad_options_and_unknown_variant():
    assert codes(validate_table_result("classic", {"start_points": 25}, [0, 0, 0, 0])) == {
        "bad_options"
    }
    assert codes(validate_table_result("backgammon", {}, [0, 0])) == {"bad_options"}


@pytest.mark.parametrize(
    "variant,options,n",
    [("classic", {}, 4), ("rummy", {"players": 3}, 3), ("rummy", {"players": 2}, 2)],
)
def test_seat_count(variant, options, n):
    for wrong in (n - 1, n + 1):
        problems = validate_table_result(variant, options, [0] * wrong)
        assert codes(problems) == {"seat_count"}


@pytest.mark.parametrize("value", [1.5, 2.0, "3", True, None])
def test_not_integer(value):
    problems = validate_table_result("classic", {}, [20, 18, value, 0])
    assert [(p.code, p.seat) for p in problems] == [("not_integer", 2)]


# ------------------------------------------------------------------------ classic


def test_classic_checks():
    # start 20 each: points lost 0 + 4 + 20 + 6 = 30, a multiple of 3, someone at 0
    assert validate_table_result("classic", {}, [20, 16, 0, 14]) == []
    for lost_29 in ([20, 17, 0, 14], [20, 16, -1, 14], [20, 16, 0, 15]):
        assert codes(validate_table_result("classic", {}, lost_29)) == {"impossible_total"}
    over = validate_table_result("classic", {}, [21, 15, 0, 14])  # lost 30 with a 21
    assert [(p.code, p.seat) for p in over] == [("above_start", 0)]
    # start 10: -8 is the lowest possible (1 before the last hand, then -1 and -8)
    assert validate_table_result("classic", {"start_points": 10}, [10, 8, -8, 0]) == []
    low = validate_table_result("classic", {"start_points": 10}, [10, 9, -9, 0])
    assert [(p.code, p.seat) for p in low] == [("out_of_range", 2)]
    running = validate_table_result("classic", {}, [20, 18, 1, 15])  # lost 26, nobody at 0
    assert codes(running) == {"game_not_over", "impossible_total"}
    assert codes(validate_table_result("classic", {}, [20, 17, 2, 14])) == {"game_not_over"}


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-20, 40), min_size=4, max_size=4))
def test_classic_property(scores):
    """Against an independent statement of the classic rules."""
    possible = (
        all(-8 <= v <= 20 for v in scores) and (80 - sum(scores)) % 3 == 0 and min(scores) <= 0
    )
    assert (validate_table_result("classic", {}, scores) == []) == possible


# -------------------------------------------------------------------------- rummy


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("length", ["short", "standard", "long"])
def test_rummy_checks(players, length):
    opts = {"players": players, "length": length}
    target = RULES["rummy"].game_target(validate_options("rummy", opts))
    others = [0] * (players - 1)
    for win in range(target, target + 6):
        assert validate_table_result("rummy", opts, [*others, win]) == []
    assert codes(validate_table_result("rummy", opts, [*others, target + 6])) == {"out_of_range"}
    assert codes(validate_table_result("rummy", opts, [*others, target - 1])) == {"no_winner"}
    two = [target] * 2 + [0] * (players - 2)
    assert codes(validate_table_result("rummy", opts, two)) == {"several_winners"}
    neg = [-3, *([target] + [0] * (players - 2))]
    assert codes(validate_table_result("rummy", opts, neg)) == {"out_of_range"}


# ---------------------------------------------------------------------- fifty-one


def test_fifty_one_checks():
    assert validate_table_result("fifty-one", {}, [-500, 35, 500, 120]) == []
    assert validate_table_result("fifty-one", {}, [-1000, 10, 10, 10]) == []
    bad = validate_table_result("fifty-one", {}, [-500, 33, 500, 120])
    assert [(p.code, p.seat) for p in bad] == [("not_multiple", 1)]
    assert codes(validate_table_result("fifty-one", {}, [-1005, 35, 500, 120])) == {"out_of_range"}
    assert codes(validate_table_result("fifty-one", {"hands": 3}, [-3000, 30, 30, 30])) == set()
    assert codes(validate_table_result("fifty-one", {"hands": 3}, [-3005, 30, 30, 30])) == {
        "out_of_range"
    }
    # one hand, two players below zero: only one can have finished
    assert codes(validate_table_result("fifty-one", {}, [-500, -10, 500, 120])) == {
        "too_many_finishers"
    }
    assert validate_table_result("fifty-one", {"hands": 3}, [-500, -10, 500, 120]) == []
    # three hands: at most 3000 won in total
    assert "too_many_finishers" in codes(
        validate_table_result("fifty-one", {"hands": 3}, [-1000, -1000, -1005, 3000])
    )
    # the rivals always pay something: -1000 + 3 × 10 at least a hand
    assert codes(validate_table_result("fifty-one", {"hands": 3}, [-3000, 30, 30, 25])) == {
        "impossible_total"
    }
    assert codes(validate_table_result("fifty-one", {}, [-1000, 10, 10, 5])) == {"impossible_total"}
    # with partners the finisher's partner pays 0 [D14]
    assert validate_table_result("fifty-one", {"partners": True}, [-1000, 10, 0, 10]) == []
    assert codes(validate_table_result("fifty-one", {"partners": True}, [-1000, 10, 0, 5])) == {
        "impossible_total"
    }


# ---------------------------------------------------------------------- seventeen


def test_seventeen_checks():
    assert validate_table_result("seventeen", {}, [-80, 10, 10, 10]) == []
    assert validate_table_result("seventeen", {}, [2850, 1620, 2000, 1680]) == []
    assert [
        (p.code, p.seat) for p in validate_table_result("seventeen", {}, [-80, 15, 10, 10])
    ] == [("not_multiple", 1)]
    assert codes(validate_table_result("seventeen", {}, [-570, 400, 400, 400])) == {"out_of_range"}
    assert validate_table_result("seventeen", {}, [-560, 400, 400, 400]) == []
    assert codes(validate_table_result("seventeen", {}, [-300, -270, 400, 400])) == {
        "too_many_finishers"
    }
    assert codes(validate_table_result("seventeen", {}, [-400, 10, 10, 10])) == {"impossible_total"}
    assert validate_table_result("seventeen", {}, [-400, 20, 10, 20]) == []


# ------------------------------------------- games built from the score rules themselves


@st.composite
def classic_games(draw):
    start = draw(st.sampled_from([10, 20, 30]))
    totals = [start] * 4
    while min(totals) > 0:
        if draw(st.booleans()):  # the indicator's twin shown: each other player −1
            shower = draw(st.integers(0, 3))
            totals = [v - (s != shower) for s, v in enumerate(totals)]
        if draw(st.integers(0, 4)) != 4:  # a close (else the pile runs out)
            closer = draw(st.integers(0, 3))
            lose = draw(st.sampled_from([2, 4, 4, 8]))
            totals = [v - lose * (s != closer) for s, v in enumerate(totals)]
    return {"start_points": start}, totals


@st.composite
def rummy_games(draw):
    opts = {
        "players": draw(st.sampled_from([2, 3, 4])),
        "length": draw(st.sampled_from(["short", "standard", "long"])),
    }
    target = RULES["rummy"].game_target(validate_options("rummy", opts))
    totals = [0] * opts["players"]
    seat = st.integers(0, opts["players"] - 1)
    while max(totals) < target:
        if draw(st.booleans()):
            totals[draw(seat)] += 1  # shown indicator; reaching the target ends at once
            if max(totals) >= target:
                break
        if draw(st.integers(0, 3)) != 3:  # a close (else the pile runs out)
            totals[draw(seat)] += draw(st.sampled_from([3, 6]))
    return opts, totals


@st.composite
def fifty_one_games(draw):
    opts = {"hands": draw(st.sampled_from([1, 3])), "partners": draw(st.booleans())}
    totals = [0] * 4
    small = st.integers(1, 13)
    for _ in range(opts["hands"]):
        for _ in range(draw(st.integers(0, 4))):  # penalties during the hand
            who = draw(st.integers(0, 3))
            totals[who] += draw(st.sampled_from([10 * draw(small), 100 + 10 * draw(small), 100]))
        ending = draw(st.sampled_from(["hand", "pairs", "okey", "exhausted"]))
        finisher = None if ending == "exhausted" else draw(st.integers(0, 3))
        big = ending in ("pairs", "okey")
        if finisher is not None:
            totals[finisher] += -1000 if big else -500
        for s in range(4):
            if s == finisher:
                continue
            if opts["partners"] and finisher is not None and s == (finisher + 2) % 4:
                continue  # [D14] the partner pays nothing
            if draw(st.booleans()):
                totals[s] += 1000 if big else 500  # not opened
            else:
                m = 10 if big or draw(st.booleans()) else 5
                tiles = draw(st.lists(st.integers(0, 13), min_size=1, max_size=14))
                totals[s] += sum(m * t if t else 100 * m for t in tiles)  # 0 = an okey
    return opts, totals


@st.composite
def seventeen_games(draw):
    totals = [0] * 4
    for _ in range(7):
        base = draw(st.sampled_from([400, 500, 600, 800]))
        factor = draw(st.sampled_from([1, 2, 4]))
        for _ in range(draw(st.integers(0, 3))):
            who = draw(st.integers(0, 3))
            totals[who] += draw(
                st.sampled_from(
                    [100 * factor, base * factor, 10 * draw(st.integers(1, 13)) * factor]
                )
            )
        finisher = draw(st.one_of(st.none(), st.integers(0, 3)))
        okey_x = 2 if finisher is not None and draw(st.booleans()) else 1
        direct = finisher is not None and draw(st.integers(0, 5)) == 0
        if finisher is not None:
            totals[finisher] -= base // 10
        for s in range(4):
            if s == finisher:
                continue
            if direct or draw(st.booleans()):
                totals[s] += base * (4 if direct else 1) * factor * okey_x
            else:
                totals[s] += 10 * draw(st.integers(1, 14)) * factor * okey_x
    return {}, totals


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.large_base_example])
@given(
    st.one_of(
        classic_games().map(lambda g: ("classic", *g)),
        rummy_games().map(lambda g: ("rummy", *g)),
        fifty_one_games().map(lambda g: ("fifty-one", *g)),
        seventeen_games().map(lambda g: ("seventeen", *g)),
    )
)
@pytest.mark.slow
def test_games_built_from_the_rules_are_accepted(game):
    variant, options, totals = game
    assert validate_table_result(variant, options, totals) == []
