"""What a rule set is: the base rules object every rule set subclasses.

A rule set is one module of ``games.engine.rulesets`` holding one subclass of
``WholeRackRules`` or ``LayDownRules`` (python-chess's ``chess.variant`` is the model:
a variant overrides what differs). Everything a rule set decides lives on that object:
its metadata (name, display name, seed, rules page), its table options (allowed values,
defaults, labels), seating, the direction of play on screen, how tiles are shown, what a
timed-out turn does, the deal, the state machine's flags and hooks, scoring and its
direction, result plausibility for tournament entry, the most hands a game can have, and
the hooks the CPU players call. Code outside the engine asks the rules object
(``rules_for(variant)``), never which variant it is.

Display strings are English msgids marked with ``gettext_noop`` (a no-op here: the engine
has no Django); the web layer translates them with ``gettext`` at render time.

Decisions taken here where the rules document (RULES.md) is silent are listed in each
rule set's module and in API.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import legal
from .melds import GROUP, MELDS_OPENING, PAIR, PAIRS_OPENING, RUN, classify
from .refusals import Refusal

if TYPE_CHECKING:
    from .state import HandState
    from .table import TableMeld


def gettext_noop(message: str) -> str:
    """Mark ``message`` for translation (``makemessages`` collects it); the web layer
    translates it when it renders."""
    return message


# Each option: key -> (allowed values, default). ``assisted`` and ``cpu_speed`` are every
# rule set's. Neither changes a rule: an assisted table marks and asks more (RULES.md §4,
# "Assisted or not"), ``cpu_speed`` sets how long the table waits before each CPU step
# (the web layer's pace, docs/table-page.md); the engine only validates them.
COMMON_OPTIONS: dict[str, tuple[tuple[Any, ...], Any]] = {
    "assisted": ((False, True), False),
    "cpu_speed": (("normal", "fast"), "normal"),
}
# Labels of the string values of the shared options (a rule set's ``value_labels`` adds
# its own to these).
COMMON_VALUE_LABELS: dict[str, str] = {
    "normal": gettext_noop("normal"),
    "fast": gettext_noop("fast"),
}

# Labels of the option keys the rule sets share; a rule set adds its own in
# ``option_labels``.
OPTION_LABELS: dict[str, str] = {
    "players": gettext_noop("Players"),
    "start_points": gettext_noop("Starting points"),
    "length": gettext_noop("Game length"),
    "clock": gettext_noop("Turn clock (seconds, 0 = off)"),
    "partners": gettext_noop("Partners (2 against 2)"),
    "doubling": gettext_noop("Doubling"),
    "hands": gettext_noop("Hands"),
    "rounds": gettext_noop("Rounds"),
    "assisted": gettext_noop("Assisted table"),
    "cpu_speed": gettext_noop("CPU speed"),
}


@dataclass(frozen=True)
class ResultProblem:
    """One reason why an organiser's typed result cannot be a finished game."""

    code: str  # stable code; the web layer translates by code
    message: str  # English sentence
    seat: int | None = None  # 0-based seat the problem is about, if one


# ------------------------------------------------------------ score-line explanations
# What a score line's explanation says beyond its reason's label ("by Cem", "3 tiles left
# worth 21, × 5"), as data: ``Rules.explain_line`` returns a list of ``why(...)`` items, each
# an English msgid, its %-parameters and the parameters that name a seat (the web layer
# puts the player's name there). The web layer translates each msgid through its own table
# (games/live/outcome.py ``WHY``: plural forms count the parameter the table names) and
# joins them with "; "; a msgid it lacks is a rule set's own, marked with ``gettext_noop``
# in its module and translated with ``gettext``.
WHY_BY = "by %(name)s"  # seats: name
WHY_PARTNER_FINISHED = "%(name)s finished"  # seats: name
WHY_TILES_LEFT_WORTH = "%(tiles)s tile left worth %(sum)s, × %(m)s"  # plural on tiles
WHY_OKEYS_AT = "%(n)s okey at %(each)s"  # plural on n
WHY_SUM_COUNTS_OKEYS = "the sum counts %(n)s okey as %(each)s"  # plural on n
WHY_TILES_LEFT_X10 = "%(n)s tile left × 10"  # plural on n
WHY_THE_BASE = "the base %(base)s"
WHY_DIRECT_X4 = "× 4: the rack was laid down at once"
WHY_TENTH_OF_BASE = "a tenth of the base %(base)s"
WHY_ENDING_X = "× %(m)s for this ending"
WHY_PAIRS_X = "× %(n)s for the pairs openings"
WHY_OKEY_FINISH_X2 = "× 2: finished with an okey"
WHY_PILE_RAN_OUT = "the pile ran out"

