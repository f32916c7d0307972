"""How the simulated people of the fair-play tests choose their moves (engine only)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.engine.actions import legal_actions
from games.engine.evaluate import best_arrangement
from games.live import cpu

Policy = Callable[[Any, int], dict]


def level(name: str) -> Policy:
    return lambda state, seat: cpu.choose(state, seat, name)


def noisy(main: str, other: str, share: float, seed: str) -> Policy:
    """``main``'s move, ``other``'s on about ``share`` of the decisions (a person)."""
    rng = random.Random(seed)

    def choose(state: Any, seat: int) -> dict:
        return cpu.choose(state, seat, other if rng.random() < share else main)

    return choose


def _loose(state: Any, tiles: list[int]) -> int:
    rules = state.rules
    return len(best_arrangement(tiles, state.okey_kind, ace_high=rules.ace_high).leftover)


def loose_after(state: Any, tiles: list[int]) -> int:
    """The loose tiles a rack of one tile too many keeps after its best discard."""
    return min(_loose(state, [x for x in tiles if x != d]) for d in set(tiles))


def feeding(partner: int) -> Policy:
    """A colluder who sees ``partner``'s rack (the seat after it) and discards the tile
    that leaves the partner the fewest loose tiles (one that completes the partner's
    rack first); any other move is hard's."""

    def choose(state: Any, seat: int) -> dict:
        hard = cpu.choose(state, seat, "hard")
        if hard["type"] != "discard":
            return hard
        rack = list(state.racks[partner])
        discards = [a for a in legal_actions(state, seat) if a["type"] == "discard"]
        scored = [(loose_after(state, [*rack, a["tile"]]), a) for a in discards]
        best = min(s for s, _a in scored)
        mine = [a for s, a in scored if s == best]
        return hard if any(a["tile"] == hard["tile"] for a in mine) else mine[0]

    return choose


def taking(feeder: int) -> Policy:
    """The fed colluder: takes its partner's discard whenever it leaves fewer loose tiles
    than the rack has now; otherwise hard's move."""

    def choose(state: Any, seat: int) -> dict:
        legal = legal_actions(state, seat)
        take = next((a for a in legal if a["type"] == "take"), None)
        if take is not None and state.takeable is not None:
            rack = list(state.racks[seat])
            if loose_after(state, [*rack, state.takeable]) < _loose(state, rack):
                return take
        return cpu.choose(state, seat, "hard")

    return choose
