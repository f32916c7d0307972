"""Random legal play: ``simulate(variant, hands, seed, options)``.

Each seat picks uniformly among its legal actions, with a bias so hands end:
closing, opening, laying and adding are always preferred when available, an
undo is taken at once, and penalised discards are avoided when a clean
discard exists. The same arguments always give the same run.
"""

from __future__ import annotations

import random
import time
from typing import Any

from .actions import apply, legal_actions, penalty_tiles, take_useful
from .state import HandState, new_hand
from .tiles import FALSE_KIND, kind_of

PREFERRED = ("close", "open", "lay", "add", "swap")


def choose(state: HandState, rng: random.Random) -> dict:
    """One biased-random legal action for the player to move."""
    seat = state.turn
    acts = [a for a in legal_actions(state, seat) if a["type"] != "flip"]
    take = [a for a in acts if a["type"] == "take"]
    if take:
        # draw or take, one chance in two; a take that cannot be used is never chosen
        # (checked only when the coin says "take": the check costs a search)
        if rng.random() < 0.5 and take_useful(state, seat):
            return take[0]
        acts = [a for a in acts if a["type"] != "take"]
    for kind in PREFERRED:
        best = [a for a in acts if a["type"] == kind]
        if best:
            return rng.choice(best)
    if any(a["type"] == "show" for a in acts):
        return next(a for a in acts if a["type"] == "show")
    undo = [a for a in acts if a["type"] == "undo"]
    if undo:
        return undo[0]
    discards = [a for a in acts if a["type"] == "discard"]
    if discards:
        if not state.rules.whole_rack:
            bad = penalty_tiles(state, [a["tile"] for a in discards])
            clean = [a for a in discards if a["tile"] not in bad]
            discards = clean or discards
        # bias: throw one of the least connected tiles (so racks improve and hands end)
        rack = state.racks[seat]
        links = _links_all(rack, state.okey_kind)
        score = {a["tile"]: links[a["tile"]] for a in discards}
        low = min(score.values())
        discards = [a for a in discards if score[a["tile"]] <= low + (rng.random() < 0.2)]
        return rng.choice(discards)
    return rng.choice(acts)


def _links_all(rack: tuple[int, ...], okey_kind: int) -> dict[int, int]:
    """For each rack tile: how many rack tiles could share a meld with it (okeys: 99).

    Neighbours in a run count 2 (one apart) or 1 (two apart), a twin 1 and each tile
    of the same number in another colour 2."""
    count = [0] * 56  # kind -> copies in the rack (+ padding)
    kinds: list[int | None] = []
    for t in rack:
        k = kind_of(t)
        if k == okey_kind:
            kinds.append(None)
            continue
        k = okey_kind if k == FALSE_KIND else k
        kinds.append(k)
        count[k] += 1
    out = {}
    for t, kind in zip(rack, kinds, strict=True):
        if kind is None:
            out[t] = 99
            continue
        c, n0 = divmod(kind, 13)
        base = c * 13
        score = count[kind] - 1
        for d, w in ((-2, 1), (-1, 2), (1, 2), (2, 1)):
            m = n0 + d
            if 0 <= m < 13:
                score += w * count[base + m]
        for cc in range(4):
            if cc != c:
                score += 2 * count[cc * 13 + n0]
        out[t] = score
    return out


def play_hand(
    variant: str,
    options: dict | None,
    seed: Any,
    starter: int = 0,
    rng: random.Random | None = None,
    max_actions: int = 2000,
) -> HandState:
    """Play one hand at random to its end (or ``max_actions``)."""
    rng = rng or random.Random(str(seed))
    state = new_hand(variant, options, seed, starter)
    for _ in range(max_actions):
        if state.over:
            break
        state, _ = apply(state, choose(state, rng))
    return state


def simulate(
    variant: str, hands: int, seed: Any = 0, options: dict | None = None
) -> dict[str, Any]:
    """Play ``hands`` random hands; report endings and mean hand scores per seat."""
    rng = random.Random(f"simulate/{variant}/{seed}")
    start = time.perf_counter()
    endings: dict[str, int] = {}
    finished = 0
    sums: list[int] | None = None
    for i in range(hands):
        state = play_hand(variant, options, f"{seed}/{i}", i % _players(variant, options), rng)
        totals = state.hand_totals()
        if sums is None:
            sums = [0] * len(totals)
        for s, v in enumerate(totals):
            sums[s] += v
        if state.over:
            finished += 1
            assert state.result is not None  # a hand that is over has its result
            ending = state.result["ending"]
            endings[ending] = endings.get(ending, 0) + 1
        else:
            endings["unfinished"] = endings.get("unfinished", 0) + 1
    elapsed = time.perf_counter() - start
    return {
        "variant": variant,
        "hands": hands,
        "finished": finished,
        "endings": endings,
        "mean_scores": [v / hands for v in (sums or [])],
        "hands_per_second": hands / elapsed if elapsed > 0 else float("inf"),
    }


def _players(variant: str, options: dict | None) -> int:
    from .options import validate_options

    return validate_options(variant, options)["players"]
