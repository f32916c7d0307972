"""Find a lesson's deal: ``python -m games.learn.seeds <rule set> [how many]``.

Tries the seeds ``learn:<rule set>:0``, ``:1``, ... and prints the first whose deal lets
every step of the lesson happen with the scripted CPUs of ``script.cpu_move`` (seat 0
starts and discards first; the learner sits at seat 1; the others draw and discard, so
the learner's draws are the same pile positions whatever the CPUs throw away). The printed
tiles go into the lesson's ``Script`` (games/learn/script.py).

- classic and rummy (Okey Rummy closes as classic does, RULES.md §3): the learner holds
  an okey and a false joker, and wins on their third turn with both: a tile of the pile on
  turn one, seat 0's second discard taken on turn two, a tile of the pile on turn three.
  Seat 0's first discard fits nothing of theirs.
- fifty-one, 101 and seventeen: the learner's first draw lets them open (at least 51,
  RULES.md §4; at least 101 in 101; at least 17 by seventeen's meld values, §5) with no
  okey or false joker, and their second draw fits exactly one of the opened melds.
"""

from __future__ import annotations

import sys

from games.engine.evaluate import best_arrangement
from games.engine.melds import classify
from games.engine.state import new_hand
from games.engine.tiles import FALSE_IDS, kind_of, notation


def _arrangement(tiles, okey, values=None, ace_high=True):
    return best_arrangement(list(tiles), okey, values=values, pairs=False, ace_high=ace_high)


def _special(tile: int, okey: int) -> bool:
    return kind_of(tile) == okey or tile in FALSE_IDS


def classic(i: int) -> str | None:
    return whole_rack("classic", i)


def rummy(i: int) -> str | None:
    return whole_rack("rummy", i)


def whole_rack(variant: str, i: int) -> str | None:
    s = new_hand(variant, {}, f"learn:{variant}:{i}", 0)
    ok, rack, pile = s.okey_kind, list(s.racks[1]), s.pile
    okeys = [t for t in rack if kind_of(t) == ok]
    if not okeys or not any(t in FALSE_IDS for t in rack):
        return None
    p1, p3 = pile[-1], pile[-8]  # the learner's draws on turns one and three
    base = len(_arrangement(rack, ok).leftover)
    d0 = next(
        (
            t
            for t in s.racks[0]
            if not _special(t, ok) and len(_arrangement(rack + [t], ok).leftover) > base
        ),
        None,
    )
    if d0 is None:
        return None
    for d in [t for t in s.racks[0] if t != d0] + [pile[-4]]:
        if _special(d, ok):
            continue
        a = _arrangement(rack + [p1, d, p3], ok)
        left = a.leftover
        if len(left) != 3 or d in left or any(t in left for t in okeys + list(FALSE_IDS)):
            continue
        x1 = next((t for t in left if t in rack), None)
        x2 = next((t for t in left if t != x1 and (t in rack or t == p1)), None)
        if x1 is None or x2 is None:
            continue
        close = next(t for t in left if t not in (x1, x2))
        turn2 = [t for t in rack + [p1] if t != x1] + [d]
        if (
            min(len(_arrangement(rack + [p1], ok).leftover), len(_arrangement(turn2, ok).leftover))
            <= 1
        ):
            continue  # the learner could close before the third turn
        if not any(
            kind_of(t) == ok and p != ok
            for m in a.melds
            for t, p in zip(m.tiles, m.plays, strict=True)
        ):
            continue  # the okey must stand in for another tile
        return (
            f"seed=learn:{variant}:{i} first_discard={notation(d0)} take={notation(d)} "
            f"discards=({notation(x1)}, {notation(x2)}) close={notation(close)}"
        )
    return None


def _fits(meld, tile, okey, ace_high=True) -> bool:
    shape = classify([*meld, tile], okey, ace_high=ace_high)
    return shape is not None and shape.kind != "pair"


def fifty_one(i: int) -> str | None:
    return lay_down("fifty-one", 51, i)


def okey101(i: int) -> str | None:
    return lay_down("101", 101, i)


def seventeen(i: int) -> str | None:
    # RULES.md §5: meld values of their own, 1 low only, the first opening at 17 or more
    return lay_down("seventeen", 17, i, values="seventeen", ace_high=False)


def lay_down(
    variant: str, minimum: int, i: int, values: str = "sum", ace_high: bool = True
) -> str | None:
    s = new_hand(variant, {}, f"learn:{variant}:{i}", 0)
    ok, rack, pile = s.okey_kind, list(s.racks[1]), s.pile
    p1, p2 = pile[-1], pile[-5]  # the learner's draws on turns one and two
    if any(_special(t, ok) for t in [*rack, p1, p2]):
        return None
    a = _arrangement(rack + [p1], ok, values, ace_high)
    if (a.opening_total or 0) < minimum or len(a.leftover) < 2 or p1 in a.leftover:
        return None
    if (_arrangement(rack, ok, values, ace_high).opening_total or 0) >= minimum:
        return None
    melds = [m.tiles for m in a.melds]
    kinds = [kind_of(t) for m in melds for t in m]
    if len(set(kinds)) != len(kinds):
        return None  # each tile of the opening named once, by its face alone
    if any(kind_of(t) == kind_of(p2) for m in melds for t in m):
        return None
    target = [m for m in melds if _fits(m, p2, ok, ace_high)]
    if len(target) != 1:
        return None
    grown = [*melds, (*target[0], p2)]
    if any(_fits(m, x, ok, ace_high) for m in grown for x in a.leftover):
        return None
    d0 = next(
        (
            t
            for t in s.racks[0]
            if not _special(t, ok) and not any(_fits(m, t, ok, ace_high) for m in melds)
        ),
        None,
    )
    if d0 is None:
        return None
    return (
        f"seed=learn:{variant}:{i} first_discard={notation(d0)} "
        f"opening={[' '.join(notation(t) for t in m) for m in melds]} add={notation(p2)} "
        f"discards=({notation(a.leftover[0])}, {notation(a.leftover[1])})"
    )


SEARCHES = {
    "classic": classic,
    "rummy": rummy,
    "fifty-one": fifty_one,
    "101": okey101,
    "seventeen": seventeen,
}


def main(argv: list[str]) -> int:
    search = SEARCHES[argv[0]]
    for i in range(int(argv[1]) if len(argv) > 1 else 100_000):
        found = search(i)
        if found:
            print(found)
            return 0
    return 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
