"""Write the precomputed tables: ``colour_tables.bin`` (see the package doc),
``run_cover.bin`` (``cover.py``) and ``solver_tables.bin`` (``solved.py``):
``python -m games.tools.engine.efftables_gen`` (about three CPU minutes; ``--only colour``,
``--only cover`` or ``--only solved`` writes one of them), and ``long_colour_tables.bin``
(``longcolour.py``, about two CPU minutes more; ``--only long``).

Deterministic: the same files on every run (entries numbered in first-met order over the
fixed vector orders; the cover masks in rank order, zlib level 9).
"""

from __future__ import annotations

import struct
import sys
import zlib
from array import array
from pathlib import Path

from games.engine import efficiency, efftables, evaluate
from games.engine.efficiency import compute_colour_table
from games.engine.efftables import (
    BIG_TILES,
    MAGIC,
    MAX_TILES,
    big_vectors,
    cover,
    intern_entries,
    longcolour,
    pack_entries,
    solved,
    table_vectors,
)

OUT = Path(efftables.__file__).with_name("colour_tables.bin")


def build(max_tiles: int = MAX_TILES, big_tiles: int = BIG_TILES) -> bytes:
    small = table_vectors(max_tiles)
    big = big_vectors(max_tiles, big_tiles)
    parts = [MAGIC]
    for ace_high in (True, False):
        order, idx = intern_entries(compute_colour_table(v, ace_high) for v in small + big)
        parts.append(pack_entries(order, idx))
    return b"".join(parts)


def build_solved_combo(mode: str, ace_high: bool, max_tiles: int = solved.SOLVED_TILES) -> bytes:
    """One combo's part of ``solver_tables.bin`` (see ``solved.py``), from ``evaluate``'s
    solver run without the tables, on its own memo."""
    rec = evaluate._solver(mode, ace_high, tables=False)
    memo = rec.memo
    vecs = table_vectors(max_tiles)
    out_index: dict[tuple, int] = {}
    outs: list[tuple] = []
    out_idx = array("H", bytes(2 * solved.N13))
    topx = bytearray(solved.N13) if ace_high else bytearray()
    for v in vecs:
        best = list(rec(v))
        xs = [0, 0, 0]
        if ace_high and v & 3:
            for x in range(1, (v & 3) + 1):  # as evaluate._solve_colour
                alt = rec(v - x + (x << 26))
                for u in range(3):
                    a = alt[u]
                    if a is not None and (best[u] is None or a[0] < best[u][0]):
                        best[u] = a
                        xs[u] = x
        sc = tuple(evaluate._INF if e is None else e[0] for e in best)
        feas = sum(1 << u for u in range(3) if sc[u] < evaluate._LEFT // 2)
        out = (sc[0], sc[1] - sc[0], sc[2] - sc[0], feas)
        i = out_index.get(out)
        if i is None:
            i = out_index[out] = len(outs) + 1
            outs.append(out)
        r = solved._rank(v)
        out_idx[r] = i
        if ace_high:
            topx[r] = xs[0] | xs[1] << 2 | xs[2] << 4
    if len(outs) >= 1 << 16:
        raise SystemExit("too many distinct scores for uint16 indices")
    # first moves of every state met
    run_index: dict[tuple, int] = {}
    runs: list[tuple] = []
    triple_index: dict[tuple, int] = {}
    triples: list[tuple] = []
    keys = sorted(memo)
    vals = array("H")
    raw_index: dict[tuple, int] = {}
    raws: list[tuple] = []
    rvals = array("H")
    for v in keys:
        r = memo[v]
        raw = tuple(evaluate._INF if e is None else e[0] for e in r)
        i = raw_index.get(raw)
        if i is None:
            i = raw_index[raw] = len(raws)
            raws.append(raw)
        rvals.append(i)
        if v:
            p = ((v & -v).bit_length() - 1) // 2 + 1
            sub = memo[v - (1 << (2 * (p - 1)))]
        moves = []
        for u in range(3):
            e = r[u]
            if e is None:
                moves.append(0)
            elif v == 0:
                moves.append(solved.SKIP)  # never walked: an empty colour has no move
            elif sub[u] is not None and e[1] is sub[u][1]:
                moves.append(solved.SKIP)
            else:
                run = e[1][0]
                j = run_index.get(run)
                if j is None:
                    j = run_index[run] = len(runs) + 2
                    runs.append(run)
                moves.append(j)
        t = tuple(moves)
        k = triple_index.get(t)
        if k is None:
            k = triple_index[t] = len(triples)
            triples.append(t)
        vals.append(k)
    memo.clear()
    if len(raws) >= 1 << 16 or len(triples) >= 1 << 16:
        raise SystemExit("too many distinct entries for uint16 indices")
    parts = [struct.pack("<I", len(outs))]
    parts.append(struct.pack(f"<{4 * len(outs)}q", *[x for o in outs for x in o]))
    parts.append(out_idx.tobytes() if sys.byteorder == "little" else _swapped(out_idx))
    parts.append(bytes(topx))
    parts.append(struct.pack("<I", len(runs)))
    for s, e, okp in runs:
        parts.append(struct.pack("<BBH", s, e, sum(1 << (q - 1) for q in okp)))
    parts.append(struct.pack("<I", len(triples)))
    parts.append(struct.pack(f"<{3 * len(triples)}H", *[x for t in triples for x in t]))
    parts.append(struct.pack("<I", len(keys)))
    deltas = [b - a for a, b in zip([0, *keys], keys, strict=False)]  # compress better
    parts.append(struct.pack(f"<{len(keys)}I", *deltas))
    parts.append(struct.pack(f"<{len(vals)}H", *vals))
    parts.append(struct.pack("<I", len(raws)))
    parts.append(struct.pack(f"<{3 * len(raws)}q", *[x for t in raws for x in t]))
    parts.append(struct.pack(f"<{len(rvals)}H", *rvals))
    return b"".join(parts)


def _swapped(a: array) -> bytes:
    b = array(a.typecode, a)
    b.byteswap()
    return b.tobytes()


def build_solved() -> bytes:
    """The whole file (about half a CPU minute): per combo its length (uint32) and its
    zlib-compressed part."""
    parts = [solved.SOLVED_MAGIC]
    for (
        mode,
        ace_high,
    ) in solved.COMBOS:  # each combo compressed on its own (a smaller peak to load)
        body = zlib.compress(build_solved_combo(mode, ace_high), 9)
        parts += [struct.pack("<I", len(body)), body]
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
    if only in (None, "long"):

        def clear() -> None:
            for r in efficiency._GREEDY.values():
                r.cache_clear()

        data = longcolour.build(lambda v, a: compute_colour_table(v, a, True), clear)
        longcolour.LONG_FILE.write_bytes(data)
        print(f"{longcolour.LONG_FILE}: {len(data)} bytes")
    if only in (None, "solved"):
        data = build_solved()
        solved.SOLVED_FILE.write_bytes(data)
        print(f"{solved.SOLVED_FILE}: {len(data)} bytes")


if __name__ == "__main__":
    main()
    sys.exit(0)
