"""``101`` (no seed text: public sources, RULES.md §6): 101 Okey (Yüzbir).

Lay melds on the table: open with 101 in runs and groups or with five pairs [D28] [D29];
+101 for an işlek or okey discard [D32] [D37]; the finisher writes −101, an unopened
rival 202, an opened rival the numbers left in the rack (an okey 101 [D34]); the okey,
pairs and elden [D33] endings each double, together; a 2v2 option [D36]; 1 to 11 hands.

The closest rule set is ``fifty-one`` (lay-down, sum values, a five-pairs opening,
partners opposite), so this one subclasses it and overrides what differs: 21/22 tiles
[D25], 1 low only, the 101 threshold without doubling [D28], taking the discard [D30],
free lay-offs and swaps [D31], pairs openers adding single tiles [D31], the penalties
[D32] and the scoring table with [D33]-[D36].

Decisions taken here where the rules document is silent:

* [D30] a discard taken before opening goes into the opening itself
  (``opening_refusal``): an opening that leaves it out is refused
  (``must_use_taken_discard``), so it cannot reach 101 without the tile and then lay the
  tile afterwards. Once opened, it is used in a new meld, added to a table meld or
  swapped in for an okey on the table (a swap puts it on a table meld).
* A pairs opener may also swap an okey out of a meld (they may add, [D31]; a swap adds a
  tile to a meld).
* An okey discard is one +101 whether or not it fits a meld on the table [D37]; the
  line's reason is ``okey_discarded`` (it goes through, unlike ``seventeen``'s
  ``okey_discard``, which returns to the rack).
* Ending codes: ``hand`` (normal), ``okey``, ``pairs``, ``direct`` (elden [D33]: the same
  reading as ``seventeen``'s direct close [D21]), ``direct_okey``, ``exhausted`` (shared
  texts); ``pairs_okey``, ``direct_pairs`` and ``direct_pairs_okey`` are this rule set's
  (``ending_labels``; an elden pairs finish cannot arise, [D33], but is named anyway).
* Score-line details: a ``tiles_left`` line's ``sum`` is Σ with each okey at 101 [D34]
  (``okeys_left`` says how many of it are okeys) and its ``multiplier`` is m, doubled for
  a pairs opener; ``finished`` and ``not_opened`` lines carry ``multiplier`` too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import scoring
from ..refusals import Refusal
from ..rulebase import (
    COMMON_OPTIONS,
    PAIRS_OPENING,
    WHY_ENDING_X,
    WHY_SUM_COUNTS_OKEYS,
    ResultProblem,
    gettext_noop,
    lay_down_result_problems,
    why,
)
from ..table import is_usable
from ..tiles import kind_of
from .fifty_one import FiftyOneRules

if TYPE_CHECKING:
    from ..state import HandState
    from ..table import TableMeld

OPENING = 101  # [D28] every runs-and-groups opening needs 101, never more
PENALTY = 101  # [D32] an işlek or okey discard
FINISH = -101  # the finisher's line, × m
NOT_OPENED = 202  # an unopened rival's line, × m
OKEY_LEFT = 101  # [D34] an okey left in an opened rival's rack counts 101 in Σ
# [D33]: an elden pairs finish cannot arise (with nobody else opened no run or group takes
# the pairs player's odd tile), so the largest multiplier a hand can have is 4 (elden or
# pairs, with an okey as the last discard).
MAX_MULTIPLIER = 4


def ending_code(elden: bool, pairs: bool, okey: bool) -> str:
    """The ending's code: its factors (× 2 each [D33]) named together."""
    if elden:
        return "direct" + ("_pairs" if pairs else "") + ("_okey" if okey else "")
    if pairs:
        return "pairs_okey" if okey else "pairs"
    return "okey" if okey else "hand"


