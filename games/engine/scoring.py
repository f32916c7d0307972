"""Score lines for every ending and penalty of every variant (rules.md §2-§5).

A score line is ``{"seat", "points", "reason", "detail"}``. Points are in the
variant's own direction:

* ``classic``: countdown deltas (a loss is negative; the game adds them to the
  start points);
* ``rummy``: points won (positive);
* ``fifty-one`` / ``seventeen``: penalty points (lower is better; the finisher's
  bonus is negative).
"""

from __future__ import annotations

import math
from typing import Any

from .table import face_number
from .tiles import colour_of_kind, kind_of


def line(seat: int, points: int, reason: str, **detail: Any) -> dict:
    return {"seat": seat, "points": points, "reason": reason, "detail": detail}


# ------------------------------------------------------------------ classic / rummy

CLASSIC_CLOSE = {"close": 2, "okey_close": 4, "pairs_close": 4, "pairs_okey_close": 8}
RUMMY_CLOSE = {"close": 3, "okey_close": 6, "pairs_close": 6, "pairs_okey_close": 6}


def close_ending(pairs: bool, okey: bool) -> str:
    if pairs and okey:
        return "pairs_okey_close"
    if pairs:
        return "pairs_close"
    if okey:
        return "okey_close"
    return "close"


def classic_close_lines(n: int, closer: int, ending: str) -> list[dict]:
    """[D5] each other player loses 2 / 4 (okey close) / 4 (seven pairs) / 8 (both)."""
    pts = CLASSIC_CLOSE[ending]
    return [line(s, -pts, ending, closer=closer) for s in range(n) if s != closer]


def classic_show_lines(n: int, shower: int) -> list[dict]:
    """Showing the indicator's twin: each other player loses 1."""
    return [line(s, -1, "indicator_shown", shower=shower) for s in range(n) if s != shower]


def rummy_close_lines(closer: int, ending: str) -> list[dict]:
    """The closer alone scores: 3, or 6 for seven pairs and/or an okey close."""
    return [line(closer, RUMMY_CLOSE[ending], ending)]


def rummy_show_lines(shower: int) -> list[dict]:
    """[D24] the shower earns 1."""
    return [line(shower, 1, "indicator_shown")]


# ------------------------------------------------------------------------ fifty-one


def rack_sum(rack: tuple[int, ...] | list[int], okey_kind: int) -> tuple[int, int]:
    """(Σ of the non-okey tiles' numbers — a false joker counts its identity, okeys)."""
    total = okeys = 0
    for t in rack:
        if kind_of(t) == okey_kind:
            okeys += 1
        else:
            total += face_number(t, okey_kind)
    return total, okeys


FIFTY_ONE_FINISH = {"hand": -500, "pairs": -1000, "okey": -1000}


def fifty_one_end_lines(
    racks: tuple[tuple[int, ...], ...],
    opened: tuple[str | None, ...],
    okey_kind: int,
    ending: str,
    finisher: int | None,
    partner_of_finisher: int | None,
) -> list[dict]:
    """The fifty-one endings table and [D20]; [D14] the finisher's partner pays nothing."""
    out: list[dict] = []
    big = ending in ("pairs", "okey")
    if finisher is not None:
        out.append(line(finisher, FIFTY_ONE_FINISH[ending], "finished", ending=ending))
    for s, rack in enumerate(racks):
        if s == finisher:
            continue
        if s == partner_of_finisher:
            out.append(line(s, 0, "partner_finished", ending=ending, partner=finisher))
            continue
        if opened[s] is None:
            out.append(line(s, 1000 if big else 500, "not_opened", ending=ending))
            continue
        m = 10 if (big or opened[s] == "pairs") else 5
        total, okeys = rack_sum(rack, okey_kind)
        out.append(
            line(
                s,
                total * m + 100 * m * okeys,
                "tiles_left",
                ending=ending,
                sum=total,
                okeys=okeys,
                multiplier=m,
                tiles=len(rack),
            )
        )
    return out


# ------------------------------------------------------------------------ seventeen

SEVENTEEN_BASE = {"R": 400, "K": 500, "Y": 600, "B": 800}


def seventeen_base(okey_kind: int) -> int:
    """Base by the okey's colour: red 400, black 500, yellow 600, blue 800."""
    return SEVENTEEN_BASE["RYBK"[colour_of_kind(okey_kind)]]


def pair_factor(opened: tuple[str | None, ...]) -> int:
    """2^k, k = the number of players who opened with pairs."""
    return 2 ** sum(1 for o in opened if o == "pairs")


def seventeen_pairs_minimum(limit: int | None) -> int:
    """[D17] a pairs opening needs ≥ ⌈1.5 × 17⌉ = 26 at first, > ⌈1.5 × L⌉ once L is set."""
    if limit is None:
        return math.ceil(1.5 * 17)
    return math.ceil(1.5 * limit) + 1


def seventeen_end_lines(
    racks: tuple[tuple[int, ...], ...],
    opened: tuple[str | None, ...],
    okey_kind: int,
    finisher: int | None,
    okey_end: bool,
    direct: bool,
) -> list[dict]:
    """[D19] [D21] finisher −base/10; opened losers 10 per tile, unopened the base
    (× 4 after a direct close); × pair factor; × 2 after an okey finish."""
    base = seventeen_base(okey_kind)
    factor = pair_factor(opened)
    okey_x = 2 if okey_end else 1
    out: list[dict] = []
    if finisher is not None:
        out.append(line(finisher, -base // 10, "finished", base=base))
    for s, rack in enumerate(racks):
        if s == finisher:
            continue
        if opened[s] is None:
            direct_x = 4 if direct else 1
            pts = base * direct_x * factor * okey_x
            out.append(
                line(
                    s,
                    pts,
                    "not_opened",
                    base=base,
                    direct_close=direct,
                    pair_factor=factor,
                    okey_finish=okey_end,
                )
            )
        else:
            pts = 10 * len(rack) * factor * okey_x
            out.append(
                line(
                    s,
                    pts,
                    "tiles_left",
                    tiles=len(rack),
                    pair_factor=factor,
                    okey_finish=okey_end,
                )
            )
    return out
