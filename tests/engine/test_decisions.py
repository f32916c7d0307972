"""One test per product decision [D1]..[D24] of rules.md (each docstring cites its tag)."""

from __future__ import annotations

import pytest

from games.engine import Game, Refusal, apply, new_hand, timeout_action, validate_options
from games.engine.game import HandResult
from games.engine.melds import classify, seventeen_value
from games.engine.rules import rules_for
from games.engine.testing import ids, make_state, tile
from games.engine.tiles import ALL_IDS, FALSE_KIND, SeedRng, deal, kind_of, parse_kind, parse_tiles


def refused(state, action) -> str:
    with pytest.raises(Refusal) as exc:
        apply(state, action)
    return exc.value.code


def test_d1_false_joker_turned_up_goes_back_into_the_pile():
    """[D1] A false joker turned as indicator goes back into the pile; another is turned."""
    found = 0
    for seed in range(4000):
        rng = SeedRng(seed)
        tiles = list(ALL_IDS)
        rng.shuffle(tiles)
        rest = tiles[: -(15 + 14 * 3)]
        if kind_of(rest[0]) != FALSE_KIND or kind_of(rest[1]) == FALSE_KIND:
            continue
        d = deal(seed, 4, 0)
        assert kind_of(d.indicator) != FALSE_KIND
        assert d.indicator == rest[1]
        assert rest[0] in d.pile and len(d.pile) == 48
        found += 1
        if found == 3:
            break
    assert found == 3


def test_d2_seat0_starts_and_the_starter_moves_one_seat_each_hand():
    """[D2] Seat 0 starts the first hand; the starter moves one seat each hand; s → s+1."""
    g = Game("fifty-one", {"hands": 3})
    assert g.next_starter() == 0
    st = g.new_hand("h1")
    assert st.starter == 0 and st.turn == 0 and len(st.racks[0]) == 15 and st.phase == "play"
    st2, _ = apply(st, {"type": "discard", "seat": 0, "tile": st.racks[0][0]})
    assert st2.turn == 1 and st2.phase == "draw"
    g.hands.append(HandResult("h1", 0, "exhausted", [], [0, 0, 0, 0]))
    assert g.next_starter() == 1
    st = g.new_hand("h2")
    assert st.starter == 1 and len(st.racks[1]) == 15 and st.turn == 1


def test_d3_okey_fills_a_pair_in_every_variant():
    """[D3] An okey stands for the missing tile of a pair, in every variant."""
    okey = parse_kind("K13")
    pair = classify([parse_tiles("R9")[0], parse_tiles("K13")[0]], okey)
    assert pair is not None and pair.kind == "pair" and pair.plays == (parse_kind("R9"),) * 2
    # classic: six pairs + a single and an okey close as seven pairs
    st = make_state(
        "classic",
        ["R1 R1 R2 R2 R4 R4 Y5 Y5 Y7 Y7 B9 B9 K1 K13 B11", None, None, None],
        indicator="K12",
        turn=0,
        phase="play",
    )
    st2, _ = apply(st, {"type": "close", "seat": 0, "tile": tile(st, 0, "B11")})
    assert st2.result["ending"] == "pairs_close"
    # fifty-one: a pairs opening may use an okey in a pair
    st = make_state(
        "fifty-one",
        ["R1 R1 R2 R2 R4 R4 Y5 Y5 B9 K13 B11", None, None, None],
        indicator="K12",
        turn=0,
        phase="play",
    )
    melds = [ids(st, 0, x) for x in ("R1 R1", "R2 R2", "R4 R4", "Y5 Y5", "B9 K13")]
    st2, _ = apply(st, {"type": "open", "seat": 0, "melds": melds})
    assert st2.opened[0] == "pairs"
    # seventeen: a pair with an okey is a pair worth its number
    assert seventeen_value(pair.kind, pair.plays) == 9


RACK_003 = "R3 R4 R5 R6 K9 B9 Y9 Y10 Y11 Y12 Y13 K6 K7 B5"


