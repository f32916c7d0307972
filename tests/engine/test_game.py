"""Game level: hands, totals, end conditions and winners for the four variants."""

from __future__ import annotations

import random

import pytest

from games.engine import Game, Refusal, apply, simulate
from games.engine.game import HandResult
from games.engine.simulate import choose, play_hand


def _hand(totals, ending="x"):
    return HandResult("s", 0, ending, [], list(totals))


def test_fifty_one_one_or_three_hands_lowest_total_wins():
    g = Game("fifty-one", {"hands": 3})
    assert g.hands_to_play() == 3
    g.hands.append(_hand([-500, 100, 500, 40]))
    g.hands.append(_hand([300, -500, 500, 40]))
    assert not g.is_over() and g.winners() == []
    g.hands.append(_hand([10, 20, -1000, 30]))
    assert g.is_over() and g.totals() == [-190, -380, 0, 110] and g.winners() == [1]
    g1 = Game("fifty-one")
    g1.hands.append(_hand([0, 5, 5, 0]))
    assert g1.is_over() and g1.winners() == [0, 3]


def test_seventeen_seven_rounds():
    g = Game("seventeen")
    assert g.current_round() == 1
    for _ in range(6):
        g.hands.append(_hand([10, 0, 20, 30]))
    assert not g.is_over() and g.current_round() == 7 and g.to_json()["rounds"] == 7
    g.hands.append(_hand([0, 100, 0, 0]))
    assert g.is_over() and g.winners() == [0]


def test_rummy_first_to_target():
    g = Game("rummy", {"players": 3})
    assert g.target() == 10
    g.hands.append(_hand([6, 0, 0]))
    g.hands.append(_hand([3, 0, 0]))
    assert not g.is_over()
    g.hands.append(_hand([0, 0, 0]))
    g.hands.append(_hand([3, 0, 0]))
    assert g.is_over() and g.winners() == [0]


def test_played_hands_feed_the_game_and_the_starter_moves():
    g = Game("rummy", {"players": 2, "length": "short"})
    starters = []
    n = 0
    while not g.is_over() and n < 40:
        st = g.new_hand(f"h{n}")
        starters.append(st.starter)
        assert st.context == {"totals": g.totals()}
        rng = random.Random(n)
        while not st.over:
            st, _ = apply(st, choose(st, rng))
        g.record_hand(st)
        n += 1
    assert g.is_over() and max(g.totals()) >= 8
    assert starters[:4] == [0, 1, 0, 1]
    with pytest.raises(Refusal):
        g.new_hand("more")


def test_record_hand_refuses_unfinished_or_foreign_hands():
    g = Game("classic")
    st = g.new_hand("a")
    with pytest.raises(Refusal) as exc:
        g.record_hand(st)
    assert exc.value.code == "wrong_phase"
    other = play_hand("rummy", None, "b")
    with pytest.raises(Refusal) as exc:
        g.record_hand(other)
    assert exc.value.code == "bad_state"


def test_game_json_round_trip():
    g = Game("fifty-one", {"partners": True})
    g.record_hand(play_hand("fifty-one", {"partners": True}, "j"))
    d = g.to_json()
    assert d["team_totals"] == [d["totals"][0] + d["totals"][2], d["totals"][1] + d["totals"][3]]
    g2 = Game.from_json(d)
    assert g2.totals() == g.totals() and g2.winners() == g.winners()
    with pytest.raises(Refusal):
        Game.from_json({"format": 1, "variant": "classic"})
    bad = g.to_json()
    bad["hands"][0]["totals"] = ["x", 1, 2, 3]
    with pytest.raises(Refusal):
        Game.from_json(bad)
    with pytest.raises(Refusal):
        Game.from_json("nope")


def test_score_lines_in_hands_carry_reasons():
    g = Game("seventeen")
    res = g.record_hand(play_hand("seventeen", None, "r"))
    assert res.lines and all(set(x) == {"seat", "points", "reason", "detail"} for x in res.lines)


@pytest.mark.parametrize("variant", ["classic", "rummy", "fifty-one", "seventeen"])
def test_simulate_report(variant):
    r = simulate(variant, 3, seed=4)
    assert r["hands"] == 3 and r["finished"] == 3
    assert sum(r["endings"].values()) == 3
    assert len(r["mean_scores"]) == 4 and r["hands_per_second"] > 0
    assert simulate(variant, 3, seed=4)["endings"] == r["endings"]  # deterministic


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("classic", {"start_points": 10}),
        ("rummy", {"players": 3, "length": "short"}),
        ("fifty-one", {"hands": 3, "partners": True}),
        ("seventeen", {}),
    ],
)
def test_whole_games_of_random_play_end_with_winners(variant, options):
    g = Game(variant, options)
    rng = random.Random(variant)
    n = 0
    while not g.is_over():
        st = g.new_hand(f"{variant}-{n}")
        assert st.starter == n % g.n_players
        while not st.over:
            st, _ = apply(st, choose(st, rng))
        g.record_hand(st)
        n += 1
        assert n < 80
    assert g.winners()
    if variant == "fifty-one":
        assert n == 3 and set(g.winners()) in ({0, 2}, {1, 3}, {0, 1, 2, 3})
    if variant == "seventeen":
        assert n == 7
    if variant == "classic":
        assert min(g.totals()) <= 0
