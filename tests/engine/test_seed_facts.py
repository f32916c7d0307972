"""rules.md §7: seed facts kept as test vectors, plus the seed-003 worked example."""

from __future__ import annotations

import pytest

from games.engine import apply, new_hand
from games.engine.melds import classify, seventeen_value
from games.engine.scoring import seventeen_base, seventeen_end_lines, seventeen_pairs_minimum
from games.engine.testing import ids, make_state, play, tile
from games.engine.tiles import kind_of, okey_kind_for, parse_kind, parse_tiles


def k(word: str) -> int:
    return parse_kind(word)


def test_indicator_r5_okey_r6_false_joker_plays_r6():
    """(000) Indicator R5 → okey R6; a false joker plays a plain R6."""
    okey = okey_kind_for(k("R5"))
    assert okey == k("R6")
    run = classify(parse_tiles("R5 F R7"), okey)
    assert run is not None and run.plays == (k("R5"), k("R6"), k("R7"))
    # the false joker is not wild: it cannot play R8
    assert classify(parse_tiles("R7 R9 F"), okey) is None


def test_indicator_k13_okey_k1():
    """(001) Indicator K13 → okey K1."""
    assert okey_kind_for(k("K13")) == k("K1")


def test_okey_y8_false_joker_is_plain_y8():
    """(001) Okey Y8 → a false joker is a plain Y8."""
    okey = k("Y8")
    g = classify(parse_tiles("R8 B8 F"), okey)
    assert g is not None and g.kind == "group" and k("Y8") in g.plays


def test_indicator_green9_green10s_are_okeys():
    """(003) Indicator green 9 (notation Y9) → both green 10s are okeys."""
    st = new_hand("rummy", {"players": 2}, seed="x")
    assert st.okey_kind == okey_kind_for(kind_of(st.indicator))
    okey = okey_kind_for(k("Y9"))
    assert okey == k("Y10")
    assert classify(parse_tiles("R1 Y10 Y10"), okey) is not None  # two okeys fill a run


@pytest.mark.parametrize("text", ["R12 R13 R1", "R1 R2 R3"])
def test_ace_low_and_high_runs_valid(text):
    """(000, 001, 003) 12-13-1 and 1-2-3 are runs."""
    assert classify(parse_tiles(text), k("K5")).kind == "run"


def test_13_1_2_invalid():
    """(000, 001) 13-1-2 never wraps."""
    assert classify(parse_tiles("R13 R1 R2"), k("K5")) is None


def test_seventeen_13_1_invalid():
    """(004) In seventeen 1 is low only: no 12-13-1."""
    assert classify(parse_tiles("R12 R13 R1"), k("K5"), ace_high=False) is None
    assert classify(parse_tiles("R1 R2 R3"), k("K5"), ace_high=False) is not None


def test_same_colour_never_shares_a_group():
    """(001, 003) Two tiles of one colour never share a group."""
    assert classify(parse_tiles("R9 R9 B9"), k("K5")) is None
    assert classify(parse_tiles("R9 K9 B9"), k("K5")).kind == "group"


@pytest.mark.parametrize(("players", "pile"), [(2, 76), (3, 62), (4, 48)])
def test_pile_sizes(players, pile):
    """(003) 76 tiles at a two-player table, 48 at four (62 at three)."""
    st = new_hand("rummy", {"players": players}, seed=7)
    assert len(st.pile) == pile
    assert sorted(len(r) for r in st.racks) == [14] * (players - 1) + [15]


def _fifty_one_table(**kw):
    # seat 1 owns B5 B6 B7 (lay-off target) and B9 okey B11 (okey plays B10)
    return make_state(
        "fifty-one",
        [
            "B4 B8 B10 R1 R2 R3 K5 K6 K7",
            "Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9",
            None,
            None,
        ],
        indicator="K12",  # okey K13
        melds=[
            {"owner": 1, "tiles": "B5 B6 B7"},
            {"owner": 1, "tiles": "B9 K13 B11"},
            {"owner": 0, "tiles": "R11 R12 R13"},
        ],
        opened=["melds", "melds", None, None],
        turn=0,
        phase="play",
        **kw,
    )


