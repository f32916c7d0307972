"""Precomputed colour tables of tile efficiency (``efficiency.colour_table``).

``colour_tables.bin`` holds the colour table entry of every 13-number count vector with at
most ``MAX_TILES`` tiles, for runs with and without 12-13-1 (``ace_high``); ``gen.py``
writes it (``python -m games.engine.efftables.gen``) from ``efficiency``'s exact recursion,
and ``tests/engine/test_efficiency.py`` checks it against that recursion and the recursion
against a brute-force oracle. Vectors with more tiles are computed when first met.

The format (all little-endian): ``b"OKEYEFF1"``, then per ace rule (True, then False) the
number U of distinct entries (uint32), each entry as its length (uint8) and its triples
(d, g + 64, m) as three uint8, then one uint16 entry index per vector, the vectors in
``table_vectors()`` order.
"""

from __future__ import annotations

MAX_TILES = 8
MAGIC = b"OKEYEFF1"


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
