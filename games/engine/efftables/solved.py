"""The evaluator's per-colour run solver, precomputed (``evaluate.best_arrangement``).

``evaluate._solver`` gives, for a colour's count vector and 0, 1 or 2 okeys in its runs,
the best scored plan (fewest tiles left, then the highest value, then the fewest runs:
RULES.md §1 and the tie-breaks of evaluate.py's module doc). ``solver_tables.bin`` (written
by ``games/tools/engine/efftables_gen.py``) holds its answers for every vector of up to
``SOLVED_TILES`` tiles, for the
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

from . import tiles_in
from .cover import HI3, LO3, N13

SOLVED_MAGIC = b"OKEYSOL4"
SOLVED_FILE = Path(__file__).with_name("solver_tables.bin")
SOLVED_TILES = 10
# (value mode, ace rule) of the rule sets: classic, rummy and fifty-one; 101; seventeen
COMBOS = (("sum", True), ("sum", False), ("seventeen", False))
SKIP = 1  # move codes: 0 no plan (that okey count is impossible), 1 leave the lowest tile out


def _rank(v: int) -> int:
    return LO3[v & 0x3FFF] + HI3[v >> 14]


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