def _empty_pile(**kw):
    return make_state(
        "rummy",
        [RACK_003, None, None, None],
        indicator="B4",
        takeable="K8",
        turn=0,
        phase="draw",
        rest="discards",
        **kw,
    )


def test_d4_empty_pile_is_a_draw_unless_the_discard_finishes():
    """[D4] Empty pile: the hand is drawn, unless the player takes the discard and finishes."""
    st = _empty_pile()
    assert st.pile == ()
    over, _ = apply(st, {"type": "draw", "seat": 0})
    assert over.over and over.result["ending"] == "exhausted" and over.hand_totals() == [0] * 4
    taken, _ = apply(st, {"type": "take", "seat": 0})
    assert refused(taken, {"type": "discard", "seat": 0, "tile": tile(taken, 0, "R3")}) == (
        "must_finish"
    )
    closed, _ = apply(taken, {"type": "close", "seat": 0, "tile": tile(taken, 0, "B5")})
    assert closed.result["ending"] == "okey_close" and closed.hand_totals()[0] == 6
    # undo, then the draw ends the hand
    back, _ = apply(taken, {"type": "undo", "seat": 0})
    assert refused(back, {"type": "take", "seat": 0}) == "take_after_undo"
    over2, _ = apply(back, {"type": "draw", "seat": 0})
    assert over2.result["ending"] == "exhausted"


def test_d4_lay_down_exhausted_pile_scores_the_draw_row():
    """[D4] fifty-one: drawing from an empty pile ends the hand with the exhausted row."""
    st = make_state(
        "fifty-one",
        ["R1 R2", "Y1 Y5", None, None],
        indicator="K12",
        melds=[{"owner": 0, "tiles": "B5 B6 B7 B8 B9 B10 B11 B12 B13"}],
        opened=["melds", None, None, None],
        turn=1,
        phase="draw",
        rest="discards",
    )
    over, _ = apply(st, {"type": "draw", "seat": 1})
    assert over.result["ending"] == "exhausted"
    pts = {ln["seat"]: ln["points"] for ln in over.result["lines"]}
    assert pts[0] == (1 + 2) * 5 and pts[1] == 500 and pts[2] == 500


def test_d5_classic_countdown_from_20_losing_2_4_4_8():
    """[D5] Classic starts at 20 (10/20/30 option); others lose 2/4/4/8 on a close."""
    assert validate_options("classic", {})["start_points"] == 20
    for v in (10, 20, 30):
        assert validate_options("classic", {"start_points": v})["start_points"] == v
    with pytest.raises(Refusal) as exc:
        validate_options("classic", {"start_points": 25})
    assert exc.value.code == "bad_option"
    from games.engine.scoring import CLASSIC_CLOSE

    assert CLASSIC_CLOSE == {"close": 2, "okey_close": 4, "pairs_close": 4, "pairs_okey_close": 8}
    g = Game("classic")
    assert g.totals() == [20, 20, 20, 20]


def test_d6_classic_equal_highest_scores_share_the_win():
    """[D6] The game ends when someone reaches 0; equal highest scores share the win."""
    g = Game("classic", {"start_points": 10})
    g.hands.append(HandResult(1, 0, "close", [], [0, -8, -8, -8]))
    assert not g.is_over()
    g.hands.append(HandResult(2, 1, "close", [], [-2, 0, -2, -2]))
    assert g.totals() == [8, 2, 0, 0] and g.is_over() and g.winners() == [0]
    g2 = Game("classic", {"start_points": 10})
    g2.hands.append(HandResult(1, 0, "close", [], [0, 0, -10, -10]))
    assert g2.is_over() and g2.winners() == [0, 1]


@pytest.mark.parametrize(
    ("length", "targets"),
    [("short", (4, 5, 8)), ("standard", (8, 10, 15)), ("long", (16, 20, 30))],
)
def test_d7_rummy_targets(length, targets):
    """[D7] Rummy targets by players 4/3/2: short 4/5/8, standard 8/10/15, long 16/20/30."""
    for players, target in zip((4, 3, 2), targets, strict=True):
        assert Game("rummy", {"players": players, "length": length}).target() == target


