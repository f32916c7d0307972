"""A lesson's script and its checks: pure Python over the engine's state and views.

A lesson is one hand on the real table and engine, dealt from a seed found offline
(``python -m games.learn.seeds``) so that each step can happen: the learner (seat
``Script.seat``) and three CPUs whose moves are scripted (``cpu_move``: draw, and
discard the tile drawn, or the script's tile), so no CPU closes before the learner.

Where the learner stands (``step_of``) is read from what every player sees: how many
tiles the learner discarded, whose turn it is and its phase (``games/engine/RULES.md``
§3, the turn: draw or take, then discard or close). Each step names the move it waits
for; ``refusal`` says, in words, why another move is not the lesson's (the engine
judges the moves the lesson lets through, and its refusal is explained the same way).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from games.engine.legal import is_penalty_tile
from games.engine.melds import PAIR, classify
from games.engine.racksort import RACK_ROW
from games.engine.state import HandState, new_hand
from games.engine.tiles import FALSE_IDS, kind_of, notation

# the seeds of lessons start with this (``plugins.seed_for``): a lesson's hand is known by it
PREFIX = "learn:"

DRAW, DISCARD, TAKE, ARRANGE, OKEY, DRAW_AGAIN, CLOSE, DONE, OVER, WAIT = (
    "draw",
    "discard",
    "take",
    "arrange",
    "okey",
    "draw_again",
    "close",
    "done",
    "over",
    "wait",
)
OPEN, ADD, DISCARD_AGAIN = "open", "add", "discard_again"
# the steps in order, as the panel counts them: a whole-rack rule set's lesson (classic)
# and a lay-down one's (fifty-one, RULES.md §4: opening, then adding to a meld)
STEPS = (DRAW, DISCARD, TAKE, ARRANGE, OKEY, DRAW_AGAIN, CLOSE)
LAY_DOWN_STEPS = (DRAW, OPEN, DISCARD, DRAW_AGAIN, ADD, DISCARD_AGAIN)


@dataclass(frozen=True)
class Script:
    """One lesson: its deal and the tiles each step is about (notation: ``R9``, ``F``)."""

    slug: str
    variant: str
    seed: str
    seat: int  # the learner's seat (seat 0 starts the hand [D2])
    first_discard: str  # the discard seat 0 opens with: no use to the learner
    take: str  # seat 0's second discard, which the learner takes
    discards: tuple[str, str]  # the learner's two discards, in order
    close: str = ""  # the tile the learner closes with (put down face down)
    options: tuple[tuple[str, Any], ...] = ()  # the table's options, as pairs
    # a lay-down lesson: the melds the learner opens with, and the tile drawn on their
    # second turn that they add to one of them
    opening: tuple[str, ...] = ()
    add: str = ""

    @property
    def players(self) -> int:
        return 4

    @property
    def lays_down(self) -> bool:
        return bool(self.opening)

    @property
    def steps(self) -> tuple[str, ...]:
        return LAY_DOWN_STEPS if self.lays_down else STEPS


CLASSIC = Script(
    slug="classic",
    variant="classic",
    # found by ``python -m games.learn.seeds classic``: indicator B11, so the okey is B12;
    # the learner holds an okey and a false joker and wins on the third turn with both
    seed="learn:classic:1748",
    seat=1,
    first_discard="R1",
    take="B5",
    discards=("R9", "Y2"),
    close="Y10",
)

RUMMY = Script(
    slug="rummy",
    variant="rummy",
    # found by ``python -m games.learn.seeds rummy``: Okey Rummy closes as classic does
    # (RULES.md §3), so its lesson is classic's: an okey and a false joker, a close on the
    # third turn with both
    seed="learn:rummy:274",
    seat=1,
    first_discard="B7",
    take="K4",
    discards=("Y9", "B4"),
    close="K1",
)

FIFTY_ONE = Script(
    slug="fifty-one",
    variant="fifty-one",
    # found by ``python -m games.learn.seeds fifty-one``: the first draw completes four 6s,
    # which with three 9s open at exactly 51; the second draw is the fourth 9
    seed="learn:fifty-one:286",
    seat=1,
    first_discard="R12",
    take="",
    discards=("R10", "Y1"),
    opening=("R6 Y6 B6 K6", "R9 Y9 K9"),
    add="B9",
)

OKEY_101 = Script(
    slug="101",
    variant="101",
    # found by ``python -m games.learn.seeds 101``: five melds worth 101 or more after the
    # first draw (each tile of them named once); the second draw is Y1, below Y2 Y3 Y4 Y5
    seed="learn:101:1231",
    seat=1,
    first_discard="B4",
    take="",
    discards=("R8", "R8"),
    opening=("R6 Y6 K6", "Y11 B11 K11", "R12 Y12 B12", "Y2 Y3 Y4 Y5", "K2 K3 K4"),
    add="Y1",
)

SEVENTEEN = Script(
    slug="seventeen",
    variant="seventeen",
    # found by ``python -m games.learn.seeds seventeen``: a group of 7s (7) and Y11 Y12 Y13
    # (12) open at 19, at least the first limit of 17 (RULES.md §5); the second draw is Y10
    seed="learn:seventeen:24",
    seat=1,
    first_discard="R7",
    take="",
    discards=("R3", "R5"),
    opening=("R7 Y7 B7", "Y11 Y12 Y13"),
    add="Y10",
)

SCRIPTS = {s.slug: s for s in (CLASSIC, RUMMY, FIFTY_ONE, OKEY_101, SEVENTEEN)}


def script_for_seed(seed: Any) -> Script | None:
    """The lesson a hand's seed belongs to (None: not a lesson's hand)."""
    if not isinstance(seed, str) or not seed.startswith(PREFIX):
        return None
    return next((s for s in SCRIPTS.values() if s.seed == seed), None)


@lru_cache(maxsize=8)
def dealt(script: Script) -> HandState:
    """The lesson's hand as dealt (seat 0 starts)."""
    return new_hand(script.variant, dict(script.options), script.seed, 0)


