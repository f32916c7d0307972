"""The expert's lay-down play (games/engine/bots/expert_lay.py): before opening it
throws the tile that leaves its rack fewest replacements from an opening, and it keeps
back the high tiles an unopened next player would take into its opening (RULES.md §4-§6:
an unopened loser pays the most)."""

from __future__ import annotations

import pytest

from games.engine import apply, legal_actions, new_hand
from games.engine.bots import decide, expert_lay
from games.engine.bots.core import Context
from games.engine.rules import RULES
from games.engine.testing import ids, make_state, tile
from games.engine.tiles import kind_of
from games.engine.view import view_for


def _decide(state, seat: int, level: str) -> dict:
    return decide(view_for(state, seat), legal_actions(state, seat), level)


def test_seventeen_the_expert_keeps_the_pair_one_tile_from_a_pairs_opening():
    """Seventeen, indicator B11 (okeys B12), nobody opened: R12 R12 + K7 K7 = 19 of the
    26 a pairs opening needs (RULES.md §5: a pair counts its number, ⌈1.5 × 17⌉ = 26),
    so one more pair of 7 or more opens (Y7, R10, B10, K9 or an okey drawn). Hard
    throws an R12 (its runs-and-groups look-ahead); the expert throws R2 and stays one
    replacement from an opening instead of two."""
    st = make_state(
        "seventeen",
        ["R2 R3 R10 R12 R12 Y4 Y6 Y7 B3 B4 B10 K5 K7 K7 K9", None, None, None],
        indicator="B11",
    )
    assert kind_of(_decide(st, 0, "hard")["tile"]) == kind_of(tile(st, 0, "R12"))
    assert _decide(st, 0, "expert") == {"type": "discard", "seat": 0, "tile": tile(st, 0, "R2")}


# Indicator K1 (okeys K2), nobody opened: R5 R6 R7 and Y9 B9 K9 are melds, Y3 Y4, B6 B7 and
# K11 K12 wait for a third tile; R13, B2 and R10 are loose (no tile of the rack is one or
# two numbers from them, nor of their number).
LOOSE = "R5 R6 R7 Y9 B9 K9 Y3 Y4 B6 B7 K11 K12 R13 B2 R10"
LAY_DOWN = ["fifty-one", "seventeen", "101"]


def _loose_state(variant: str, **kw):
    rack = LOOSE + (" Y11 Y12 B11 R1 R1 K5 K6" if variant == "101" else "")  # 22 tiles
    return make_state(variant, [rack, None, None, None], indicator="K1", **kw)


@pytest.mark.parametrize("variant", LAY_DOWN)
def test_the_expert_keeps_a_high_loose_tile_from_an_unopened_next_player(variant):
    """Three loose tiles and the next player has not opened: hard throws R10; the
    expert throws B2, the one an unopened player is least likely to take into its
    opening (an unopened loser pays the most: RULES.md §4 500, §5 the base, §6 202;
    in fifty-one the taken discard also costs its discarder 10 × its number)."""
    st = _loose_state(variant)
    assert _decide(st, 0, "hard") == {"type": "discard", "seat": 0, "tile": tile(st, 0, "R10")}
    assert _decide(st, 0, "expert") == {"type": "discard", "seat": 0, "tile": tile(st, 0, "B2")}


@pytest.mark.parametrize("variant", ["fifty-one", "seventeen"])
def test_a_kind_the_next_player_threw_away_is_safe_to_feed(variant):
    """The same rack when the next player threw an R10 itself: it does not collect
    R10, so the expert throws it like hard."""
    st = _loose_state(variant, discards=["", "R10", "", ""])
    assert _decide(st, 0, "expert") == {"type": "discard", "seat": 0, "tile": tile(st, 0, "R10")}


@pytest.mark.parametrize("variant", ["fifty-one", "seventeen"])
def test_an_opened_next_player_is_not_fed_an_opening(variant):
    """When the next player has opened already there is no opening to feed: the expert
    throws R10 like hard."""
    limit = 20 if variant == "seventeen" else 60
    st = _loose_state(variant, opened=[None, "melds", None, None], limit=limit)
    assert _decide(st, 0, "expert") == {"type": "discard", "seat": 0, "tile": tile(st, 0, "R10")}


