"""Turn mechanics: legal_actions completeness, timeout, arrange, take/undo details."""

from __future__ import annotations

import random

import pytest

from games.engine import Refusal, apply, legal_actions, new_hand, timeout_action
from games.engine.simulate import choose
from games.engine.testing import make_state

RACK_003 = "R3 R4 R5 R6 K9 B9 Y9 Y10 Y11 Y12 Y13 K6 K7 B5"


def _accepted(state, action) -> bool:
    try:
        apply(state, action)
    except Refusal:
        return False
    return True


@pytest.mark.parametrize("extra", ["R11", "K8", "R7", "Y8", "B5"])
def test_close_list_is_exactly_the_winning_choices(extra):
    st = make_state("rummy", [RACK_003 + " " + extra, None, None, None], indicator="B4",
                    turn=0, phase="play")  # fmt: skip
    listed = {a["tile"] for a in legal_actions(st, 0) if a["type"] == "close"}
    for t in st.racks[0]:
        assert _accepted(st, {"type": "close", "seat": 0, "tile": t}) == (t in listed), t
    assert listed


def test_legal_actions_for_other_seats_and_spectators():
    st = new_hand("seventeen", None, "others", 0)
    assert legal_actions(st, 2) == [
        {"type": "flip", "seat": 2, "tile": t} for t in st.racks[2] if st.is_okey(t)
    ]
    assert legal_actions(st, None) == []
    kinds = {a["type"] for a in legal_actions(st, 0)}
    assert "discard" in kinds and "draw" not in kinds


def test_every_discard_is_listed():
    st = new_hand("classic", None, "d", 0)
    listed = sorted(a["tile"] for a in legal_actions(st, 0) if a["type"] == "discard")
    assert listed == sorted(st.racks[0])


def test_arrange_reorders_the_rack_only():
    st = new_hand("rummy", {"players": 2}, "arr", 0)
    new_order = list(reversed(st.racks[1]))
    st2, _ = apply(st, {"type": "arrange", "seat": 1, "tiles": new_order})
    assert list(st2.racks[1]) == new_order and st2.turn == st.turn
    with pytest.raises(Refusal) as exc:
        apply(st, {"type": "arrange", "seat": 1, "tiles": new_order[:-1]})
    assert exc.value.code == "bad_arrangement"
    # [D8] the rightmost tile after an arrange
    st3, _ = apply(st, {"type": "arrange", "seat": 0, "tiles": list(reversed(st.racks[0]))})
    st4, _ = apply(st3, timeout_action(st3))
    assert st4.discards[0] == (st.racks[0][0],)


def test_timeout_with_a_pending_take_undoes_it_first():
    st = make_state(
        "fifty-one",
        ["B7 Y8 K1 K3 R5", None, None, None],
        indicator="R12",
        melds=[{"owner": 0, "tiles": "Y5 Y6 Y7"}],
        takeable="Y4",
        pile="K9",
        turn=0,
        phase="draw",
    )
    st2, _ = apply(st, {"type": "take", "seat": 0})
    st3, ev = apply(st2, timeout_action(st2))
    types = [e["type"] for e in ev]
    assert types[:3] == ["timed_out", "undone", "drew"]
    assert st3.discards[3][-1] == st2.taken  # the take went back
    assert st3.turn == 1 and st3.hand_totals() == [0, 0, 0, 0]


def test_timeout_after_a_draw_discards_the_drawn_tile():
    st = make_state("classic", [None, None, None, None], indicator="B4", pile="K8", turn=1)
    st2, _ = apply(st, {"type": "draw", "seat": 1})
    drawn = st2.drawn
    st3, _ = apply(st2, timeout_action(st2))
    assert st3.discards[1][-1] == drawn


def test_whole_rack_take_needs_no_use_while_the_pile_lasts():
    st = make_state("classic", [None, None, None, None], indicator="B4", takeable="K8",
                    turn=0, phase="draw")  # fmt: skip
    st2, _ = apply(st, {"type": "take", "seat": 0})
    assert st2.taken is None
    st3, _ = apply(st2, {"type": "discard", "seat": 0, "tile": st2.racks[0][0]})
    assert st3.turn == 1
    with pytest.raises(Refusal) as exc:
        apply(st2, {"type": "undo", "seat": 0})
    assert exc.value.code == "nothing_to_undo"