def test_d8_timeout_draws_and_discards_the_same_tile():
    """[D8] On time-out the top of the pile is drawn and that same tile discarded."""
    st = make_state("rummy", [None, None, None, None], indicator="B4", pile="K8", turn=1)
    assert st.phase == "draw"
    act = timeout_action(st)
    assert act == {"type": "timeout", "seat": 1}
    top = st.pile[-1]
    st2, _ = apply(st, act)
    assert st2.discards[1][-1] == top and st2.racks[1] == st.racks[1] and st2.turn == 2


def test_d8_timeout_on_the_opening_turn_discards_the_rightmost_tile():
    """[D8] The starter's opening turn discards the rightmost tile of the rack."""
    st = new_hand("rummy", {"players": 3}, seed="d8", starter=0)
    right = st.racks[0][-1]
    st2, _ = apply(st, timeout_action(st))
    assert st2.discards[0] == (right,) and len(st2.racks[0]) == 14


def test_d8_timeout_with_an_empty_pile_ends_the_hand():
    """[D8] + [D4] A time-out facing an empty pile ends the hand as a draw."""
    st = _empty_pile()
    st2, _ = apply(st, timeout_action(st))
    assert st2.over and st2.result["ending"] == "exhausted"


def test_d9_an_ace_counts_1_also_in_12_13_1():
    """[D9] fifty-one: a 1 counts 1 also in 12-13-1 (so 12-13-1 + 8-8-8 = 50 < 51)."""
    r = rules_for("fifty-one")
    run = classify(parse_tiles("R12 R13 R1"), parse_kind("K13"))
    assert r.meld_value(run.kind, run.plays) == 26
    st = make_state(
        "fifty-one",
        ["R12 R13 R1 B8 K8 Y8 Y1", None, None, None],
        indicator="K12",
        turn=0,
        phase="play",
    )
    melds = [ids(st, 0, "R12 R13 R1"), ids(st, 0, "B8 K8 Y8")]
    assert refused(st, {"type": "open", "seat": 0, "melds": melds}) == "below_opening_limit"


def _open_66(doubling: bool, limit: int | None):
    st = make_state(
        "fifty-one",
        ["R11 R12 R13 Y9 Y10 Y11 Y1", None, None, None],
        indicator="K4",
        limit=limit,
        turn=0,
        phase="play",
        options={"doubling": doubling},
    )
    return st, {
        "type": "open",
        "seat": 0,
        "melds": [ids(st, 0, "R11 R12 R13"), ids(st, 0, "Y9 Y10 Y11")],
    }


def test_d10_doubling_on_by_default_strictly_exceeds_the_highest():
    """[D10] Doubling is on by default: a new opener must exceed the highest opening."""
    assert validate_options("fifty-one", {})["doubling"] is True
    st, act = _open_66(True, 66)
    assert refused(st, act) == "below_opening_limit"
    st, act = _open_66(True, 65)
    st2, _ = apply(st, act)
    assert st2.limit == 66
    st, act = _open_66(False, 68)  # doubling off: 51 suffices
    st2, _ = apply(st, act)
    assert st2.opened[0] == "melds"


def _layoff_state(partners: bool):
    return make_state(
        "fifty-one",
        ["B7 Y8 K13 K3", None, None, None],
        indicator="R12",
        melds=[
            {"owner": 0, "tiles": "Y5 Y6 Y7"},
            {"owner": 1, "tiles": "B8 B9 B10"},
            {"owner": 2, "tiles": "K10 K11 K12"},
        ],
        turn=0,
        phase="play",
        options={"partners": partners},
    )