def _is(tile: int | None, text: str) -> bool:
    return tile is not None and notation(tile) == text


def step_of(
    script: Script,
    *,
    discarded: int,
    turn: int,
    phase: str,
    over: bool,
    arranged: bool = False,
    opened: bool = False,
    added: bool = False,
) -> str:
    """The step the learner is at: from how many tiles they discarded, whose turn it is
    and its phase, and (on the turn of the take) whether their rack is arranged; in a
    lay-down lesson, whether they opened and added the script's tile to a meld."""
    if over:
        return OVER
    if script.lays_down:
        if discarded >= 2:
            return DONE  # opened and added: the hand goes on, the lesson is learnt
        if turn != script.seat:
            return WAIT
        if discarded == 0:
            return DRAW if phase == "draw" else (DISCARD if opened else OPEN)
        return DRAW_AGAIN if phase == "draw" else (DISCARD_AGAIN if added else ADD)
    if turn != script.seat:
        return WAIT
    if discarded == 0:
        return DRAW if phase == "draw" else DISCARD
    if discarded == 1:
        if phase == "draw":
            return TAKE
        return OKEY if arranged else ARRANGE
    return DRAW_AGAIN if phase == "draw" else CLOSE


def meld_runs(slots: Sequence[int | None], okey_kind: int) -> list[tuple[int, ...]]:
    """The runs and groups the rack shows: tiles side by side in one row (a gap or the
    row's end parts them) that make a meld of three or more."""
    found = []
    for start in range(0, len(slots), RACK_ROW):
        row = list(slots[start : start + RACK_ROW])
        part: list[int] = []
        for t in [*row, None]:
            if t is not None:
                part.append(t)
                continue
            if len(part) >= 3:
                shape = classify(part, okey_kind)
                if shape is not None and shape.kind != PAIR:
                    found.append(tuple(part))
            part = []
    return found


def is_arranged(slots: Sequence[int | None], okey_kind: int) -> bool:
    """The arrange step's check: at least two runs or groups sit together on the rack."""
    return len(meld_runs(slots, okey_kind)) >= 2


def okey_in_meld(slots: Sequence[int | None], okey_kind: int) -> bool:
    return any(kind_of(t) == okey_kind for run in meld_runs(slots, okey_kind) for t in run)


