"""Write the precomputed tables: ``colour_tables.bin`` (see the package doc),
``run_cover.bin`` (``cover.py``) and ``solver_tables.bin`` (``solved.py``):
``python -m games.engine.efftables.gen`` (about three CPU minutes; ``--only colour``,
``--only cover`` or ``--only solved`` writes one of them).

Deterministic: the same files on every run (entries numbered in first-met order over the
fixed vector orders; the cover masks in rank order, zlib level 9).
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

from ..efficiency import compute_colour_table
from . import BIG_TILES, MAGIC, MAX_TILES, big_vectors, cover, solved, table_vectors

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


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    only = args[args.index("--only") + 1] if "--only" in args else None
    if only in (None, "colour"):
        data = build()
        OUT.write_bytes(data)
        print(f"{OUT}: {len(data)} bytes")
    if only in (None, "cover"):
        data = cover.encode(cover.build_cover())
        cover.COVER_FILE.write_bytes(data)
        print(f"{cover.COVER_FILE}: {len(data)} bytes")
    if only in (None, "solved"):
        data = solved.build()
        solved.SOLVED_FILE.write_bytes(data)
        print(f"{solved.SOLVED_FILE}: {len(data)} bytes")


if __name__ == "__main__":
    main()
    sys.exit(0)
