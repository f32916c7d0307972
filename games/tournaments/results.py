"""Validation of table results entered by an organiser. Pure Python.

``validate_table_result(variant, options, scores)`` checks one table's final game scores
(one int per seat, "as the variant counts it": classic = points left of the countdown,
rummy = points won, fifty-one / seventeen = penalty totals) and returns every problem it
finds (``[]`` = acceptable). It refuses only what the rules (rules.md, the engine's
``scoring.py``) make certain; a result that passes may still be wrong, never impossible
by these checks' reading. The checks and the rules they come from:

Every variant
  * ``bad_options``: the options must pass ``games.engine.validate_options`` (the
    variant's table options).
  * ``seat_count``: one score per seat (``options["players"]``: 4, rummy 2-4).
  * ``not_integer``: every score line is an integer number of points (bools refused).

classic (rules.md §2, [D5], [D6])
  * ``above_start``: scores only ever go down from ``start_points`` (every line is a loss).
  * ``out_of_range``: below −8 is impossible: the game ends after the hand in which
    someone reaches 0, so everybody starts the last hand with ≥ 1, and one hand costs a
    player at most 9 (an indicator show −1, plus a seven-pairs okey close −8).
  * ``impossible_total``: every show and every close takes the same amount from each of
    the three other players, so the points lost in total (4 × start − Σ scores) are a
    multiple of 3.
  * ``game_not_over``: the game only ends once someone has 0 or less.

rummy (rules.md §3, [D7], [D24])
  * ``out_of_range``: points won are ≥ 0; the winner has at most target + 5 (they had at
    most target − 1 before the scoring that ended the game, which is worth at most 6).
  * ``no_winner``: the game ends when someone reaches the target (``rummy_target``).
  * ``several_winners``: the game ends at the first score that reaches the target and
    each score goes to one player (the closer or the shower), so only one player can have
    reached it.

fifty-one (rules.md §4, [D14], [D20]; ``options["hands"]`` hands)
  * ``not_multiple``: every line is a multiple of 5 (±500/±1000, Σ × 5 or × 10, 100 × m
    per okey, lay-offs 10 × n, swaps 100 + 10 × n, penalty tile 100, taken discard 10 × n).
  * ``out_of_range``: nobody scores below −1000 a hand (the finisher's bonus is the only
    negative line).
  * ``too_many_finishers``: a negative total needs at least one finish, and each hand
    has at most one finisher: at most ``hands`` seats below zero, and the negative
    totals together at least −1000 × hands.
  * ``impossible_total``: every rival of a finisher holds at least one tile, so pays at
    least m (5, or 10 after a pairs/okey finish), a finisher's partner 0: a hand adds up
    to at least −970 (solo) / −980 (partners), the game to at least that × ``hands``.

seventeen (rules.md §5, [D19], [D21]-[D23]; ``options["rounds"]`` hands)
  * ``not_multiple``: every line is a multiple of 10 (−base/10 with base 400/500/600/800,
    10 per tile, base × factors, 100 × factor, 10 × n × factor).
  * ``out_of_range``: nobody scores below −80 a hand (blue okey: −800/10).
  * ``too_many_finishers``: the negative totals together are at least −80 × rounds (one
    finisher a hand).
  * ``impossible_total``: the three losers of a hand hold tiles (≥ 10 each) or have not
    opened (≥ 400): a hand adds up to at least −80 + 30 = −50, the game to −50 × rounds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.engine.options import rummy_target, validate_options
from games.engine.refusals import Refusal

CODES = (
    "bad_options",
    "seat_count",
    "not_integer",
    "above_start",
    "out_of_range",
    "impossible_total",
    "game_not_over",
    "no_winner",
    "several_winners",
    "not_multiple",
    "too_many_finishers",
)


@dataclass(frozen=True)
class ResultProblem:
    code: str  # stable code (``CODES``); the web layer translates by code
    message: str  # English sentence
    seat: int | None = None  # 0-based seat the problem is about, if one


def validate_table_result(
    variant: str, options: dict, scores: Sequence[int]
) -> list[ResultProblem]:
    """Every reason why ``scores`` cannot be a finished game of ``variant`` with
    ``options`` (``[]`` = acceptable). See the module docstring for each check's rule."""
    try:
        opts = validate_options(variant, dict(options or {}))
    except Refusal as exc:
        return [ResultProblem("bad_options", f"The table options are not valid: {exc.message}")]
    scores = list(scores)
    n = opts["players"]
    problems: list[ResultProblem] = []
    if len(scores) != n:
        return [ResultProblem("seat_count", f"Enter one score for each of the {n} seats.")]
    for seat, v in enumerate(scores):
        if type(v) is not int:
            problems.append(
                ResultProblem("not_integer", f"Seat {seat + 1}: a score is a whole number.", seat)
            )
    if problems:
        return problems
    check = {
        "classic": _classic,
        "rummy": _rummy,
        "fifty-one": _fifty_one,
        "seventeen": _seventeen,
    }[variant]
    return check(opts, scores)


