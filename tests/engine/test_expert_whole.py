"""The expert's whole-rack play (games/engine/bots/expert_whole.py): classic and rummy,
where a close pays more with the okey put down (RULES.md §2, §3) and a taken discard
often closes (RULES.md §1, a turn)."""

from __future__ import annotations

import random

import pytest

from games.engine import apply, legal_actions
from games.engine.bots import core, decide, expert
from games.engine.bots import expert_whole as ew
from games.engine.bots.hint import hint
from games.engine.state import new_hand
from games.engine.testing import make_state, tile
from games.engine.tiles import kind_of, notation
from games.engine.view import view_for

# Indicator K1: both K2 are okeys. The 14 tiles R1 R2 R3 | Y10 Y11 Y12 Y13 | B9 B10 B11 K2 |
# R5 K5 K2 are winning with both okeys (one plays B8 or B12, the other Y5 or B5), and K13 is
# loose. A drawn B8, B12, Y5 or B5 (8 tiles unseen) frees an okey.
READY = "R1 R2 R3 Y10 Y11 Y12 Y13 B9 B10 B11 K2 R5 K5 K2"


def _decide(state, seat: int, level: str) -> dict:
    return decide(view_for(state, seat), legal_actions(state, seat), level)


def _early(variant: str):
    """The starter's second turn: most of the pile still to come."""
    return make_state(variant, [READY + " K13", None, None, None], indicator="K1")


def _late(variant: str):
    """Deep in the hand: eight tiles left in the pile, the others among the discards."""
    return make_state(
        variant,
        [READY + " K13", None, None, None],
        indicator="K1",
        pile="R13 Y13 B13 R12 Y12 R11 Y11 Y10",
        rest="discards",
    )


@pytest.mark.parametrize("variant", ["classic", "rummy"])
def test_early_in_the_hand_the_expert_keeps_the_rack_for_the_okey_close(variant):
    """Complete with two okeys early in the hand: hard closes at once for the plain
    close (2 in classic, 3 in rummy); the expert discards the loose K13 and keeps the
    winning 14, since a drawn or taken B8, B12, Y5 or B5 frees an okey for a close
    that pays double and a rival is unlikely to close within a round."""
    st = _early(variant)
    assert _decide(st, 0, "hard")["type"] == "close"
    act = _decide(st, 0, "expert")
    assert act == {"type": "discard", "seat": 0, "tile": tile(st, 0, "K13")}
    h = hint(st, 0)
    assert h["action"] == act and h["reason"] == "okey_wait"


@pytest.mark.parametrize("variant", ["classic", "rummy"])
def test_late_in_the_hand_the_expert_closes_at_once(variant):
    """The same rack with eight tiles left in the pile: a rival is likely to close
    first, so the expert closes now like hard."""
    st = _late(variant)
    act = _decide(st, 0, "expert")
    assert act["type"] == "close" and act == _decide(st, 0, "hard")


def _waiting(takeable: str):
    """The expert kept READY (14 tiles, its turn to draw); the previous player has
    just discarded ``takeable``."""
    return make_state("classic", [READY, None, None, None], indicator="K1",
                      takeable=takeable, phase="draw")  # fmt: skip


def test_waiting_the_expert_takes_a_tile_that_frees_an_okey_and_closes_with_it():
    st = _waiting("B12")
    act = _decide(st, 0, "expert")
    assert act["type"] == "take"
    st, _ = apply(st, act)
    close = _decide(st, 0, "expert")
    assert close["type"] == "close" and kind_of(close["tile"]) == st.okey_kind
    st, _ = apply(st, close)
    assert st.result["ending"] == "okey_close"
    assert [line["points"] for line in st.result["lines"]] == [-4, -4, -4]


def test_waiting_the_expert_draws_rather_than_take_a_tile_that_only_closes_plainly():
    """Hard takes any discard that lets it close; the waiting expert draws instead
    (the drawn tile may free the okey, and the plain close stays there)."""
    st = _waiting("R13")
    assert _decide(st, 0, "hard")["type"] == "take"
    assert _decide(st, 0, "expert")["type"] == "draw"


def _replayed(variant: str, seed: str, actions: int):
    """The hand of ``seed`` after ``actions`` moves of hard CPUs in every seat."""
    st = new_hand(variant, None, seed, 0)
    for _ in range(actions):
        st, _ = apply(st, _decide(st, st.turn, "hard"))
    return st


def _closes_over_next_turns(state, seat: int, discard: int, futures: int = 3000) -> float:
    """What keeping the rack without ``discard`` earns over the seat's next four turns,
    estimated on many futures sampled from the tiles the seat cannot see (a seeded
    generator of its own, not the expert's)."""
    view = view_for(state, seat)
    ctx = core.Context(view, legal_actions(state, seat))
    ctx._seen = expert.unseen(view, ctx)
    ctx.route = core.plan_route(ctx)
    rng = random.Random("independent")
    round_no, _left, _n = ew._stage(ctx)
    surv, s = [], 1.0
    for r in range(4):
        s *= (1 - ew.hazard(round_no + r)) ** (ctx.n - 1)
        surv.append(s)
    pool = ew._pool(ctx.unseen())
    fut = []
    for _ in range(futures):
        d = rng.sample(pool, 8)
        fut.append([(d[2 * i], d[2 * i + 1]) for i in range(4)])
    V = core.pack(ctx.rack, ctx.okey) - core._INC[ctx.okey][discard]
    return ew._simulate(ctx, V, fut, surv, ew.close_values(ctx))