def test_d11_adding_to_your_own_or_partners_meld_is_free():
    """[D11] Adding to your own (or, in 2v2, your partner's) meld costs nothing."""
    st = _layoff_state(True)
    st2, _ = apply(st, {"type": "add", "seat": 0, "tile": tile(st, 0, "Y8"), "meld": 1})
    assert st2.hand_totals() == [0, 0, 0, 0]
    st3, _ = apply(st2, {"type": "add", "seat": 0, "tile": tile(st, 0, "K13"), "meld": 3})
    assert st3.hand_totals() == [0, 0, 0, 0]  # partner (seat 2)
    st4, _ = apply(st3, {"type": "add", "seat": 0, "tile": tile(st, 0, "B7"), "meld": 2})
    assert st4.hand_totals() == [0, 70, 0, 0]
    solo = _layoff_state(False)
    s5, _ = apply(solo, {"type": "add", "seat": 0, "tile": tile(solo, 0, "K13"), "meld": 3})
    assert s5.hand_totals() == [0, 0, 130, 0]


def test_d11_only_opened_players_add():
    """[D11] Only players who have opened may add or swap."""
    st = make_state(
        "fifty-one",
        ["B7 Y8 K1 K3", None, None, None],
        indicator="R12",
        melds=[{"owner": 1, "tiles": "B8 B9 B10"}],
        turn=0,
        phase="play",
    )
    assert refused(st, {"type": "add", "seat": 0, "tile": tile(st, 0, "B7"), "meld": 1}) == (
        "not_opened"
    )


def test_d12_a_taken_discard_must_be_used_or_the_turn_undone():
    """[D12] Until the taken tile is used the turn cannot end; undo gives it back."""
    st = make_state(
        "fifty-one",
        ["B7 Y8 K1 K3 R5", None, None, None],
        indicator="R12",
        melds=[{"owner": 0, "tiles": "Y5 Y6 Y7"}, {"owner": 3, "tiles": "B8 B9 B10"}],
        takeable="Y4",
        turn=0,
        phase="draw",
    )
    taken, _ = apply(st, {"type": "take", "seat": 0})
    assert taken.hand_totals()[3] == 40  # the discarder pays 10 × 4
    y4 = taken.taken
    assert refused(taken, {"type": "discard", "seat": 0, "tile": tile(st, 0, "R5")}) == (
        "must_use_taken_discard"
    )
    back, _ = apply(taken, {"type": "undo", "seat": 0})
    assert back.racks == st.racks and back.discards == st.discards and back.hand_totals()[3] == 0
    assert back.undone and refused(back, {"type": "take", "seat": 0}) == "take_after_undo"
    drew, _ = apply(back, {"type": "draw", "seat": 0})
    assert drew.phase == "play"
    used, _ = apply(taken, {"type": "add", "seat": 0, "tile": y4, "meld": 1})
    done, _ = apply(used, {"type": "discard", "seat": 0, "tile": tile(st, 0, "K3")})
    assert done.turn == 1


def test_d13_pairs_opener_lays_more_pairs_but_never_runs_or_adds():
    """[D13] A pairs opener may lay further pairs later, never runs/groups, never adds."""
    st = make_state(
        "fifty-one",
        ["R9 R9 K1 K2 K3 B5 Y3", None, None, None],
        indicator="R12",
        melds=[{"owner": 0, "tiles": "Y5 Y5"}, {"owner": 1, "tiles": "B6 B7 B8"}],
        opened=["pairs", "melds", None, None],
        turn=0,
        phase="play",
    )
    st2, _ = apply(st, {"type": "lay", "seat": 0, "melds": [ids(st, 0, "R9 R9")]})
    assert st2.melds[-1].kind == "pair"
    assert refused(st, {"type": "lay", "seat": 0, "melds": [ids(st, 0, "K1 K2 K3")]}) == (
        "wrong_meld_type"
    )
    assert refused(st, {"type": "add", "seat": 0, "tile": tile(st, 0, "B5"), "meld": 2}) == (
        "pairs_opener_cannot_add"
    )


