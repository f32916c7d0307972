"""Named rules for hand evaluation (rules.md §1 and the §7 test vectors)."""

from __future__ import annotations

import pytest

from games.engine.evaluate import Arrangement, best_arrangement, is_winning
from games.engine.melds import classify
from games.engine.tiles import format_tiles, kind_notation, kind_of, okey_kind_for, parse_kind
from games.engine.tiles import parse_tiles as _parse_tiles


def okey(indicator: str) -> int:
    return okey_kind_for(parse_kind(indicator))


def tiles(text: str, okey_kind: int) -> list[int]:
    """Parse a rack; ``*`` stands for a real okey (the next free okey copy)."""
    words = text.split()
    n_okeys = words.count("*")
    ids = _parse_tiles([w for w in words if w != "*"])
    return ids + [2 * okey_kind + i for i in range(n_okeys)]


def melds_text(arr: Arrangement) -> list[tuple[str, str, str]]:
    return [
        (m.kind, format_tiles(m.tiles), " ".join(kind_notation(k) for k in m.plays))
        for m in arr.melds
    ]


def assert_valid(arr: Arrangement, rack: list[int], okey_kind: int, ace_high: bool = True):
    for m in arr.melds:
        assign = {t: p for t, p in zip(m.tiles, m.plays, strict=True) if kind_of(t) == okey_kind}
        assert (
            classify(list(m.tiles), okey_kind, ace_high=ace_high, allow=(m.kind,), assign=assign)
            == m
        )
    assert sorted([t for m in arr.melds for t in m.tiles] + arr.leftover) == sorted(rack)


OK_B5 = okey("B4")  # okey B5: K, R, Y kinds below are plain


# ------------------------------------------------------------------ seed 003


def test_seed_003_worked_example_wins_with_b5_playing_k8() -> None:
    ok = okey("B4")
    assert kind_notation(ok) == "B5"
    rack = tiles("R3 R4 R5 R6 K9 B9 Y9 Y10 Y11 Y12 Y13 K6 K7 B5", ok)
    arr = is_winning(rack, ok)
    assert arr is not None and arr.kind == "melds" and arr.leftover == []
    assert_valid(arr, rack, ok)
    found = melds_text(arr)
    assert ("run", "K6 K7 B5", "K6 K7 K8") in found
    assert ("group", "Y9 B9 K9", "Y9 B9 K9") in found
    assert ("run", "R3 R4 R5 R6", "R3 R4 R5 R6") in found
    assert ("run", "Y10 Y11 Y12 Y13", "Y10 Y11 Y12 Y13") in found


def test_seed_003_with_a_real_k8_and_the_okey_discarded() -> None:
    ok = okey("B4")
    rack = tiles("R3 R4 R5 R6 K9 B9 Y9 Y10 Y11 Y12 Y13 K6 K7 K8", ok)
    arr = is_winning(rack, ok)
    assert arr is not None and arr.kind == "melds"
    # 15 tiles (R11 drawn): the best arrangement leaves exactly R11
    rack15 = tiles("R3 R4 R5 R6 K9 B9 Y9 Y10 Y11 Y12 Y13 K6 K7 B5 R11", ok)
    best = best_arrangement(rack15, ok)
    assert format_tiles(best.leftover) == "R11"


# ------------------------------------------------------------------- runs


def test_12_13_1_is_a_run() -> None:
    ok = OK_B5
    rack = tiles("R12 R13 R1 Y1 Y2 Y3 K4 K5 K6 K7 K8 R7 Y7 B7", ok)
    arr = is_winning(rack, ok)
    assert arr is not None
    assert ("run", "R12 R13 R1", "R12 R13 R1") in melds_text(arr)
    assert_valid(arr, rack, ok)


def test_1_2_3_is_a_run() -> None:
    ok = OK_B5
    rack = tiles("R1 R2 R3 Y1 Y2 Y3 K1 K2 K3 R9 R10 R11 R12 R13", ok)
    assert is_winning(rack, ok) is not None


def test_13_1_2_is_not_a_run() -> None:
    ok = OK_B5
    rack = tiles("R13 R1 R2 Y1 Y2 Y3 K4 K5 K6 K7 K8 R7 Y7 B7", ok)
    assert is_winning(rack, ok) is None
    best = best_arrangement(rack, ok)
    assert len(best.leftover) == 3  # R13 R1 R2 stay over


def test_seventeen_has_no_13_1() -> None:
    ok = OK_B5
    rack = tiles("R12 R13 R1 Y1 Y2 Y3 K4 K5 K6 K7 K8 R7 Y7 B7", ok)
    assert is_winning(rack, ok, ace_high=True) is not None
    assert is_winning(rack, ok, ace_high=False) is None
    best = best_arrangement(rack, ok, ace_high=False, values="seventeen")
    assert sorted(format_tiles(best.leftover).split()) == ["R1", "R12", "R13"]


