"""``classic`` (seed 001, RULES.md §2): close the whole rack; countdown scoring."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import scoring
from ..rulebase import COMMON_OPTIONS, ResultProblem, WholeRackRules, gettext_noop

if TYPE_CHECKING:
    from ..state import HandState

# Drawn hands (an exhausted pile [D4]) change no score in classic and rummy, so the rules do
# not bound how many a game has; games of weak players end about half their hands that way.
# An import may hold four drawn hands per decisive one.
DRAWN_PER_DECISIVE = 4


class ClassicRules(WholeRackRules):
    """classic (seed 001): countdown 2/4/4/8 [D5]; show during your first turn."""

    name = "classic"
    label = gettext_noop("Classic")
    title = "Classic okey"
    seed = "001"
    order = 10
    options = {
        "players": ((4,), 4),
        "start_points": ((10, 20, 30), 20),
        "clock": ((0, 15, 30, 60), 0),
        **COMMON_OPTIONS,
    }
    problem_texts = {
        "impossible_total": gettext_noop(
            "The points lost do not add up: every close and every shown indicator costs each "
            "of the three other players the same, so the starting points of the four seats minus "
            "the sum of the scores must be a multiple of 3."
        ),
        "out_of_range": gettext_noop(
            "Below -8 is impossible: the game stops once someone reaches 0, and one hand costs "
            "at most 9 points."
        ),
    }
    higher_wins = True

    def game_start(self, options: dict) -> int:
        return options["start_points"]  # [D5]

    def game_over(self, totals: list[int], n_hands: int, options: dict) -> bool:
        return n_hands > 0 and min(totals) <= 0  # [D6]

    def show_allowed(self, state: HandState, seat: int) -> bool:
        # any point of the first turn, before that turn's discard
        return state.turns_done[seat] == 0

    def show_lines(self, state: HandState, seat: int) -> list[dict]:
        return scoring.classic_show_lines(state.n_players, seat)

    def close_lines(self, state: HandState, seat: int, ending: str) -> list[dict]:
        return scoring.classic_close_lines(state.n_players, seat, ending)

    def score_card_rows(self, options: dict) -> int:
        # a countdown from S points [D5]: a close costs 2, so room for S/2 hands and two more
        return max(12, options["start_points"] // 2 + 2)

    def max_hands(self, options: dict) -> int:
        # [D5] everyone starts with S points; a close costs each of the other n-1 players at
        # least 2; the game ends after the hand in which someone reaches 0, so before that
        # hand every player still has at least 1 point: the n players lose at most n(S-1).
        n = options["players"]
        decisive = n * (options["start_points"] - 1) // (2 * (n - 1)) + 1
        return decisive * (1 + DRAWN_PER_DECISIVE)

    def score_hint(self, options: dict) -> tuple[str, dict[str, Any]]:
        return (
            gettext_noop(
                "Classic: enter the points each seat has left (everyone starts with %(start)s; "
                "the game ends when someone reaches 0 or less)."
            ),
            {"start": options["start_points"]},
        )

    def result_problems(self, options: dict, scores: list[int]) -> list[ResultProblem]:
        """§2, [D5], [D6]: ``above_start`` (scores only go down); ``out_of_range`` (below
        -8: everybody starts the last hand with at least 1 and one hand costs at most 9, an
        indicator show 1 plus a seven-pairs okey close 8); ``impossible_total`` (every show
        and close takes the same from each of the three others, so 4 × start − Σ is a
        multiple of 3); ``game_not_over`` (someone must have 0 or less)."""
        start = options["start_points"]
        out: list[ResultProblem] = []
        for seat, v in enumerate(scores):
            if v > start:
                out.append(
                    ResultProblem(
                        "above_start",
                        f"Seat {seat + 1}: {v} is more than the {start} points everyone "
                        "starts with.",
                        seat,
                    )
                )
            elif v < -8:
                out.append(
                    ResultProblem(
                        "out_of_range",
                        f"Seat {seat + 1}: {v} is impossible: the game stops once someone "
                        "reaches 0, and one hand costs at most 9 points, so no score goes "
                        "below -8.",
                        seat,
                    )
                )
        if (start * len(scores) - sum(scores)) % 3:
            out.append(
                ResultProblem(
                    "impossible_total",
                    "The points lost add up to a number that is not a multiple of 3: every "
                    "close and every shown indicator costs the same to each of the three "
                    "other players.",
                )
            )
        if min(scores) > 0:
            out.append(
                ResultProblem(
                    "game_not_over",
                    "The game is not over: it ends once someone has 0 points or less.",
                )
            )
        return out