def cpu_move(script: Script, state: HandState, seat: int) -> dict[str, Any] | None:
    """A lesson CPU's move: draw from the pile, then discard the tile it drew; seat 0
    opens with ``first_discard`` and discards ``take`` on its second turn. It never
    takes, shows or closes, so the learner finishes first. None for the learner's seat."""
    if seat == script.seat or state.over:
        return None
    if state.phase == "draw":
        return {"type": "draw"}
    rack = state.racks[seat]
    mine = len(state.discards[seat])
    if seat == 0 and mine < 2:
        want = script.first_discard if mine == 0 else script.take
        tile = next((t for t in rack if _is(t, want)), None)
        if tile is not None:
            return {"type": "discard", "tile": tile}
    dealt_rack = set(dealt(script).racks[seat])
    drawn = [t for t in rack if t not in dealt_rack]
    # the tile drawn, unless the rule set would penalise it (an okey, a tile that fits a
    # meld on the table: 101, fifty-one): then the first of its rack it would not
    tiles = [*drawn[-1:], *reversed(rack)]
    tile = next((t for t in tiles if not is_penalty_tile(state, t)), tiles[0])
    return {"type": "discard", "tile": tile}


def added_to_meld(script: Script, melds: Any, seat: int) -> bool:
    """Whether the script's tile to add lies in one of the learner's table melds
    (``melds``: the engine's ``TableMeld``s; the opening holds no tile of that kind)."""
    return any(m.owner == seat and any(_is(t, script.add) for t in m.tiles) for m in melds)


def state_step(script: Script, state: HandState, seat: int, arranged: bool = False) -> str:
    """``step_of`` read from the whole state (the server's checks)."""
    return step_of(
        script,
        discarded=len(state.discards[seat]),
        turn=state.turn,
        phase=state.phase,
        over=state.over,
        arranged=arranged,
        opened=state.opened[seat] is not None,
        added=added_to_meld(script, state.melds, seat),
    )


def _lay_down_refusal(
    script: Script, step: str, kind: Any, tile: Any
) -> tuple[str, str, dict[str, Any]] | None:
    if step in (DRAW, DRAW_AGAIN) and kind == "take":
        return ("lesson_draw", "that discard is no use to you: draw from the pile", {})
    if step == OPEN and kind == "discard":
        return ("lesson_open_first", "your melds reach the opening minimum: open first", {})
    if step == ADD and kind == "discard":
        return ("lesson_add_first", "the tile you drew fits a meld on the table: add it", {})
    if step in (DISCARD, DISCARD_AGAIN) and kind == "discard":
        want = script.discards[0 if step == DISCARD else 1]
        if isinstance(tile, int) and 0 <= tile < 106 and not _is(tile, want):
            return ("lesson_discard_this", "for this lesson, discard the tile it names", {})
    return None


def refusal(
    script: Script, state: HandState, seat: int, action: dict[str, Any], arranged: bool
) -> tuple[str, str, dict[str, Any]] | None:
    """Why ``action`` is not the lesson's move now: (code, English message, detail for
    the panel), or None to let the engine judge it. Free moves (arranging) always pass."""
    kind = action.get("type")
    if seat != script.seat or kind in ("arrange", "flip") or state.over:
        return None
    step = state_step(script, state, seat, arranged)
    tile = action.get("tile")
    if script.lays_down:
        return _lay_down_refusal(script, step, kind, tile)
    okey = state.okey_kind
    if step == DRAW and kind == "take":
        return (
            "lesson_draw",
            "that discard fits none of your runs or groups: draw from the pile",
            {},
        )
    if step == TAKE and kind == "draw":
        return ("lesson_take", "the discard completes a run of yours: take it instead", {})
    if step in (DISCARD, ARRANGE, OKEY) and kind in ("discard", "close"):
        if step == ARRANGE:
            return ("lesson_arrange", "arrange your rack first: runs and groups side by side", {})
        want = script.discards[0 if step == DISCARD else 1]
        if isinstance(tile, int) and 0 <= tile < 106 and not _is(tile, want):
            if kind_of(tile) == okey:
                return (
                    "lesson_keep_okey",
                    "never throw the okey away: it stands in for any tile",
                    {},
                )
            if tile in FALSE_IDS:
                return (
                    "lesson_keep_false",
                    "keep the false joker: it plays as the okey's own tile",
                    {},
                )
            if tile == state.taken or (state.took and tile in state.took[seat]):
                return ("lesson_keep_taken", "you took that tile for a run: keep it", {})
            return (
                "lesson_discard",
                "that tile belongs to a run or group of yours: keep it",
                {"want": want},
            )
        if kind == "close":
            return ("lesson_not_yet", "your rack does not win yet: discard and wait", {})
    if step == DRAW_AGAIN and kind == "take":
        return ("lesson_draw", "that discard fits none of your runs or groups: draw", {})
    if step == CLOSE and kind == "discard":
        return (
            "lesson_close",
            "your rack wins: finish with the lone tile instead of discarding",
            {},
        )
    return None
