"""Colour tables of the long colours: every 13-number count vector of ``BIG_TILES`` + 1 to
``LONG_TILES`` tiles (787,333 vectors), stored in ``long_colour_tables.bin``.

``colour_tables.bin`` (the package doc) stops at ``BIG_TILES`` (10) tiles a colour; a longer
colour (a run of 11-13 and more tiles of one colour: one built winning rack in ten) used to
be computed when first met by ``efficiency``'s greedy recursion, about 0.5-2 ms each, which
a rack the process has not seen paid every time. This file holds those entries, computed by
that same recursion (``efficiency.compute_colour_table(v, ace_high, greedy=True)``), so the
deficiencies are the ones computed before; ``tests/engine/test_efficiency_fast.py`` checks
stored entries against the recursion. Colours of more than ``LONG_TILES`` tiles (only in the
lay-down rule sets' longer racks) are still computed when first met.

Written by ``python -m games.tools.engine.efftables_gen --only long`` (about two CPU minutes).
The format: ``LONG_MAGIC`` then, zlib-compressed (level 9): the number N of vectors
(uint32) and their ascending values as deltas (N uint32), then per ace rule (True, then
False) the number U of distinct entries (uint32), each entry as its length (uint8) and
its triples (d, g + 64, m) as three uint8, and one entry index per vector (N uint16).
All little-endian.
"""

from __future__ import annotations

import struct
import sys
import zlib
from array import array
from collections.abc import Callable
from itertools import accumulate
from pathlib import Path

from . import BIG_TILES, Entry, big_vectors, intern_entries, pack_entries, unpack_entries

LONG_TILES = 14  # a whole rack's colour: 14 tiles, or 15 with the tile to discard
LONG_MAGIC = b"OKEYLNG1"
LONG_FILE = Path(__file__).with_name("long_colour_tables.bin")


def build(compute: Callable[[int, bool], Entry], clear: Callable[[], None]) -> bytes:
    """The file's bytes: ``compute(v, ace_high)`` gives an entry, ``clear()`` forgets the
    recursion's memo (called every few thousand vectors to bound the memory)."""
    vecs = big_vectors(BIG_TILES, LONG_TILES)
    body = [struct.pack("<I", len(vecs))]
    deltas = array("I", (b - a for a, b in zip([0, *vecs], vecs, strict=False)))
    body.append(_le(deltas))
    for ace_high in (True, False):

        def computed(ace_high: bool = ace_high):
            for i, v in enumerate(vecs):
                if i % 20000 == 0:
                    clear()
                yield compute(v, ace_high)

        order, idx = intern_entries(computed())
        clear()
        body.append(pack_entries(order, idx))
    return LONG_MAGIC + zlib.compress(b"".join(body), 9)


def _le(a: array) -> bytes:
    if sys.byteorder == "big":
        a = array(a.typecode, a)
        a.byteswap()
    return a.tobytes()


def load() -> dict[bool, tuple[array, array, list[Entry]]] | None:
    """Per ace rule (sorted vectors, entry index per vector, entries), or None when the
    file is missing or not this format."""
    try:
        data = LONG_FILE.read_bytes()
    except OSError:
        return None
    if not data.startswith(LONG_MAGIC):
        return None
    raw = zlib.decompress(data[len(LONG_MAGIC) :])
    (n,) = struct.unpack_from("<I", raw, 0)
    pos = 4
    deltas = array("I")
    deltas.frombytes(raw[pos : pos + 4 * n])
    if sys.byteorder == "big":
        deltas.byteswap()
    pos += 4 * n
    vecs = array("I", accumulate(deltas))
    out = {}
    for ace_high in (True, False):
        entries, idx, pos = unpack_entries(raw, pos, n)
        out[ace_high] = (vecs, idx, entries)
    return out
