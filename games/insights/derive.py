"""What one seat did in one finished hand, read from the engine's final state.

Pure Python (no Django): ``seat_stats(state, seat, opponents)`` gives the figures the
Insights page adds up (``games/insights/models.py``), from the hand's final ``HandState``
only: its score lines, its result, the racks and discard piles as they lie at the end,
the tiles each seat took (``HandState.took``) and the accepted actions. Everything here is
known once the hand is over; nothing reads a hand still in play.

Definitions (docs/insights.md):

* ``total``: the seat's hand total, the sum of its score lines, in the rule set's own
  direction (``Rules.higher_wins``: classic and rummy count points won, the lay-down rule
  sets count penalty points, lower is better).
* ``won``: the seat finished the hand (``result["finisher"]``); ``ending`` is the result's
  ending code (``scoring.close_ending`` for a whole-rack close, the rule set's
  ``end_lines`` for a lay-down finish: ``okey``, ``pairs``, ``direct`` [D21] [D33] ...).
* ``opening_turn``: in a lay-down rule set, the seat's own turn (1 = its first) on which
  its opening was confirmed (``HandState.opened_turn``; RULES.md §4-§6), None when it never
  opened or the rule set has no openings.
* ``okeys_kept``: okeys in the seat's rack at the end (for a whole-rack closer: in the
  rack that closed; the closing tile is not in it).
* ``okeys_wasted``: okeys the seat discarded that stayed discarded or went to the next
  player (its discard pile at the end and what the next seat took from it); the last
  discard that finished a lay-down hand is a finish, not a waste, and seventeen's okey
  discard that goes back to the rack [D19] never left it.
* ``fed``: 1 when the next player finished the hand on the turn it took this seat's
  discard (its last draw of the hand was a take: the tile went into the close or, [D12],
  into the melds it finished with), else 0.
* ``penalties``: ``{reason: [lines, points]}`` of the seat's score lines that cost it
  (negative points where higher wins, positive where lower wins), points as a cost (> 0).
* ``cpu_level``: the opponents' CPU level (partners are not opponents): ``none`` without a
  CPU opponent, the level they share, else ``mixed``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.engine.rules import rules_for
from games.engine.tiles import kind_of

CPU_LEVELS = ("none", "easy", "medium", "hard", "expert", "mixed")
# the draw-phase moves: the last one of the finisher tells whether it took a discard
DRAWS = ("draw", "take", "timeout")


def opponents_level(state: Any, seat: int, seats: Sequence[tuple[bool, str]]) -> str:
    """The opponents' CPU level: ``seats`` are (is_cpu, cpu_level) by position."""
    partner = state.rules.partner(state, seat)
    levels = {
        level for pos, (is_cpu, level) in enumerate(seats) if pos not in (seat, partner) and is_cpu
    }
    if not levels:
        return "none"
    return levels.pop() if len(levels) == 1 else "mixed"


def own_turn(state: Any, seat: int, turn_no: int) -> int:
    """The seat's own turn number (1-based) of the hand's turn ``turn_no``: play passes
    from a seat to the next, starting with the starter."""
    return (turn_no - (seat - state.starter) % state.n_players) // state.n_players + 1


def _fed(state: Any, seat: int, result: dict) -> int:
    finisher = result.get("finisher")
    if finisher is None or finisher != state.next_seat(seat):
        return 0
    last = next(
        (a for a in reversed(state.actions) if a["seat"] == finisher and a["type"] in DRAWS), None
    )
    return 1 if last is not None and last["type"] == "take" else 0


def _wasted(state: Any, seat: int, result: dict) -> int:
    nxt = state.next_seat(seat)
    took = state.took[nxt] if state.took else ()
    out = [t for t in state.discards[seat] if state.is_okey(t)]
    # what the next seat took came from this seat's pile (a take is from the previous seat)
    out += [t for t in took if state.is_okey(t)]
    last = (result.get("detail") or {}).get("last_tile")
    if result.get("finisher") == seat and last is not None and state.is_okey(last):
        out.remove(last)  # the okey finish [D33] is no waste
    return len(out)


def seat_stats(state: Any, seat: int, seats: Sequence[tuple[bool, str]]) -> dict[str, Any]:
    """The figures of ``seat`` in the finished hand ``state`` (see the module's
    docstring); ``seats``: (is_cpu, cpu_level) of every seat, by position."""
    if not state.over or state.result is None:
        raise ValueError("the hand is not over")
    rules = rules_for(state.variant)
    result = state.result
    opening_turn = None
    if not rules.whole_rack and state.opened_turn and state.opened_turn[seat] is not None:
        opening_turn = own_turn(state, seat, state.opened_turn[seat])
    penalties: dict[str, list[int]] = {}
    for line in state.scores:
        if line["seat"] != seat:
            continue
        cost = -line["points"] if rules.higher_wins else line["points"]
        if cost > 0:
            entry = penalties.setdefault(line["reason"], [0, 0])
            entry[0] += 1
            entry[1] += cost
    okey_kind = state.okey_kind
    return {
        "seat": seat,
        "variant": state.variant,
        "total": state.hand_totals()[seat],
        "won": result.get("finisher") == seat,
        "ending": str(result.get("ending") or ""),
        "opening_turn": opening_turn,
        "okeys_kept": sum(1 for t in state.racks[seat] if kind_of(t) == okey_kind),
        "okeys_wasted": _wasted(state, seat, result),
        "fed": _fed(state, seat, result),
        "penalties": penalties,
        "cpu_level": opponents_level(state, seat, seats),
    }


def win_kinds(ending: str) -> tuple[bool, bool, bool]:
    """How a hand was won, from its ending code: (with an okey, with pairs, laid down at
    once). Whole-rack codes: ``close``, ``okey_close``, ``pairs_close``,
    ``pairs_okey_close``; lay-down codes: ``hand``/``finish``, ``okey``, ``pairs``,
    ``pairs_okey``, ``direct`` and ``direct_*`` [D21] [D33]."""
    return "okey" in ending, "pairs" in ending, ending.startswith("direct")


def par_value(par: Any) -> int | None:
    """The par score in what the review sends (``par_ready``): the stored dict's ``par``
    (or a bare number); None when there is none."""
    if isinstance(par, dict):
        par = par.get("par")
    if isinstance(par, bool) or not isinstance(par, (int, float)):
        return None
    return round(par)


def analysis_figures(summary: Any) -> tuple[int, int, int] | None:
    """(decisions, accuracy, value lost in thousandths of a point) of a hand's analysis:
    the review's ``analysis_ready`` summary (``accuracy``, ``value_lost``: the hand's
    total, ``decisions``) or a stored analysis (``decisions`` a list of valued decisions).
    None without a counted decision."""
    if not isinstance(summary, dict):
        return None
    decisions = summary.get("decisions")
    lost = summary.get("value_lost")
    if isinstance(decisions, list):
        if lost is None:  # rounded as the review rounds its summary's
            lost = round(sum(float(d.get("loss", 0)) for d in decisions), 3)
        decisions = len(decisions)
    accuracy = summary.get("accuracy")
    if not isinstance(decisions, int) or decisions <= 0 or accuracy is None:
        return None
    return decisions, round(accuracy), round(float(lost or 0) * 1000)
