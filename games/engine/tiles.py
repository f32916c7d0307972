"""Tiles, notation and the seeded deal (rules.md §1).

Tile ids are small ints so that racks, logs and replays keep the two copies of
every tile apart:

* ``kind`` = colour * 13 + (number - 1) for the 52 numbered kinds
  (colours in the order R, Y, B, K), and ``FALSE_KIND`` (52) for a false joker;
* ``id`` = kind * 2 + copy (copy 0 or 1) for numbered tiles, 104 and 105 for the
  two false jokers.

Notation: colour letter + number (``R7``, ``K13``), ``F`` for a false joker.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

COLOURS = "RYBK"
COLOUR_NAMES = {"R": "red", "Y": "yellow", "B": "blue", "K": "black"}
N_KINDS = 52
FALSE_KIND = 52
N_TILES = 106
FALSE_IDS = (104, 105)
ALL_IDS = tuple(range(N_TILES))


class NotationError(ValueError):
    """Malformed tile notation or an impossible rack (stable ``code`` + message)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def kind_of(tile_id: int) -> int:
    """The kind (0..52) of a tile id."""
    return FALSE_KIND if tile_id >= 104 else tile_id >> 1


def colour_of_kind(kind: int) -> int:
    return kind // 13


def number_of_kind(kind: int) -> int:
    return kind % 13 + 1


def make_kind(colour: int, number: int) -> int:
    return colour * 13 + (number - 1)


def kind_notation(kind: int) -> str:
    if kind == FALSE_KIND:
        return "F"
    return f"{COLOURS[colour_of_kind(kind)]}{number_of_kind(kind)}"


def notation(tile_id: int) -> str:
    """``R7`` for either copy of red 7, ``F`` for a false joker."""
    if not isinstance(tile_id, int) or not 0 <= tile_id < N_TILES:
        raise NotationError("bad_tile_id", f"{tile_id!r} is not a tile id (0-105)")
    return kind_notation(kind_of(tile_id))


def parse_kind(text: str) -> int:
    """Parse one tile's notation into a kind; raises NotationError."""
    t = text.strip().upper()
    if t == "F":
        return FALSE_KIND
    if len(t) < 2 or t[0] not in COLOURS or not t[1:].isdigit():
        raise NotationError("bad_notation", f"{text!r} is not a tile (use R7, K13, F …)")
    number = int(t[1:])
    if not 1 <= number <= 13:
        raise NotationError("bad_notation", f"{text!r}: numbers run from 1 to 13")
    return make_kind(COLOURS.index(t[0]), number)


def ids_of_kind(kind: int) -> tuple[int, int]:
    if kind == FALSE_KIND:
        return FALSE_IDS
    return (kind * 2, kind * 2 + 1)


def parse_tiles(text: str | list[str]) -> list[int]:
    """Parse a space-separated hand into distinct tile ids.

    The first occurrence of a kind gets copy 0, the second copy 1; a third is an
    error (only two physical copies exist).
    """
    words = text.split() if isinstance(text, str) else list(text)
    used: dict[int, int] = {}
    out: list[int] = []
    for w in words:
        k = parse_kind(w)
        n = used.get(k, 0)
        if n >= 2:
            raise NotationError(
                "too_many_copies", f"{kind_notation(k)} appears more than twice (only two exist)"
            )
        used[k] = n + 1
        out.append(ids_of_kind(k)[n])
    return out


def format_tiles(tile_ids: list[int] | tuple[int, ...]) -> str:
    return " ".join(notation(t) for t in tile_ids)


def okey_kind_for(indicator_kind: int) -> int:
    """The okey is the next number of the indicator's colour (13 → 1)."""
    if indicator_kind == FALSE_KIND:
        raise NotationError("bad_indicator", "a false joker cannot be the indicator (D1)")
    c, n = colour_of_kind(indicator_kind), number_of_kind(indicator_kind)
    return make_kind(c, n % 13 + 1)


# --------------------------------------------------------------------------- RNG


class SeedRng:
    """A portable random stream: SHA-256 in counter mode over the seed text.

    Depends on nothing but the seed's text, so a deal is the same on every
    machine and Python version (the fair-deal verify page relies on this).
    """

    def __init__(self, seed: int | str, stream: str = "deal") -> None:
        self._key = f"okey/{stream}/{seed}".encode()
        self._counter = 0
        self._buf = b""

    def _refill(self) -> None:
        self._buf += hashlib.sha256(self._key + b"/" + str(self._counter).encode()).digest()
        self._counter += 1

    def bits64(self) -> int:
        while len(self._buf) < 8:
            self._refill()
        v, self._buf = int.from_bytes(self._buf[:8], "big"), self._buf[8:]
        return v

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) by rejection sampling (no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            v = self.bits64()
            if v < limit:
                return v % n

    def shuffle(self, items: list) -> None:
        """Fisher-Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


# -------------------------------------------------------------------------- Deal


@dataclass(frozen=True)
class Deal:
    """The deal of one hand: racks by seat, the indicator and the pile.

    ``pile[-1]`` is the top of the pile (the next tile drawn).
    """

    racks: tuple[tuple[int, ...], ...]
    indicator: int
    pile: tuple[int, ...]

    @property
    def okey_kind(self) -> int:
        return okey_kind_for(kind_of(self.indicator))


def deal(seed: int | str, n_players: int = 4, starter: int = 0, hand: int = 14) -> Deal:
    """Shuffle the 106 tiles from ``seed`` and deal.

    The starter gets ``hand`` + 1 tiles (15 by default), everyone else ``hand``,
    dealt in blocks from the end of the shuffled list starting with the starter.
    Then the indicator is turned from the bottom of the pile (index 0); a false
    joker turned up goes back into the pile at a random place and another is
    turned [D1].
    """
    if n_players not in (2, 3, 4):
        raise NotationError("bad_player_count", "a table has 2, 3 or 4 players")
    if not 0 <= starter < n_players:
        raise NotationError("bad_starter", "the starter must be a seat of the table")
    if type(hand) is not int or hand < 1 or n_players * hand + 2 > len(ALL_IDS):
        raise NotationError("bad_hand_size", "the racks must leave tiles for the pile")
    rng = SeedRng(seed)
    tiles = list(ALL_IDS)
    rng.shuffle(tiles)
    racks: list[tuple[int, ...]] = [()] * n_players
    for i in range(n_players):
        seat = (starter + i) % n_players
        take = hand + 1 if seat == starter else hand
        racks[seat] = tuple(tiles[-take:])
        del tiles[-take:]
    while True:
        indicator = tiles.pop(0)
        if kind_of(indicator) != FALSE_KIND:
            break
        tiles.insert(rng.below(len(tiles) + 1), indicator)
    return Deal(racks=tuple(racks), indicator=indicator, pile=tuple(tiles))
