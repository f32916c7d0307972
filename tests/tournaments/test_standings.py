"""Standings: placing points, sum scoring and every tie-break."""

from __future__ import annotations

import hashlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournaments.standings import (
    StandingRow,
    TableResult,
    compute_standings,
    draw_key,
    higher_is_better,
    seat_points,
    table_placings,
)


def R(round_no, table_no, seats, scores):
    return TableResult(round_no, table_no, tuple(seats), tuple(scores))


def by_player(rows: list[StandingRow]) -> dict[str, StandingRow]:
    return {r.player: r for r in rows}


def order(rows: list[StandingRow]) -> list[str]:
    return [r.player for r in rows]


def test_scoring_direction_per_variant():
    assert higher_is_better("classic") and higher_is_better("rummy")
    assert not higher_is_better("fifty-one") and not higher_is_better("seventeen")


# ---------------------------------------------------------------- placings and points


def test_table_placings_share_ties_and_follow_direction():
    res = R(1, 1, ["a", "b", "c", "d"], [12, 5, 5, -2])
    assert table_placings(res, "classic") == {"a": 1, "b": 2.5, "c": 2.5, "d": 4}
    assert table_placings(res, "fifty-one") == {"a": 4, "b": 2.5, "c": 2.5, "d": 1}
    every = R(1, 1, ["a", "b", "c"], [3, 3, 3])
    assert table_placings(every, "rummy") == {"a": 2, "b": 2, "c": 2}


def test_placing_points_default_and_shared_ties():
    rows = compute_standings(
        ["a", "b", "c", "d"],
        [R(1, 1, ["a", "b", "c", "d"], [20, 6, 6, 0])],
        variant="classic",
        draw_seed="x",
    )
    pts = {r.player: r.points for r in rows}
    assert pts == {"a": 4, "b": 1.5, "c": 1.5, "d": 0}  # 2 and 1 shared
    four_way = compute_standings(
        ["a", "b", "c", "d"],
        [R(1, 1, ["a", "b", "c", "d"], [-500, -500, -500, -500])],
        variant="fifty-one",
        draw_seed="x",
    )
    assert {r.points for r in four_way} == {7 / 4}


def test_custom_placing_points_and_three_seat_tables():
    results = [R(1, 1, ["a", "b", "c"], [1, 0, 5]), R(1, 2, ["d", "e", "f", "g"], [4, 3, 2, 1])]
    rows = by_player(
        compute_standings(
            list("abcdefg"),
            results,
            variant="rummy",
            placing_points=(10, 6, 3, 0),
            draw_seed="x",
        )
    )
    # three seats: the last place gets the last value (10/6/0)
    assert (rows["c"].points, rows["a"].points, rows["b"].points) == (10, 6, 0)
    assert [rows[p].points for p in "defg"] == [10, 6, 3, 0]


def test_cpu_seats_take_placings_but_are_never_listed():
    results = [R(1, 1, ["a", None, "b", None], [0, 20, 15, 10])]
    rows = compute_standings(["a", "b"], results, variant="classic", draw_seed="x")
    assert order(rows) == ["b", "a"]
    assert all(r.player is not None for r in rows)
    assert by_player(rows)["b"].points == 2  # second behind a CPU
    assert table_placings(results[0], "classic")[None] == 1


def test_players_without_results_are_listed_with_zeros():
    rows = compute_standings(
        ["late", "a", "b"],
        [R(1, 1, ["a", "b"], [8, 2])],
        variant="rummy",
        draw_seed="x",
    )
    late = by_player(rows)["late"]
    assert (late.points, late.game_total, late.played) == (0, 0, 0)
    assert [r.rank for r in rows] == [1, 2, 3]


def test_sum_scoring_is_direction_aware():
    results = [
        R(1, 1, ["a", "b", "c", "d"], [-500, 40, 500, 100]),
        R(2, 1, ["a", "b", "c", "d"], [300, -500, 20, 30]),
    ]
    rows = compute_standings(
        list("abcd"), results, variant="fifty-one", scoring="sum", draw_seed="x"
    )
    assert order(rows) == ["b", "a", "d", "c"]
    assert [r.points for r in rows] == [-460, -200, 130, 520]
    assert all(r.decided_by in ("points", "") for r in rows)
    high = compute_standings(list("abcd"), results, variant="classic", scoring="sum", draw_seed="x")
    assert order(high) == ["c", "d", "a", "b"]


def test_unknown_scoring_is_refused():
    with pytest.raises(ValueError):
        compute_standings(["a"], [], variant="classic", scoring="elo", draw_seed="x")


# ---------------------------------------------------------------------- tie-breaks


def test_points_decide():
    rows = compute_standings(
        ["a", "b"],
        [R(1, 1, ["a", "b", None, None], [10, 2, 0, 5])],
        variant="classic",
        draw_seed="x",
    )
    assert order(rows) == ["a", "b"]
    assert [r.decided_by for r in rows] == ["points", ""]


