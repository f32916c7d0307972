"""One rules object per variant: flags and hooks, no ``if variant == …`` chains.

``rules_for(variant)`` returns the (stateless, shared) rules object. The state
machine in ``actions.py`` asks it what the variant allows and what things cost.

Decisions taken here where rules.md is silent (also listed in API.md):

* whole-rack closes score the most favourable reading (a rack that is both seven
  pairs and runs/groups scores as pairs);
* classic/rummy with an empty pile: a taken discard must close this turn or be given
  back (``undo``); ``draw`` then ends the hand [D4];
* fifty-one: a taken discard is used in the opening or on a table meld (added, or
  swapped in for an okey); after opening it never goes into a new meld (refusal
  ``taken_not_in_new_meld``), so a pairs opener, who never adds, cannot use one;
* fifty-one: a pairs opener never swaps okeys either (a swap adds a tile to a meld);
  a runs-and-groups opener lays runs and groups only; a taken okey costs the
  discarder 10 × its printed number; an okey is a penalty tile only while some table
  meld can still take it;
* seventeen: the finishing discard is exempt from the usable-tile penalty (as in
  fifty-one); a penalised discard (usable tile, okey) goes back to the rack only when
  a penalty-free discard exists, otherwise it goes through, penalty paid; "one tile
  per meld end per turn" gives a run two ends and a group one slot; a direct close
  [D21] is a finish by a player who opened in that same turn while nobody else had;
  a taken discard inside a provisional opening that falls short refuses the discard
  (``must_use_taken_discard``: undo the take).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import scoring
from .melds import PAIR, seventeen_value, sum_value
from .options import rummy_target
from .refusals import Refusal
from .table import face_number, is_usable
from .tiles import kind_of, number_of_kind

if TYPE_CHECKING:
    from .state import HandState
    from .table import TableMeld

MELDS_OPENING, PAIRS_OPENING = "melds", "pairs"


class Rules:
    """Base rules: flags shared by all variants."""

    name = ""
    whole_rack = True
    ace_high = True
    values: str | None = None  # evaluate.best_arrangement value mode
    # lay-down flags
    provisional = False  # seventeen: melds may be placed before the opening is reached
    take_new_meld_only = False  # seventeen: a taken discard goes into a new meld
    # fifty-one (seeds 000/002: "en tu apertura o añadiéndola a una combinación",
    # "in deiner Eröffnung oder beim Anlegen"): a taken discard goes into the opening
    # or onto a meld on the table; once opened, never into a new meld
    take_opening_or_table_only = False
    pairs_opener_may_add = False  # seventeen: pairs openers add single tiles
    pairs_opening_min_pairs = 0
    one_tile_per_end = False
    swap_group_needs_four = False
    swap_not_same_turn = False
    discard_returns = False  # seventeen: penalised discards go back to the rack
    rg_opener_gives_pairs = False  # seventeen [D18]
    okeys_flip = False  # seventeen: an okey can be turned face down (display only)
    okey_discard_penalised = False  # seventeen: an okey discarded before the end costs
    # display
    yellow_shown_green = False  # rummy: its yellow tiles are green on screen and in words
    # game level
    higher_wins = False  # classic/rummy: the highest total wins; else the lowest

    def partner(self, state: HandState, seat: int) -> int | None:
        return None

    # ------------------------------------------------------------- game level
    def game_start(self, options: dict) -> int:
        """Each seat's total before the first hand."""
        return 0

    def game_context(self, totals: list[int]) -> dict | None:
        """Game facts a new hand needs (``new_hand(context=…)``)."""
        return None

    def game_hands(self, options: dict) -> int | None:
        """A fixed number of hands, or None."""
        return None

    def game_target(self, options: dict) -> int | None:
        return None

    def game_over(self, totals: list[int], n_hands: int, options: dict) -> bool:
        hands = self.game_hands(options)
        return hands is not None and n_hands >= hands

    def teams(self, options: dict) -> list[list[int]] | None:
        """Seats playing together (their totals are summed), or None for solo."""
        return None

    def same_side(self, state: HandState, a: int, b: int) -> bool:
        return a == b or self.partner(state, a) == b

    def meld_value(self, kind: str, plays: tuple[int, ...]) -> int:
        return 0


