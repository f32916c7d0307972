"""The evaluator's per-colour run solver, precomputed (``evaluate.best_arrangement``).

``evaluate._solver`` gives, for a colour's count vector and 0, 1 or 2 okeys in its runs,
the best scored plan (fewest tiles left, then the highest value, then the fewest runs:
RULES.md §1 and the tie-breaks of evaluate.py's module doc). ``solver_tables.bin`` (written
by ``gen.py``) holds its answers for every vector of up to ``SOLVED_TILES`` tiles, for the
value modes and ace rules the rule sets use (``COMBOS``), so that a rack the process has
never seen costs table reads, not a solver run:

* the scores ``evaluate._solve_colour`` returns (score with no okey, the extra score of 1
  and of 2 okeys, the mask of the okey counts that leave nothing), one entry per distinct
  value, indexed by the vector's base-3 rank (``cover.rank``; 0: not stored);
* the plan, as the solver's first move from each state (leave the lowest tile out, or a run
  ``(start, end, okey positions)``), for every state the solver meets (with 12-13-1, the
  14-position vectors where position 14 is a 1 played high), in sorted arrays searched by
  bisection, and which of the 1s play high at the top (2 bits per okey count).

Vectors with more tiles still go to the solver (and its memo). ``tests/engine/
test_evaluate_solved.py`` checks the tables against the solver (the old path, kept as the
oracle) and the arrangements against the brute-force oracle.
"""

from __future__ import annotations

import struct
import sys
import zlib
from array import array
from bisect import bisect_left
from itertools import accumulate
from pathlib import Path

from . import table_vectors, tiles_in
from .cover import HI3, LO3, N13

SOLVED_MAGIC = b"OKEYSOL4"
SOLVED_FILE = Path(__file__).with_name("solver_tables.bin")
SOLVED_TILES = 10
# (value mode, ace rule) of the rule sets: classic, rummy and fifty-one; 101; seventeen
COMBOS = (("sum", True), ("sum", False), ("seventeen", False))
SKIP = 1  # move codes: 0 no plan (that okey count is impossible), 1 leave the lowest tile out


def _rank(v: int) -> int:
    return LO3[v & 0x3FFF] + HI3[v >> 14]


def build_combo(mode: str, ace_high: bool, max_tiles: int = SOLVED_TILES) -> bytes:
    """One combo's part of the file, from ``evaluate``'s solver (its memo is cleared)."""
    from .. import evaluate

    rec = evaluate._solver(mode, ace_high, tables=False)
    memo = rec.memo
    vecs = table_vectors(max_tiles)
    out_index: dict[tuple, int] = {}
    outs: list[tuple] = []
    out_idx = array("H", bytes(2 * N13))
    topx = bytearray(N13) if ace_high else bytearray()
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
        r = _rank(v)
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
                moves.append(SKIP)  # never walked: an empty colour has no move
            elif sub[u] is not None and e[1] is sub[u][1]:
                moves.append(SKIP)
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


def build() -> bytes:
    """The whole file (about half a CPU minute): per combo its length (uint32) and its
    zlib-compressed part."""
    parts = [SOLVED_MAGIC]
    for mode, ace_high in COMBOS:  # each combo compressed on its own (a smaller peak to load)
        body = zlib.compress(build_combo(mode, ace_high), 9)
        parts += [struct.pack("<I", len(body)), body]
    return b"".join(parts)


class Solved:
    """One combo's tables: ``out(vec)`` the scores, ``plan(vec, u)`` the runs."""

    __slots__ = (
        "outs",
        "out_idx",
        "topx",
        "runs",
        "triples",
        "keys",
        "vals",
        "ace_high",
        "raws",
        "rvals",
    )

    def __init__(self, ace_high: bool, outs, out_idx, topx, runs, triples, keys, vals, raws, rvals):
        self.raws = raws  # the solver's own scores of the states, 3 a state (_INF: none)
        self.rvals = rvals
        self.ace_high = ace_high
        self.outs = outs  # [None, out 1, out 2, ...]
        self.out_idx = out_idx
        self.topx = topx
        self.runs = runs  # move code -> (start, end, okey positions, removed, okeys)
        self.triples = triples
        self.keys = keys
        self.vals = vals

    def plan(self, vec: int, u: int) -> list[tuple[int, int, tuple[int, ...]]] | None:
        """The solver's plan of a stored 13-number vector with u okeys in its runs (None
        when that count of okeys is impossible)."""
        if self.ace_high:
            x = self.topx[LO3[vec & 0x3FFF] + HI3[vec >> 14]] >> (2 * u) & 3
            vec = vec - x + (x << 26)
        return self.walk(vec, u)

    def state(self, vec: int) -> tuple | None:
        """The solver's scores of a state (a 14-position vector) per okey count, or None
        when the state is not stored."""
        i = bisect_left(self.keys, vec)
        if i < len(self.keys) and self.keys[i] == vec:
            j = 3 * self.rvals[i]
            return tuple(self.raws[j : j + 3])
        return None

    def walk(self, vec: int, u: int) -> list[tuple[int, int, tuple[int, ...]]] | None:
        """The solver's plan of a stored state with u okeys (None: impossible)."""
        keys, vals, triples, runs = self.keys, self.vals, self.triples, self.runs
        out = []
        while vec:
            m = triples[vals[bisect_left(keys, vec)]][u]
            if m == SKIP:
                low = (vec & -vec).bit_length() - 1
                vec -= 1 << (low & ~1)
            elif m == 0:
                return None
            else:
                s, e, okp, removed, k = runs[m]
                out.append((s, e, okp))
                vec -= removed
                u -= k
        return out if u == 0 else None  # an empty colour holds no okey


