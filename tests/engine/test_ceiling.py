"""The measuring tool of the defence ceiling (games/tools/engine/ceiling.py): a sighted
expert that never feeds the next player's close when a discard of its ranking does not
(RULES.md §1: a turn may take the previous player's discard; §2: a winning 14 closes)."""

from __future__ import annotations

import pytest

from games.engine import legal_actions
from games.engine.bots import decide, expert
from games.engine.testing import make_state, tile
from games.engine.view import view_for
from games.tools.engine import arena, ceiling

# Indicator K1 (okeys K2, none in play here). Seat 1, the next player after seat 0, waits
# on B8: R1 R2 R3 | Y10 Y11 Y12 Y13 | B7 B9 B10 B11 | R5 K5 Y5 closes with B8 (B7-B10 or
# B8-B11 and the other end thrown). Seat 0 starts with 15 tiles, one of them B8.
NEXT = "R1 R2 R3 Y10 Y11 Y12 Y13 B7 B9 B10 B11 R5 K5 Y5"
MINE = "K13 K12 R9 Y2 B2 K7 R13 Y8 K4 B5 R11 Y1 K10 B8 Y3"
# three melds, K6 K7 and the loose B8, which the expert throws
B8_LOOSE = "R7 R8 R9 Y4 Y5 Y6 K9 K10 K11 B1 R11 Y1 K6 K7 B8"


def _state():
    return make_state("classic", [MINE, NEXT, None, None], indicator="K1")


def test_a_tile_that_completes_the_next_rack_feeds_it_and_others_do_not() -> None:
    state = _state()
    assert ceiling.feeds(state, 0, tile(state, 0, "B8"))
    assert not ceiling.feeds(state, 0, tile(state, 0, "K13"))
    assert not ceiling.feeds(state, 0, tile(state, 0, "Y2"))


def test_the_sighted_expert_skips_a_feeding_discard_for_the_next_one_of_its_ranking(
    monkeypatch,
) -> None:
    state = _state()
    legal = legal_actions(state, 0)
    options = [o.action for o in expert.evaluate(view_for(state, 0), legal)]
    discards = [a for a in options if a["type"] == "discard"]
    assert len(discards) >= 2
    # as the expert plays when nothing feeds
    assert ceiling.sighted(state, 0, "expert") == decide(view_for(state, 0), legal, "expert")
    first = discards[0]["tile"]
    monkeypatch.setattr(ceiling, "feeds", lambda s, seat, t: t == first)
    assert ceiling.sighted(state, 0, "expert") == discards[1]
    # every discard feeds: the expert's own choice
    monkeypatch.setattr(ceiling, "feeds", lambda s, seat, t: True)
    assert ceiling.sighted(state, 0, "expert") == discards[0]


def test_the_sighted_expert_keeps_back_the_closing_tile_the_expert_would_throw() -> None:
    state = make_state("classic", [B8_LOOSE, NEXT, None, None], indicator="K1")
    b8 = tile(state, 0, "B8")
    assert decide(view_for(state, 0), legal_actions(state, 0), "expert")["tile"] == b8
    action = ceiling.sighted(state, 0, "expert")
    assert action["type"] == "discard" and action["tile"] != b8
    assert not ceiling.feeds(state, 0, action["tile"])


@pytest.mark.parametrize("level", ["hard", "medium"])
def test_other_levels_and_lay_down_rule_sets_are_left_to_their_level(level) -> None:
    assert ceiling.sighted(_state(), 0, level) is None
    lay = make_state("seventeen", [MINE, NEXT, None, None], indicator="K1")
    assert ceiling.sighted(lay, 0, "expert") is None


def test_a_chooser_that_declines_leaves_the_arena_as_it_was() -> None:
    plain = arena.arena("classic", "expert", "hard", 2, "ceil-t")
    hooked = arena.arena("classic", "expert", "hard", 2, "ceil-t", chooser=_decline)
    for key in ("advantage", "endings", "mean_score_a", "mean_score_b"):
        assert plain[key] == hooked[key]


def _decline(state, seat: int, level: str) -> None:
    return None


def test_the_command_plays_the_sighted_expert_against_a_level(capsys) -> None:
    assert ceiling.main(["--variant", "classic", "--deals", "1", "--seed", "ceil-cli"]) == 0
    out = capsys.readouterr().out
    assert '"a": "expert, sighted (ceiling.py)"' in out and '"b": "hard"' in out


def test_with_no_slack_it_looks_only_among_the_equally_valued_discards(monkeypatch) -> None:
    state = _state()
    options = expert.evaluate(view_for(state, 0), legal_actions(state, 0))
    discards = [o for o in options if o.action["type"] == "discard"]
    top = discards[0].value
    equal = {o.action["tile"] for o in discards if o.value == top}
    lower = [o for o in discards if o.value < top]
    assert equal and lower
    # every equally valued discard feeds: with no slack the expert's own, with any
    # slack the best of the others
    monkeypatch.setattr(ceiling, "feeds", lambda s, seat, t: t in equal)
    assert ceiling.sighted(state, 0, "expert", slack=0.0) == discards[0].action
    assert ceiling.sighted(state, 0, "expert") == lower[0].action
    # one equally valued discard (the last of them) does not feed: with no slack, that one
    assert len(equal) >= 2
    spare = [o.action for o in discards if o.value == top][-1]
    monkeypatch.setattr(ceiling, "feeds", lambda s, seat, t: t != spare["tile"])
    assert ceiling.sighted(state, 0, "expert", slack=0.0) == spare


def test_a_negative_slack_is_refused() -> None:
    with pytest.raises(SystemExit):
        ceiling.main(["--variant", "classic", "--deals", "1", "--slack", "-1"])
