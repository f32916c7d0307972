"""The expert's feed model (games/engine/bots/danger.py) and its fitting script
(danger_fit.py): how likely a discard lets the next player close (RULES.md §2: a close
with the previous player's discard taken)."""

from __future__ import annotations

import random

from games.engine.bots import danger, danger_fit, expert
from games.engine.bots.core import Context
from games.engine.legal import legal_actions
from games.engine.testing import make_state, tile
from games.engine.tiles import parse_kind
from games.engine.view import view_for

# seat 0 to discard (15 tiles); indicator K1, so the K2s are okeys
RACK0 = "R1 R2 R3 Y4 Y5 Y6 B9 B10 B11 K3 K4 K5 R8 K11 Y13"
# the next player (seat 1) holds R6 and R5, taken from seat 0's discards
RACK1 = "R5 R6 Y1 Y2 Y3 B4 B5 B6 K7 K8 K9 Y10 B12 R12"


def _reading(**kw) -> danger.Reading:
    st = make_state("classic", [RACK0, RACK1, None, None], indicator="K1", **kw)
    view = view_for(st, 0)
    ctx = Context(view, legal_actions(st, 0))
    return danger.Reading(ctx, expert.unseen(view, ctx))


def _chance(reading: danger.Reading, word: str) -> float:
    return danger.feed_chance(reading, parse_kind(word))


def test_the_features_read_what_the_next_player_took_and_still_holds():
    r = _reading(took=["", "R5 R6", "", ""])
    f = dict(zip(danger.FEATURES, danger.features(r, parse_kind("R7")), strict=True))
    # R7 completes R5 R6 (both held) and R6 _ R8 (R6 held): three known tiles
    assert f["run_known"] == 3 and f["held"] == 2
    g = dict(zip(danger.FEATURES, danger.features(r, parse_kind("K11")), strict=True))
    assert g["run_known"] == 0 and g["group_known"] == 0


def test_a_tile_next_to_what_the_next_player_took_is_the_more_dangerous():
    late = {"pile": "R13 Y12 B13 K12 B1 B2", "rest": "discards"}
    r = _reading(took=["", "R5 R6", "", ""], **late)
    assert _chance(r, "R7") > 2 * _chance(r, "K11")
    # the same tile with nothing taken reads far safer
    plain = _reading(**late)
    assert _chance(plain, "R7") < _chance(r, "R7")


def test_late_in_the_hand_every_discard_is_more_dangerous_than_early():
    early = _reading(took=["", "R5 R6", "", ""])
    late = _reading(took=["", "R5 R6", "", ""], pile="R13 Y12 B13 K12", rest="discards")
    assert danger.rounds_played(_ctx(late=True)) > danger.rounds_played(_ctx(late=False))
    assert _chance(late, "R7") > _chance(early, "R7")


def _ctx(late: bool) -> Context:
    kw = {"pile": "R13 Y12 B13 K12", "rest": "discards"} if late else {}
    st = make_state("classic", [RACK0, RACK1, None, None], indicator="K1", **kw)
    return Context(view_for(st, 0), legal_actions(st, 0))


def test_a_kind_the_next_player_threw_or_let_pass_reads_safer():
    base = {"took": ["", "R5 R6", "", ""]}
    # Y13 lies in seat 1's discards (it threw one) in the first state only
    thrown = _reading(discards=["", "Y13", "", ""], **base)
    kept = _reading(discards=["", "B7", "", ""], **base)
    assert _chance(thrown, "Y13") < _chance(kept, "Y13")
    # K11 lies in seat 0's own discards: seat 1 let it pass
    passed = _reading(discards=["K11", "", "", ""], **base)
    other = _reading(discards=["B7", "", "", ""], **base)
    assert _chance(passed, "K11") < _chance(other, "K11")


def test_the_run_shapes_follow_the_ace_rule():
    """12-13-1 is a run when the ace may be high, 13-1-2 never (RULES.md §1)."""

    def kinds(words: str) -> list[tuple[int, int]]:
        w = [parse_kind(x) for x in words.split()]
        return list(zip(w[::2], w[1::2], strict=True))

    assert danger._shapes(0, 1, True) == kinds("R2 R3 R12 R13")
    assert danger._shapes(0, 1, False) == kinds("R2 R3")
    assert danger._shapes(0, 2, True) == kinds("R1 R3 R3 R4")
    assert danger._shapes(0, 13, True) == kinds("R11 R12 R12 R1")
    assert danger._shapes(0, 13, False) == kinds("R11 R12")


# ------------------------------------------------------------------ the fitting script


def test_the_label_is_whether_the_next_rack_closes_with_the_tile():
    # seat 1 is one tile from closing: R5 R6 _ | Y1-Y4 | B4-B6 | K7-K10 and a loose K13
    ready = "R5 R6 Y1 Y2 Y3 Y4 B4 B5 B6 K7 K8 K9 K10 K13"
    st = make_state("classic", [RACK0, ready, None, None], indicator="K1")
    assert danger_fit.closes_with(st, 1, tile(st, 0, "R8")) is False
    st2 = make_state("classic", ["R1 R2 R3 Y4 Y5 Y6 B9 B10 B11 K3 K4 K5 R7 K11 Y13",
                                 ready, None, None], indicator="K1")  # fmt: skip
    assert danger_fit.closes_with(st2, 1, tile(st2, 0, "R7")) is True


def test_the_fit_recovers_a_known_logistic_rule():
    rng = random.Random(3)
    rows = []
    for _ in range(3000):
        x = rng.random()
        p = 1 / (1 + 2.718281828 ** -(-3 + 4 * x))
        rows.append(([1.0, x], 1 if rng.random() < p else 0, 1.0))
    w = danger_fit.fit(rows)
    assert abs(w[0] + 3) < 0.6 and abs(w[1] - 4) < 0.9


def test_rows_of_a_hand_have_every_feature_and_a_label():
    rows = danger_fit.rows_of_hand("danger-test/0", 0)
    assert rows and all(len(x) == len(danger.FEATURES) and y in (0, 1) for x, y in rows)
    figures = danger_fit.judge(rows, list(danger.WEIGHTS))
    assert figures["rows"] == len(rows) and figures["log_loss"] > 0
