"""The engine command line (games/engine/cli.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import cli
from games.engine.rules import RULES
from games.engine.tiles import deal, format_tiles, parse_tiles

ROOT = Path(__file__).resolve().parents[2]
SEED_003 = "R3 R4 R5 R6 K9 B9 Y9 Y10 Y11 Y12 Y13 K6 K7 B5"


def run(capsys, *argv: str) -> tuple[int, dict]:
    status = cli.main(list(argv))
    out = capsys.readouterr().out
    return status, json.loads(out)


def run_tool(capsys, *argv: str) -> tuple[int, dict]:
    """The same command line with the measuring tools' commands (games/tools/engine/cli.py)."""
    from games.tools.engine import cli as tools_cli

    status = tools_cli.main(list(argv))
    out = capsys.readouterr().out
    return status, json.loads(out)


# -------------------------------------------------------------------- rack


def test_rack_seed_003_is_winning(capsys) -> None:
    status, out = run(capsys, "rack", "--variant", "rummy", "--indicator", "B4", SEED_003)
    assert status == 0
    assert set(out) >= {"winning", "kind", "melds", "leftover", "opening_total"}
    assert out["winning"] is True and out["kind"] == "melds"
    assert out["leftover"] == [] and out["opening_total"] is None
    assert ["K6", "K7", "B5"] in out["melds"]
    assert ["K6", "K7", "K8"] in out["plays"]
    assert sorted(t for m in out["melds"] for t in m) == sorted(SEED_003.split())


def test_rack_fifteen_tiles_names_the_tile_to_put_down(capsys) -> None:
    status, out = run(
        capsys, "rack", "--variant", "classic", "--indicator", "B4", SEED_003 + " R11"
    )
    assert status == 0 and out["winning"] is True and out["leftover"] == ["R11"]


def test_rack_fifteen_tiles_prefers_the_okey_close(capsys) -> None:
    rack = "R3 R4 R5 R6 K9 B9 Y9 Y10 Y11 Y12 Y13 K6 K7 K8 B5"
    status, out = run(capsys, "rack", "--variant", "rummy", "--indicator", "B4", rack)
    assert status == 0 and out["winning"] is True and out["leftover"] == ["B5"]


def test_rack_not_winning_reports_best_arrangement(capsys) -> None:
    rack = "R3 R4 R5 R6 K9 B9 Y9 Y10 Y11 Y12 Y13 K6 K2 B1"
    status, out = run(capsys, "rack", "--variant", "classic", "--indicator", "B4", rack)
    assert status == 0 and out["winning"] is False
    assert sorted(out["leftover"]) == ["B1", "K2", "K6"]
    assert out["opening_total"] is None


def test_rack_lay_down_variants_give_opening_totals(capsys) -> None:
    status, out = run(capsys, "rack", "--variant", "fifty-one", "--indicator", "B4", SEED_003)
    assert status == 0 and out["winning"] is True
    # R3-R6 18 + Y9 B9 K9 27 + Y10-Y13 46 + K6 K7 okey(K8) 21
    assert out["opening_total"] == 18 + 27 + 46 + 21
    status, out = run(capsys, "rack", "--variant", "seventeen", "--indicator", "B4", SEED_003)
    assert status == 0
    # seventeen values: 5+1, 9, 12+1, 7
    assert out["opening_total"] == 6 + 9 + 13 + 7


def test_rack_seventeen_has_no_13_1(capsys) -> None:
    rack = "R12 R13 R1 Y1 Y2 Y3 K4 K5 K6 K7 K8 R7 Y7 B7"
    status, out = run(capsys, "rack", "--variant", "classic", "--indicator", "B4", rack)
    assert out["winning"] is True
    status, out = run(capsys, "rack", "--variant", "seventeen", "--indicator", "B4", rack)
    assert out["winning"] is False
    assert sorted(out["leftover"]) == ["R1", "R12", "R13"]


def test_rack_lay_down_accepts_short_racks(capsys) -> None:
    status, out = run(capsys, "rack", "--variant", "fifty-one", "--indicator", "B4", "R7 R8 R9 K1")
    assert status == 0 and out["winning"] is False
    assert out["melds"] == [["R7", "R8", "R9"]] and out["opening_total"] == 24