def test_d14_partner_of_the_finisher_pays_nothing_and_teams_sum():
    """[D14] 2v2: the finisher's partner pays nothing for that ending; teams sum."""
    st = make_state(
        "fifty-one",
        ["K3", "Y1 Y5", "R2 R9", None],
        indicator="R12",
        melds=[{"owner": 0, "tiles": "B5 B6 B7"}, {"owner": 1, "tiles": "B10 B11 B12"}],
        opened=["melds", "melds", "melds", None],
        turn=0,
        phase="play",
        options={"partners": True},
    )
    over, _ = apply(st, {"type": "discard", "seat": 0, "tile": tile(st, 0, "K3")})
    pts = {ln["seat"]: ln["points"] for ln in over.result["lines"]}
    assert pts == {0: -500, 1: 30, 2: 0, 3: 500}
    g = Game("fifty-one", {"partners": True})
    g.record_hand(over)
    assert g.team_totals() == [-500, 530] and g.winners() == [0, 2]


def test_d15_fifty_one_clock_30_by_default():
    """[D15] fifty-one turn clock: 30 s by default; 15, 30, 60 or off."""
    assert validate_options("fifty-one", {})["clock"] == 30
    for c in (0, 15, 30, 60):
        assert validate_options("fifty-one", {"clock": c})["clock"] == c
    with pytest.raises(Refusal):
        validate_options("fifty-one", {"clock": 45})


def test_d16_four_13s_are_18():
    """[D16] seventeen: four 13s = 18 (three 13s = 17)."""
    g = classify(parse_tiles("R13 Y13 B13 K13"), parse_kind("K5"), ace_high=False)
    assert seventeen_value(g.kind, g.plays) == 18


def _seventeen_opening(rack: str, melds: list[str], limit=None, opened=None):
    st = make_state(
        "seventeen",
        [rack, None, None, None],
        indicator="K4",
        limit=limit,
        opened=opened,
        turn=0,
        phase="play",
    )
    return st, {"type": "open", "seat": 0, "melds": [ids(st, 0, m) for m in melds]}


def test_d17_seventeen_opening_limit():
    """[D17] L starts at 17: ≥17 first, then > L (sets L); pairs ≥26, then > ⌈1.5 L⌉."""
    st, act = _seventeen_opening("R13 B13 K13 Y1", ["R13 B13 K13"])  # 17
    st2, _ = apply(st, act)
    assert st2.limit == 17
    st, act = _seventeen_opening("R12 B12 K12 Y1", ["R12 B12 K12"])  # 12
    assert refused(st, act) == "below_opening_limit"
    st, act = _seventeen_opening(
        "R13 B13 K13 Y13 Y1", ["R13 B13 K13"], limit=17, opened=[None, "melds", None, None]
    )
    assert refused(st, act) == "below_opening_limit"  # 17 is not > 17
    st, act = _seventeen_opening(
        "R13 B13 K13 Y13 Y1", ["R13 B13 K13 Y13"], limit=17, opened=[None, "melds", None, None]
    )
    assert apply(st, act)[0].limit == 18
    pairs = ["R13 R13", "B12 B12", "Y1 Y1"]  # 13 + 12 + 1 = 26
    st, act = _seventeen_opening("R13 R13 B12 B12 Y1 Y1 K9", pairs)
    st2, _ = apply(st, act)
    assert st2.opened[0] == "pairs" and st2.limit is None  # pairs leave L unchanged
    st, act = _seventeen_opening(
        "R13 R13 B12 B12 Y1 Y1 K9", pairs, limit=17, opened=[None, "melds", None, None]
    )
    assert refused(st, act) == "below_opening_limit"  # needs > 26 → 27