def _classic(opts: dict, scores: list[int]) -> list[ResultProblem]:
    start = opts["start_points"]
    out: list[ResultProblem] = []
    for seat, v in enumerate(scores):
        if v > start:
            out.append(
                ResultProblem(
                    "above_start",
                    f"Seat {seat + 1}: {v} is more than the {start} points everyone starts with.",
                    seat,
                )
            )
        elif v < -8:
            out.append(
                ResultProblem(
                    "out_of_range",
                    f"Seat {seat + 1}: {v} is impossible: the game stops once someone reaches "
                    "0, and one hand costs at most 9 points, so no score goes below -8.",
                    seat,
                )
            )
    if (start * len(scores) - sum(scores)) % 3:
        out.append(
            ResultProblem(
                "impossible_total",
                "The points lost add up to a number that is not a multiple of 3: every close "
                "and every shown indicator costs the same to each of the three other players.",
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


def _rummy(opts: dict, scores: list[int]) -> list[ResultProblem]:
    target = rummy_target(opts)
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
                    f"Seat {seat + 1}: {v} is impossible: the game stops at the first score "
                    f"that reaches {target}, and one score is worth at most 6, so nobody "
                    f"ends above {target + 5}.",
                    seat,
                )
            )
    reached = [s for s, v in enumerate(scores) if v >= target]
    if not reached:
        out.append(
            ResultProblem(
                "no_winner", f"Nobody has reached the target of {target}: the game is not over."
            )
        )
    elif len(reached) > 1:
        out.append(
            ResultProblem(
                "several_winners",
                f"Only one player can reach the target of {target}: the game stops at the "
                "first score that reaches it.",
            )
        )
    return out


def _lay_down(
    scores: list[int],
    *,
    hands: int,
    multiple: int,
    finisher_min: int,
    hand_sum_min: int,
) -> list[ResultProblem]:
    out: list[ResultProblem] = []
    for seat, v in enumerate(scores):
        if v % multiple:
            out.append(
                ResultProblem(
                    "not_multiple",
                    f"Seat {seat + 1}: every score in this variant is a multiple of {multiple}.",
                    seat,
                )
            )
        elif v < finisher_min * hands:
            out.append(
                ResultProblem(
                    "out_of_range",
                    f"Seat {seat + 1}: {v} is impossible: a player wins at most "
                    f"{-finisher_min} a hand, {-finisher_min * hands} over {hands} hand(s).",
                    seat,
                )
            )
    if out:
        return out
    negatives = [v for v in scores if v < 0]
    if len(negatives) > hands or sum(negatives) < finisher_min * hands:
        out.append(
            ResultProblem(
                "too_many_finishers",
                "Too many players are below zero: only the player who finishes a hand "
                f"scores below zero, at most {-finisher_min} a hand, and there were {hands} "
                "hand(s).",
            )
        )
    if sum(scores) < hand_sum_min * hands:
        out.append(
            ResultProblem(
                "impossible_total",
                f"The scores add up to {sum(scores)}, but a game of {hands} hand(s) adds up "
                f"to at least {hand_sum_min * hands}: the other players always pay something "
                "when someone finishes.",
            )
        )
    return out


def _fifty_one(opts: dict, scores: list[int]) -> list[ResultProblem]:
    # worst hand: a pairs/okey finish (-1000), each paying rival holds one tile 1 (×10);
    # with partners the finisher's partner pays 0 [D14].
    hand_min = -1000 + (20 if opts["partners"] else 30)
    return _lay_down(
        scores, hands=opts["hands"], multiple=5, finisher_min=-1000, hand_sum_min=hand_min
    )


def _seventeen(opts: dict, scores: list[int]) -> list[ResultProblem]:
    # worst hand: blue okey finisher -80, three opened losers with one tile each (10 each).
    return _lay_down(
        scores, hands=opts["rounds"], multiple=10, finisher_min=-80, hand_sum_min=-80 + 30
    )
