"""Precomputed tables: the colour tables of tile efficiency (``efficiency.colour_table``,
below), the run covers of ``evaluate.is_winning`` (``cover.py``, ``run_cover.bin``) and the
run solver's answers for ``evaluate.best_arrangement`` (``solved.py``,
``solver_tables.bin``); ``games/tools/engine/efftables_gen.py`` writes them all.

``colour_tables.bin`` holds the colour table entry of every 13-number count vector with at
most ``BIG_TILES`` tiles, for runs with and without 12-13-1 (``ace_high``); the generator
writes it (``python -m games.tools.engine.efftables_gen``, about a minute or two of CPU) from
``efficiency``'s exact recursion, and ``tests/engine/test_efficiency.py`` checks it against
that recursion and the recursion against a brute-force oracle. The colours of 11 to 14
tiles are in ``long_colour_tables.bin`` (``longcolour.py``, its format and loader; the
generator's ``--only long``); vectors with more tiles (lay-down racks only) are computed
when first met (a few milliseconds each).

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

import struct
import sys
from array import array
from collections.abc import Iterable

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


# The entry tables of colour_tables.bin and long_colour_tables.bin (one format, both ace
# rules): the number U of distinct entries (uint32), each entry as its length (uint8) and
# its triples (d, g + 64, m), then one uint16 entry index per vector.

Entry = tuple[tuple[int, int, int], ...]


def intern_entries(entries: Iterable[Entry]) -> tuple[list[Entry], list[int]]:
    """The distinct entries in order of first appearance, and each entry's index there."""
    index: dict[Entry, int] = {}
    order: list[Entry] = []
    idx: list[int] = []
    for e in entries:
        i = index.get(e)
        if i is None:
            i = index[e] = len(order)
            order.append(e)
        idx.append(i)
    if len(order) >= 1 << 16:
        raise SystemExit("too many distinct entries for uint16 indices")
    return order, idx


def pack_entries(order: list[Entry], idx: Iterable[int]) -> bytes:
    """The bytes of an entry table: ``order``'s entries, then the indices (little-endian)."""
    idx = array("H", idx)
    if sys.byteorder == "big":
        idx.byteswap()
    parts = [struct.pack("<I", len(order))]
    for e in order:
        parts.append(bytes([len(e)] + [x for d, g, m in e for x in (d, g + 64, m)]))
    parts.append(idx.tobytes())
    return b"".join(parts)


def unpack_entries(data: bytes, pos: int, n: int) -> tuple[list[Entry], array, int]:
    """An entry table of ``n`` vectors read at ``pos``: (entries, indices, next position)."""
    (u,) = struct.unpack_from("<I", data, pos)
    pos += 4
    entries: list[Entry] = []
    for _ in range(u):
        k = data[pos]
        raw = data[pos + 1 : pos + 1 + 3 * k]
        pos += 1 + 3 * k
        entries.append(tuple((raw[i], raw[i + 1] - 64, raw[i + 2]) for i in range(0, 3 * k, 3)))
    idx = array("H")
    idx.frombytes(data[pos : pos + 2 * n])
    if sys.byteorder == "big":
        idx.byteswap()
    return entries, idx, pos + 2 * n
