"""101 Okey (RULES.md §6, [D25]-[D37]): the deal, melds, the opening, taking the discard,
free lay-offs and swaps, the +101 penalties, every ending's score lines, result checks, a
replayed hand and bots playing whole hands.

Most situations are the worked example of §6: indicator R2, so both R3 are okeys and each
``F`` is a plain R3.
"""

from __future__ import annotations

import json

import pytest

from games.engine import Refusal, apply, legal_actions, new_hand, replay
from games.engine.actions import is_penalty_tile, penalty_tiles
from games.engine.bots import LEVELS, choose_action
from games.engine.bots.hint import hint
from games.engine.game import Game
from games.engine.rules import RULES, rules_for
from games.engine.rulesets.okey101 import ending_code
from games.engine.simulate import simulate
from games.engine.state import HandState
from games.engine.testing import ids, make_state, tile
from games.engine.tiles import N_TILES, kind_of
from games.tools.engine.arena import arena

V = "101"
IND = "R2"  # okey R3; F plays a plain R3

# seat 1 opened with runs and groups, keeps K5 Y9 F: Σ = 5 + 9 + 3 = 17
# seat 2 opened with pairs, keeps B2 K12 R3 (an okey): Σ = 2 + 12 + 101 = 115 [D34]
# seat 3 never opened
RIVALS = ["K5 Y9 F", "B2 K12 R3", "K7 K8 Y1 B6"]
RIVAL_MELDS = [{"owner": 1, "tiles": "R9 R10 R11"}, {"owner": 2, "tiles": "K4 K4"}]

OPENING_101 = "B10 B11 B12 B13 K11 Y11 R3 Y4 Y5 Y6 Y7"  # 46 + 33 + 22 = 101


def refused(state, action) -> str:
    with pytest.raises(Refusal) as exc:
        apply(state, action)
    return exc.value.code


def points(state) -> dict[int, int]:
    return {ln["seat"]: ln["points"] for ln in state.result["lines"]}


def reasons(state) -> dict[int, str]:
    return {ln["seat"]: ln["reason"] for ln in state.result["lines"]}


def discard(state, seat: int, word: str):
    return apply(state, {"type": "discard", "seat": seat, "tile": tile(state, seat, word)})


def open_action(state, seat: int, *melds: str, kind: str = "open", **extra) -> dict:
    """An open (or lay) action of the named melds from ``seat``'s rack."""
    flat = ids(state, seat, " ".join(melds))
    out, i = [], 0
    for m in melds:
        n = len(m.split())
        out.append(flat[i : i + n])
        i += n
    return {"type": kind, "seat": seat, "melds": out, **extra}


def finish_state(last: str, opener: str = "melds", **kw):
    """Seat 0 has opened and holds ``last``: discarding it finishes the hand."""
    own = {"owner": 0, "tiles": "B11 B12 B13" if opener == "melds" else "Y8 Y8"}
    return make_state(
        V,
        [last, *RIVALS],
        indicator=IND,
        melds=[own, *RIVAL_MELDS],
        **{"turn": 0, "phase": "play", **kw},
    )


# ------------------------------------------------------------------ the rule set


def test_101_is_a_registered_rule_set_with_its_table_options():
    """The registry finds the module; options per §6: partners off [D36], 1-11 hands
    (3 by default), clock off/15/30/60 (off by default), assisted."""
    r = rules_for(V)
    assert list(RULES)[-1] == V and r.label == "101 Okey" and not r.whole_rack
    assert r.options["players"] == ((4,), 4)
    assert r.options["partners"] == ((False, True), False)
    assert r.options["hands"] == ((1, 3, 5, 7, 9, 11), 3)
    assert r.options["clock"] == ((0, 15, 30, 60), 0)
    assert "assisted" in r.options
    assert not r.higher_wins and not r.records and r.seed == ""
    opts = new_hand(V).options
    assert r.game_hands(opts) == r.max_hands(opts) == 3
    assert r.teams(opts) is None and not r.humans_opposite(opts)
    partners = {**opts, "partners": True}
    assert r.teams(partners) == [[0, 2], [1, 3]] and r.humans_opposite(partners)
    assert r.clock_timeout_action(new_hand(V)) is None  # the seat's CPU plays the turn
    hint, values = r.score_hint({**opts, "hands": 5})
    assert "%(n)s" in hint and values == {"n": 5}
    # the CPU does not inherit fifty-one's lay-off charge: lay-offs are free here [D31]
    assert not r.cpu_lays_off_on_rivals_first and r.cpu_sheds_high_tiles