# -------------------------------------------------------------------- meld


@pytest.mark.parametrize(
    "variant, tiles, kind, points",
    [
        ("classic", "R12 R13 R1", "run", None),
        ("fifty-one", "R12 R13 R1", "run", 26),  # D9: the 1 counts 1
        ("fifty-one", "B9 R9 K9", "group", 27),
        ("fifty-one", "R7 R7", "pair", 14),
        ("seventeen", "R1 R2 R3 R4 R5 R6 R7", "run", 10),
        ("seventeen", "R13 Y13 B13", "group", 17),
        ("seventeen", "R13 Y13 B13 K13", "group", 18),
        ("rummy", "R9 Y9 B5", "group", None),  # B5 is the okey (indicator B4)
    ],
)
def test_meld_valid(capsys, variant: str, tiles: str, kind: str, points: int | None) -> None:
    status, out = run(capsys, "meld", "--variant", variant, "--indicator", "B4", tiles)
    assert status == 0
    assert out["valid"] is True and out["kind"] == kind and out["points"] == points


@pytest.mark.parametrize(
    "variant, tiles",
    [
        ("classic", "R13 R1 R2"),  # never wraps
        ("seventeen", "R12 R13 R1"),  # no 13-1 in seventeen
        ("classic", "R9 R9 Y9"),  # two tiles of one colour in a group
        ("classic", "R9 B9"),  # not a pair
        ("classic", "R3 R4 Y5"),
    ],
)
def test_meld_invalid(capsys, variant: str, tiles: str) -> None:
    status, out = run(capsys, "meld", "--variant", variant, "--indicator", "B4", tiles)
    assert status == 0
    assert out == {"valid": False, "kind": None, "points": None, "plays": None}


def test_meld_false_joker_plays_the_okey(capsys) -> None:
    status, out = run(capsys, "meld", "--variant", "fifty-one", "--indicator", "R5", "R5 F R7")
    assert out["valid"] is True and out["plays"] == ["R5", "R6", "R7"] and out["points"] == 18


# -------------------------------------------------------------------- deal


def test_deal_matches_the_engine_deal(capsys) -> None:
    status, out = run(capsys, "deal", "--variant", "rummy", "--seed", "7", "--players", "2")
    assert status == 0
    d = deal("7", 2, 0)
    assert out["racks"] == [format_tiles(r).split() for r in d.racks]
    assert [len(r) for r in out["racks"]] == [15, 14]
    assert len(out["pile"]) == 76
    assert out["indicator"] == format_tiles([d.indicator])
    all_tiles = [t for r in out["racks"] for t in r] + out["pile"] + [out["indicator"]]
    assert len(all_tiles) == 106
    parse_tiles([t for t in all_tiles if t != "F"])  # no third copy anywhere


def test_deal_four_players_and_okey(capsys) -> None:
    status, out = run(capsys, "deal", "--variant", "classic", "--seed", "abc")
    assert status == 0 and len(out["racks"]) == 4 and len(out["pile"]) == 48
    colour, number = out["indicator"][0], int(out["indicator"][1:])
    assert out["okey"] == f"{colour}{number % 13 + 1}"


def test_deal_bad_player_count(capsys) -> None:
    status, out = run(capsys, "deal", "--variant", "classic", "--seed", "1", "--players", "2")
    assert status == 2 and out["error"] == "bad_player_count"


# --------------------------------------------------------------- simulate


def test_simulate(capsys) -> None:
    pytest.importorskip("games.engine.simulate")
    status, out = run(capsys, "simulate", "--variant", "classic", "--hands", "1", "--seed", "3")
    assert status == 0 and out["hands"] == 1


# ------------------------------------------------------------------ errors


