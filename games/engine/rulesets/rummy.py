"""``rummy`` (seed 003, RULES.md §3): 2-4 players; close the whole rack; race to a target."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import scoring
from ..rulebase import (
    COMMON_OPTIONS,
    COMMON_VALUE_LABELS,
    ResultProblem,
    WholeRackRules,
    gettext_noop,
)
from .classic import DRAWN_PER_DECISIVE

if TYPE_CHECKING:
    from ..state import HandState

# rummy targets [D7]: length -> {players: target}
RUMMY_TARGETS: dict[str, dict[int, int]] = {
    "short": {4: 4, 3: 5, 2: 8},
    "standard": {4: 8, 3: 10, 2: 15},
    "long": {4: 16, 3: 20, 2: 30},
}


def rummy_target(options: dict) -> int:
    """The rummy game target for these (validated) options [D7]."""
    return RUMMY_TARGETS[options["length"]][options["players"]]


class RummyRules(WholeRackRules):
    """rummy (seed 003): the closer scores 3/6; show before your first draw [D24]."""

    name = "rummy"
    label = gettext_noop("Okey Rummy")
    title = "Okey rummy"
    seed = "003"
    order = 20
    players = (2, 3, 4)
    direction = "clockwise"
    options = {
        "players": ((2, 3, 4), 4),
        "length": (("short", "standard", "long"), "standard"),
        "clock": ((0, 15, 30, 45, 60), 0),
        **COMMON_OPTIONS,
    }
    value_labels = {
        **COMMON_VALUE_LABELS,
        "short": gettext_noop("short"),
        "standard": gettext_noop("standard"),
        "long": gettext_noop("long"),
    }
    problem_texts = {
        "out_of_range": gettext_noop(
            "Impossible: points won are never negative, and the game stops at the first score "
            "that reaches the target."
        ),
    }
    higher_wins = True
    yellow_shown_green = True

    def game_context(self, totals: list[int]) -> dict | None:
        return {"totals": list(totals)}

    def game_target(self, options: dict) -> int | None:
        return rummy_target(options)  # [D7]

    def game_over(self, totals: list[int], n_hands: int, options: dict) -> bool:
        return n_hands > 0 and max(totals) >= rummy_target(options)

    def show_allowed(self, state: HandState, seat: int) -> bool:
        if state.turns_done[seat] != 0:
            return False
        if seat == state.starter:
            return True  # [D24] the dealer may show before the first discard
        return state.phase == "draw"

    def show_lines(self, state: HandState, seat: int) -> list[dict]:
        return scoring.rummy_show_lines(seat)

    def close_lines(self, state: HandState, seat: int, ending: str) -> list[dict]:
        return scoring.rummy_close_lines(seat, ending)

    def show_ends_game(self, state: HandState, seat: int) -> bool:
        """A shown indicator counts when it is shown: reaching the target ends the game."""
        totals = state.context.get("totals")
        if not totals:
            return False
        have = totals[seat] + state.hand_totals()[seat]
        return have >= rummy_target(state.options)

    def clock_timeout_action(self, state: HandState) -> dict | None:
        # [D8] the clock draws the top of the pile for the player and discards it
        if state.phase == "over":
            return None
        return {"type": "timeout", "seat": state.turn}

    def max_hands(self, options: dict) -> int:
        # [D7] a close earns the closer at least 3; before the last hand everyone is below
        # the target T, so at most n(T-1) points were earned.
        n = options["players"]
        decisive = n * (rummy_target(options) - 1) // 3 + 1
        return decisive * (1 + DRAWN_PER_DECISIVE)

    def score_hint(self, options: dict) -> tuple[str, dict[str, Any]]:
        return (
            gettext_noop(
                "Okey Rummy: enter the points each seat has won; the game ends when one player "
                "reaches %(target)s."
            ),
            {"target": rummy_target(options)},
        )

    def result_problems(self, options: dict, scores: list[int]) -> list[ResultProblem]:
        """§3, [D7], [D24]: ``out_of_range`` (points won are ≥ 0; the winner has at most
        target + 5: below target before the last scoring, worth at most 6); ``no_winner``
        (someone reaches the target); ``several_winners`` (the game stops at the first
        score that reaches it, and each score goes to one player)."""
        target = rummy_target(options)
        out: list[ResultProblem] = []
        for seat, v in enumerate(scores):
            if v < 0:
                out.append(
                    ResultProblem(
                        "out_of_range", f"Seat {seat + 1}: points won cannot be negative.", seat
                    )
                )
            elif v > target + 5:
                out.append(
                    ResultProblem(
                        "out_of_range",
                        f"Seat {seat + 1}: {v} is impossible: the game stops at the first "
                        f"score that reaches {target}, and one score is worth at most 6, so "
                        f"nobody ends above {target + 5}.",
                        seat,
                    )
                )
        reached = [s for s, v in enumerate(scores) if v >= target]
        if not reached:
            out.append(
                ResultProblem(
                    "no_winner",
                    f"Nobody has reached the target of {target}: the game is not over.",
                )
            )
        elif len(reached) > 1:
            out.append(
                ResultProblem(
                    "several_winners",
                    f"Only one player can reach the target of {target}: the game stops at "
                    "the first score that reaches it.",
                )
            )
        return out