def test_d25_the_deal_gives_21_tiles_the_starter_22_and_leaves_20_in_the_pile():
    for starter in range(4):
        st = new_hand(V, None, f"deal-{starter}", starter)
        assert [len(r) for r in st.racks] == [22 if s == starter else 21 for s in range(4)]
        assert len(st.pile) == 20 and kind_of(st.indicator) != 52  # never a false joker
        assert sorted(st.all_tiles()) == list(range(N_TILES))
        # the starter's first turn is a discard without a draw
        assert st.turn == starter and st.phase == "play"
        assert {a["type"] for a in legal_actions(st, starter)} >= {"discard"}
        assert "draw" not in {a["type"] for a in legal_actions(st, starter)}


def test_a_game_has_the_hands_option_and_the_starter_moves_each_hand():
    g = Game(V, {"hands": 1})
    st = g.new_hand("g1")
    assert st.starter == 0 and len(st.racks[0]) == 22
    assert rules_for(V).game_over([0] * 4, 1, g.options)


# ------------------------------------------------------------------------ melds


@pytest.mark.parametrize("run", ["R12 R13 R1", "K13 K1 K2"])
def test_1_is_low_only_12_13_1_and_13_1_2_are_refused(run):
    st = make_state(V, [f"{run} Y5 Y9", None, None, None], indicator=IND, turn=0, phase="play")
    assert refused(st, open_action(st, 0, run)) == "not_a_meld"


def test_1_2_3_is_a_run_and_counts_6():
    st = make_state(
        V, [f"B1 B2 B3 {OPENING_101} K9", None, None, None], indicator=IND, turn=0, phase="play"
    )
    act = open_action(st, 0, "B1 B2 B3", "B10 B11 B12 B13", "K11 Y11 R3", "Y4 Y5 Y6 Y7")
    after, ev = apply(st, act)
    assert after.opened[0] == "melds"
    assert next(e for e in ev if e["type"] == "opened")["total"] == 6 + 101


# ---------------------------------------------------------------------- opening

# 21 tiles to open from: OPENING_101 and K6 K7 K8 (21), a false joker run F R4 R5 (12),
# and two loose tiles
OPEN_RACK = f"{OPENING_101} K6 K7 K8 F R4 R5 K1 Y9"


def opening_state(rack: str = OPEN_RACK, **kw):
    return make_state(V, [rack, None, None, None], indicator=IND, turn=0, phase="play", **kw)


def test_d29_an_opening_of_100_is_refused_and_nothing_changes():
    st = opening_state()
    with pytest.raises(Refusal) as exc:
        apply(st, open_action(st, 0, "B10 B11 B12 B13", "K11 Y11 R3", "K6 K7 K8"))
    assert exc.value.code == "below_opening_limit"
    assert exc.value.detail == {"total": 100, "need": 101}  # no 101 penalty: no line at all
    assert st.opened[0] is None and st.melds == () and st.scores == ()


def test_d28_an_opening_of_101_opens_the_okey_counting_the_tile_it_stands_for():
    """The worked example: B10-B13 (46) + K11 Y11 okey (33) + Y4-Y7 (22) = 101."""
    st = opening_state()
    after, ev = apply(st, open_action(st, 0, "B10 B11 B12 B13", "K11 Y11 R3", "Y4 Y5 Y6 Y7"))
    assert after.opened[0] == "melds"
    assert next(e for e in ev if e["type"] == "opened")["total"] == 101
    assert after.limit is None  # [D28] no doubling: the next opener needs 101 too
    assert rules_for(V).opening_min(after, "melds") == 101