def test_okey_cannot_make_13_1_in_seventeen() -> None:
    ok = OK_B5
    rack = tiles("R12 R13 *", ok)
    assert best_arrangement(rack, ok, ace_high=False).melds[0].plays == tuple(
        parse_kind(x) for x in ("R11", "R12", "R13")
    )
    # with ace_high R12 R13 R1 is possible, but R11 R12 R13 is worth more (36 > 26)
    plays = best_arrangement(rack, ok).melds[0].plays
    assert [kind_notation(k) for k in plays] == ["R11", "R12", "R13"]
    arr = best_arrangement(tiles("R12 R13 R1 *", ok), ok, values="sum")
    assert [kind_notation(k) for k in arr.melds[0].plays] == ["R11", "R12", "R13", "R1"]
    assert arr.opening_total == 37


def test_a_run_holds_each_number_once_and_one_colour() -> None:
    ok = OK_B5
    assert best_arrangement(tiles("R3 R4 Y5", ok), ok).melds == []
    assert best_arrangement(tiles("R3 R4 R4", ok), ok, pairs=False).melds == []


def test_a_run_of_thirteen_and_a_second_ace() -> None:
    ok = OK_B5
    run13 = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13"
    arr = best_arrangement(tiles(run13, ok), ok)
    assert arr.leftover == [] and arr.kind == "melds"
    # R1-R11 and R12 R13 R1
    arr = is_winning(tiles(run13 + " R1", ok), ok)
    assert arr is not None
    assert any(plays.endswith("R12 R13 R1") for _, _, plays in melds_text(arr))
    # the okey may play a tile that is also in the rack: R1 R2 R3 + okey(R3) R4 … R13
    rack = tiles(run13 + " *", ok)
    arr = is_winning(rack, ok)
    assert arr is not None
    assert_valid(arr, rack, ok)
    # no 14-tile run: 13 R tiles + 12 R13 R1 would need 13-1-2 or a repeated number
    assert is_winning(tiles(run13 + " Y5", ok), ok) is None


# ----------------------------------------------------------------- groups


def test_two_tiles_of_one_colour_never_share_a_group() -> None:
    ok = OK_B5
    assert best_arrangement(tiles("R9 R9 Y9", ok), ok, pairs=False).melds == []
    arr = best_arrangement(tiles("R9 Y9 B9 K9", ok), ok)
    assert melds_text(arr) == [("group", "R9 Y9 B9 K9", "R9 Y9 B9 K9")]


def test_okey_fills_a_group() -> None:
    ok = OK_B5
    rack = tiles("R9 K9 *", ok)
    arr = best_arrangement(rack, ok, values="sum")
    assert melds_text(arr) == [("group", "R9 B5 K9", "R9 Y9 K9")]
    assert arr.opening_total == 27


def test_two_groups_of_one_number() -> None:
    ok = OK_B5
    rack = tiles("R9 Y9 B9 R9 Y9 B9 K1 K2 K3 K4 K5 K6 K7 K8", ok)
    arr = is_winning(rack, ok)
    assert arr is not None and arr.kind == "melds"
    assert sum(1 for m in arr.melds if m.kind == "group") == 2


# ----------------------------------------------------------- okeys, jokers


def test_false_joker_plays_the_okey_identity() -> None:
    ok = okey("R5")  # okey R6; F plays R6 as a plain tile
    assert kind_notation(ok) == "R6"
    rack = tiles("R4 R5 F R7 Y1 Y2 Y3 K8 K9 K10 B11 Y11 R11 K11", ok)
    arr = is_winning(rack, ok)
    assert arr is not None
    assert ("run", "R4 R5 F R7", "R4 R5 R6 R7") in melds_text(arr)


def test_false_joker_is_not_wild() -> None:
    ok = okey("R5")
    rack = tiles("Y1 Y2 Y3 Y4 F Y6 K8 K9 K10 K11 K12 B12 Y12 R12", ok)
    assert is_winning(rack, ok) is None  # F is R6, not Y5
    rack = tiles("Y1 Y2 Y3 Y4 * Y6 K8 K9 K10 K11 K12 B12 Y12 R12", ok)
    assert is_winning(rack, ok) is not None  # a real okey is wild


def test_indicator_k13_gives_okey_k1() -> None:
    assert kind_notation(okey("K13")) == "K1"


def test_two_okeys_fill_a_gap_of_two() -> None:
    ok = OK_B5
    rack = tiles("R3 * * R6 Y1 Y2 Y3 K8 K9 K10 B11 Y11 R11 K11", ok)
    arr = is_winning(rack, ok)
    assert arr is not None
    assert ("run", "R3 B5 B5 R6", "R3 R4 R5 R6") in melds_text(arr)


