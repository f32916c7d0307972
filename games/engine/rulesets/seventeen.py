"""``seventeen`` (seed 004, RULES.md §5): limit 17, meld values, joker-colour base.

Decisions taken here where the rules document is silent (also listed in API.md): the
finishing discard is exempt from the usable-tile penalty (as in fifty-one); a penalised
discard (usable tile, okey) goes back to the rack only when a penalty-free discard exists,
otherwise it goes through, penalty paid; "one tile per meld end per turn" gives a run two
ends and a group one slot; a direct close [D21] is a finish by a player who opened in that
same turn while nobody else had; a taken discard inside a provisional opening that falls
short refuses the discard (``must_use_taken_discard``: undo the take).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import scoring
from ..melds import GROUP, seventeen_value
from ..refusals import Refusal
from ..rulebase import (
    COMMON_OPTIONS,
    PAIRS_OPENING,
    WHY_DIRECT_X4,
    WHY_OKEY_FINISH_X2,
    WHY_PAIRS_X,
    WHY_TENTH_OF_BASE,
    WHY_THE_BASE,
    WHY_TILES_LEFT_X10,
    LayDownRules,
    ResultProblem,
    gettext_noop,
    lay_down_result_problems,
    why,
)
from ..table import is_usable
from ..tiles import kind_of, number_of_kind

if TYPE_CHECKING:
    from ..state import HandState
    from ..table import TableMeld


class SeventeenRules(LayDownRules):
    """seventeen (seed 004): limit 17 [D17], meld values, joker-colour base."""

    name = "seventeen"
    label = gettext_noop("Seventeen")
    title = "Seventeen (lay-down okey)"
    seed = "004"
    order = 40
    records = True  # §5: solo is seven rounds; the public record board is its own
    options = {
        "players": ((4,), 4),
        "rounds": ((7,), 7),
        "clock": ((0, 15, 30, 60), 0),
        **COMMON_OPTIONS,
    }
    problem_texts = {
        "impossible_total": gettext_noop(
            "The scores are too low together: in every hand the three other players pay at "
            "least 10 each, so a hand adds up to at least -50."
        ),
        "not_multiple": gettext_noop("Every Seventeen score is a multiple of 10."),
    }
    ace_high = False
    values = "seventeen"
    okeys_flip = True
    okey_discard_penalised = True
    # CPU hooks (rulebase.Rules): an unopened loser pays the base; a pair counts its number
    cpu_fears_next_opener = True
    cpu_pairs_low_first = True

    def game_hands(self, options: dict) -> int | None:
        return options["rounds"]

    # where tiles may go (RULES.md §5)
    def may_lay_unopened(self, state: HandState, seat: int) -> bool:
        return True  # melds may be placed before the opening is reached (provisional)

    def opener_may_add(self, opened: str) -> bool:
        return True  # a pairs opener adds single tiles too

    def may_give_pairs(self, state: HandState, seat: int) -> bool:
        return True  # [D18] a runs-and-groups opener lays pairs onto pairs openers

    def end_used(self, state: HandState, meld_id: int, end: str) -> bool:
        return (meld_id, end) in state.turn_ends  # one tile per meld end per turn

    def swap_refusal(self, state: HandState, meld: TableMeld, okey: int) -> Refusal | None:
        if okey in state.turn_okeys:
            return Refusal(
                "swap_forbidden", "An okey placed this turn cannot be swapped out this turn."
            )
        if meld.kind == GROUP and len(meld.tiles) < 4:
            return Refusal(
                "swap_forbidden", "To take an okey out of a group it must hold four colours."
            )
        return None

    def taken_onto_table(self, opened: str | None) -> bool:
        return False  # a taken discard goes into a new meld

    def discard_goes_back(self, state: HandState, seat: int, tile: int) -> bool:
        """A penalised discard (usable tile, okey) goes back to the rack when a
        penalty-free discard exists; otherwise it goes through, penalty paid."""
        rest = [t for t in state.racks[seat] if t != tile]
        return any(not self.discard_lines(state, seat, t, False) for t in rest)

    def meld_value(self, kind: str, plays: tuple[int, ...]) -> int:
        return seventeen_value(kind, plays)

    def opening_min(self, state: HandState, kind: str) -> int:
        if kind == PAIRS_OPENING:
            return scoring.seventeen_pairs_minimum(state.limit)
        return 17 if state.limit is None else state.limit + 1

    def after_open(self, state: HandState, kind: str, total: int) -> int | None:
        if kind == PAIRS_OPENING:
            return state.limit
        return total

    def factor(self, state: HandState) -> int:
        return scoring.pair_factor(state.opened)

    def add_lines(
        self, state: HandState, seat: int, meld: TableMeld, tile: int, kind: int
    ) -> list[dict]:
        if meld.owner == seat or kind_of(tile) != state.okey_kind:
            return []  # [D23] a plain tile on a rival's meld costs nothing
        n, f = number_of_kind(kind), self.factor(state)
        return [
            scoring.line(meld.owner, 10 * n * f, "okey_given", by=seat, meld=meld.id, pair_factor=f)
        ]

    def swap_lines(self, state: HandState, seat: int, meld: TableMeld, kind: int) -> list[dict]:
        if meld.owner == seat:
            return []
        n, f = number_of_kind(kind), self.factor(state)
        return [
            scoring.line(meld.owner, 10 * n * f, "okey_taken", by=seat, meld=meld.id, pair_factor=f)
        ]

    def give_pair_lines(self, state: HandState, seat: int, to: int, kind: int) -> list[dict]:
        n, f = number_of_kind(kind), self.factor(state)
        return [scoring.line(to, 10 * n * f, "pair_given", by=seat, pair_factor=f)]  # [D18]

    def discard_lines(self, state: HandState, seat: int, tile: int, final: bool) -> list[dict]:
        if final:
            return []
        f = self.factor(state)
        if kind_of(tile) == state.okey_kind:
            base = scoring.seventeen_base(state.okey_kind)
            return [scoring.line(seat, base * f, "okey_discard", tile=tile, pair_factor=f)]
        if is_usable(tile, state.melds, state.okey_kind, self.ace_high):
            return [scoring.line(seat, 100 * f, "usable_discard", tile=tile, pair_factor=f)]
        return []

    def discard_penalty(self, state: HandState, seat: int, tile: int) -> tuple[int, str] | None:
        """RULES.md §5, Penalties: a usable tile (100 × pair factor [D22]) or an okey
        before the end (the base × pair factor); the tile comes back to the rack when
        another discard would cost nothing (``discard_goes_back``)."""
        lines = self.discard_lines(state, seat, tile, self.finishes_by_discard(state, seat))
        if not lines:
            return None
        points = sum(ln["points"] for ln in lines if ln["seat"] == seat)
        back = self.discard_goes_back(state, seat, tile)
        if lines[0]["reason"] == "okey_discard":
            if back:
                return points, gettext_noop(
                    "An okey may be discarded only to finish: this costs you %(points)s "
                    "points and the okey comes back to your rack."
                )
            return points, gettext_noop(
                "An okey may be discarded only to finish: this costs you %(points)s points."
            )
        if back:
            return points, gettext_noop(
                "%(tile)s completes a meld on the table: discarding it costs you %(points)s "
                "points and it comes back to your rack."
            )
        return points, gettext_noop(
            "%(tile)s completes a meld on the table: discarding it costs you %(points)s points."
        )

    def end_lines(
        self, state: HandState, finisher: int | None, okey_end: bool
    ) -> tuple[str, list[dict]]:
        direct = False
        if finisher is not None:
            direct = state.opened_turn[finisher] == state.turn_no and all(
                o is None for s, o in enumerate(state.opened) if s != finisher
            )
        lines = scoring.seventeen_end_lines(
            state.racks, state.opened, state.okey_kind, finisher, okey_end, direct
        )
        if finisher is None:
            ending = "exhausted"
        elif direct:
            ending = "direct_okey" if okey_end else "direct"
        else:
            ending = "okey" if okey_end else "finish"
        return ending, lines

    def humans_opposite(self, options: dict) -> bool:
        return True  # §5 online: two people sit opposite

    def line_why(self, reason: str, d: dict[str, Any]) -> list[dict[str, Any]]:
        """[D19] [D21] the finisher's tenth of the base, an opened loser's 10 per tile, an
        unopened loser's base (× 4 after a direct close); then the pair factor and the
        okey finish's × 2 on the lines they multiply."""
        if reason == "tiles_left":
            parts = [why(WHY_TILES_LEFT_X10, n=d.get("tiles", 0))]
        elif reason == "not_opened" and "base" in d:
            parts = [why(WHY_THE_BASE, base=d["base"])]
            if d.get("direct_close"):
                parts.append(why(WHY_DIRECT_X4))
        elif reason == "finished" and "base" in d:
            parts = [why(WHY_TENTH_OF_BASE, base=d["base"])]
        else:
            parts = super().line_why(reason, d)
        if reason in ("tiles_left", "not_opened", "okey_given", "okey_taken", "pair_given"):
            factor = d.get("pair_factor")
            if isinstance(factor, int) and factor > 1:
                parts.append(why(WHY_PAIRS_X, n=factor))
            if d.get("okey_finish"):
                parts.append(why(WHY_OKEY_FINISH_X2))
        return parts

    def score_hint(self, options: dict) -> tuple[str, dict[str, Any]]:
        return (
            gettext_noop(
                "Seventeen: enter each seat's penalty total over the %(n)s hand(s), in "
                "multiples of 10."
            ),
            {"n": options["rounds"]},
        )

    def result_problems(self, options: dict, scores: list[int]) -> list[ResultProblem]:
        """§5, [D19], [D21]-[D23]: every line is a multiple of 10 (−base/10, 10 per tile,
        base × factors, 100 × factor, 10 × n × factor); nobody scores below −80 a hand (a
        blue okey: −800/10); the three losers of a hand hold tiles (≥ 10 each) or have not
        opened (≥ 400): a hand adds up to at least −80 + 30."""
        return lay_down_result_problems(
            scores, hands=options["rounds"], multiple=10, finisher_min=-80, hand_sum_min=-50
        )