def test_d18_a_pair_given_to_a_pairs_opener_penalises_the_receiver():
    """[D18] A runs-and-groups opener lays a pair onto a pairs opener: 10 × n × pair factor."""
    st = make_state(
        "seventeen",
        ["R9 R9 K1", None, None, None],
        indicator="K4",
        melds=[{"owner": 0, "tiles": "B1 B2 B3"}, {"owner": 1, "tiles": "Y7 Y7"}],
        turn=0,
        phase="play",
    )
    assert st.opened == ("melds", "pairs", None, None)
    pair = ids(st, 0, "R9 R9")
    assert refused(st, {"type": "lay", "seat": 0, "melds": [pair]}) == "bad_receiver"
    st2, _ = apply(st, {"type": "lay", "seat": 0, "melds": [pair], "to": 1})
    assert st2.hand_totals() == [0, 9 * 10 * 2, 0, 0]
    assert st2.melds[-1].owner == 1


def test_d19_okey_finish_doubles_losers_not_the_finisher():
    """[D19] An okey finish doubles the losers' payments; the finisher keeps −base/10."""
    st = make_state(
        "seventeen",
        ["K5", "Y1 Y2 Y3", None, None],
        indicator="K4",  # okey K5, base 500
        melds=[{"owner": 0, "tiles": "B1 B2 B3"}, {"owner": 1, "tiles": "R7 R7"}],
        turn=0,
        phase="play",
    )
    over, _ = apply(st, {"type": "discard", "seat": 0, "tile": tile(st, 0, "K5")})
    assert over.result["ending"] == "okey"
    pts = {ln["seat"]: ln["points"] for ln in over.result["lines"]}
    # pair factor 2 (seat 1 opened with pairs), okey × 2
    assert pts == {0: -50, 1: 10 * 3 * 2 * 2, 2: 500 * 2 * 2, 3: 500 * 2 * 2}
    ex = make_state(
        "seventeen",
        ["K7", "Y1 Y2 Y3", None, None],
        indicator="K4",
        melds=[{"owner": 0, "tiles": "B1 B2 B3"}, {"owner": 1, "tiles": "R7 R7"}],
        turn=2,
        phase="draw",
        rest="discards",
    )
    over, _ = apply(ex, {"type": "draw", "seat": 2})
    pts = {ln["seat"]: ln["points"] for ln in over.result["lines"]}
    assert over.result["finisher"] is None
    assert pts == {0: 10 * 1 * 2, 1: 10 * 3 * 2, 2: 500 * 2, 3: 500 * 2}


def test_d20_okeys_left_in_an_opened_rack_cost_100_times_m():
    """[D20] Opened rival pays Σ×m + 100×m per okey (m 5; 10 for a pairs opener)."""
    st = make_state(
        "fifty-one",
        ["Y2", "R13 K3 F", "R9 R13", None],
        indicator="R12",  # okey R13, F plays R13
        melds=[
            {"owner": 0, "tiles": "B5 B6 B7"},
            {"owner": 1, "tiles": "B10 B11 B12"},
            {"owner": 2, "tiles": "Y9 Y9"},
        ],
        turn=0,
        phase="play",
    )
    over, _ = apply(st, {"type": "discard", "seat": 0, "tile": tile(st, 0, "Y2")})
    pts = {ln["seat"]: ln["points"] for ln in over.result["lines"]}
    assert pts[1] == (3 + 13) * 5 + 500  # K3 + F(=R13), one okey
    assert pts[2] == 9 * 10 + 1000  # pairs opener: ×10, okey 1000
    assert pts[3] == 500 and pts[0] == -500


def test_d21_direct_close_makes_everyone_pay_base_times_4():
    """[D21] While nobody has opened, laying the whole rack in one turn: base × 4."""
    st = make_state(
        "seventeen",
        ["R1 R2 R3 R4 R5 R6 R7 B9 K9 Y9 R13 B13 K13 Y13 Y5", None, None, None],
        indicator="K4",  # base 500
        turn=0,
        phase="play",
    )
    melds = [ids(st, 0, m) for m in ("R1 R2 R3 R4 R5 R6 R7", "B9 K9 Y9", "R13 B13 K13 Y13")]
    st2, _ = apply(st, {"type": "lay", "seat": 0, "melds": melds})
    assert st2.opened[0] is None and len(st2.provisional) == 3
    over, _ = apply(st2, {"type": "discard", "seat": 0, "tile": tile(st, 0, "Y5")})
    assert over.result["ending"] == "direct"
    pts = {ln["seat"]: ln["points"] for ln in over.result["lines"]}
    assert pts == {0: -50, 1: 2000, 2: 2000, 3: 2000}