def test_an_okey_at_a_run_end_counts_what_it_plays_and_a_false_joker_its_identity():
    st = opening_state()
    # F R4 R5 is a plain R3 R4 R5 (12): 46 + 22 + 21 + 12 = 101
    act = open_action(st, 0, "B10 B11 B12 B13", "Y4 Y5 Y6 Y7", "K6 K7 K8", "F R4 R5")
    _, ev = apply(st, act)
    assert next(e for e in ev if e["type"] == "opened")["total"] == 101
    # the okey played as B9 counts 9: 9 + 46 + 22 + 21 = 98, short of 101
    act = open_action(st, 0, "R3 B10 B11 B12 B13", "Y4 Y5 Y6 Y7", "K6 K7 K8")
    act["assign"] = {str(act["melds"][0][0]): "B9"}
    with pytest.raises(Refusal) as exc:
        apply(st, act)
    assert exc.value.detail["total"] == 98


PAIRS_RACK = "R4 R4 K9 K9 B1 B1 Y13 Y13 K2 R3 Y5 B7"


def test_five_pairs_open_whatever_their_values_an_okey_completing_one():
    st = opening_state(PAIRS_RACK)
    act = open_action(st, 0, "R4 R4", "K9 K9", "B1 B1", "Y13 Y13", "K2 R3")
    after, _ = apply(st, act)
    assert after.opened[0] == "pairs" and len(after.racks[0]) == 2


def test_four_pairs_are_refused_and_pairs_never_mix_with_runs():
    st = opening_state(PAIRS_RACK + " Y6 Y7")
    with pytest.raises(Refusal) as exc:
        apply(st, open_action(st, 0, "R4 R4", "K9 K9", "B1 B1", "Y13 Y13"))
    assert exc.value.code == "too_few_pairs" and exc.value.detail == {"need": 5, "have": 4}
    mixed = open_action(st, 0, "R4 R4", "K9 K9", "B1 B1", "Y13 Y13", "K2 R3", "Y5 Y6 Y7")
    assert refused(st, mixed) == "mixed_opening"


# ------------------------------------------------------------ taking the discard


def took_before_opening():
    st = make_state(
        V,
        ["B10 B11 B12 K11 Y11 R3 Y4 Y5 Y6 Y7 K6 K7 K8 K1 Y9", None, None, None],
        indicator=IND,
        takeable="B13",
        turn=0,
        phase="draw",
    )
    taken, _ = apply(st, {"type": "take", "seat": 0})
    return st, taken


def test_d30_a_discard_taken_before_opening_must_be_used_or_the_take_undone():
    st, taken = took_before_opening()
    assert taken.scores == ()  # taking costs the discarder nothing
    types = {a["type"] for a in legal_actions(taken, 0)}
    assert "undo" in types and "discard" not in types
    assert refused(taken, {"type": "discard", "seat": 0, "tile": tile(taken, 0, "K1")}) == (
        "must_use_taken_discard"
    )
    back, _ = apply(taken, {"type": "undo", "seat": 0})  # D12, no penalty
    assert back.phase == "draw" and back.undone and back.scores == ()
    assert back.racks == st.racks and back.discards == st.discards
    assert refused(back, {"type": "take", "seat": 0}) == "take_after_undo"


def test_d30_before_opening_the_taken_discard_goes_into_the_opening_itself():
    _, taken = took_before_opening()
    # 33 + 33 + 22 + 21 = 109 without the taken B13: refused, it must be in the opening
    without = open_action(taken, 0, "B10 B11 B12", "K11 Y11 R3", "Y4 Y5 Y6 Y7", "K6 K7 K8")
    assert refused(taken, without) == "must_use_taken_discard"
    # with it, but short of 101: refused
    short = open_action(taken, 0, "B10 B11 B12 B13", "K11 Y11 R3")
    assert refused(taken, short) == "below_opening_limit"
    opened, _ = apply(taken, open_action(taken, 0, "B10 B11 B12 B13", "K11 Y11 R3", "Y4 Y5 Y6 Y7"))
    assert opened.taken is None
    done, _ = discard(opened, 0, "K1")
    assert done.turn == 1 and done.hand_totals() == [0, 0, 0, 0]