@pytest.mark.parametrize(
    "argv, code",
    [
        (["rack", "--variant", "classic", "--indicator", "B4", "R3 R4 X5"], "bad_notation"),
        (["rack", "--variant", "classic", "--indicator", "B4", "R14 R4"], "bad_notation"),
        (["rack", "--variant", "nope", "--indicator", "B4", SEED_003], "bad_variant"),
        (["rack", "--variant", "classic", "--indicator", "B4", "R3 R4 R5"], "bad_tile_count"),
        (
            ["rack", "--variant", "classic", "--indicator", "B4", SEED_003 + " R3 R3"],
            "too_many_copies",
        ),
        (["rack", "--variant", "classic", "--indicator", "F", SEED_003], "bad_indicator"),
        (["rack", "--variant", "classic", "--indicator", "Q4", SEED_003], "bad_notation"),
        (
            ["rack", "--variant", "classic", "--indicator", "R3", "R3 R3 " + SEED_003[6:]],
            "too_many_copies",
        ),  # the indicator is one of the two R3s
        (["rack", "--variant", "classic", SEED_003], "bad_arguments"),
        (["meld", "--variant", "classic", "--indicator", "B4", "R3"], "bad_tile_count"),
        (["meld", "--variant", "classic", "--indicator", "B4", "R3 R3 R3"], "too_many_copies"),
        (["deal", "--variant", "okey", "--seed", "1"], "bad_variant"),
        (["simulate", "--variant", "classic", "--hands", "0"], "bad_arguments"),
        (["frobnicate"], "bad_arguments"),
        ([], "bad_arguments"),
    ],
)
def test_invalid_input_exits_2_with_json(capsys, argv: list[str], code: str) -> None:
    status, out = run(capsys, *argv)
    assert status == 2
    assert out["error"] == code and isinstance(out["message"], str) and out["message"]


def test_commands_are_registered_for_extension() -> None:
    assert {"rack", "meld", "deal", "simulate"} <= set(cli.COMMANDS)

    def args(p) -> None:
        p.add_argument("--n", type=int, default=1)

    @cli.command("echo-test", "test command", args)
    def echo(ns) -> dict:
        return {"n": ns.n}

    try:
        assert "echo-test" in cli.COMMANDS
        parser = cli.build_parser()
        ns = parser.parse_args(["echo-test", "--n", "3"])
        assert cli.COMMANDS[ns.command][2](ns) == {"n": 3}
    finally:
        del cli.COMMANDS["echo-test"]


# --------------------------------------------------------- python -m, bench