def test_okey_prefers_extending_upwards() -> None:
    ok = OK_B5
    arr = best_arrangement(tiles("R5 R6 *", ok), ok)
    assert [kind_notation(k) for k in arr.melds[0].plays] == ["R5", "R6", "R7"]


# ------------------------------------------------------------------ pairs


def test_seven_pairs() -> None:
    ok = OK_B5
    rack = tiles("R1 R1 Y5 Y5 B9 B9 K13 K13 R7 R7 Y2 Y2 K4 K4", ok)
    arr = is_winning(rack, ok)
    assert arr is not None and arr.kind == "pairs" and len(arr.melds) == 7
    assert_valid(arr, rack, ok)


def test_okey_fills_a_pair_and_two_okeys_are_a_pair() -> None:
    ok = OK_B5
    rack = tiles("R1 R1 Y5 Y5 B9 B9 K13 K13 R7 R7 Y2 * K4 *", ok)
    arr = is_winning(rack, ok)
    assert arr is not None and arr.kind == "pairs"
    assert_valid(arr, rack, ok)
    rack = tiles("R1 R1 Y5 Y5 B9 B9 K13 K13 R7 R7 K4 K4 * *", ok)
    arr = is_winning(rack, ok)
    assert arr is not None and arr.kind == "pairs"
    assert ("pair", "B5 B5", "B5 B5") in melds_text(arr)


def test_r9_b9_is_not_a_pair() -> None:
    ok = OK_B5
    rack = tiles("R9 B9 Y5 Y5 B1 B1 K13 K13 R7 R7 Y2 Y2 K4 K4", ok)
    assert is_winning(rack, ok) is None


def test_pairs_and_melds_never_mix() -> None:
    ok = OK_B5
    # four pairs + two runs of three: 14 tiles, but a mix
    rack = tiles("R1 R1 Y5 Y5 B9 B9 K13 K13 R2 R3 R4 Y10 Y11 Y12", ok)
    assert is_winning(rack, ok) is None
    best = best_arrangement(rack, ok)
    assert best.kind in ("melds", "pairs") and len(best.leftover) == 6


def test_rack_both_pairs_and_melds_reports_pairs() -> None:
    ok = OK_B5
    rack = tiles("R1 R1 R2 R2 R3 R3 Y7 Y7 Y8 Y8 Y9 Y9 K4 K4", ok)
    # K4 K4 cannot be in runs: pairs only
    assert is_winning(rack, ok).kind == "pairs"
    rack = tiles("R1 R1 R2 R2 R3 R3 Y7 Y7 Y8 Y8 Y9 Y9 * *", ok)
    assert is_winning(rack, ok).kind == "pairs"
    assert best_arrangement(rack, ok).kind == "pairs"  # values None: pairs on a tie
    assert best_arrangement(rack, ok, values="sum").kind == "melds"  # lay-down: melds


def test_pairs_opening_for_lay_down() -> None:
    ok = OK_B5
    rack = tiles("R1 R1 Y5 Y5 B9 B9 K13 K13 R7 R7 Y2 K6 K4 R11", ok)
    best = best_arrangement(rack, ok, values="sum")
    assert best.kind == "pairs" and len(best.leftover) == 4
    assert best.opening_total == 2 * (1 + 5 + 9 + 13 + 7)
    best17 = best_arrangement(rack, ok, values="seventeen")
    assert best17.opening_total == 1 + 5 + 9 + 13 + 7
    assert best_arrangement(rack, ok, values="sum", pairs=False).kind is None


# ------------------------------------------------------------ best / values


def test_best_arrangement_fifty_one_total() -> None:
    ok = okey("R5")  # okey R6
    rack = tiles("R12 R13 R1 Y10 Y11 Y12 R3 R4 *", ok)
    best = best_arrangement(rack, ok, values="sum")
    assert_valid(best, rack, ok)
    assert best.leftover == []
    # R12 R13 R1 = 26 (D9: the 1 counts 1), Y10-Y12 = 33, R3 R4 okey→R5 = 12
    assert best.opening_total == 71


def test_lay_down_prefers_the_higher_total_at_equal_leftover() -> None:
    ok = OK_B5
    rack = tiles("R3 R4 R5 R6 Y3 B3 Y6 B6", ok)
    # R3 Y3 B3 + R4 R5 R6 (24) or R6 Y6 B6 + R3 R4 R5 (30): two tiles over either way
    best = best_arrangement(rack, ok, values="sum", pairs=False)
    assert len(best.leftover) == 2 and best.opening_total == 30
    # seventeen: group of 3s (3) + run 4-6 (5) = 8, group of 6s (6) + run 3-5 (4) = 10
    best = best_arrangement(rack, ok, ace_high=False, values="seventeen", pairs=False)
    assert len(best.leftover) == 2 and best.opening_total == 10


