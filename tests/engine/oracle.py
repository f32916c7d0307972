"""A slow, independent brute-force oracle for hand evaluation (tests only).

Written without looking at evaluate.py's method: recursion on sets of tile ids.
Take the lowest real tile still in the rack; either it stays over, or it goes
into one of the melds that contain it, built slot by slot from the real tiles
left or from okeys named explicitly (each okey gets the kind it stands for).
Every candidate meld is checked with ``melds.classify`` (with that explicit
assignment) and valued with ``melds.sum_value`` / ``melds.seventeen_value``.
"""

from __future__ import annotations

from functools import cache

from games.engine.melds import GROUP, PAIR, RUN, classify, seventeen_value, sum_value
from games.engine.tiles import FALSE_KIND, kind_of, make_kind


def plain_kind(tile_id: int, okey_kind: int) -> int | None:
    """None for a real okey, the okey kind for a false joker, else the kind."""
    k = kind_of(tile_id)
    if k == okey_kind:
        return None
    return okey_kind if k == FALSE_KIND else k


def _meld_value(shape, values: str | None) -> int:
    if values == "seventeen":
        return seventeen_value(shape.kind, shape.plays)
    return sum_value(shape.plays)


def _candidates(t: int, rest: frozenset[int], okey_kind: int, ace_high: bool):
    """Every meld (as a classify()'d Shape) holding real tile t plus tiles of rest."""
    kt = plain_kind(t, okey_kind)
    colour, number = kt // 13, kt % 13 + 1
    okeys = sorted(x for x in rest if plain_kind(x, okey_kind) is None)
    by_kind: dict[int, int] = {}
    for x in sorted(rest):
        k = plain_kind(x, okey_kind)
        if k is not None and k not in by_kind:
            by_kind[k] = x

    def fill(slots: list[int], allow: str):
        """slots: kinds needed besides t; yield shapes, each slot real or okey."""
        out = []

        def rec(i: int, ids: list[int], assign: dict[int, int], used_ok: int) -> None:
            if i == len(slots):
                shape = classify(
                    [t, *ids], okey_kind, ace_high=ace_high, allow=(allow,), assign=assign
                )
                if shape is not None:
                    out.append(shape)
                return
            k = slots[i]
            if k in by_kind:
                rec(i + 1, [*ids, by_kind[k]], assign, used_ok)
            if used_ok < len(okeys):
                o = okeys[used_ok]
                rec(i + 1, [*ids, o], {**assign, o: k}, used_ok + 1)

        rec(0, [], {}, 0)
        return out

    top = 14 if ace_high else 13
    positions = [number, 14] if (number == 1 and ace_high) else [number]
    present = {q for q in range(1, top + 1) if make_kind(colour, 1 if q == 14 else q) in by_kind}
    for pos in positions:
        # windows [start, end] around pos; stop once the holes outnumber the okeys
        miss_lo = 0
        for start in range(pos, max(1, pos - 12) - 1, -1):
            if start < pos and start not in present:
                miss_lo += 1
            if miss_lo > len(okeys):
                break
            miss = miss_lo
            for end in range(pos, min(top, start + 12) + 1):
                if end > pos and end not in present:
                    miss += 1
                if miss > len(okeys):
                    break
                if end - start >= 2:
                    slots = [
                        make_kind(colour, 1 if q == 14 else q)
                        for q in range(start, end + 1)
                        if q != pos
                    ]
                    yield from fill(slots, RUN)
    others = [c for c in range(4) if c != colour]
    for size in (2, 3):
        for mask in range(8):
            cols = [others[i] for i in range(3) if mask >> i & 1]
            if len(cols) == size:
                yield from fill([make_kind(c, number) for c in cols], GROUP)


def oracle_melds(
    tile_ids, okey_kind: int, *, ace_high: bool = True, values: str | None = None
) -> tuple[int, int]:
    """(fewest tiles left over by runs and groups, best total among those)."""

    @cache
    def best(rest: frozenset[int]) -> tuple[int, int]:
        reals = [x for x in rest if plain_kind(x, okey_kind) is not None]
        if not reals:
            return (len(rest), 0)
        t = min(reals, key=lambda x: (plain_kind(x, okey_kind), x))
        others = rest - {t}
        left, neg = best(others)
        res = (left + 1, neg)
        for shape in _candidates(t, others, okey_kind, ace_high):
            sub = best(others - set(shape.tiles))
            cand = (sub[0], sub[1] - _meld_value(shape, values))
            res = min(res, cand)
        return res

    left, neg = best(frozenset(tile_ids))
    return left, -neg


def oracle_pairs(tile_ids, okey_kind: int, *, values: str | None = None) -> tuple[int, int]:
    """(fewest tiles left over by pairs, best total among those)."""

    @cache
    def best(rest: frozenset[int]) -> tuple[int, int]:
        reals = sorted(x for x in rest if plain_kind(x, okey_kind) is not None)
        okeys = sorted(x for x in rest if plain_kind(x, okey_kind) is None)
        if not reals:
            if len(okeys) >= 2:
                v = _meld_value(_pair(okey_kind), values)
                return (len(okeys) - 2, -v)
            return (len(okeys), 0)
        t = reals[0]
        k = plain_kind(t, okey_kind)
        left, neg = best(rest - {t})
        res = (left + 1, neg)
        mates = [x for x in reals[1:] if plain_kind(x, okey_kind) == k] + okeys[:1]
        for m in mates:
            shape = classify(
                [t, m], okey_kind, allow=(PAIR,), assign={m: k} if m in okeys else None
            )
            assert shape is not None
            sub = best(rest - {t, m})
            res = min(res, (sub[0], sub[1] - _meld_value(shape, values)))
        return res

    left, neg = best(frozenset(tile_ids))
    return left, -neg


def _pair(okey_kind: int):
    class _P:
        kind = PAIR
        plays = (okey_kind, okey_kind)

    return _P


def oracle_is_winning(tile_ids, okey_kind: int, *, ace_high: bool = True) -> bool:
    if len(tile_ids) != 14:
        return False
    if oracle_pairs(tile_ids, okey_kind)[0] == 0:
        return True
    return oracle_melds(tile_ids, okey_kind, ace_high=ace_high)[0] == 0