def test_python_dash_m_subprocess() -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "games.engine",
            "rack",
            "--variant",
            "rummy",
            "--indicator",
            "B4",
            SEED_003,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["winning"] is True
    proc = subprocess.run(
        [sys.executable, "-m", "games.engine", "rack", "--variant", "x", "--indicator", "B4", "R1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2 and json.loads(proc.stdout)["error"] == "bad_variant"


def test_bench_json_smoke(capsys, monkeypatch) -> None:
    from games.tools.engine import bench

    monkeypatch.setattr(bench, "_hands_per_second", lambda seconds: {"skipped": "test"})
    figures = bench.run_bench(seconds=0.01, n_racks=20)
    assert {"evaluator", "hands_per_second", "peak_rss_mb"} <= set(figures)
    assert all(row["best"] > 0 for row in figures["evaluator"])
    table = bench.format_table(figures)
    assert "is_winning" in table and "Peak RSS" in table
    assert "where the time goes" in table and "Lay-down deficiency" in table


def test_bench_phases_alone(capsys) -> None:
    """``bench --phases``: only where is_winning's time goes, nothing else measured."""
    from games.tools.engine import cli as tools_cli

    assert tools_cli.main(["bench", "--phases", "--seconds", "0.01"]) == 0
    out = capsys.readouterr().out
    assert "where the time goes" in out and "winning, 2 okeys" in out
    assert "Evaluator and tile efficiency" not in out and "hands per CPU second" not in out


# ------------------------------------------------------- every rule set


def _register(monkeypatch, rules) -> None:
    """Register ``rules`` as one more rule set for this test (as a new module of
    games/engine/rulesets would be)."""
    from games.engine.rules import RULES

    monkeypatch.setitem(RULES, rules.name, rules)


@pytest.mark.parametrize("variant", list(RULES))
def test_every_rule_set_deals_simulates_and_plays_the_arena(capsys, variant: str) -> None:
    """Each rule set of the registry is a --variant of every command, with its own deal
    size (the starter one tile more) and its own scoring direction."""
    rules = RULES[variant]
    status, out = run(capsys, "deal", "--variant", variant, "--seed", "7")
    assert status == 0
    assert [len(r) for r in out["racks"]] == [rules.rack_size + 1] + [rules.rack_size] * (
        len(out["racks"]) - 1
    )
    status, out = run(capsys, "simulate", "--variant", variant, "--hands", "1", "--seed", "3")
    assert status == 0 and out["variant"] == variant and out["hands"] == 1
    status, out = run_tool(
        capsys, "arena", "--variant", variant, "--a", "medium", "--b", "random", "--deals", "1"
    )
    assert status == 0 and out["hands"] == 2
    assert out["higher_is_better"] is rules.higher_wins


def test_a_rule_set_added_to_the_registry_is_a_variant_of_every_command(
    capsys, monkeypatch
) -> None:
    """A rule set is one module of rulesets/: once registered, the CLI, simulate and the
    arena take it (no list of names of their own), and its rack size is the deal's."""
    wide = type("Wide", (type(RULES["fifty-one"]),), {"name": "wide-test", "rack_size": 16})()
    _register(monkeypatch, wide)
    status, out = run(capsys, "deal", "--variant", "wide-test", "--seed", "7")
    assert status == 0 and [len(r) for r in out["racks"]] == [17, 16, 16, 16]
    status, out = run(capsys, "simulate", "--variant", "wide-test", "--hands", "1")
    assert status == 0 and out["variant"] == "wide-test"
    status, out = run_tool(
        capsys, "arena", "--variant", "wide-test", "--a", "hard", "--b", "easy", "--deals", "1"
    )
    assert status == 0 and out["higher_is_better"] is False
    rack = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 K1 K2 K3 Y9"
    status, out = run(capsys, "rack", "--variant", "wide-test", "--indicator", "B4", rack)
    assert status == 0 and out["winning"] is True and out["leftover"] == ["Y9"]
    status, out = run(capsys, "rack", "--variant", "wide-test", "--indicator", "B4", rack + " Y1")
    assert status == 2 and "1 to 17" in out["message"]


def test_a_whole_rack_rule_set_s_rack_size_is_what_rack_takes(capsys, monkeypatch) -> None:
    big = type("Big", (type(RULES["classic"]),), {"name": "big-test", "rack_size": 16})()
    _register(monkeypatch, big)
    rack = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 K1 K2 K3"
    status, out = run(capsys, "rack", "--variant", "big-test", "--indicator", "B4", rack)
    assert status == 0 and out["winning"] is True
    status, out = run(capsys, "rack", "--variant", "big-test", "--indicator", "B4", SEED_003)
    assert status == 2 and out["message"] == "big-test racks hold 16 or 17 tiles, not 14"


# 21 tiles of 101 (1 low only, [D27] no cap on a run) that split entirely into melds
RACK_101 = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 K1 K2 K3 K4 Y7 B7 K7 R7"


def test_rack_of_the_rule_set_s_size_is_winning_when_it_splits_into_melds(capsys) -> None:
    """101 deals 21 tiles (the starter 22) [D25]: 21 tiles in melds are a winning rack,
    and with a 22nd tile the one to put down is named."""
    status, out = run(capsys, "rack", "--variant", "101", "--indicator", "B12", RACK_101)
    assert status == 0 and out["winning"] is True and out["leftover"] == []
    status, out = run(capsys, "rack", "--variant", "101", "--indicator", "B12", RACK_101 + " Y11")
    assert status == 0 and out["winning"] is True and out["leftover"] == ["Y11"]
    status, out = run(
        capsys, "rack", "--variant", "101", "--indicator", "B12", RACK_101 + " Y11 Y1"
    )
    assert status == 2 and out["error"] == "bad_tile_count" and "1 to 22" in out["message"]


def test_bench_times_random_play_of_every_rule_set(monkeypatch) -> None:
    """The bench's hands-per-second figures cover the registry, a rule set added to it
    included."""
    import importlib

    from games.tools.engine import bench

    simulate = importlib.import_module("games.engine.simulate")  # the module, not the function
    extra = type("Extra", (type(RULES["rummy"]),), {"name": "extra-test"})()
    _register(monkeypatch, extra)
    played: list[str] = []
    monkeypatch.setattr(simulate, "simulate", lambda variant, hands, seed: played.append(variant))
    figures = bench._hands_per_second(0.0)
    assert list(figures) == list(RULES) and "extra-test" in figures
    assert set(played) == set(RULES)