def test_the_stake_of_opening_comes_from_the_rules_object():
    """What being opened is worth when another seat finishes (an unopened loser's line
    less an opened one's with 5 + 7 + 9 left): fifty-one 500 − 21 × 5, seventeen (black
    okey, base 500) 500 − 3 × 10, 101 202 − 21; and a fifty-one take costs the
    discarder 10 × the number (RULES.md §4), a 101 take nothing (§6, [D30])."""
    stakes = {}
    for variant in LAY_DOWN:
        st = _loose_state(variant)
        ctx = Context(view_for(st, 0), legal_actions(st, 0))
        stakes[variant] = expert_lay.open_stake(ctx)
        if variant != "seventeen":
            cost = expert_lay.take_cost(ctx, tile(st, 0, "R10"))
            assert cost == (100.0 if variant == "fifty-one" else 0.0)
    assert stakes == {"fifty-one": 395.0, "seventeen": 470.0, "101": 181.0}


@pytest.mark.parametrize("base", LAY_DOWN)
def test_the_expert_reads_a_lay_down_rule_set_from_its_rules_object(monkeypatch, base):
    """The same rules registered under another name are played the same way by the
    expert: every decision of a hand is the same."""

    cls = type(RULES[base])
    renamed = type("Renamed", (cls,), {"name": f"{base}-renamed"})()
    monkeypatch.setitem(RULES, renamed.name, renamed)

    def log(variant: str) -> list:
        out = []
        state = new_hand(variant, None, "renamed-expert", 1)
        while not state.over:
            seat = state.turn
            action = _decide(state, seat, "expert" if seat % 2 == 0 else "hard")
            out.append(action)
            state, _ = apply(state, action)
        return out

    assert log(renamed.name) == log(base)


def test_show_me_says_why_the_expert_throws_another_tile_than_hard():
    """ "Show me" is the expert's choice, with why it is not hard's: the rack stays
    closer to an opening (the seventeen pairs rack above), or hard's tile is likelier
    to help an unopened next player open (the three loose tiles)."""
    from games.engine.bots.hint import hint

    st = make_state(
        "seventeen",
        ["R2 R3 R10 R12 R12 Y4 Y6 Y7 B3 B4 B10 K5 K7 K7 K9", None, None, None],
        indicator="B11",
    )
    h = hint(st, 0)
    assert h["reason"] == "opening_nearer" and h["detail"]["avoid"] == "R12"
    for variant in LAY_DOWN:
        h = hint(_loose_state(variant), 0)
        assert h["reason"] == "opening_unfed" and h["detail"]["avoid"] == "R10", variant


def test_the_opening_reasons_are_worded_with_their_tiles():
    from django.utils import translation

    from games.live import messages

    with translation.override("en"):
        text = messages.hint_text("opening_nearer", {"tile": "R2", "avoid": "R12"})
        assert text == "Discard red 2, not red 12: your rack stays closer to an opening."
        text = messages.hint_text("opening_unfed", {"tile": "B2", "avoid": "R10"})
        assert text.startswith("Discard blue 2, not red 10: the next player has not opened")
        # without the tile kept back it reads as a plain discard
        plain = messages.hint_text("discard_loose", {"tile": "B2", "leftover": 3})
        assert messages.hint_text("opening_unfed", {"tile": "B2", "leftover": 3}) == plain


# Fifty-one, indicator K1 (okeys K2): seat 0 opened with R10 R11 R12 and Y10 B10 K10 (63);
# its rack holds a new run R3 R4 R5 and four loose tiles that fit no meld on the table.
OPENED_MELDS = [{"owner": 0, "tiles": "R10 R11 R12"}, {"owner": 0, "tiles": "Y10 B10 K10"}]
HELD_RACK = "R3 R4 R5 Y7 B2 K13 Y5"


