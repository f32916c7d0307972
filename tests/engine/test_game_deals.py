"""A game of fixed deals (duplicate play, RULES.md D38): exactly that many hands, each
dealt as a game's first, whatever the rule set's own end of game says."""

from __future__ import annotations

import pytest

from games.engine import Game, Refusal
from games.engine.game import HandResult


def _hand(totals):
    return HandResult("s", 0, "x", [], list(totals))


def test_classic_countdown_does_not_end_a_game_of_fixed_deals():
    plain = Game("classic")
    fixed = Game("classic", deals=3)
    for g in (plain, fixed):
        g.hands.append(_hand([-20, 0, 0, 0]))  # seat 0 reaches 0 of its 20 points
    assert plain.is_over()
    assert not fixed.is_over() and fixed.hands_to_play() == 3 and fixed.current_round() == 2
    fixed.hands.append(_hand([0, -2, 0, 0]))
    fixed.hands.append(_hand([0, 0, -2, 0]))
    # D6 still reads the winners from the totals
    assert fixed.is_over() and fixed.winners() == [3]
    with pytest.raises(Refusal):
        fixed.new_hand("a fourth")


def test_each_deal_is_dealt_as_a_game_first_so_every_table_plays_the_same_hand():
    # rummy reads the game's totals in a hand (D7): two tables at different totals
    # still deal the same second hand when the deals are fixed
    tables = [Game("rummy", deals=2), Game("rummy", deals=2)]
    tables[0].hands.append(_hand([5, 0, 0, 0]))
    tables[1].hands.append(_hand([0, 0, 0, 3]))
    assert tables[0].totals() != tables[1].totals()
    second = [g.new_hand("deal-2") for g in tables]
    assert second[0].to_json() == second[1].to_json()
    assert second[0].context == {"totals": [0] * 4} and second[0].starter == 1


def test_fixed_deals_survive_json_and_bad_counts_are_refused():
    g = Game("101", deals=4)
    g.hands.append(_hand([10, 20, 30, 40]))
    again = Game.from_json(g.to_json())
    assert again.deals == 4 and again.hands_to_play() == 4 and not again.is_over()
    assert Game.from_json(Game("classic").to_json()).deals is None
    for bad in (0, 65, "3", True):
        with pytest.raises(Refusal) as e:
            Game("classic", deals=bad)
        assert e.value.code == "bad_option"