# the reasons of a whole-rack close (scoring.close_ending) and the lines whose detail
# names the seat that caused them (``by``)
CLOSE_REASONS = ("close", "okey_close", "pairs_close", "pairs_okey_close")
BY_REASONS = ("layoff", "okey_swap", "discard_taken", "okey_given", "okey_taken")


def why(msgid: str, seats: dict[str, int] | None = None, **params: Any) -> dict[str, Any]:
    """One part of a score line's explanation: ``msgid`` with ``params``; ``seats`` maps
    a parameter to the seat whose player's name fills it."""
    return {"msgid": msgid, "params": params, "seats": dict(seats or {})}


class Rules:
    """Base rules: metadata, flags and hooks shared by all rule sets."""

    name = ""  # the rule set's id (a variant name), e.g. "classic"

    # ------------------------------------------------------------ metadata
    label = ""  # short display name (a msgid), e.g. "Classic"
    title = ""  # long English name, e.g. "Classic okey" (CLI, API)
    seed = ""  # the seed text(s) under engine/seeds/ it reads, e.g. "001"
    order = 100  # position in menus and lists (lowest first)
    players: tuple[int, ...] = (4,)  # table sizes it can be played at
    direction = "counter-clockwise"  # how pages draw play (RULES.md §1, [D2])
    options: dict[str, tuple[tuple[Any, ...], Any]] = {}  # key -> (allowed, default)
    option_labels: dict[str, str] = {}  # labels of its own option keys (msgids)
    # labels of its string option values (msgids), the shared options' included
    value_labels: dict[str, str] = COMMON_VALUE_LABELS
    # score-line reasons and hand endings it writes that the shared lists lack (msgids;
    # an ending's text has a %(name)s for the finisher)
    reason_labels: dict[str, str] = {}
    ending_labels: dict[str, str] = {}
    rack_size = 14  # tiles dealt to each seat; the starter gets one more
    records = False  # solo games of seven rounds set records on the public board
    # result-entry problems said for this rule set: code -> msgid (``result_problems``)
    problem_texts: dict[str, str] = {}

    @property
    def rules_page(self) -> str:
        """The slug of its "How to play" page (``games/rules_pages/<lang>/<slug>.md``)."""
        return self.name

    def option_label(self, key: str) -> str:
        return self.option_labels.get(key) or OPTION_LABELS.get(key, key)

    def humans_opposite(self, options: dict) -> bool:
        """Whether two people at a four-seat table sit opposite each other."""
        return False

    def clock_timeout_action(self, state: HandState) -> dict | None:
        """The action the server plays when the turn clock runs out, or None for the
        seat's CPU to play the turn."""
        return None

    def hands_shown(self, options: dict) -> int | None:
        """The fixed number of hands a game has, for "Hand 2 of 7" (None: no fixed
        number)."""
        return self.game_hands(options)

    def score_card_rows(self, options: dict) -> int:
        """The rows of a printed score card (a tournament table's paper sheet): one per
        hand when the game has a fixed number, else room for a long game (12)."""
        return self.hands_shown(options) or 12

    def max_hands(self, options: dict) -> int:
        """The most hands one game with these (validated) options can have (bounds the
        imports of whole games)."""
        hands = self.game_hands(options)
        if hands is None:
            raise NotImplementedError(f"{self.name}: a game without a fixed number of hands")
        return hands

    def result_problems(self, options: dict, scores: list[int]) -> list[ResultProblem]:
        """Every reason why ``scores`` (one whole number per seat, the game's final
        totals as the rule set counts them) cannot end a game with ``options``."""
        return []

    def score_hint(self, options: dict) -> tuple[str, dict[str, Any]]:
        """What an organiser types for each seat: (msgid with %(…)s, its values)."""
        return "", {}

    def meta(self) -> dict[str, Any]:
        """The rule set's metadata as ``games.engine.VARIANTS`` lists it."""
        return {
            "name": self.title,
            "seed": self.seed,
            "whole_rack": self.whole_rack,
            "players": self.players,
            "direction": self.direction,
            "options": self.options,
        }

    # ------------------------------------------------------------ state machine
    # What the state machine (actions.py) and the move generator (legal.py) ask: the
    # data below (plain facts: values, codes, what an action may be) and the hooks after
    # ``partner`` (every rule that decides a move lives in the hook of the rule set that
    # has it). ``WholeRackRules`` and ``LayDownRules`` give each family's answers; a rule
    # set overrides what differs.
    whole_rack = True
    # the action types ``apply`` accepts (``flip`` also needs ``okeys_flip``); a type
    # missing here is refused with ``not_allowed_in_variant``
    action_types: frozenset[str] = frozenset(
        {"draw", "take", "discard", "undo", "flip", "arrange", "timeout"}
    )
    # the refusal of a discard while a taken discard is still unused [D12]
    unused_take_refusal = "must_use_taken_discard"
    ace_high = True
    values: str | None = None  # evaluate.best_arrangement value mode
    # lay-down data (where tiles may go is asked of the hooks after ``partner``)
    pairs_opening_min_pairs = 0
    okeys_flip = False  # seventeen: an okey can be turned face down (display only)
    # an okey discarded before the end always costs (seventeen, 101): the data the move
    # generator's and the CPU's penalty-tile test reads beside ``discard_lines``
    okey_discard_penalised = False
    # display
    yellow_shown_green = False  # rummy: its yellow tiles are green on screen and in words
    # game level
    higher_wins = False  # classic/rummy: the highest total wins; else the lowest

    # ------------------------------------------------------------ CPU hooks
    # What the CPU players (bots/core.py) know of the rule set beyond the flags above: how
    # its scoring bends their play. The defaults are plain play; a rule set whose scoring
    # asks for more sets them (bots/README.md says how each level uses them).
    # Adding to a rival's meld costs its owner 10 × the tile's number (RULES.md §4, [D11]):
    # lay off onto rivals' melds first.
    cpu_lays_off_on_rivals_first = False
    # An opened loser pays for the numbers of the tiles left in the rack (RULES.md §4,
    # Ending: Σ × 5): once opened, discard high tiles first; before opening keep them (they
    # reach the barrier).
    cpu_sheds_high_tiles = False
    # An unopened loser pays the whole base, 400-800 (RULES.md §5, Scoring): while the next
    # player has not opened, a high discard it could take into its opening is a risk.
    cpu_fears_next_opener = False
    # A pair counts its number towards the pairs opening (RULES.md §5, Values): on the pairs
    # route, throw low singles first (else high ones: they cost most left in the rack).
    cpu_pairs_low_first = False

    def partner(self, state: HandState, seat: int) -> int | None:
        return None

    # ------------------------------------------------- where tiles may go (lay-down)
    # Asked by the state machine (refusing), the move generator and the CPU players
    # (skipping). The defaults are the plainest lay-down play: melds after opening only,
    # a taken discard anywhere it fits, a runs-and-groups opener adds and swaps, a pairs
    # opener lays pairs only [D13]. The hooks the CPU players ask take what the seat
    # opened with (``opened``: None, ``MELDS_OPENING`` or ``PAIRS_OPENING``), which a
    # seat's view holds too; the others take the state.
    def may_lay_unopened(self, state: HandState, seat: int) -> bool:
        """May ``seat`` lay melds before it has opened (towards its opening, confirmed or
        returned at its discard: ``state.provisional``)? Else ``not_opened``."""
        return False

    def opener_may_add(self, opened: str) -> bool:
        """May a player who opened this way add tiles to table melds and swap okeys out
        of them? Else ``pairs_opener_cannot_add``."""
        return opened == MELDS_OPENING

    def may_give_pairs(self, state: HandState, seat: int) -> bool:
        """May ``seat`` (opened with runs and groups) lay a pair onto a pairs opener
        (``lay`` with ``to``; ``give_pair_lines``)? Else ``wrong_meld_type``."""
        return False

    def end_used(self, state: HandState, meld_id: int, end: str) -> bool:
        """Is this end of this table meld closed to another tile this turn? Else any
        number of tiles may go on it (``end_used_this_turn``)."""
        return False

    def swap_refusal(self, state: HandState, meld: TableMeld, okey: int) -> Refusal | None:
        """Why ``okey`` may not be swapped out of ``meld`` now (``swap_forbidden``), or
        None."""
        return None

    def taken_onto_table(self, opened: str | None) -> bool:
        """May a taken discard be added to a table meld or swapped in for an okey there?
        Else it goes into a new meld (``must_use_in_new_meld``)."""
        return True

    def taken_in_new_meld(self, opened: str | None) -> bool:
        """May a taken discard go into a new meld laid by a player who opened this way
        (None: into the opening)? Else only onto a table meld (``taken_not_in_new_meld``)."""
        return True

    def opening_refusal(self, state: HandState, seat: int, tiles: list[int]) -> Refusal | None:
        """Why an opening made of ``tiles`` is refused whatever its value (the taken
        discard left out of it, say), or None; its value is ``check_opening``'s."""
        return None

    def discard_goes_back(self, state: HandState, seat: int, tile: int) -> bool:
        """A discard that wrote penalty lines (``discard_lines``, already scored): does
        the tile go back to the rack and the turn go on? Else it is discarded."""
        return False

    def show_allowed(self, state: HandState, seat: int) -> bool:
        """May ``seat`` show the indicator's twin now (RULES.md §2, §3)?"""
        return False

    def taken_must_be_used(self, state: HandState) -> bool:
        """Must a discard taken now be used this turn [D12] (else the take may be
        undone, and no discard passes until it is used)?"""
        raise NotImplementedError

    def take_lines(self, state: HandState, taker: int, discarder: int, tile: int) -> list[dict]:
        """The score lines a take writes (none unless the rule set charges for it)."""
        return []

    def discard_lines(self, state: HandState, seat: int, tile: int, final: bool) -> list[dict]:
        """The score lines a discard writes (``final``: it finishes the hand)."""
        return []

    def discard_penalty(self, state: HandState, seat: int, tile: int) -> tuple[int, str] | None:
        """What discarding ``tile`` now would cost ``seat`` (its own penalty lines,
        ``discard_lines``), with a msgid saying why: ``(points, msgid)``, the msgid's
        ``%(points)s`` and ``%(tile)s`` filled by the web layer, which asks for a second
        tap before such a discard at an assisted table. None: the discard costs nothing.
        The rule set that penalises discards words its own penalties."""
        return None

    def finishes_by_discard(self, state: HandState, seat: int) -> bool:
        """Does a discard by ``seat`` now finish the hand (its last tile)?"""
        return False

    def pile_exhausted(self, state: HandState) -> tuple[str, list[dict]]:
        """[D4] The ending and the score lines of a hand whose pile runs out."""
        return "exhausted", []

    def legal_turn_actions(self, state: HandState, seat: int) -> list[dict]:
        """The actions ``seat`` may play after its draw besides ``undo`` and ``show``
        (``legal.legal_actions`` adds those): the rule set's ways to finish, discard and
        put tiles on the table."""
        raise NotImplementedError

    def can_use_take(self, state: HandState, seat: int) -> bool:
        """Can ``seat`` use the takeable discard as the rule set requires (a cheap,
        not exhaustive, check for the CPU players and hints)?"""
        raise NotImplementedError

    def play_action_types(self, state: HandState, seat: int) -> list[str]:
        """The action types ``seat`` may try after its draw besides ``undo`` and
        ``show``, whatever its rack holds (``view.legal_types``)."""
        raise NotImplementedError

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

    # ------------------------------------------------------------- the web layer's data
    def opening_progress(self, state: HandState, seat: int, melds: list[list[int]]) -> dict:
        """What ``melds`` (lists of tile ids the player groups on the page) are worth
        towards an opening, as the page shows it ("43 of 51 needed to open"):
        ``{"total", "need", "kind", "melds": [{"kind", "points"}]}``; ``need`` is None when
        no minimum applies (the seat has opened, or the opening has none). A rule set
        without openings (whole rack) values nothing."""
        return {"total": 0, "need": None, "kind": None, "melds": []}

    def explain_line(self, line: dict) -> list[dict[str, Any]]:
        """A score line's explanation beyond its reason's label: ``why(...)`` items, in
        the order the dialog says them (see ``WHY_BY`` above)."""
        return self.line_why(line["reason"], line.get("detail") or {})

    def line_why(self, reason: str, d: dict[str, Any]) -> list[dict[str, Any]]:
        """``explain_line`` by reason and detail; the shared words are who closed, showed
        or caused a line and whose partner finished. A rule set adds its own."""
        if reason in CLOSE_REASONS and "closer" in d:
            # the reason already says the hand was closed: name who did it
            return [why(WHY_BY, {"name": d["closer"]})]
        if reason == "indicator_shown" and "shower" in d:
            return [why(WHY_BY, {"name": d["shower"]})]
        if reason == "partner_finished" and "partner" in d:
            return [why(WHY_PARTNER_FINISHED, {"name": d["partner"]})]
        if reason in BY_REASONS and "by" in d:
            return [why(WHY_BY, {"name": d["by"]})]
        return []