def test_near_complete_the_expert_keeps_the_rack_that_closes_more_over_the_next_turns():
    """Seed ``w2-find-5``, 57 moves in, seat 0 (the okey K9): discarding R2 or R11
    leaves one loose tile either way. Hard throws R2 (its one-draw count of improving
    tiles); the expert plays its sampled next turns (draws and the previous player's
    discards) and throws R11, whose rack closes clearly more often before a rival does:
    on 3,000 other futures it earns about half as much again."""
    st = _replayed("classic", "w2-find-5", 57)
    seat = st.turn
    hard = _decide(st, seat, "hard")
    act = _decide(st, seat, "expert")
    assert (notation(hard["tile"]), notation(act["tile"])) == ("R2", "R11")
    mine = _closes_over_next_turns(st, seat, act["tile"])
    theirs = _closes_over_next_turns(st, seat, hard["tile"])
    assert mine > 1.3 * theirs
    h = hint(st, seat)
    assert h["action"] == act and h["reason"] == "closes_more"
    assert h["detail"]["avoid"] == "R2"


def test_early_in_the_hand_the_expert_discards_like_hard_when_nothing_is_one_tile_away():
    """The same rack with the pile full and no tile taken: nobody is near closing, so
    the danger is small and the expert keeps hard's discard."""
    st = make_state(
        "classic",
        ["R1 R2 R3 Y7 Y8 Y9 B7 B8 B9 R5 Y11 B1 K3 K8 K12", None, None, None],
        indicator="K1",
    )
    assert _decide(st, 0, "expert") == _decide(st, 0, "hard")


def test_the_new_reasons_are_worded_with_their_tiles():
    from django.utils import translation

    from games import messages

    with translation.override("en"):
        text = messages.hint_text("discard_guard", {"tile": "K3", "avoid": "Y11"})
        assert text.startswith("Discard black 3, not yellow 11:")
        text = messages.hint_text("closes_more", {"tile": "R11", "avoid": "R2"})
        assert text.startswith("Discard red 11, not red 2: played out over your next turns")
        text = messages.hint_text("okey_wait", {"tile": "K13"})
        assert text.startswith("Discard black 13 and keep your winning rack")
        # without the tile kept back it reads as a plain discard
        plain = messages.hint_text("discard_loose", {"tile": "K3", "leftover": 5})
        assert messages.hint_text("discard_guard", {"tile": "K3", "leftover": 5}) == plain


# ------------------------------------------------------------- the look-ahead


def _ctx(state, seat: int = 0):
    from games.engine.bots import core, expert

    view = view_for(state, seat)
    ctx = core.Context(view, legal_actions(state, seat))
    ctx._seen = expert.unseen(view, ctx)
    ctx.route = core.plan_route(ctx)
    return ctx


@pytest.mark.parametrize(
    ("variant", "pays"),
    [("classic", {"close": 2, "okey": 4, "pairs": 4, "both": 8}),
     ("rummy", {"close": 3, "okey": 6, "pairs": 6, "both": 6})],
)  # fmt: skip
def test_the_look_ahead_counts_each_close_at_what_the_rule_set_pays(variant, pays):
    """RULES.md §2 (classic: each other player loses 2, 4 for an okey close or seven
    pairs, 8 for both) and §3 (rummy: the closer scores 3, or 6): a close found in a
    sampled future is worth the closer's edge over the average rival."""
    from games.engine.bots import core
    from games.engine.bots.expert_whole import _close_pay, close_values

    # indicator K1: K2 is the okey
    racks = {
        "close": "R1 R2 R3 R4 Y4 Y5 Y6 B7 B8 B9 K10 K11 K12 K13 Y13",
        "okey": "R1 R2 R3 R4 Y4 Y5 Y6 B7 B8 B9 K10 K11 K12 K13 K2",
        "pairs": "R1 R1 R3 R3 Y4 Y4 B7 B7 B9 B9 K10 K10 R13 R13 Y8",
        "both": "R1 R1 R3 R3 Y4 Y4 B7 B7 B9 B9 K10 K10 R13 R13 K2",
    }
    for ending, rack in racks.items():
        st = make_state(variant, [rack, None, None, None], indicator="K1")
        ctx = _ctx(st)
        V = core.pack(ctx.rack, ctx.okey)
        assert _close_pay(ctx, V, close_values(ctx)) == pays[ending], ending
    # five melds of three: every tile is in a meld, and none can go as the 15th tile
    # without breaking one (RULES.md §2: the 14 tiles kept must be in melds)
    st = make_state(
        variant, ["R1 R2 R3 Y4 Y5 Y6 B7 B8 B9 K10 K11 K12 R13 Y13 B13", None, None, None],
        indicator="K1",
    )  # fmt: skip
    ctx = _ctx(st)
    assert _close_pay(ctx, core.pack(ctx.rack, ctx.okey), close_values(ctx)) == 0.0


@pytest.mark.parametrize("variant", ["classic", "rummy"])
def test_every_expert_decision_is_one_of_the_legal_actions(variant):
    """Whole hands between expert seats: every action the expert returns is exactly one
    of ``legal_actions`` (the engine accepts it), and the hand ends."""
    from games.engine.state import new_hand

    for seed in ("w2-legal-1", "w2-legal-2"):
        st = new_hand(variant, None, seed, 0)
        for _ in range(600):
            if st.over:
                break
            legal = legal_actions(st, st.turn)
            act = decide(view_for(st, st.turn), legal, "expert")
            assert act in legal
            st, _ = apply(st, act)
        assert st.over
