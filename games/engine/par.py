"""Par: the score the expert makes from one seat on a finished hand's deal.

``par_for_seat(initial_state, seat) -> ParResult`` plays the hand again from its deal
(the same seed, starter, options and game context as the real hand: the state
``new_hand`` dealt for it) with the expert CPU in ``seat`` and the hard CPU in every other
seat, to the hand's end, and returns the seat's hand total there (the *par*, in the rule
set's own points), the actions played and the luck of the deal.

Determinism. The deal fixes every rack and the order of the pile (RULES.md §1), so once
the policies are fixed the replay is a function of the deal alone:

* the seat to move is ``state.turn`` (``seat_to_move``): only the free actions (flip,
  arrange) may be played out of turn, and no CPU ever plays one, so this is the seat the
  live table's sweeper asks its CPU for (games/live/actions/sweep.py);
* each move is ``bots.choose_action(state, seat, level)`` with no ``rng``: a level's
  random stream is then seeded from public data of the seat's view (``core.seed_rng``:
  variant, version, seat, indicator, own rack), so the same state always gives the same
  move, in any process; equal candidates are ordered by tile id (hard sorts its discards
  by cost, then id) or kept in the move generator's order, and the expert's opening
  search is bounded in search steps, not in time (bots/README.md), so a tie is broken
  the same way every time;
* no clock is read: no turn runs out in a par replay (a timed-out turn is the live
  table's, not the expert's play).

A test replays the returned actions through ``games.engine.apply`` from the same deal and
gets the same totals, checks every move is the policy's, and plays the same seat in
processes of different ``PYTHONHASHSEED`` with the same moves.

A replay that has not ended after ``MAX_ACTIONS`` actions (no hand of the bots comes near:
the pile runs out first) raises ``ParError("par_unfinished")``.

Luck of the deal (``luck_of``): how far the seat's starting rack is from winning
(whole-rack rule sets) or from an opening (lay-down rule sets), in tiles to replace
(``efficiency.deficiency``), placed among the starting racks of ``LUCK_SEEDS`` sample deals
of the same rule set at its default options (``LUCK_TABLE``: per rule set, the starter's
rack and the others' apart, as the starter holds one tile more; ``luck_table`` recomputes
it and a test checks the stored one). Its *rank* is the share of sample racks that were
closer plus half of those as close (0: the best start, 1: the worst); below ``LUCKY_BELOW``
it is "lucky", above ``UNLUCKY_ABOVE`` "unlucky", else "average".
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .actions import apply
from .bots import choose_action
from .efficiency import deficiency
from .rules import rules_for
from .state import HandState, new_hand

MAX_ACTIONS = 3000
PAR_LEVEL = "expert"  # the seat whose par it is
OTHERS_LEVEL = "hard"  # every other seat

LUCK_SEEDS = 500  # deals "luck/0" … "luck/499", starter 0
LUCKY_BELOW = 1 / 3
UNLUCKY_ABOVE = 2 / 3

# How far the starting racks of the sample deals were from winning (whole-rack) or from an
# opening (lay-down): {rule set: {"starter" | "other": {tiles: racks}}}, written by
# ``luck_table`` (500 deals: 500 starters' racks and 1500 others').
LUCK_TABLE: dict[str, dict[str, dict[int, int]]] = {
    "classic": {
        "starter": {1: 3, 2: 27, 3: 161, 4: 220, 5: 87, 6: 2},
        "other": {1: 1, 2: 49, 3: 273, 4: 711, 5: 437, 6: 29},
    },
    "rummy": {
        "starter": {1: 3, 2: 27, 3: 161, 4: 220, 5: 87, 6: 2},
        "other": {1: 1, 2: 49, 3: 273, 4: 711, 5: 437, 6: 29},
    },
    "fifty-one": {
        "starter": {0: 111, 1: 267, 2: 118, 3: 4},
        "other": {0: 289, 1: 691, 2: 492, 3: 28},
    },
    "seventeen": {
        "starter": {0: 149, 1: 277, 2: 73, 3: 1},
        "other": {0: 375, 1: 760, 2: 359, 3: 6},
    },
    "101": {
        "starter": {0: 110, 1: 234, 2: 141, 3: 15},
        "other": {0: 284, 1: 608, 2: 512, 3: 95, 4: 1},
    },
}


class ParError(ValueError):
    """A par that cannot be made: a stable ``code`` and an English ``message``."""

    MESSAGES = {
        "par_not_at_deal": "A par is played from the deal: the state must have no action yet.",
        "par_bad_seat": "That seat is not at this table.",
        "par_unfinished": "The expert's replay of this deal did not end within the action cap.",
    }

    def __init__(self, code: str, **detail: Any) -> None:
        self.code = code
        self.message = self.MESSAGES[code]
        self.detail = detail
        super().__init__(f"{code}: {self.message}")

    def __reduce__(self):  # crosses process boundaries whole (the site's worker)
        return (ParError, (self.code,), {"detail": self.detail})


@dataclass(frozen=True)
class Luck:
    """The luck of a seat's deal: ``tiles`` to replace to win (or open), the ``usual``
    figure (the sample's median), ``rank`` (0 best … 1 worst) and ``word``."""

    tiles: int
    usual: int
    rank: float
    word: str  # "lucky", "average" or "unlucky"
    goal: str  # "win" (whole-rack rule sets) or "open" (lay-down)

    def to_json(self) -> dict[str, Any]:
        return {
            "tiles": self.tiles,
            "usual": self.usual,
            "rank": round(self.rank, 3),
            "word": self.word,
            "goal": self.goal,
        }


@dataclass(frozen=True)
class ParResult:
    """One seat's par: ``par`` is its hand total in the expert's replay (``totals`` holds
    every seat's), ``actions`` the replay's actions in order, ``ending`` how it ended."""

    seat: int
    par: int
    totals: tuple[int, ...]
    ending: str
    actions: tuple[dict, ...] = field(repr=False)
    luck: Luck

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "par": self.par,
            "totals": list(self.totals),
            "ending": self.ending,
            "actions": len(self.actions),
            "luck": self.luck.to_json(),
        }


