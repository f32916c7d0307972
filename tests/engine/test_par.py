"""Par (games/engine/par.py): the expert's replay of one seat's deal with hard CPUs in the
other seats is deterministic, equals a replay of its actions through the engine, is
played by exactly those policies, and the luck of the deal is placed against the stored
table of each rule set (recomputed here)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import apply, new_hand, replay
from games.engine import par as par_mod
from games.engine.bots import choose_action
from games.engine.rules import RULES
from games.engine.state import HandState

ROOT = Path(__file__).resolve().parents[2]
VARIANTS = list(RULES)


def deal(variant: str, seed: str, starter: int = 1, context: dict | None = None) -> HandState:
    return new_hand(variant, None, seed, starter, context=context)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_par_equals_a_replay_of_its_actions_through_the_engine(variant):
    initial = deal(variant, f"par-test/{variant}", starter=1)
    result = par_mod.par_for_seat(initial, 2)
    record = {**initial.record(), "actions": list(result.actions)}
    again = replay(record)
    assert again.over
    assert tuple(again.hand_totals()) == result.totals
    assert result.par == again.hand_totals()[2]
    assert result.ending == again.result["ending"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_seat_plays_the_expert_and_every_other_seat_the_hard_cpu(variant):
    initial = deal(variant, f"par-policy/{variant}", starter=3)
    seat = 0
    result = par_mod.par_for_seat(initial, seat)
    state = initial
    for action in result.actions:
        mover = action["seat"]
        assert mover == state.turn  # the seat to move is the turn's
        level = "expert" if mover == seat else "hard"
        assert choose_action(state, mover, level) == action
        state, _events = apply(state, action)
    assert state.over


def test_the_game_context_of_the_hand_is_kept():
    """rummy: a shown indicator that reaches the target ends the hand at once, so the
    game totals the hand was dealt with are part of its par (RULES.md §3)."""
    context = {"totals": [0, 0, 0, 0]}
    initial = deal("rummy", "par-context", starter=0, context=context)
    result = par_mod.par_for_seat(initial, 1)
    again = replay({**initial.record(), "actions": list(result.actions)})
    assert again.context == context and tuple(again.hand_totals()) == result.totals


def _par_in_a_process(hash_seed: str, variant: str, seed: str, seat: int) -> dict:
    code = (
        "import json, sys\n"
        "from games.engine import new_hand\n"
        "from games.engine.par import par_for_seat\n"
        f"r = par_for_seat(new_hand({variant!r}, None, {seed!r}, 2), {seat})\n"
        "print(json.dumps({**r.to_json(), 'moves': list(r.actions)}))\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


@pytest.mark.parametrize("variant", ["classic", "101"])
def test_the_par_is_the_same_in_any_process(variant):
    """No decision depends on a set's or a dict's order, nor on the process's hash seed."""
    seed, seat = f"par-process/{variant}", 3
    here = par_mod.par_for_seat(new_hand(variant, None, seed, 2), seat)
    mine = {**here.to_json(), "moves": [dict(a) for a in here.actions]}
    assert _par_in_a_process("1", variant, seed, seat) == json.loads(json.dumps(mine))
    assert _par_in_a_process("4242", variant, seed, seat) == json.loads(json.dumps(mine))


def test_a_par_is_played_from_the_deal_for_a_seat_of_the_table():
    initial = deal("classic", "par-errors")
    after, _events = apply(initial, choose_action(initial, initial.turn, "hard"))
    with pytest.raises(par_mod.ParError) as e:
        par_mod.par_for_seat(after, 0)
    assert e.value.code == "par_not_at_deal" and e.value.message
    for seat in (-1, 4, "1"):
        with pytest.raises(par_mod.ParError) as e:
            par_mod.par_for_seat(initial, seat)
        assert e.value.code == "par_bad_seat"