@pytest.mark.parametrize("variant", ["classic", "rummy", "fifty-one", "seventeen"])
def test_timeouts_alone_play_a_hand_to_an_exhausted_pile(variant):
    st = new_hand(variant, None, "clock", 0)
    n = 0
    while not st.over:
        st, _ = apply(st, timeout_action(st))
        n += 1
    assert timeout_action(st) is None
    assert st.result["ending"] in ("exhausted",) or st.result["finisher"] is not None
    assert n <= len(st.pile) + 200


def test_play_is_deterministic_for_a_seed():
    def run():
        rng = random.Random(3)
        s = new_hand("fifty-one", None, "det", 0)
        while not s.over:
            s, _ = apply(s, choose(s, rng))
        return s

    assert run() == run()


def test_opening_suggestion_after_a_take_holds_the_taken_tile():
    """After taking a discard, legal_actions offers an opening that uses it when one exists."""
    st = make_state(
        "fifty-one",
        ["R11 R12 R13 K11 K12 K13 Y4 Y6 B2 B9", None, None, None],
        indicator="B4",  # okey B5
        takeable="Y5",
        turn=0,
        phase="draw",
    )
    st2, _ = apply(st, {"type": "take", "seat": 0})
    opens = [a for a in legal_actions(st2, 0) if a["type"] == "open"]
    assert opens and all(any(st2.taken in m for m in a["melds"]) for a in opens)
    st3, _ = apply(st2, opens[0])
    assert st3.taken is None and st3.opened[0] == "melds" and st3.limit >= 51


def test_opening_around_a_tile_builds_melds_holding_it():
    from games.engine.actions import _opening_around
    from games.engine.rules import rules_for

    st = make_state(
        "fifty-one",
        ["R11 R12 R13 K11 K12 K13 Y4 B5 Y9 B2 Y5", None, None, None],
        indicator="B4",  # okey B5: Y4 okey Y5 … or Y4 Y5 okey
        turn=0,
        phase="play",
    )
    y5 = next(t for t in st.racks[0] if t // 2 == 13 + 4)  # Y5
    melds = _opening_around(st, 0, rules_for("fifty-one"), y5, 51)
    assert melds and any(y5 in m.tiles for m in melds)
    r = rules_for("fifty-one")
    assert sum(r.meld_value(m.kind, m.plays) for m in melds) >= 51
    assert _opening_around(st, 0, r, y5, 500) is None


def test_two_okeys_can_bridge_two_lonely_tiles_three_apart():
    """Regression: R7 okey okey R10 is a run; the close pre-check must not skip it."""
    st = make_state(
        "classic",
        ["R13 Y13 B13 B1 B2 B3 R7 Y12 Y12 R10 Y1 Y2 Y3 Y4 K11", None, None, None],
        indicator="Y11",  # okey Y12
        turn=0,
        phase="play",
    )
    k11 = [a["tile"] for a in legal_actions(st, 0) if a["type"] == "close"]
    assert k11 and all(t // 2 == 3 * 13 + 10 for t in k11)  # only K11 goes down
    over, _ = apply(st, {"type": "close", "seat": 0, "tile": k11[0]})
    assert over.result["ending"] == "close"


def test_events_name_public_facts_only():
    st = make_state("rummy", [RACK_003, None, None, None], indicator="B4", pile="R11",
                    takeable="K2", turn=0, phase="draw")  # fmt: skip
    _, ev = apply(st, {"type": "draw", "seat": 0})
    assert ev == [{"type": "drew", "seat": 0, "pile_count": len(st.pile) - 1}]
    took, ev = apply(st, {"type": "take", "seat": 0})
    assert ev == [{"type": "took", "seat": 0, "tile": st.takeable, "from": 3}]
    drew, _ = apply(st, {"type": "draw", "seat": 0})
    r11 = drew.drawn
    _, ev = apply(drew, {"type": "discard", "seat": 0, "tile": r11})
    assert ev == [{"type": "discarded", "seat": 0, "tile": r11}]
    _, ev = apply(drew, {"type": "close", "seat": 0, "tile": r11})
    assert [e["type"] for e in ev] == ["closed", "score", "hand_over"]
    assert ev[1] == {"type": "score", "seat": 0, "points": 3, "reason": "close", "detail": {}}
    assert ev[2]["result"]["ending"] == "close" and ev[2]["result"]["finisher"] == 0