def test_layoff_b7_costs_rival_70():
    """(000) Adding a blue 7 to a rival's meld: +70 to its owner."""
    st = make_state(
        "fifty-one",
        ["B7 R1 R2", "Y1 Y2 Y3", None, None],
        indicator="K12",
        melds=[{"owner": 1, "tiles": "B8 B9 B10"}, {"owner": 0, "tiles": "R11 R12 R13"}],
        turn=0,
        phase="play",
    )
    st2, ev = apply(st, {"type": "add", "seat": 0, "tile": tile(st, 0, "B7"), "meld": 1})
    assert st2.hand_totals() == [0, 70, 0, 0]
    assert st2.scores[-1]["reason"] == "layoff"


def test_swap_b8_for_okey_costs_180():
    """(000) B8 given, okey taken: +180 to the meld's owner."""
    st = make_state(
        "fifty-one",
        ["B8 R1 R2", "Y1 Y2 Y3", None, None],
        indicator="K12",  # okey K13
        melds=[{"owner": 1, "tiles": "B7 K13 B9"}, {"owner": 0, "tiles": "R11 R12 R13"}],
        turn=0,
        phase="play",
    )
    okey = st.melds[0].tiles[1]
    st2, _ = apply(st, {"type": "swap", "seat": 0, "tile": tile(st, 0, "B8"), "meld": 1})
    assert st2.hand_totals() == [0, 180, 0, 0]
    assert okey in st2.racks[0]
    assert st2.melds[0].plays == tuple(parse_kind(w) for w in ["B7", "B8", "B9"])


def test_68_on_the_table_open_with_69():
    """(000) With 68 on the table a new opener needs 69."""
    # 69 = R11 R12 R13 (36) + K10 K11 K12 (33)
    st = make_state(
        "fifty-one",
        ["R11 R12 R13 K10 K11 K12 Y1", "B11 B12 B13 Y9 Y10 Y11 Y2", None, None],
        indicator="B4",
        limit=68,
        opened=[None, None, "melds", None],
        turn=0,
        phase="play",
    )
    act = {
        "type": "open",
        "seat": 0,
        "melds": [ids(st, 0, "R11 R12 R13"), ids(st, 0, "K10 K11 K12")],
    }
    st2, ev = apply(st, act)
    assert st2.opened[0] == "melds" and st2.limit == 69
    # 36 + 30 = 66 would not do
    st3 = make_state(
        "fifty-one",
        ["R11 R12 R13 Y9 Y10 Y11 Y1", "B1 B2 B3 B4 B5 B6 B7", None, None],
        indicator="K4",
        limit=68,
        turn=0,
        phase="play",
    )
    from games.engine import Refusal

    with pytest.raises(Refusal) as exc:
        apply(
            st3,
            {
                "type": "open",
                "seat": 0,
                "melds": [ids(st3, 0, "R11 R12 R13"), ids(st3, 0, "Y9 Y10 Y11")],
            },
        )
    assert exc.value.code == "below_opening_limit"


@pytest.mark.parametrize("word", ["B4", "B8"])
def test_rival_run_5_6_7_discard_4_or_8_costs_100(word):
    """(000) With a rival's 5-6-7 on the table, discarding the 4 or the 8 costs 100."""
    st = make_state(
        "fifty-one",
        [f"{word} K2 K9", "Y1 Y2 Y3", None, None],
        indicator="K12",
        melds=[{"owner": 1, "tiles": "B5 B6 B7"}, {"owner": 0, "tiles": "R11 R12 R13"}],
        turn=0,
        phase="play",
    )
    st2, _ = apply(st, {"type": "discard", "seat": 0, "tile": tile(st, 0, word)})
    assert st2.hand_totals()[0] == 100
    assert st2.scores[-1]["reason"] == "penalty_tile"
    st3, _ = apply(st, {"type": "discard", "seat": 0, "tile": tile(st, 0, "K2")})
    assert st3.hand_totals()[0] == 0


