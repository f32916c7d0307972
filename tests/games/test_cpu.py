"""CPU seats on the server (games/live/cpu.py): the bots play, and a timed-out turn is what
the rule set's rules object says."""

from __future__ import annotations

import pytest

from games.engine import new_hand
from games.engine.bots import choose_action
from games.engine.rules import RULES
from games.live import cpu


def _register(monkeypatch, rules) -> None:
    """Register ``rules`` as one more rule set for this test (as a new module of
    games/engine/rulesets would be)."""
    monkeypatch.setitem(RULES, rules.name, rules)


@pytest.mark.parametrize("variant", list(RULES))
def test_a_cpu_seat_plays_the_bots_choice(variant: str) -> None:
    state = new_hand(variant, None, "cpu-seat", 0)
    for level in cpu.LEVELS:
        assert cpu.choose(state, 0, level) == choose_action(state, 0, level)


def test_rummy_s_clock_draws_and_discards_for_the_player() -> None:
    """[D8]: when rummy's clock runs out the server plays the time-out, not the CPU."""
    state = new_hand("rummy", None, "clock", 0)
    assert cpu.choose(state, 0, "medium", timeout=True) == {"type": "timeout", "seat": 0}


@pytest.mark.parametrize("variant", ["classic", "fifty-one", "seventeen", "101"])
def test_elsewhere_a_timed_out_turn_is_played_by_the_seat_s_cpu(variant: str) -> None:
    """The other rule sets' clocks hand the turn to the seat's CPU."""
    state = new_hand(variant, None, "clock", 0)
    assert cpu.choose(state, 0, "hard", timeout=True) == choose_action(state, 0, "hard")


def test_the_time_out_comes_from_the_rules_object_not_the_variant_name(monkeypatch) -> None:
    """A rule set registered under another name with rummy's time-out plays it too."""
    clocked = type("Clocked", (type(RULES["rummy"]),), {"name": "clocked-test"})()
    _register(monkeypatch, clocked)
    state = new_hand("clocked-test", None, "clock", 0)
    assert cpu.choose(state, 0, "medium", timeout=True) == {"type": "timeout", "seat": 0}