def _int64s(raw: bytes, pos: int, n: int) -> array:
    a = array("q")
    a.frombytes(raw[pos : pos + 8 * n])
    if sys.byteorder == "big":
        a.byteswap()
    return a


def load() -> dict[tuple[str, bool], Solved] | None:
    """The tables of ``solver_tables.bin``, or None when it is missing or not this format."""
    try:
        data = SOLVED_FILE.read_bytes()
    except OSError:
        return None
    if not data.startswith(SOLVED_MAGIC):
        return None
    out: dict[tuple[str, bool], Solved] = {}
    at = len(SOLVED_MAGIC)
    for mode, ace_high in COMBOS:
        (size,) = struct.unpack_from("<I", data, at)
        raw = zlib.decompress(data[at + 4 : at + 4 + size])
        at += 4 + size
        pos = 0
        (n_out,) = struct.unpack_from("<I", raw, pos)
        pos += 4
        flat = _int64s(raw, pos, 4 * n_out)
        pos += 32 * n_out
        ints: dict[int, int] = {}  # one int object per distinct value
        outs: list = [None]
        for i in range(0, 4 * n_out, 4):
            outs.append(tuple([ints.setdefault(x, x) for x in flat[i : i + 4]]))
        del flat
        out_idx = array("H")
        out_idx.frombytes(raw[pos : pos + 2 * N13])
        pos += 2 * N13
        topx = b""
        if ace_high:
            topx = raw[pos : pos + N13]
            pos += N13
        (n_runs,) = struct.unpack_from("<I", raw, pos)
        pos += 4
        runs: list = [None, None]
        for _ in range(n_runs):
            s, e, okmask = struct.unpack_from("<BBH", raw, pos)
            pos += 4
            okp = tuple(q for q in range(1, 15) if okmask >> (q - 1) & 1)
            removed = sum(1 << (2 * (q - 1)) for q in range(s, e + 1) if q not in okp)
            runs.append((s, e, okp, removed, len(okp)))
        (n_t,) = struct.unpack_from("<I", raw, pos)
        pos += 4
        flat_t = struct.unpack_from(f"<{3 * n_t}H", raw, pos)
        pos += 6 * n_t
        triples = [flat_t[i : i + 3] for i in range(0, 3 * n_t, 3)]
        (n_keys,) = struct.unpack_from("<I", raw, pos)
        pos += 4
        deltas = array("I")
        deltas.frombytes(raw[pos : pos + 4 * n_keys])
        pos += 4 * n_keys
        if sys.byteorder == "big":
            deltas.byteswap()
        keys = array("I", accumulate(deltas))
        vals = array("H")
        vals.frombytes(raw[pos : pos + 2 * n_keys])
        pos += 2 * n_keys
        (n_raw,) = struct.unpack_from("<I", raw, pos)
        pos += 4
        raws = _int64s(raw, pos, 3 * n_raw)  # flat: read only for the longer colours
        pos += 24 * n_raw
        rvals = array("H")
        rvals.frombytes(raw[pos : pos + 2 * n_keys])
        pos += 2 * n_keys
        if sys.byteorder == "big":
            for a in (out_idx, vals, rvals):
                a.byteswap()
        out[(mode, ace_high)] = Solved(
            ace_high, outs, out_idx, topx, runs, triples, keys, vals, raws, rvals
        )
    return out


def stored(vec: int) -> bool:
    """Whether a 13-number vector is in the tables (by its number of tiles)."""
    return tiles_in(vec) <= SOLVED_TILES
