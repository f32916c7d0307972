"""Run covers of one colour, precomputed: which numbers of okeys let runs hold every tile.

``evaluate.is_winning`` asks, for a colour's count vector (2 bits a number, as evaluate.py
packs a rack), whether runs of that colour can hold every one of its tiles with 0, 1 or 2
okeys in them (RULES.md §1: runs of 3-13 consecutive tiles of one colour, 12-13-1 when the
ace plays high, never 13-1-2). The answer is a 3-bit mask (bit u: exactly u okeys), the
*cover mask*, stored for every vector in ``run_cover.bin`` (written by
``games/tools/engine/efftables_gen.py``):

* ``LOW``: runs without 12-13-1, every 13-number vector;
* ``HIGH``: with 12-13-1, every 14-position vector (position 14 is the 1 played after 13)
  whose 1s and high 1s are two tiles at most (the states the plan search meets);
* ``ACE``: with 12-13-1, every 13-number vector, any of its 1s playing low or high.

A vector's place in these byte strings is its base-3 rank, ``LO3[v & 0x3FFF] + HI3[v >> 14]``
(positions 1-7 and 8-14). ``cover_rec`` is the exact recursion the file is made from
(lowest position first: its tile starts a run there or up to two okeys below it, and the
run goes on with real tiles or okeys); ``tests/engine/test_evaluate_cover.py`` checks it
against brute force and the file against it.
"""

from __future__ import annotations

import zlib
from pathlib import Path

COVER_MAGIC = b"OKEYCOV1"
COVER_FILE = Path(__file__).with_name("run_cover.bin")
N13 = 3**13
N14 = 3**14

# base-3 ranks of the low 7 positions and of positions 8-14 (2 bits each)
LO3 = [sum((x >> (2 * i) & 3) * 3**i for i in range(7)) for x in range(1 << 14)]
HI3 = [sum((x >> (2 * i) & 3) * 3 ** (i + 7) for i in range(7)) for x in range(1 << 14)]


def rank(v: int) -> int:
    """The base-3 rank of a 14-position count vector (counts 0-2)."""
    return LO3[v & 0x3FFF] + HI3[v >> 14]


def cover_rec(top: int):
    """The exact recursion: ``f(v)`` is the cover mask of the vector v (positions 1 to
    ``top``), memoised in a byte string indexed by rank (0xFF: not known yet)."""
    memo = bytearray(b"\xff") * (N14 if top == 14 else N13)

    def f(v: int) -> int:
        r = LO3[v & 0x3FFF] + HI3[v >> 14]
        m = memo[r]
        if m != 0xFF:
            return m
        if v == 0:
            memo[r] = 1
            return 1
        low = (v & -v).bit_length() - 1
        p = low // 2 + 1
        bit0 = 1 << (2 * (p - 1))
        res = 0
        for s in range(max(1, p - 2), p + 1):
            stack = [(p + 1, p - s, bit0)]
            while stack:
                q, k, removed = stack.pop()
                length = q - s
                if length >= 3:
                    res |= (f(v - removed) << k) & 7
                    if res == 7:
                        break
                if q > top or length >= 13:
                    continue
                b = 2 * (q - 1)
                if v >> b & 3:
                    stack.append((q + 1, k, removed + (1 << b)))
                if k < 2:
                    stack.append((q + 1, k + 1, removed))
            if res == 7:
                break
        memo[r] = res
        return res

    f.memo = memo  # type: ignore[attr-defined]
    return f


def all_vectors() -> list[int]:
    """Every 13-number count vector, by rank."""
    out = [0] * N13
    for r in range(N13):
        v, x, i = 0, r, 0
        while x:
            v |= (x % 3) << (2 * i)
            x //= 3
            i += 1
        out[r] = v
    return out


def build_cover() -> tuple[bytes, bytes, bytes]:
    """(LOW, HIGH, ACE) computed by ``cover_rec`` (about a CPU minute)."""
    low = cover_rec(13)
    high = cover_rec(14)
    lo = bytearray(N13)
    ace = bytearray(N13)
    for r, v in enumerate(all_vectors()):
        lo[r] = low(v)
        m = high(v)
        c1 = v & 3
        for x in range(1, c1 + 1):  # x of the 1s play high, after 13
            m |= high(v - x + (x << 26))
        ace[r] = m
    hi = bytes(0 if m == 0xFF else m for m in high.memo)
    return bytes(lo), hi, bytes(ace)


def encode(tables: tuple[bytes, bytes, bytes]) -> bytes:
    return COVER_MAGIC + zlib.compress(b"".join(tables), 9)


def load() -> tuple[bytes, bytes, bytes] | None:
    """The tables from ``run_cover.bin``, or None when it is missing or not this format."""
    try:
        data = COVER_FILE.read_bytes()
    except OSError:
        return None
    if not data.startswith(COVER_MAGIC):
        return None
    raw = zlib.decompress(data[len(COVER_MAGIC) :])
    if len(raw) != 2 * N13 + N14:
        return None
    return raw[:N13], raw[N13 : N13 + N14], raw[N13 + N14 :]
