"""Precomputed tables: the colour tables of tile efficiency (``efficiency.colour_table``,
below), the run covers of ``evaluate.is_winning`` (``cover.py``, ``run_cover.bin``) and the
run solver's answers for ``evaluate.best_arrangement`` (``solved.py``,
``solver_tables.bin``); ``gen.py`` writes them all.

``colour_tables.bin`` holds the colour table entry of every 13-number count vector with at
most ``BIG_TILES`` tiles, for runs with and without 12-13-1 (``ace_high``); ``gen.py``
writes it (``python -m games.engine.efftables.gen``, about a minute or two of CPU) from
``efficiency``'s exact recursion, and ``tests/engine/test_efficiency.py`` checks it against
that recursion and the recursion against a brute-force oracle. The colours of 11 to 14
tiles are in ``long_colour_tables.bin`` (``longcolour.py``, its format and loader; ``gen.py
--only long``); vectors with more tiles (lay-down racks only) are computed when first met
(a few milliseconds each).

At run time the vectors of up to ``MAX_TILES`` tiles (19,930: most colours of a rack) go
into a dict; the 298,012 of ``MAX_TILES`` + 1 to ``BIG_TILES`` tiles stay in two compact
arrays (sorted vectors and entry indices, about 1.8 MB a rule of the ace) searched by
bisection.

The format (little-endian): ``MAGIC``, then per ace rule (True, then False) the number U of
distinct entries (uint32), each entry as its length (uint8) and its triples (d, g + 64, m)
as three uint8, then one uint16 entry index per vector of ``table_vectors()`` (in that
order), then one per vector of ``big_vectors()`` (ascending).
"""

from __future__ import annotations

MAX_TILES = 6  # in a dict at run time (all vectors up to 10 tiles in one: 35 MB)
BIG_TILES = 10
MAGIC = b"OKEYEFF2"


def table_vectors(max_tiles: int = MAX_TILES) -> list[int]:
    """Every 13-number count vector (2 bits a number, counts 0-2) with at most
    ``max_tiles`` tiles, in a fixed order (number 1's count varies slowest)."""
    out: list[int] = []

    def rec(pos: int, v: int, left: int) -> None:
        if pos == 13:
            out.append(v)
            return
        for c in range(min(2, left) + 1):
            rec(pos + 1, v | (c << (2 * pos)), left - c)

    rec(0, 0, max_tiles)
    return out


def tiles_in(v: int) -> int:
    """The number of tiles a count vector holds."""
    return (v & 0x5555555).bit_count() + 2 * (v >> 1 & 0x5555555).bit_count()


def big_vectors(low: int = MAX_TILES, high: int = BIG_TILES) -> list[int]:
    """The vectors of ``low`` + 1 to ``high`` tiles, ascending."""
    return sorted(v for v in table_vectors(high) if tiles_in(v) > low)