def seat_to_move(state: HandState) -> int:
    """The seat whose move the hand waits for (the live table's sweeper asks the same)."""
    return state.turn


def level_of(seat: int, par_seat: int) -> str:
    return PAR_LEVEL if seat == par_seat else OTHERS_LEVEL


def par_for_seat(initial_state: HandState, seat: int) -> ParResult:
    """The expert's par for ``seat`` on the deal ``initial_state`` (see the module doc)."""
    if initial_state.actions:
        raise ParError("par_not_at_deal", actions=len(initial_state.actions))
    if type(seat) is not int or not 0 <= seat < initial_state.n_players:
        raise ParError("par_bad_seat", seat=seat)
    state = initial_state
    for _ in range(MAX_ACTIONS):
        if state.over:
            break
        mover = seat_to_move(state)
        state, _events = apply(state, choose_action(state, mover, level_of(mover, seat)))
    if not state.over:
        raise ParError("par_unfinished", actions=len(state.actions))
    assert state.result is not None  # a hand that is over has its result
    totals = tuple(state.hand_totals())
    return ParResult(
        seat=seat,
        par=totals[seat],
        totals=totals,
        ending=state.result["ending"],
        actions=state.actions,
        luck=luck_of(initial_state, seat),
    )


def par_of_record(record: Mapping[str, Any], seat: int) -> tuple[dict[str, Any], float]:
    """``par_for_seat`` of a hand's record (variant, options, seed, starter, context; its
    actions are not read) as JSON (``ParResult.to_json``), with the CPU seconds the
    calling thread spent on it (``time.thread_time``). Picklable in and out: the site
    runs it in a worker process."""
    start = time.thread_time()
    initial = new_hand(
        record["variant"],
        record.get("options"),
        record["seed"],
        record["starter"],
        context=record.get("context"),
    )
    found = par_for_seat(initial, seat)
    return found.to_json(), time.thread_time() - start


def versus_par(result: int, par: int, variant: str) -> int:
    """How much better than par ``result`` is, in the rule set's points: positive when
    the player did better (higher where the highest total wins, ``Rules.higher_wins``,
    lower where the lowest does)."""
    return result - par if rules_for(variant).higher_wins else par - result


# ------------------------------------------------------------------ luck of the deal


def tiles_from_goal(state: HandState, seat: int) -> int:
    """Tiles ``seat``'s rack in ``state`` must replace to win (whole-rack) or to open
    (lay-down), as ``efficiency.deficiency`` counts them."""
    return deficiency(
        state.racks[seat],
        state.okey_kind,
        state.rules,
        opened=state.opened[seat] is not None,
        limit=state.limit,
        options=state.options,
    )


def luck_table(variant: str, seeds: int = LUCK_SEEDS) -> dict[str, dict[int, int]]:
    """How far the starting racks of ``seeds`` sample deals of ``variant`` (default
    options, starter 0, seeds ``luck/<i>``) are from the goal: per position ("starter",
    "other"), racks per distance. ``LUCK_TABLE`` holds its answers."""
    out: dict[str, dict[int, int]] = {"starter": {}, "other": {}}
    for i in range(seeds):
        state = new_hand(variant, None, f"luck/{i}", 0)
        for s in range(state.n_players):
            d = tiles_from_goal(state, s)
            counts = out["starter" if s == state.starter else "other"]
            counts[d] = counts.get(d, 0) + 1
    return {k: dict(sorted(v.items())) for k, v in out.items()}


_computed: dict[str, dict[str, dict[int, int]]] = {}


def _table(variant: str) -> dict[str, dict[int, int]]:
    """The stored table of ``variant``; a rule set registered since is sampled once."""
    if variant in LUCK_TABLE:
        return LUCK_TABLE[variant]
    if variant not in _computed:
        _computed[variant] = luck_table(variant)
    return _computed[variant]


def rank_in(counts: Mapping[int, int], tiles: int) -> float:
    """The share of ``counts``' racks closer than ``tiles``, plus half of those as close."""
    total = sum(counts.values())
    closer = sum(n for d, n in counts.items() if d < tiles)
    return (closer + counts.get(tiles, 0) / 2) / total


def median_of(counts: Mapping[int, int]) -> int:
    total, seen = sum(counts.values()), 0
    for d in sorted(counts):
        seen += counts[d]
        if 2 * seen >= total:
            return d
    raise ValueError("an empty table")


def word_for(rank: float) -> str:
    if rank < LUCKY_BELOW:
        return "lucky"
    if rank > UNLUCKY_ABOVE:
        return "unlucky"
    return "average"


def luck_of(initial_state: HandState, seat: int) -> Luck:
    """The luck of ``seat``'s starting rack in ``initial_state`` (the deal)."""
    counts = _table(initial_state.variant)["starter" if seat == initial_state.starter else "other"]
    tiles = tiles_from_goal(initial_state, seat)
    rank = rank_in(counts, tiles)
    return Luck(
        tiles=tiles,
        usual=median_of(counts),
        rank=rank,
        word=word_for(rank),
        goal="win" if initial_state.rules.whole_rack else "open",
    )


__all__ = [
    "LUCK_SEEDS",
    "LUCK_TABLE",
    "MAX_ACTIONS",
    "Luck",
    "ParError",
    "ParResult",
    "luck_of",
    "luck_table",
    "par_for_seat",
    "par_of_record",
    "seat_to_move",
    "versus_par",
]