def test_game_total_decides_equal_points():
    # a and b each win one table and come last at another: equal points, totals differ
    results = [
        R(1, 1, ["a", "x1", "x2", "x3"], [-500, 10, 20, 30]),
        R(1, 2, ["b", "y1", "y2", "y3"], [-1000, 10, 20, 30]),
        R(2, 1, ["a", "y1", "y2", "y3"], [900, 10, 20, 30]),
        R(2, 2, ["b", "x1", "x2", "x3"], [700, 10, 20, 30]),
    ]
    players = ["a", "b", "x1", "x2", "x3", "y1", "y2", "y3"]
    rows = by_player(compute_standings(players, results, variant="fifty-one", draw_seed="x"))
    assert rows["a"].points == rows["b"].points == 4
    assert rows["b"].game_total == -300 and rows["a"].game_total == 400
    assert rows["b"].rank < rows["a"].rank  # lower is better in fifty-one
    assert rows["b"].decided_by == "game_total"
    # the same sheet in a higher-is-better variant flips the order
    flipped = by_player(compute_standings(players, results, variant="rummy", draw_seed="x"))
    assert flipped["a"].points == flipped["b"].points
    assert flipped["a"].rank < flipped["b"].rank


def test_head_to_head_decides_equal_points_and_totals():
    # a beat b where they met; elsewhere b scored more: equal points and equal totals
    results = [
        R(1, 1, ["a", "b", "x", "y"], [6, 3, 1, 0]),  # a 4, b 2
        R(2, 1, ["a", "x", "y", "z"], [0, 8, 7, 1]),  # a 0
        R(2, 2, ["b", "w", "v", "u"], [3, 9, 1, 0]),  # b 2
    ]
    players = ["a", "b", "x", "y", "z", "w", "v", "u"]
    rows = by_player(compute_standings(players, results, variant="rummy", draw_seed="x"))
    assert rows["a"].points == rows["b"].points == 4
    assert rows["a"].game_total == rows["b"].game_total == 6
    assert rows["a"].rank + 1 == rows["b"].rank
    assert rows["a"].decided_by == "head_to_head"
    for seed in ("x", "y", "z", "w"):  # whatever the draw says
        again = by_player(compute_standings(players, results, variant="rummy", draw_seed=seed))
        assert again["a"].rank < again["b"].rank


def test_level_head_to_head_goes_to_the_draw():
    # b and c end level on points (2) and totals (6); they met twice: b beat c at
    # table 1, c beat b at table 2 → 1-1 between them → the published draw.
    results = [
        R(1, 1, ["a", "b", "c", "x"], [9, 5, 4, 0]),  # a 4, b 2, c 1
        R(2, 1, ["b", "c", "y", "z"], [1, 2, 20, 30]),  # z 4, y 2, c 1, b 0
        R(2, 2, ["a", "w", "v", "u"], [0, 50, 40, 30]),  # a 0
    ]
    players = ["a", "b", "c", "x", "y", "z", "w", "v", "u"]
    for seed in ("s", "t", "u", "v"):
        rows = by_player(compute_standings(players, results, variant="rummy", draw_seed=seed))
        assert (rows["b"].points, rows["c"].points) == (2, 2)
        assert rows["b"].game_total == rows["c"].game_total == 6
        first, second = sorted(["b", "c"], key=lambda p: draw_key(seed, p))
        assert rows[first].rank + 1 == rows[second].rank
        assert rows[first].decided_by == "draw"


def test_head_to_head_subgroup_is_compared_again():
    # a, b, c end level on points (8) and totals (13). Between the three: a beat b (t1),
    # b beat c twice (t2, t3), a beat c (t4): a 2, b 2, c 0 → c is third on head-to-head;
    # a and b, still level, are compared again on their own meetings: a beat b.
    results = [
        R(1, 1, ["a", "b"], [5, 1]),
        R(1, 2, ["b", "c"], [5, 1]),
        R(2, 1, ["b", "c"], [5, 1]),
        R(2, 2, ["a", "c"], [5, 1]),
        R(3, 1, ["c", "f1"], [5, 0]),
        R(3, 2, ["c", "f2"], [5, 0]),
        R(3, 3, ["a", "f3"], [3, 9]),
        R(3, 4, ["b", "f4"], [2, 9]),
    ]
    players = ["a", "b", "c", "f1", "f2", "f3", "f4"]
    rows = compute_standings(players, results, variant="rummy", draw_seed="s")
    got = by_player(rows)
    assert {got[p].points for p in "abc"} == {8} and {got[p].game_total for p in "abc"} == {13}
    assert order(rows)[:3] == ["a", "b", "c"]
    assert [r.decided_by for r in rows[:3]] == ["head_to_head", "head_to_head", "points"]
    for seed in ("x", "y", "z"):  # the draw cannot overturn it
        again = compute_standings(players, results, variant="rummy", draw_seed=seed)
        assert order(again)[:3] == ["a", "b", "c"]