def test_an_unfinished_replay_is_an_error_with_a_code(monkeypatch):
    monkeypatch.setattr(par_mod, "MAX_ACTIONS", 10)
    with pytest.raises(par_mod.ParError) as e:
        par_mod.par_for_seat(deal("classic", "par-cap"), 0)
    assert e.value.code == "par_unfinished" and e.value.detail == {"actions": 10}


def test_versus_par_is_read_in_the_rule_sets_better_direction():
    # classic and rummy: the highest total wins; fifty-one, seventeen, 101: the lowest
    assert par_mod.versus_par(-1, -3, "classic") == 2
    assert par_mod.versus_par(-3, -1, "classic") == -2
    assert par_mod.versus_par(20, 60, "101") == 40
    assert par_mod.versus_par(60, 20, "fifty-one") == -40


# ------------------------------------------------------------------ luck of the deal


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_stored_luck_table_is_what_the_sample_deals_give(variant):
    assert par_mod.luck_table(variant) == par_mod.LUCK_TABLE[variant]
    table = par_mod.LUCK_TABLE[variant]
    n = new_hand(variant, None, "x", 0).n_players
    assert sum(table["starter"].values()) == par_mod.LUCK_SEEDS
    assert sum(table["other"].values()) == par_mod.LUCK_SEEDS * (n - 1)


def test_the_luck_words_follow_the_rank_among_the_sample_racks():
    other = par_mod.LUCK_TABLE["classic"]["other"]  # {1: 1, 2: 49, 3: 273, 4: 711, ...}
    words = {d: par_mod.word_for(par_mod.rank_in(other, d)) for d in range(0, 8)}
    assert words == {
        0: "lucky",
        1: "lucky",
        2: "lucky",
        3: "lucky",  # 50 racks closer, 273 as close, of 1500: rank 0.12
        4: "average",  # rank 0.45
        5: "unlucky",  # rank 0.84
        6: "unlucky",
        7: "unlucky",
    }
    assert par_mod.median_of(other) == 4
    ranks = [par_mod.rank_in(other, d) for d in range(0, 8)]
    assert ranks == sorted(ranks) and ranks[0] == 0 and ranks[-1] == 1


def test_the_luck_of_a_seat_is_its_starting_racks_distance_against_its_position():
    initial = deal("classic", "par-luck", starter=1)
    for seat in range(4):
        luck = par_mod.luck_of(initial, seat)
        tiles = par_mod.tiles_from_goal(initial, seat)
        position = "starter" if seat == 1 else "other"
        counts = par_mod.LUCK_TABLE["classic"][position]
        assert luck.tiles == tiles and luck.goal == "win"
        assert luck.rank == par_mod.rank_in(counts, tiles)
        assert luck.usual == par_mod.median_of(counts)
    assert par_mod.luck_of(deal("101", "par-luck"), 0).goal == "open"
    assert par_mod.par_for_seat(initial, 0).luck == par_mod.luck_of(initial, 0)


def test_a_rule_set_without_a_stored_table_is_sampled_once(monkeypatch):
    monkeypatch.setattr(par_mod, "LUCK_SEEDS", 20)
    monkeypatch.setattr(par_mod, "LUCK_TABLE", {})
    monkeypatch.setattr(par_mod, "_computed", {})
    calls = []
    real = par_mod.luck_table
    monkeypatch.setattr(
        par_mod, "luck_table", lambda v, seeds=20: calls.append(v) or real(v, seeds)
    )
    initial = deal("seventeen", "par-sample")
    first = par_mod.luck_of(initial, 0)
    assert par_mod.luck_of(initial, 0) == first and calls == ["seventeen"]


def test_the_bench_prints_pars_cost_per_rule_set(capsys):
    from games.tools.engine import par_bench

    assert par_bench.main(["--deals", "2", "--seats", "1", "--variant", "101", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    [row] = report["rows"]
    assert row["variant"] == "101" and row["pars"] == 2 and row["target_s"] == 3.0
    assert 0 < row["mean_s"] <= row["max_s"] and row["mean_actions"] > 0
    assert len(report["load_before"]) == 3