def _held_state(racks: list[str | None], melds: list[dict], opened: list[str | None]):
    return make_state(
        "fifty-one", racks, indicator="K1", melds=melds, opened=opened, limit=63, phase="play"
    )


def test_fifty_one_the_expert_keeps_a_new_meld_in_its_rack_while_nobody_is_near_finishing():
    """RULES.md §4: a tile a rival adds to your meld on the table costs you 10 × its
    number. With no opened rival near finishing, laying R3 R4 R5 now gains nothing (the
    hand cannot be finished this turn) and opens R2 and R6 to the rivals' lay-offs:
    hard lays it, the expert keeps it and discards."""
    st = _held_state([HELD_RACK, None, None, None], OPENED_MELDS, ["melds", None, None, None])
    run = sorted(ids(st, 0, "R3 R4 R5"))
    assert _decide(st, 0, "hard") == {"type": "lay", "seat": 0, "melds": [run]}
    mine = _decide(st, 0, "expert")
    assert mine["type"] == "discard" and mine["tile"] not in run


def test_fifty_one_the_expert_lays_its_melds_when_an_opened_rival_is_near_finishing():
    """The same rack when seat 1 has opened and holds three tiles: if it finishes, every
    tile left in the expert's rack costs 5 × its number (RULES.md §4, Ending), so the
    expert lays the run like hard."""
    melds = [*OPENED_MELDS, {"owner": 1, "tiles": "K5 K6 K7"}]
    st = _held_state([HELD_RACK, "B6 B7 Y1", None, None], melds, ["melds", "melds", None, None])
    run = sorted(ids(st, 0, "R3 R4 R5"))
    assert _decide(st, 0, "expert") == {"type": "lay", "seat": 0, "melds": [run]}


def test_fifty_one_the_expert_lays_its_melds_when_that_finishes_the_hand():
    """R3 R4 R5 and one loose tile: laying the run leaves the last tile to discard,
    which finishes the hand (−500), so the expert lays at once."""
    st = _held_state(["R3 R4 R5 Y7", None, None, None], OPENED_MELDS, ["melds", None, None, None])
    run = sorted(ids(st, 0, "R3 R4 R5"))
    assert _decide(st, 0, "expert") == {"type": "lay", "seat": 0, "melds": [run]}


@pytest.mark.parametrize("variant", ["seventeen", "101"])
def test_where_a_lay_off_costs_its_owner_nothing_the_expert_lays_like_hard(variant):
    """Seventeen and 101 charge a meld's owner nothing for a rival's plain lay-off
    (RULES.md [D23], [D31]; the rules object's ``cpu_lays_off_on_rivals_first`` is off):
    the expert lays its new meld as hard does."""
    rules = RULES[variant]
    assert not rules.cpu_lays_off_on_rivals_first
    rack = HELD_RACK + (" R1 Y1 B1 K1 Y12 B12 K12 B8" if variant == "101" else "")
    limit = 20 if variant == "seventeen" else 101
    st = make_state(
        variant, [rack, None, None, None], indicator="K1", melds=OPENED_MELDS,
        opened=["melds", None, None, None], limit=limit, phase="play",
    )  # fmt: skip
    hard = _decide(st, 0, "hard")
    assert hard["type"] == "lay"
    assert _decide(st, 0, "expert") == hard


def test_show_me_says_the_expert_keeps_its_melds_in_the_rack():
    """ "Show me" on the rack above: the expert's discard, with the reason that its
    melds stay in the rack (worded with the tile it throws)."""
    from django.utils import translation

    from games.engine.bots.hint import hint
    from games.live import messages

    st = _held_state([HELD_RACK, None, None, None], OPENED_MELDS, ["melds", None, None, None])
    h = hint(st, 0)
    assert h["reason"] == "melds_kept" and h["action"] == _decide(st, 0, "expert")
    with translation.override("en"):
        text = messages.hint_text("melds_kept", {"tile": "K13"})
    assert text.startswith("Discard black 13 and keep your melds in the rack for now")