class Okey101Rules(FiftyOneRules):
    """101 Okey (RULES.md §6): open with 101 or five pairs, ±101 scoring, × 2 endings."""

    name = "101"
    label = gettext_noop("101 Okey")
    title = "101 Okey (lay-down okey, Yüzbir)"
    seed = ""
    order = 50
    rack_size = 21  # [D25] 21 each, the starter 22; 20 stay in the pile
    options = {
        "players": ((4,), 4),
        "partners": ((False, True), False),  # [D36]
        "hands": ((1, 3, 5, 7, 9, 11), 3),
        "clock": ((0, 15, 30, 60), 0),  # on time-out the seat's CPU plays the turn
        **COMMON_OPTIONS,
    }
    reason_labels = {
        "okey_discarded": gettext_noop("Discarded an okey"),
    }
    ending_labels = {
        "pairs_okey": gettext_noop("%(name)s finished with pairs and discarded an okey."),
        "direct_pairs": gettext_noop("%(name)s laid down the whole rack at once, in pairs."),
        "direct_pairs_okey": gettext_noop(
            "%(name)s laid down the whole rack at once, in pairs, and discarded an okey."
        ),
    }
    problem_texts = {
        "out_of_range": gettext_noop(
            "Impossible: a finish earns at most 404 in a hand (a pairs finish or a finish "
            "from the hand, with an okey as the last discard), so no total is below -404 per "
            "hand."
        ),
        "impossible_total": gettext_noop(
            "The scores are too low together: in every hand each rival of the finisher "
            "(except a partner) pays for at least one tile left, so a hand adds up to at "
            "least -392 (-396 with partners)."
        ),
    }
    ace_high = False  # 1-2-3 only: 12-13-1 and 13-1-2 are not runs
    values = "sum"  # each tile its number, an okey the tile it plays
    pairs_opening_min_pairs = 5
    okey_discard_penalised = True  # [D32] marks an okey as a penalised discard
    # CPU hooks (rulebase.Rules): lay-offs are free [D31] (not fifty-one's charge to the
    # owner); an opened loser pays the numbers left, Σ; an unopened loser pays 202, so a
    # discard the next player could open with is a risk; a pair's value does not matter
    cpu_lays_off_on_rivals_first = False
    cpu_sheds_high_tiles = True
    cpu_fears_next_opener = True
    cpu_pairs_low_first = False

    def taken_in_new_meld(self, opened: str | None) -> bool:
        return True  # [D30] once opened, a new meld may hold it too

    def opening_refusal(self, state: HandState, seat: int, tiles: list[int]) -> Refusal | None:
        # [D30] a discard taken before opening goes into the opening itself
        if state.taken is not None and state.taken not in tiles:
            return Refusal(
                "must_use_taken_discard", "A discard taken before opening must be in it."
            )
        return None

    def opener_may_add(self, opened: str) -> bool:
        return True  # [D31] pairs openers add single tiles too

    def opening_min(self, state: HandState, kind: str) -> int:
        if kind == PAIRS_OPENING:
            return 0  # five pairs, whatever their values
        return OPENING  # [D28] no doubling

    def after_open(self, state: HandState, kind: str, total: int) -> int | None:
        return state.limit  # [D28] an opening sets no limit for the others

    def take_lines(self, state: HandState, taker: int, discarder: int, tile: int) -> list[dict]:
        return []  # [D30] a taken discard costs the discarder nothing

    def add_lines(
        self, state: HandState, seat: int, meld: TableMeld, tile: int, kind: int
    ) -> list[dict]:
        return []  # [D31] adding to anyone's meld is free

    def swap_lines(self, state: HandState, seat: int, meld: TableMeld, kind: int) -> list[dict]:
        return []  # [D31] swapping an okey out of anyone's meld is free

    def discard_lines(self, state: HandState, seat: int, tile: int, final: bool) -> list[dict]:
        """[D32] +101 to the discarder (opened or not) for an okey [D37: once] or a tile
        that fits a table meld; the finishing discard is exempt; the discard goes through."""
        if final:
            return []
        if kind_of(tile) == state.okey_kind:
            return [scoring.line(seat, PENALTY, "okey_discarded", tile=tile)]
        if is_usable(tile, state.melds, state.okey_kind, self.ace_high):
            return [scoring.line(seat, PENALTY, "penalty_tile", tile=tile)]
        return []

    def discard_penalty(self, state: HandState, seat: int, tile: int) -> tuple[int, str] | None:
        """[D32] an okey, or an işlek tile (it fits a meld on the table): 101 points; the
        discard goes through."""
        lines = self.discard_lines(state, seat, tile, self.finishes_by_discard(state, seat))
        if not lines:
            return None
        points = sum(ln["points"] for ln in lines if ln["seat"] == seat)
        if lines[0]["reason"] == "okey_discarded":
            return points, gettext_noop(
                "Discarding the okey costs you %(points)s points before the last tile."
            )
        return points, gettext_noop(
            "%(tile)s fits a meld on the table (işlek): discarding it costs you %(points)s points."
        )

    def is_elden(self, state: HandState, finisher: int) -> bool:
        """[D33] the finisher opened in this same turn while nobody else had opened."""
        return state.opened_turn[finisher] == state.turn_no and all(
            o is None for s, o in enumerate(state.opened) if s != finisher
        )

    def end_lines(
        self, state: HandState, finisher: int | None, okey_end: bool
    ) -> tuple[str, list[dict]]:
        """The scoring table of §6: m = 2 per factor (okey, pairs, elden) [D33]; the
        finisher −101 × m; an opened rival Σ × m (× 2 again for a pairs opener), an okey
        left 101 [D34]; never opened 202 × m; the finisher's partner 0 [D36]; an exhausted
        pile [D35]: no finisher, m = 1."""
        lines: list[dict] = []
        if finisher is None:
            ending, m, partner = "exhausted", 1, None
        else:
            elden = self.is_elden(state, finisher)
            pairs = state.opened[finisher] == PAIRS_OPENING
            ending = ending_code(elden, pairs, okey_end)
            m = (2 if elden else 1) * (2 if pairs else 1) * (2 if okey_end else 1)
            partner = self.partner(state, finisher)
            lines.append(
                scoring.line(finisher, FINISH * m, "finished", ending=ending, multiplier=m)
            )
        for s, rack in enumerate(state.racks):
            if s == finisher:
                continue
            if s == partner:
                lines.append(
                    scoring.line(s, 0, "partner_finished", ending=ending, partner=finisher)
                )
            elif state.opened[s] is None:
                lines.append(
                    scoring.line(s, NOT_OPENED * m, "not_opened", ending=ending, multiplier=m)
                )
            else:
                plain, okeys = scoring.rack_sum(rack, state.okey_kind)
                total = plain + OKEY_LEFT * okeys  # [D34]
                mult = m * (2 if state.opened[s] == PAIRS_OPENING else 1)
                lines.append(
                    scoring.line(
                        s,
                        total * mult,
                        "tiles_left",
                        ending=ending,
                        sum=total,
                        okeys_left=okeys,
                        okey_value=OKEY_LEFT,
                        multiplier=mult,
                        tiles=len(rack),
                    )
                )
        return ending, lines

    def line_why(self, reason: str, d: dict[str, Any]) -> list[dict[str, Any]]:
        """The finisher's and an unopened rival's lines say the ending's multiplier when it
        is more than 1 (okey, pairs, elden: × 2 each [D33])."""
        if reason in ("finished", "not_opened"):
            m = d.get("multiplier", 1)
            return [why(WHY_ENDING_X, m=m)] if m > 1 else []
        return super().line_why(reason, d)

    def tiles_left_why(self, d: dict[str, Any]) -> list[dict[str, Any]]:
        """The sum counts each okey left at 101 [D34]: say how many."""
        parts = super().tiles_left_why(d)
        if d.get("okeys_left") and "okey_value" in d:
            parts.append(why(WHY_SUM_COUNTS_OKEYS, n=d["okeys_left"], each=d["okey_value"]))
        return parts

    def score_hint(self, options: dict) -> tuple[str, dict[str, Any]]:
        return (
            gettext_noop(
                "101 Okey: enter each seat's penalty total over the %(n)s hand(s) (a finish "
                "counts as minus)."
            ),
            {"n": options["hands"]},
        )

    def result_problems(self, options: dict, scores: list[int]) -> list[ResultProblem]:
        """§6, [D32]-[D36]: the lines are 101 × m, 202 × m and Σ × m with any Σ, so any
        whole number may occur (multiple 1). Only a finisher scores below zero, at most
        101 × 4 a hand (``MAX_MULTIPLIER``); the penalties only add. Each rival of a
        finisher keeps at least one tile (Σ ≥ 1) or never opened (202 × m), a partner
        pays 0: the lowest hand is a pairs finish with an okey, −404 + 3 × 4 (solo) or
        + 2 × 4 (partners); an elden finish leaves every rival unopened, and an exhausted
        pile has no finisher, so both add up to more."""
        finisher_min = FINISH * MAX_MULTIPLIER
        rivals = 2 if options["partners"] else 3
        return lay_down_result_problems(
            scores,
            hands=options["hands"],
            multiple=1,
            finisher_min=finisher_min,
            hand_sum_min=finisher_min + rivals * MAX_MULTIPLIER,
        )