class WholeRackRules(Rules):
    """Close the whole rack (RULES.md §2, §3): show the indicator's twin, close with 14
    tiles in melds or seven pairs."""

    whole_rack = True
    action_types = Rules.action_types | {"show", "close"}
    unused_take_refusal = "must_finish"

    def show_allowed(self, state: HandState, seat: int) -> bool:
        raise NotImplementedError

    def taken_must_be_used(self, state: HandState) -> bool:
        return not state.pile  # [D4] with the pile empty a taken discard must close

    def legal_turn_actions(self, state: HandState, seat: int) -> list[dict]:
        return legal.whole_rack_turn_actions(state, seat)

    def can_use_take(self, state: HandState, seat: int) -> bool:
        return legal.whole_rack_take_useful(state, seat)

    def play_action_types(self, state: HandState, seat: int) -> list[str]:
        return ["close"] if state.taken is not None else ["close", "discard"]

    def show_lines(self, state: HandState, seat: int) -> list[dict]:
        raise NotImplementedError

    def close_lines(self, state: HandState, seat: int, ending: str) -> list[dict]:
        raise NotImplementedError

    def show_ends_game(self, state: HandState, seat: int) -> bool:
        return False


class LayDownRules(Rules):
    """Lay melds on the table (RULES.md §4, §5, §6): open, lay, add, swap; finish by
    discarding the last tile."""

    whole_rack = False
    action_types = Rules.action_types | {"open", "lay", "add", "swap"}

    def taken_must_be_used(self, state: HandState) -> bool:
        return True  # [D12]

    def finishes_by_discard(self, state: HandState, seat: int) -> bool:
        return state.opened[seat] is not None and len(state.racks[seat]) == 1

    def pile_exhausted(self, state: HandState) -> tuple[str, list[dict]]:
        return self.end_lines(state, None, False)

    def legal_turn_actions(self, state: HandState, seat: int) -> list[dict]:
        return legal.lay_down_turn_actions(state, seat, self)

    def can_use_take(self, state: HandState, seat: int) -> bool:
        return legal.lay_down_take_useful(state, seat, self)

    def play_action_types(self, state: HandState, seat: int) -> list[str]:
        mine = state.opened[seat]
        if mine is None:
            if self.may_lay_unopened(state, seat):
                return ["discard", "open", "lay"]
            return ["discard", "open"]
        if self.opener_may_add(mine):
            return ["discard", "lay", "add", "swap"]
        return ["discard", "lay"]

    def opening_min(self, state: HandState, kind: str) -> int:
        raise NotImplementedError

    def after_open(self, state: HandState, kind: str, total: int) -> int | None:
        raise NotImplementedError

    def add_lines(
        self, state: HandState, seat: int, meld: TableMeld, tile: int, kind: int
    ) -> list[dict]:
        return []

    def swap_lines(self, state: HandState, seat: int, meld: TableMeld, kind: int) -> list[dict]:
        return []

    def give_pair_lines(self, state: HandState, seat: int, to: int, kind: int) -> list[dict]:
        return []

    def end_lines(
        self, state: HandState, finisher: int | None, okey_end: bool
    ) -> tuple[str, list[dict]]:
        raise NotImplementedError

    def opening_progress(self, state: HandState, seat: int, melds: list[list[int]]) -> dict:
        """Each staged meld classified (three tiles or more: a run or group; two: a pair)
        and valued (``meld_value``) from the seat's own rack only, plus the provisional
        melds it placed this turn (``provisional``); the minimum is ``opening_min`` of the
        hand as it stands. A minimum of 0 (a pairs opening without barrier) is none: then
        the count of pairs matters (``check_opening``)."""
        rack = set(state.racks[seat])
        out: list[dict[str, Any]] = []
        for m in melds:
            ok_tiles = len(set(m)) == len(m) and all(t in rack for t in m)
            allow = (PAIR,) if len(m) == 2 else (RUN, GROUP)
            shape = (
                classify(m, state.okey_kind, ace_high=self.ace_high, allow=allow)
                if ok_tiles
                else None
            )
            out.append(
                {
                    "kind": shape.kind if shape else None,
                    "points": self.meld_value(shape.kind, shape.plays) if shape else 0,
                }
            )
        placed = [m for m in state.melds if m.id in state.provisional and m.owner == seat]
        total: int = sum(x["points"] for x in out)
        total += sum(self.meld_value(m.kind, m.plays) for m in placed)
        kinds = {x["kind"] for x in out if x["kind"]} | {m.kind for m in placed}
        kind = PAIRS_OPENING if kinds == {PAIR} else MELDS_OPENING
        need = self.opening_min(state, kind) if state.opened[seat] is None else None
        return {"total": total, "need": need or None, "kind": kind, "melds": out}

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


def lay_down_result_problems(
    scores: list[int], *, hands: int, multiple: int, finisher_min: int, hand_sum_min: int
) -> list[ResultProblem]:
    """The result checks every penalty-scored lay-down rule set shares: each line is a
    multiple of ``multiple``; only a finisher scores below zero, at most ``-finisher_min``
    a hand; a hand adds up to at least ``hand_sum_min``."""
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


__all__ = [
    "BY_REASONS",
    "CLOSE_REASONS",
    "COMMON_OPTIONS",
    "COMMON_VALUE_LABELS",
    "MELDS_OPENING",
    "OPTION_LABELS",
    "PAIR",
    "PAIRS_OPENING",
    "LayDownRules",
    "ResultProblem",
    "Rules",
    "WholeRackRules",
    "gettext_noop",
    "lay_down_result_problems",
    "why",
]
