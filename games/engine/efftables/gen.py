"""Write ``colour_tables.bin`` (see the package doc): ``python -m games.engine.efftables.gen``.

Deterministic: the same file on every run (entries numbered in first-met order over the
fixed vector orders).
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

from ..efficiency import compute_colour_table
from . import BIG_TILES, MAGIC, MAX_TILES, big_vectors, table_vectors

OUT = Path(__file__).with_name("colour_tables.bin")


def build(max_tiles: int = MAX_TILES, big_tiles: int = BIG_TILES) -> bytes:
    small = table_vectors(max_tiles)
    big = big_vectors(max_tiles, big_tiles)
    parts = [MAGIC]
    for ace_high in (True, False):
        index: dict[tuple, int] = {}
        order: list[tuple] = []
        idx = []
        for v in small + big:
            e = compute_colour_table(v, ace_high)
            i = index.get(e)
            if i is None:
                i = index[e] = len(order)
                order.append(e)
            idx.append(i)
        if len(order) >= 1 << 16:
            raise SystemExit("too many distinct entries for uint16 indices")
        parts.append(struct.pack("<I", len(order)))
        for e in order:
            parts.append(bytes([len(e)] + [x for d, g, m in e for x in (d, g + 64, m)]))
        parts.append(struct.pack(f"<{len(idx)}H", *idx))
    return b"".join(parts)


def main() -> None:
    data = build()
    OUT.write_bytes(data)
    print(f"{OUT}: {len(data)} bytes")


if __name__ == "__main__":
    main()
    sys.exit(0)
