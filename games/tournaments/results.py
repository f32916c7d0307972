"""Validation of table results entered by an organiser. Pure Python.

``validate_table_result(variant, options, scores)`` checks one table's final game scores
(one int per seat, as the rule set counts them: points left, points won or penalty totals;
each rule set's ``score_hint`` says which) and returns every problem it finds (``[]`` =
acceptable). It refuses only what the rules (RULES.md, the engine's ``scoring.py``) make
certain; a result that passes may still be wrong, never impossible by these checks' reading.

The checks every rule set shares are made here:

  * ``bad_options``: the options must pass ``games.engine.validate_options`` (the rule
    set's table options).
  * ``seat_count``: one score per seat (``options["players"]``, one of the rule set's
    ``players``).
  * ``not_integer``: every score line is an integer number of points (bools refused).

The rest is the rule set's own: ``rules_for(variant).result_problems(options, scores)``
(``games/engine/rulesets/<name>.py``; its docstring gives each check and the RULES.md
section and [Dn] decisions it comes from). ``ResultProblem`` is the engine's
(``games.engine.rulebase``), re-exported here.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.options import validate_options
from games.engine.refusals import Refusal
from games.engine.rulebase import ResultProblem
from games.engine.rules import rules_for

# The codes these checks and the rule sets' shared checks say; the pages translate each by
# code (``messages.RESULT_PROBLEMS``), or more precisely per rule set (``problem_texts``).
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
    return rules_for(variant).result_problems(opts, scores)


__all__ = ["CODES", "ResultProblem", "validate_table_result"]