def test_published_draw_decides_the_rest():
    results = [
        R(1, 1, ["a", "x", "y", "z"], [5, 0, 0, 0]),
        R(1, 2, ["b", "u", "v", "w"], [5, 0, 0, 0]),
    ]
    players = ["a", "b", "x", "y", "z", "u", "v", "w"]
    seen_orders = set()
    for seed in [f"seed-{i}" for i in range(12)]:
        rows = compute_standings(players, results, variant="classic", draw_seed=seed)
        top = order(rows)[:2]
        assert set(top) == {"a", "b"}
        assert rows[0].decided_by == "draw"
        expect = hashlib.sha256(f"okey/tournament-draw/{seed}/a".encode()).hexdigest()
        assert draw_key(seed, "a") == expect
        assert top == sorted(["a", "b"], key=lambda p: draw_key(seed, p))
        seen_orders.add(tuple(top))
        assert compute_standings(players, results, variant="classic", draw_seed=seed) == rows
    assert len(seen_orders) == 2  # the draw really depends on the seed


# ----------------------------------------------------------------------- properties


@st.composite
def tournaments(draw):
    n = draw(st.integers(2, 10))
    players = [f"p{i}" for i in range(n)]
    results = []
    for round_no in range(1, draw(st.integers(0, 4)) + 1):
        seated = draw(st.permutations(players))
        cpus = draw(st.integers(0, 2))
        seats = [*seated, *([None] * cpus)]
        for t in range(0, len(seats), 4):
            chunk = seats[t : t + 4]
            if len(chunk) < 2:
                continue
            scores = draw(st.lists(st.integers(-5, 5), min_size=len(chunk), max_size=len(chunk)))
            results.append(R(round_no, t // 4 + 1, chunk, scores))
    return players, results


@settings(max_examples=150, deadline=None)
@given(
    tournaments(), st.sampled_from(["classic", "fifty-one"]), st.sampled_from(["placing", "sum"])
)
def test_standings_properties(data, variant, scoring):
    players, results = data
    rows = compute_standings(players, results, variant=variant, scoring=scoring, draw_seed="d")
    assert [r.rank for r in rows] == list(range(1, len(players) + 1))
    assert sorted(r.player for r in rows) == sorted(players)
    sign = 1 if (scoring == "placing" or higher_is_better(variant)) else -1
    for upper, lower in zip(rows, rows[1:], strict=False):
        assert sign * upper.points >= sign * lower.points
        if upper.points == lower.points:
            g = 1 if higher_is_better(variant) else -1
            assert g * upper.game_total >= g * lower.game_total
            if upper.game_total == lower.game_total:
                assert upper.decided_by in ("head_to_head", "draw")
        else:
            assert upper.decided_by == "points"
    assert rows[-1].decided_by == ""
    # the order of the results never matters
    shuffled = list(results)
    random.Random(7).shuffle(shuffled)
    assert (
        compute_standings(players, shuffled, variant=variant, scoring=scoring, draw_seed="d")
        == rows
    )
    # points add up: every table hands out its placing points
    if scoring == "placing":
        played = sum(r.played for r in rows)
        assert played == sum(1 for res in results for p in res.seats if p is not None)


def test_equal_placing_points_tie_whatever_the_order_of_the_results():
    """Shared places give thirds: 2 + 7/3 + 7/3 and 7/3 + 7/3 + 2 are the same points, so
    the next tie-break decides (float sums in result order made them differ)."""
    second = R(1, 1, ["p", "a", "b", "c"], [50, 90, 20, 10])  # p alone in 2nd: 2 points
    tie = R(1, 2, ["q", "d", "e", "f"], [90, 90, 90, 0])  # q shares 1st-3rd: 7/3
    assert seat_points(second, "classic", (4, 2, 1, 0))[0] == 2
    assert seat_points(tie, "classic", (4, 2, 1, 0))[0] == pytest.approx(7 / 3)
    results = [
        second,
        tie,
        R(2, 1, ["p", "d", "e", "f"], [90, 90, 90, 0]),
        R(2, 2, ["q", "a", "b", "c"], [90, 90, 90, 0]),
        R(3, 1, ["p", "d", "e", "f"], [90, 90, 90, 0]),
        R(3, 2, ["q", "a", "b", "c"], [50, 90, 20, 10]),
    ]
    players = ["p", "q", "a", "b", "c", "d", "e", "f"]
    rows = compute_standings(players, results, variant="classic", draw_seed="d")
    by = {row.player: row for row in rows}
    assert by["p"].points == by["q"].points
    upper = min(by["p"], by["q"], key=lambda row: row.rank)
    assert upper.decided_by != "points"