def took_after_opening(rack: str, takeable: str, opener: str = "melds"):
    st = finish_state(rack, opener=opener, takeable=takeable, phase="draw")
    taken, _ = apply(st, {"type": "take", "seat": 0})
    return taken


def test_d30_after_opening_the_taken_discard_may_go_into_a_new_meld():
    taken = took_after_opening("Y4 Y5 K1 K2", "Y6")
    laid, _ = apply(taken, open_action(taken, 0, "Y4 Y5 Y6", kind="lay"))
    assert laid.taken is None and laid.scores == ()
    assert any(a["type"] == "discard" for a in legal_actions(laid, 0))


def test_d30_after_opening_the_taken_discard_may_be_added_to_a_table_meld():
    taken = took_after_opening("K1 K2", "B10")
    t = tile(taken, 0, "B10")
    added, _ = apply(taken, {"type": "add", "seat": 0, "tile": t, "meld": 1})
    assert added.taken is None and added.scores == ()


def test_d30_d31_a_pairs_opener_may_use_a_taken_discard_in_a_new_pair():
    taken = took_after_opening("Y4 K1 K2", "Y4", opener="pairs")
    laid, _ = apply(taken, open_action(taken, 0, "Y4 Y4", kind="lay"))
    assert laid.taken is None


# ------------------------------------------------------- after opening [D31]


def test_d31_adding_to_a_rivals_meld_is_free():
    st = finish_state("R12 K1 K2")
    after, _ = apply(st, {"type": "add", "seat": 0, "tile": tile(st, 0, "R12"), "meld": 2})
    assert after.scores == () and len(after.meld_by_id(2).tiles) == 4


def test_d31_swapping_an_okey_out_of_a_rivals_meld_is_free():
    st = make_state(
        V,
        ["B11 K1 K2", None, None, None],
        indicator=IND,
        melds=[
            {"owner": 0, "tiles": "Y1 Y2 Y3"},
            {"owner": 1, "tiles": "K11 Y11 R3", "plays": "K11 Y11 B11"},
        ],
        turn=0,
        phase="play",
    )
    after, _ = apply(st, {"type": "swap", "seat": 0, "tile": tile(st, 0, "B11"), "meld": 2})
    assert after.scores == ()
    assert any(after.is_okey(t) for t in after.racks[0])


def test_only_an_opened_player_adds_to_melds():
    st = make_state(
        V, ["R12 K1 K2", None, None, None], indicator=IND, melds=RIVAL_MELDS, turn=0,
        phase="play", opened=[None, "melds", "pairs", None],
    )  # fmt: skip
    assert refused(st, {"type": "add", "seat": 0, "tile": tile(st, 0, "R12"), "meld": 1}) == (
        "not_opened"
    )


def test_d31_a_pairs_opener_adds_single_tiles_but_lays_no_runs():
    st = finish_state("R12 K1 K2 K3 Y5", opener="pairs")
    after, _ = apply(st, {"type": "add", "seat": 0, "tile": tile(st, 0, "R12"), "meld": 2})
    assert after.scores == ()
    assert refused(st, open_action(st, 0, "K1 K2 K3", kind="lay")) == "wrong_meld_type"


def test_a_runs_and_groups_opener_lays_no_pairs():
    st = finish_state("Y5 Y5 K1")
    assert refused(st, open_action(st, 0, "Y5 Y5", kind="lay")) == "wrong_meld_type"


# ------------------------------------------------------------ penalties [D32]


def test_d32_an_islek_discard_costs_101_also_to_a_player_who_never_opened():
    st = make_state(
        V, ["R12 K1 K2", None, None, None], indicator=IND, melds=RIVAL_MELDS, turn=0,
        phase="play",
    )  # fmt: skip
    assert st.opened[0] is None
    after, _ = discard(st, 0, "R12")  # R12 extends seat 1's R9 R10 R11
    assert [(ln["seat"], ln["points"], ln["reason"]) for ln in after.scores] == [
        (0, 101, "penalty_tile")
    ]
    # the discard goes through: on the discards, not back in the rack; the turn passes
    assert after.discards[0][-1] == tile(st, 0, "R12") and after.turn == 1
    assert len(after.racks[0]) == 2