def test_seventeen_values():
    """(004) 1-7 = 10; three 13s = 17; 4-5-6 = 5."""
    run17 = classify(parse_tiles("R1 R2 R3 R4 R5 R6 R7"), k("K5"), ace_high=False)
    assert seventeen_value(run17.kind, run17.plays) == 10
    g = classify(parse_tiles("R13 B13 K13"), k("K5"), ace_high=False)
    assert seventeen_value(g.kind, g.plays) == 17
    r = classify(parse_tiles("Y4 Y5 Y6"), k("K5"), ace_high=False)
    assert seventeen_value(r.kind, r.plays) == 5


def test_seventeen_pairs_need_26_at_start():
    """(004) Pairs need ⌈17 × 1.5⌉ = 26 at the start."""
    assert seventeen_pairs_minimum(None) == 26


@pytest.mark.parametrize(("okey", "base"), [("R5", 400), ("K5", 500), ("Y5", 600), ("B5", 800)])
def test_seventeen_base_and_finisher(okey, base):
    """(004) Base by colour 400/500/600/800; finisher −40/−50/−60/−80."""
    assert seventeen_base(k(okey)) == base
    lines = seventeen_end_lines(((), (1,), (2,), (3,)), ("melds",) * 4, k(okey), 0, False, False)
    assert lines[0]["seat"] == 0 and lines[0]["points"] == -base // 10


# --------------------------------------------------------- seed 003 worked example

RACK_003 = "R3 R4 R5 R6 K9 B9 Y9 Y10 Y11 Y12 Y13 K6 K7 B5"


def _example(**kw):
    return make_state("rummy", [RACK_003, None, None, None], indicator="B4", turn=0, **kw)


def test_seed003_rack_is_complete_and_r11_closes_for_3():
    """(003) Indicator B4: both B5 are okeys; drawing R11 and putting it down closes for 3."""
    st = _example(pile="R11", phase="draw")
    assert st.okey_kind == k("B5")
    st2, _ = apply(st, {"type": "draw", "seat": 0})
    r11 = tile(st2, 0, "R11")
    st3, ev = apply(st2, {"type": "close", "seat": 0, "tile": r11})
    assert st3.over and st3.result["ending"] == "close"
    assert st3.hand_totals() == [3, 0, 0, 0]
    assert st3.result["closed_tile"] == r11
    shown = st3.result["detail"]["arrangement"]
    assert sorted(t for m in shown for t in m) == sorted(st3.racks[0])
    assert sorted(len(m) for m in shown) == [3, 3, 4, 4]  # R3-R6, 9s, Y10-Y13, K6 K7 B5


def test_seed003_take_k8_put_down_okey_closes_for_6():
    """(003) Taking a real K8 from the previous discard and putting down B5 closes for 6."""
    st = _example(takeable="K8", phase="draw")
    st2, _ = apply(st, {"type": "take", "seat": 0})
    st3, _ = play(st2, {"type": "close", "seat": 0, "tile": tile(st2, 0, "B5")})
    assert st3.result["ending"] == "okey_close"
    assert st3.hand_totals() == [6, 0, 0, 0]


def test_ending_with_a_false_joker_is_an_ordinary_ending():
    """(000, §1) A false joker is not wild: ending with it is an ordinary ending."""
    st = make_state(
        "classic",
        ["R1 R2 R3 Y4 Y5 Y6 B7 B8 B9 B10 K11 R11 Y11 B11 F", None, None, None],
        indicator="K12",
        turn=0,
        phase="play",
    )
    over, _ = apply(st, {"type": "close", "seat": 0, "tile": tile(st, 0, "F")})
    assert over.result["ending"] == "close"
    st = make_state(
        "fifty-one",
        ["F", None, None, None],
        indicator="K12",
        melds=[{"owner": 0, "tiles": "B5 B6 B7"}],
        turn=0,
        phase="play",
    )
    over, _ = apply(st, {"type": "discard", "seat": 0, "tile": tile(st, 0, "F")})
    assert over.result["ending"] == "hand" and over.hand_totals()[0] == -500