def test_seventeen_values() -> None:
    ok = OK_B5
    rack = tiles("R1 R2 R3 R4 R5 R6 R7", ok)
    best = best_arrangement(rack, ok, ace_high=False, values="seventeen")
    assert best.opening_total == 10  # 1-7 = 6 + 4 (rules.md §7)
    rack = tiles("R13 Y13 K13", ok)
    assert best_arrangement(rack, ok, ace_high=False, values="seventeen").opening_total == 17
    rack = tiles("R13 Y13 K13 B13", ok)
    assert best_arrangement(rack, ok, ace_high=False, values="seventeen").opening_total == 18


def test_okey_stands_for_thirteen_when_it_pays_in_seventeen() -> None:
    ok = OK_B5
    rack = tiles("R13 * *", ok)
    best = best_arrangement(rack, ok, ace_high=False, values="seventeen")
    assert best.kind == "melds" and best.melds[0].kind == "group"
    assert best.opening_total == 17


def test_leftover_okeys_count() -> None:
    ok = OK_B5
    best = best_arrangement(tiles("* R1", ok), ok)
    assert len(best.leftover) == 0 and best.kind == "pairs"
    best = best_arrangement(tiles("* R1", ok), ok, pairs=False)
    assert best.kind is None and len(best.leftover) == 2


def test_is_winning_needs_fourteen_tiles() -> None:
    ok = OK_B5
    assert is_winning(tiles("R1 R2 R3", ok), ok) is None
    rack15 = tiles("R1 R2 R3 Y1 Y2 Y3 K1 K2 K3 R9 R10 R11 R12 R13 B7", ok)
    assert is_winning(rack15, ok) is None


def test_duplicate_ids_are_refused() -> None:
    with pytest.raises(ValueError):
        best_arrangement([0, 0, 2], OK_B5)


def test_unknown_values_refused() -> None:
    with pytest.raises(ValueError):
        best_arrangement([0, 2, 4], OK_B5, values="points")  # type: ignore[arg-type]


def test_arrangement_is_frozen() -> None:
    arr = best_arrangement(tiles("R1 R2 R3", OK_B5), OK_B5)
    with pytest.raises(AttributeError):
        arr.kind = "pairs"  # type: ignore[misc]


def test_results_survive_memo_clearing(monkeypatch) -> None:
    """The shared memo tables are bounded; clearing them mid-search changes nothing."""
    import random

    from games.engine import evaluate
    from games.tools.engine.bench import winning_rack

    rng = random.Random(9)
    racks = [winning_rack(rng, i % 3) for i in range(150)]
    before = [
        (
            is_winning(r, ok) is not None,
            len(best_arrangement(r[:13], ok, values="sum").leftover),
            best_arrangement(r[:13], ok, values="sum").opening_total,
        )
        for r, ok in racks
    ]
    monkeypatch.setattr(evaluate, "_CACHE_LIMIT", 3)
    monkeypatch.setattr(evaluate, "_MEMO_LIMIT", 10)
    after = []
    for r, ok in racks:
        win = is_winning(r, ok)
        best = best_arrangement(r[:13], ok, values="sum")
        assert_valid(best, r[:13], ok)
        after.append((win is not None, len(best.leftover), best.opening_total))
    assert after == before


def test_spare_okey_joins_a_group_of_three() -> None:
    ok = OK_B5
    rack = tiles("R5 Y5 K5 R9 Y9 B9 K9 R1 Y1 B1 R13 Y13 * *", ok)
    arr = is_winning(rack, ok)
    assert arr is not None and arr.kind == "melds"
    assert_valid(arr, rack, ok)
    assert all(m.kind == "group" for m in arr.melds)
    assert sorted(len(m.tiles) for m in arr.melds) == [3, 3, 4, 4]


@pytest.mark.parametrize(
    "indicator, okey_kind, false_joker_plays",
    [("R5", "R6", "R6"), ("K13", "K1", "K1"), ("Y7", "Y8", "Y8"), ("Y9", "Y10", "Y10")],
)
def test_seed_indicator_vectors(indicator: str, okey_kind: str, false_joker_plays: str) -> None:
    ok = okey(indicator)
    assert kind_notation(ok) == okey_kind
    # a false joker is a plain tile with the okey's identity: F + its two neighbours
    number = int(okey_kind[1:])
    colour = okey_kind[0]
    if number <= 11:
        meld = f"F {colour}{number + 1} {colour}{number + 2}"
    else:
        meld = f"{colour}{number - 2} {colour}{number - 1} F"
    if number == 1:
        meld = f"F {colour}2 {colour}3"
    arr = best_arrangement(tiles(meld, ok), ok)
    assert arr.leftover == [] and false_joker_plays in melds_text(arr)[0][2].split()