@pytest.mark.parametrize(
    ("table", "word"),
    [
        ({"owner": 1, "tiles": "R9 R10 R11"}, "R8"),  # the low end of a run
        ({"owner": 1, "tiles": "K7 Y7 B7"}, "R7"),  # the missing colour of a group of three
        ({"owner": 1, "tiles": "K11 Y11 R3", "plays": "K11 Y11 B11"}, "B11"),  # the okey's tile
    ],
)
def test_d32_a_tile_that_fits_a_table_meld_costs_its_opened_discarder_101(table, word):
    st = make_state(
        V, [f"{word} K1 K2", None, None, None], indicator=IND,
        melds=[{"owner": 0, "tiles": "Y1 Y2 Y3"}, table], turn=0, phase="play",
    )  # fmt: skip
    after, _ = discard(st, 0, word)
    assert after.hand_totals() == [101, 0, 0, 0]


def test_a_tile_that_fits_nothing_costs_nothing_and_13_takes_no_1_after_it():
    st = make_state(
        V, ["K1 Y9 B5", None, None, None], indicator=IND,
        melds=[{"owner": 1, "tiles": "K11 K12 K13"}], turn=0, phase="play",
    )  # fmt: skip
    after, _ = discard(st, 0, "K1")  # 1 is low only: K13 is a run's top
    assert after.scores == ()


@pytest.mark.parametrize("melds", [[], RIVAL_MELDS])
def test_d32_d37_an_okey_discard_costs_101_once_and_goes_through(melds):
    """With no meld on the table, and where the okey fits everywhere: one 101 [D37]."""
    st = make_state(
        V, ["R3 K1 K2", None, None, None], indicator=IND, melds=melds, turn=0, phase="play"
    )
    after, _ = discard(st, 0, "R3")
    assert [(ln["points"], ln["reason"]) for ln in after.scores] == [(101, "okey_discarded")]
    assert after.is_okey(after.discards[0][-1]) and after.turn == 1


def test_d32_an_okey_and_an_islek_tile_are_marked_as_penalised_discards():
    """What the assisted table marks and the CPU avoids: an okey even with no meld on the
    table, a tile that fits a table meld; nothing else."""
    st = make_state(V, ["R3 K1 K2", None, None, None], indicator=IND, turn=0, phase="play")
    okey, k1 = tile(st, 0, "R3"), tile(st, 0, "K1")
    assert is_penalty_tile(st, okey) and not is_penalty_tile(st, k1)
    assert penalty_tiles(st, st.racks[0]) == {okey}
    st = finish_state("R12 K1 K2")
    assert penalty_tiles(st, st.racks[0]) == {tile(st, 0, "R12")}


def test_d32_the_finishing_discard_is_exempt():
    st = finish_state("R12")  # R12 fits seat 1's run, but it finishes the hand
    over, _ = discard(st, 0, "R12")
    assert over.over and not [ln for ln in over.scores if ln["reason"] == "penalty_tile"]
    assert points(over)[0] == -101
    st = finish_state("R3")  # an okey as the last discard doubles the ending instead
    over, _ = discard(st, 0, "R3")
    assert not [ln for ln in over.scores if ln["reason"] == "okey_discarded"]


# ------------------------------------------------------------ endings and scores


def test_normal_finish_scores_the_worked_example():
    """m = 1: finisher −101; opened rival Σ = 17; a pairs opener 115 × 2 (the okey left
    counts 101, [D34]); never opened 202."""
    over, _ = discard(finish_state("Y13"), 0, "Y13")
    assert over.result["ending"] == "hand" and over.result["finisher"] == 0
    assert points(over) == {0: -101, 1: 17, 2: 230, 3: 202}
    assert reasons(over) == {0: "finished", 1: "tiles_left", 2: "tiles_left", 3: "not_opened"}
    line2 = next(ln for ln in over.result["lines"] if ln["seat"] == 2)
    assert {k: line2["detail"][k] for k in ("sum", "okeys_left", "multiplier")} == {
        "sum": 115,
        "okeys_left": 1,
        "multiplier": 2,
    }