def test_d22_usable_discard_costs_100_times_pair_factor_and_returns():
    """[D22] seventeen: discarding a usable tile costs 100 × pair factor; it returns."""
    st = make_state(
        "seventeen",
        ["B4 K1 Y11", None, None, None],
        indicator="K4",
        melds=[{"owner": 1, "tiles": "B5 B6 B7"}, {"owner": 2, "tiles": "R8 R8"}],
        turn=0,
        phase="play",
    )
    b4 = tile(st, 0, "B4")
    st2, ev = apply(st, {"type": "discard", "seat": 0, "tile": b4})
    assert st2.hand_totals()[0] == 200  # one pairs opener: factor 2
    assert b4 in st2.racks[0] and st2.turn == 0 and st2.phase == "play"
    assert any(e["type"] == "discard_returned" for e in ev)
    st3, _ = apply(st2, {"type": "discard", "seat": 0, "tile": tile(st, 0, "K1")})
    assert st3.turn == 1 and st3.hand_totals()[0] == 200


def test_d23_seventeen_okey_layoffs_and_swaps_cost_plain_tiles_free():
    """[D23] seventeen: an okey onto a rival's meld or a rival's okey swapped out costs
    the owner 10 × its number × pair factor; a plain tile on a rival's meld is free."""
    st = make_state(
        "seventeen",
        ["B4 K5 R9 Y1 Y7", None, None, None],
        indicator="K4",  # okey K5
        melds=[
            {"owner": 0, "tiles": "Y4 Y5 Y6"},
            {"owner": 1, "tiles": "B5 B6 B7"},
            {"owner": 2, "tiles": "R8 K5 R10"},
        ],
        turn=0,
        phase="play",
    )
    plain, _ = apply(st, {"type": "add", "seat": 0, "tile": tile(st, 0, "B4"), "meld": 2})
    assert plain.hand_totals() == [0, 0, 0, 0]
    okey = tile(st, 0, "K5")
    given, _ = apply(st, {"type": "add", "seat": 0, "tile": okey, "meld": 2, "as": "B8"})
    assert given.hand_totals() == [0, 80, 0, 0]
    swapped, _ = apply(st, {"type": "swap", "seat": 0, "tile": tile(st, 0, "R9"), "meld": 3})
    assert swapped.hand_totals() == [0, 0, 90, 0]


def test_d24_rummy_dealer_may_show_before_the_first_discard():
    """[D24] rummy: the shower earns 1 before their first draw; the dealer (no draw)
    may show before the first discard."""
    st = make_state(
        "rummy", ["B4 R1", None, None, None], indicator="B4", turn=0, phase="play",
        turns_done=[0, 0, 0, 0],
    )  # fmt: skip
    # make_state put the indicator's first copy as indicator; the rack holds the twin
    twin = st.indicator ^ 1
    assert twin in st.racks[0]
    st2, _ = apply(st, {"type": "show", "seat": 0, "tile": twin})
    assert st2.hand_totals() == [1, 0, 0, 0]
    # a non-dealer must show before drawing
    nd = make_state(
        "rummy", [None, "B4 R1", None, None], indicator="B4", turn=1, phase="draw",
        turns_done=[1, 0, 0, 0],
    )  # fmt: skip
    twin = nd.indicator ^ 1
    after, _ = apply(nd, {"type": "draw", "seat": 1})
    assert refused(after, {"type": "show", "seat": 1, "tile": twin}) == "show_too_late"
    ok, _ = apply(nd, {"type": "show", "seat": 1, "tile": twin})
    assert ok.hand_totals() == [0, 1, 0, 0]
    assert refused(ok, {"type": "show", "seat": 1, "tile": twin}) == "already_shown"
