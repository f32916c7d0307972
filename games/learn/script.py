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

from games.engine.melds import PAIR, classify
from games.engine.racksort import RACK_ROW
from games.engine.state import HandState, new_hand
from games.engine.tiles import FALSE_IDS, kind_of, notation, parse_kind

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
# the steps in order, as the panel counts them
STEPS = (DRAW, DISCARD, TAKE, ARRANGE, OKEY, DRAW_AGAIN, CLOSE)


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
    close: str  # the tile the learner closes with (put down face down)
    options: tuple[tuple[str, Any], ...] = ()  # the table's options, as pairs

    @property
    def players(self) -> int:
        return 4


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

SCRIPTS = {s.slug: s for s in (CLASSIC,)}


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
    script: Script, *, discarded: int, turn: int, phase: str, over: bool, arranged: bool
) -> str:
    """The step the learner is at: from how many tiles they discarded, whose turn it is
    and its phase, and (on the turn of the take) whether their rack is arranged."""
    if over:
        return OVER
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
    return {"type": "discard", "tile": drawn[-1] if drawn else rack[-1]}


def _tile_text(kind_text: str) -> str:
    return kind_text


def refusal(
    script: Script, state: HandState, seat: int, action: dict[str, Any], arranged: bool
) -> tuple[str, str, dict[str, Any]] | None:
    """Why ``action`` is not the lesson's move now: (code, English message, detail for
    the panel), or None to let the engine judge it. Free moves (arranging) always pass."""
    kind = action.get("type")
    if seat != script.seat or kind in ("arrange", "flip") or state.over:
        return None
    step = step_of(
        script,
        discarded=len(state.discards[seat]),
        turn=state.turn,
        phase=state.phase,
        over=state.over,
        arranged=arranged,
    )
    tile = action.get("tile")
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
    if step == CLOSE and kind == "discard":
        return (
            "lesson_close",
            "your rack wins: finish with the lone tile instead of discarding",
            {},
        )
    return None


def tile_kind(text: str) -> int:
    return parse_kind(text)