def test_okey_finish_doubles_everything():
    over, _ = discard(finish_state("R3"), 0, "R3")
    assert over.result["ending"] == "okey"
    assert points(over) == {0: -202, 1: 34, 2: 460, 3: 404}


def test_pairs_finish_doubles_and_with_an_okey_doubles_again():
    over, _ = discard(finish_state("Y13", opener="pairs"), 0, "Y13")
    assert over.result["ending"] == "pairs"
    assert points(over) == {0: -202, 1: 34, 2: 460, 3: 404}
    over, _ = discard(finish_state("R3", opener="pairs"), 0, "R3")
    assert over.result["ending"] == "pairs_okey"
    assert points(over) == {0: -404, 1: 68, 2: 920, 3: 808}


def elden(last: str, melds: list[dict] | None = None):
    st = make_state(
        V, [f"{OPENING_101} {last}", "K5 Y9 F", None, None], indicator=IND, melds=melds,
        turn=0, phase="play",
    )  # fmt: skip
    opened, _ = apply(st, open_action(st, 0, "B10 B11 B12 B13", "K11 Y11 R3", "Y4 Y5 Y6 Y7"))
    over, _ = discard(opened, 0, last)
    return over


def test_d33_elden_opening_and_finishing_in_one_turn_while_nobody_else_opened():
    over = elden("K1")
    assert over.result["ending"] == "direct"
    assert points(over) == {0: -202, 1: 404, 2: 404, 3: 404}


def test_d33_elden_with_an_okey_as_the_last_discard_is_times_four():
    over = elden("R3")
    assert over.result["ending"] == "direct_okey"
    assert points(over) == {0: -404, 1: 808, 2: 808, 3: 808}


def test_d33_not_elden_when_someone_else_has_opened():
    over = elden("K1", melds=[{"owner": 1, "tiles": "R9 R10 R11"}])
    assert over.result["ending"] == "hand"
    assert points(over) == {0: -101, 1: 17, 2: 202, 3: 202}


def test_d36_partners_the_finishers_partner_pays_nothing():
    over, _ = discard(finish_state("Y13", options={"partners": True}), 0, "Y13")
    assert points(over) == {0: -101, 1: 17, 2: 0, 3: 202}
    assert reasons(over)[2] == "partner_finished"
    over, _ = discard(finish_state("R3", options={"partners": True}), 0, "R3")
    assert points(over) == {0: -202, 1: 34, 2: 0, 3: 404}
    g = Game(V, {"partners": True})
    g.record_hand(over)
    assert g.rules.teams(g.options) == [[0, 2], [1, 3]]


def test_d35_an_exhausted_pile_no_finisher_and_the_penalties_stay():
    st = finish_state("R12 K1 K2", rest="discards")
    assert st.pile == ()
    played, _ = discard(st, 0, "R12")  # işlek: +101 [D32]
    over, _ = apply(played, {"type": "draw", "seat": 1})
    assert over.result["ending"] == "exhausted" and over.result["finisher"] is None
    assert points(over) == {0: 3, 1: 17, 2: 230, 3: 202}  # opened Σ, pairs Σ × 2, unopened 202
    assert over.hand_totals() == [101 + 3, 17, 230, 202]


def test_every_ending_code_has_a_text():
    """The shared texts (games/live/messages.py ENDINGS) or the rule set's own."""
    shared = {"hand", "okey", "pairs", "direct", "direct_okey", "exhausted"}
    own = rules_for(V).ending_labels
    for elden_ in (False, True):
        for pairs in (False, True):
            for okey in (False, True):
                code = ending_code(elden_, pairs, okey)
                assert code in shared or "%(name)s" in own[code], code
    assert "okey_discarded" in rules_for(V).reason_labels


# ------------------------------------------------------------ result entry


