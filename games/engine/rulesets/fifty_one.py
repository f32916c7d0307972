"""``fifty-one`` (seeds 000 and 002, RULES.md §4): the 51 barrier, doubling, lay-offs onto
rivals, penalty tiles, a pairs opening, 2v2.

Decisions taken here where the rules document is silent (also listed in API.md):

* a taken discard is used in the opening or on a table meld (added, or swapped in for an
  okey); after opening it never goes into a new meld (refusal ``taken_not_in_new_meld``), so
  a pairs opener, who never adds, cannot use one;
* a pairs opener never swaps okeys either (a swap adds a tile to a meld); a runs-and-groups
  opener lays runs and groups only; a taken okey costs the discarder 10 × its printed
  number; an okey is a penalty tile only while some table meld can still take it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import scoring
from ..melds import sum_value
from ..rulebase import (
    COMMON_OPTIONS,
    PAIRS_OPENING,
    WHY_OKEYS_AT,
    WHY_PILE_RAN_OUT,
    WHY_TILES_LEFT_WORTH,
    LayDownRules,
    ResultProblem,
    gettext_noop,
    lay_down_result_problems,
    why,
)
from ..table import face_number, is_usable
from ..tiles import kind_of, number_of_kind

if TYPE_CHECKING:
    from ..state import HandState
    from ..table import TableMeld


class FiftyOneRules(LayDownRules):
    """fifty-one (seeds 000/002): 51 barrier, doubling [D10], lay-offs, penalty tiles."""

    name = "fifty-one"
    label = gettext_noop("Fifty-one")
    title = "Fifty-one (lay-down okey)"
    seed = "000/002"
    order = 30
    options = {
        "players": ((4,), 4),
        "partners": ((False, True), False),
        "doubling": ((True, False), True),
        "hands": ((1, 3), 1),
        "clock": ((0, 15, 30, 60), 30),
        **COMMON_OPTIONS,
    }
    problem_texts = {
        "impossible_total": gettext_noop(
            "The scores are too low together: in every hand each rival of the finisher pays at "
            "least 5 for the tiles left, so a hand adds up to at least -970."
        ),
        "not_multiple": gettext_noop("Every Fifty-one score is a multiple of 5."),
    }
    values = "sum"
    pairs_opening_min_pairs = 5
    # CPU hooks (rulebase.Rules): lay-offs cost rivals, the rack's numbers cost its owner
    cpu_lays_off_on_rivals_first = True
    cpu_sheds_high_tiles = True

    def game_hands(self, options: dict) -> int | None:
        return options["hands"]

    def teams(self, options: dict) -> list[list[int]] | None:
        return [[0, 2], [1, 3]] if options.get("partners") else None  # [D14]

    def partner(self, state: HandState, seat: int) -> int | None:
        if state.options.get("partners"):
            return (seat + 2) % 4
        return None

    def meld_value(self, kind: str, plays: tuple[int, ...]) -> int:
        return sum_value(plays)  # [D9]

    def taken_in_new_meld(self, opened: str | None) -> bool:
        # seeds 000/002 ("en tu apertura o añadiéndola a una combinación", "in deiner
        # Eröffnung oder beim Anlegen"): a taken discard goes into the opening or onto a
        # meld on the table; once opened, never into a new meld
        return opened is None

    def opening_min(self, state: HandState, kind: str) -> int:
        if kind == PAIRS_OPENING:
            return 0  # no barrier, no doubling for pairs
        if state.options.get("doubling", True) and state.limit is not None:
            return max(51, state.limit + 1)  # [D10] strictly exceed the highest so far
        return 51

    def after_open(self, state: HandState, kind: str, total: int) -> int | None:
        if kind == PAIRS_OPENING:
            return state.limit  # pairs openings neither need nor set it
        return total if state.limit is None else max(state.limit, total)

    def take_lines(self, state: HandState, taker: int, discarder: int, tile: int) -> list[dict]:
        if self.same_side(state, taker, discarder):
            return []
        n = face_number(tile, state.okey_kind)
        return [scoring.line(discarder, 10 * n, "discard_taken", tile=tile, by=taker)]

    def add_lines(
        self, state: HandState, seat: int, meld: TableMeld, tile: int, kind: int
    ) -> list[dict]:
        if self.same_side(state, seat, meld.owner):
            return []  # [D11] own or partner's meld: free
        n = number_of_kind(kind)
        return [
            scoring.line(
                meld.owner, 10 * n, "layoff", tile=tile, by=seat, meld=meld.id,
                okey=kind_of(tile) == state.okey_kind,
            )
        ]  # fmt: skip

    def swap_lines(self, state: HandState, seat: int, meld: TableMeld, kind: int) -> list[dict]:
        if self.same_side(state, seat, meld.owner):
            return []
        n = number_of_kind(kind)
        return [scoring.line(meld.owner, 100 + 10 * n, "okey_swap", by=seat, meld=meld.id)]

    def discard_lines(self, state: HandState, seat: int, tile: int, final: bool) -> list[dict]:
        if final:
            return []  # the discard that finishes the hand is exempt
        if is_usable(tile, state.melds, state.okey_kind, self.ace_high):
            return [scoring.line(seat, 100, "penalty_tile", tile=tile)]
        return []

    def discard_penalty(self, state: HandState, seat: int, tile: int) -> tuple[int, str] | None:
        """A penalty tile (RULES.md §4): it completes a meld on the table; 100 points."""
        lines = self.discard_lines(state, seat, tile, self.finishes_by_discard(state, seat))
        if not lines:
            return None
        points = sum(ln["points"] for ln in lines if ln["seat"] == seat)
        return points, gettext_noop(
            "%(tile)s completes a meld on the table: discarding it costs you %(points)s "
            "points (a penalty tile)."
        )

    def end_lines(
        self, state: HandState, finisher: int | None, okey_end: bool
    ) -> tuple[str, list[dict]]:
        if finisher is None:
            ending = "exhausted"
            pts_ending = "hand"  # same multipliers as an ending from the hand
        elif okey_end:
            ending = pts_ending = "okey"
        elif state.opened[finisher] == PAIRS_OPENING:
            ending = pts_ending = "pairs"
        else:
            ending = pts_ending = "hand"
        partner = self.partner(state, finisher) if finisher is not None else None
        lines = scoring.fifty_one_end_lines(
            state.racks, state.opened, state.okey_kind, pts_ending, finisher, partner
        )
        if finisher is None:
            for ln in lines:
                ln["detail"]["ending"] = "exhausted"
        return ending, lines

    def humans_opposite(self, options: dict) -> bool:
        return bool(options.get("partners"))  # [D14] partners sit opposite

    def line_why(self, reason: str, d: dict[str, Any]) -> list[dict[str, Any]]:
        """An opened rival's tiles left: how many, worth what, × m (×5, or ×10 after a pairs
        or okey finish or for a pairs opener, RULES.md §4 Ending), its okeys at 100 × m
        [D20], and that the pile ran out [D4] when it did."""
        if reason == "tiles_left" and "multiplier" in d:
            parts = self.tiles_left_why(d)
            if d.get("ending") == "exhausted":
                parts.append(why(WHY_PILE_RAN_OUT))
            return parts
        return super().line_why(reason, d)

    def tiles_left_why(self, d: dict[str, Any]) -> list[dict[str, Any]]:
        m = d["multiplier"]
        parts = [why(WHY_TILES_LEFT_WORTH, tiles=d.get("tiles", 0), sum=d.get("sum", 0), m=m)]
        if d.get("okeys"):
            parts.append(why(WHY_OKEYS_AT, n=d["okeys"], each=100 * m))
        return parts

    def score_hint(self, options: dict) -> tuple[str, dict[str, Any]]:
        return (
            gettext_noop(
                "Fifty-one: enter each seat's penalty total over the %(n)s hand(s), in "
                "multiples of 5 (a finish counts as minus)."
            ),
            {"n": options["hands"]},
        )

    def result_problems(self, options: dict, scores: list[int]) -> list[ResultProblem]:
        """§4, [D14], [D20]: every line is a multiple of 5 (±500/±1000, Σ × 5 or × 10,
        100 × m per okey, lay-offs 10 × n, swaps 100 + 10 × n, penalty tile 100, taken
        discard 10 × n); nobody scores below −1000 a hand; each rival of a finisher holds a
        tile, so pays at least 5 (10 after a pairs/okey finish), a partner 0: the worst hand
        adds up to −1000 + 30 (solo) or + 20 (partners)."""
        hand_min = -1000 + (20 if options["partners"] else 30)
        return lay_down_result_problems(
            scores, hands=options["hands"], multiple=5, finisher_min=-1000, hand_sum_min=hand_min
        )