# ----------------------------------------------------------------- whole-rack


class WholeRackRules(Rules):
    whole_rack = True

    def show_allowed(self, state: HandState, seat: int) -> bool:
        raise NotImplementedError

    def show_lines(self, state: HandState, seat: int) -> list[dict]:
        raise NotImplementedError

    def close_lines(self, state: HandState, seat: int, ending: str) -> list[dict]:
        raise NotImplementedError

    def show_ends_game(self, state: HandState, seat: int) -> bool:
        return False


class ClassicRules(WholeRackRules):
    """classic (seed 001): countdown 2/4/4/8 [D5]; show during your first turn."""

    name = "classic"
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


class RummyRules(WholeRackRules):
    """rummy (seed 003): the closer scores 3/6; show before your first draw [D24]."""

    name = "rummy"
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


# ------------------------------------------------------------------- lay-down


class LayDownRules(Rules):
    whole_rack = False

    def opening_min(self, state: HandState, kind: str) -> int:
        raise NotImplementedError

    def after_open(self, state: HandState, kind: str, total: int) -> int | None:
        raise NotImplementedError

    def take_lines(self, state: HandState, taker: int, discarder: int, tile: int) -> list[dict]:
        return []

    def add_lines(
        self, state: HandState, seat: int, meld: TableMeld, tile: int, kind: int
    ) -> list[dict]:
        return []

    def swap_lines(self, state: HandState, seat: int, meld: TableMeld, kind: int) -> list[dict]:
        return []

    def give_pair_lines(self, state: HandState, seat: int, to: int, kind: int) -> list[dict]:
        return []

    def discard_lines(self, state: HandState, seat: int, tile: int, final: bool) -> list[dict]:
        return []

    def end_lines(
        self, state: HandState, finisher: int | None, okey_end: bool
    ) -> tuple[str, list[dict]]:
        raise NotImplementedError

    def check_opening(self, state: HandState, kind: str, total: int, n_melds: int) -> None:
        if kind == PAIRS_OPENING and n_melds < self.pairs_opening_min_pairs:
            raise Refusal("too_few_pairs", need=self.pairs_opening_min_pairs, have=n_melds)
        need = self.opening_min(state, kind)
        if total < need:
            raise Refusal(
                "below_opening_limit",
                f"Your opening totals {total}; it needs at least {need}.",
                total=total,
                need=need,
            )


class FiftyOneRules(LayDownRules):
    """fifty-one (seeds 000/002): 51 barrier, doubling [D10], lay-offs, penalty tiles."""

    name = "fifty-one"
    values = "sum"
    pairs_opening_min_pairs = 5
    take_opening_or_table_only = True

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


class SeventeenRules(LayDownRules):
    """seventeen (seed 004): limit 17 [D17], meld values, joker-colour base."""

    name = "seventeen"
    ace_high = False
    values = "seventeen"
    provisional = True
    take_new_meld_only = True
    pairs_opener_may_add = True
    one_tile_per_end = True
    swap_group_needs_four = True
    swap_not_same_turn = True
    discard_returns = True
    rg_opener_gives_pairs = True
    okeys_flip = True
    okey_discard_penalised = True

    def game_hands(self, options: dict) -> int | None:
        return options["rounds"]

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


RULES: dict[str, Rules] = {
    r.name: r for r in (ClassicRules(), RummyRules(), FiftyOneRules(), SeventeenRules())
}


def rules_for(variant: str) -> Rules:
    try:
        return RULES[variant]
    except KeyError:
        raise Refusal("bad_variant", f"unknown variant {variant!r}") from None


__all__ = ["MELDS_OPENING", "PAIRS_OPENING", "RULES", "Rules", "rules_for", "PAIR"]