@pytest.mark.parametrize(
    ("options", "scores", "codes"),
    [
        ({"hands": 3}, [-303, 118, 230, 202], []),
        ({"hands": 3}, [-404 * 3, 404 * 3, 404 * 3, 404 * 3], []),  # three elden okey finishes
        ({"hands": 3}, [-404 * 3 - 1, 3000, 3000, 3000], ["out_of_range"]),
        ({"hands": 3}, [-1, -2, -3, -4], ["too_many_finishers"]),
        ({"hands": 1}, [-404, 4, 4, 4], []),  # a pairs finish with an okey, one tile each
        ({"hands": 1}, [-404, 3, 4, 4], ["impossible_total"]),
        ({"hands": 1, "partners": True}, [-404, 4, 0, 4], []),
        ({"hands": 1, "partners": True}, [-404, 3, 0, 4], ["impossible_total"]),
    ],
)
def test_result_problems_refuse_only_what_the_scoring_makes_impossible(options, scores, codes):
    r = rules_for(V)
    opts = new_hand(V, options).options
    assert [p.code for p in r.result_problems(opts, scores)] == codes
    for code in codes:
        assert code in r.problem_texts or code == "too_many_finishers"


# ------------------------------------------------------------ whole hands


def _key(a: dict) -> str:
    return json.dumps(a, sort_keys=True)


def play_checked(levels: list[str], seed: str, starter: int = 0, options: dict | None = None):
    """A whole hand of bots; every action is one of the seat's legal actions and applies."""
    state = new_hand(V, options, seed, starter)
    for _ in range(3000):
        if state.over:
            return state
        seat = state.turn
        action = choose_action(state, seat, levels[seat])
        assert _key(action) in {_key(a) for a in legal_actions(state, seat)}, action
        state, _ = apply(state, action)  # raises Refusal if the engine refuses
    raise AssertionError("the hand did not end")


@pytest.mark.parametrize("level", LEVELS)
def test_bots_of_every_level_play_whole_hands_without_a_refusal(level):
    for i in range(3):
        state = play_checked([level] * 4, f"101-{level}-{i}", i % 4)
        assert state.over and sorted(state.all_tiles()) == list(range(N_TILES))


def test_mixed_bots_play_a_partners_hand():
    state = play_checked(
        ["hard", "easy", "medium", "random"], "101-partners", 1, {"partners": True}
    )
    assert state.over


def test_a_whole_hand_replays_from_its_seed_and_actions():
    state = play_checked(["hard", "medium", "hard", "medium"], "101-replay", 2)
    rebuilt = replay(json.loads(json.dumps(state.record())))
    assert rebuilt == state and rebuilt.result == state.result
    assert HandState.from_json(json.dumps(state.to_json())) == state


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_d30_bots_do_not_take_a_discard_they_cannot_open_with_and_give_one_back(level):
    """R13 fits no opening of this rack: the CPU draws; made to take it, it undoes."""
    st = make_state(
        V,
        ["B10 B11 B12 K11 Y11 R3 Y4 Y5 Y6 Y7 K6 K7 K8 K1 Y9", None, None, None],
        indicator=IND,
        takeable="R13",
        turn=0,
        phase="draw",
    )
    assert choose_action(st, 0, level)["type"] == "draw"
    taken, _ = apply(st, {"type": "take", "seat": 0})
    assert choose_action(taken, 0, level)["type"] == "undo"


def test_show_me_recommends_a_legal_action_all_through_a_hand():
    state = new_hand(V, None, "101-hint", 3)
    while not state.over:
        seat = state.turn
        h = hint(state, seat)
        assert _key(h["action"]) in {_key(a) for a in legal_actions(state, seat)}
        state, _ = apply(state, h["action"])


def test_simulate_finishes_every_hand():
    rep = simulate(V, 8, "t101", {"partners": True})
    assert rep["finished"] == 8 and "unfinished" not in rep["endings"]


def test_the_arena_plays_101():
    rep = arena(V, "hard", "random", 1, "t101")
    assert rep["variant"] == V and rep["higher_is_better"] is False
