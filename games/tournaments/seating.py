"""Tournament seating. Pure Python, no Django.

``seat_round(players, past_rounds, seed=…, round_no=…)`` seats one round:

* **Table sizes.** ``ceil(n / table_size)`` tables with the players spread as evenly as
  possible (13 players at tables of 4: 4+3+3+3). A table with fewer players than
  ``min_table_size`` (default: ``table_size``) gets CPU seats (``None``) up to that size:
  with tables of four only, CPU seats are spread one per table as far as possible; where
  the variant allows three-player tables (``min_table_size=3``) they are used first.
* **Round 1** (no past round) is a deterministic shuffle of the sorted player ids with
  the engine's ``SeedRng(seed, stream="tournament-seating/<round_no>")`` (SHA-256 counter
  mode, portable), cut into tables in order; seat 0 is the first player of each chunk.
  Anyone can recompute it from the published seed and the entry list.
* **Later rounds** minimise a cost by local search (tabu search over swaps of two
  players, started from a greedy seating, with perturbations), all random choices drawn
  from a splitmix64 stream seeded from the seed and the round number, with fixed work
  budgets (never wall-clock limits), so the same inputs always give the same seating:

  - ``REPEAT`` per earlier meeting of a pair seated together again (a pair that met
    twice costs twice as much), plus ``RECENT`` if they met in the previous round;
  - ``START`` × (fewest seat-0 starts among the table's players − fewest among all):
    every table should hold someone who has started least; seat 0 then goes to the
    table's player with the fewest starts;
  - ``SHORT`` × (earlier rounds at a short/CPU table)² for a player put at one again
    (three-player and CPU tables go round; repeats still weigh more);
  - Swiss (``method="swiss"``): plus ``SWISS`` × (ranking distance)² for every pair at a
    table (a table's spread of ranks), so tables group neighbours in ``ranking`` (best
    first); a repeat weighs about as much as moving a player two or three tables away
    from their block of four, and swaps are only tried within ``SWISS_WINDOW`` tables.
    Tables are numbered by their players' average rank.

  ``avoid_repeats`` with 16 to 64 players plans two rounds at once (this one and the
  next, while the next could still be repeat-free and, given ``rounds_total``, is still
  to be played), because a repeat-free round can be a dead end for the next one. Only
  the current round is returned; the next call plans again from the rounds actually
  played. If the plan's current round repeats pairs and a one-round search does better,
  the one-round search wins.
* **Affine planes.** q² players at tables of q (16 at tables of four, 9 at tables of
  three) can play q + 1 rounds in which nobody meets anyone twice, but only if every
  round fits one affine plane (for 16 players a random repeat-free third round is often a
  dead end). While the rounds played fit a plane, the next round is its next parallel
  class (coordinates from rounds 1 and 2, lines y = m·x + c over GF(q)); otherwise, or
  with ``construction=False``, the search decides.

* **Must-not-meet pairs** (``keep_apart``: family, partners) never share a table, in any
  round: a pair costs ``HARD`` in the search, round 1's shuffle has its pairs parted by the
  fewest swaps (each table keeps its players' shuffle order), and if the search still
  leaves a pair together an exact backtracking check decides: it finds a seating to start
  again from, or proves there is none (``SeatingImpossible``: the round is not seated;
  nothing is ever relaxed for a pair).
* **CPU tables go round** (the byes of this app): nobody sits out, a player count that is
  not a multiple of the table size gets CPU seats, so a seat at a table with a CPU is what
  stands in for a bye. Its places go to the players of the round who have had the fewest
  (``cpu_turns``): whoever sits at a CPU table has had no more of them than anyone who does
  not, so nobody gets a second while someone has had none (a late entry has had none). A
  hard rule as well; only where must-not-meet pairs leave no seating that keeps both does
  the turn give way, for as few players as the search finds (each seat out of turn costs
  ``TURN``; the ``SHORT`` cost still spreads those seats). Among players level with the
  fewest the turn is a choice, and a choice can be a dead end: with one table of four, a
  pair who both had one CPU table more than everyone else would both have to sit at it.
  So when this round's seating leaves the next one (same players) no seating that keeps
  both, the exact check picks the CPU-table places of the players in a pair so that the
  next round can (``_exact(…, ahead=…)``), and the search seats the round again with those.

Player ids are opaque strings; ``past_rounds`` is a list of rounds, each a list of tables,
each a seat tuple (``None`` = CPU). Players no longer playing are ignored.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations

from games.engine.tiles import SeedRng

PlayerId = str
METHODS = ("avoid_repeats", "swiss")

REPEAT = 400  # per earlier meeting of a pair seated together again
RECENT = 240  # extra if the pair met in the previous round
START = 32  # per start above the fewest, for the table's least-started player
SHORT = 120  # × (earlier short/CPU tables)², for a player put at one again
SWISS = 1  # × (ranking distance)² between two players at a table
SWISS_WINDOW = 4  # Swiss: swaps only between players at most this many tables apart
HARD = 1_000_000_000  # a must-not-meet pair at one table, or a CPU-table seat out of turn
TURN = 1_000_000  # a CPU-table seat out of turn where the pairs leave no seating keeping all
EXACT_NODES = 200_000  # backtracking steps of the exact check before it gives up

LOOKAHEAD_MAX = 2  # rounds planned at once (avoid_repeats)
LOOKAHEAD_MAX_PLAYERS = 64  # larger fields are easy to keep repeat-free one round at a time
WORK_BUDGET = 300_000  # swap evaluations (× planned rounds) per search: a deterministic limit
RESTARTS = 4  # fresh starts per search at most
STALL_END = 250  # tabu iterations without a new best before a start is given up
STALL_KICK = 60  # tabu iterations without a new best before a few random swaps

_MASK = (1 << 64) - 1
FREE, IN_TURN, OUT_TURN = 0, 1, 2  # a player's CPU-table turn this round (see cpu_turns)


class SeatingImpossible(ValueError):
    """No seating keeps every must-not-meet pair of this round apart: ``pairs`` (the pairs
    among this round's players) cannot be split over ``tables`` tables. Nothing is seated."""

    code = "pairs_cannot_be_kept_apart"

    def __init__(self, pairs: list[tuple[PlayerId, PlayerId]], tables: int, proven: bool) -> None:
        self.pairs, self.tables, self.proven = pairs, tables, proven
        how = "there is no seating" if proven else "no seating was found"
        super().__init__(
            f"{how} of {tables} table(s) that keeps these pairs apart: "
            + ", ".join(f"{a}-{b}" for a, b in pairs)
        )


@dataclass(frozen=True)
class SeatedTable:
    number: int  # 1-based table number in the round
    seats: tuple[PlayerId | None, ...]  # seat order; seat 0 starts the game; None = CPU seat


# ---------------------------------------------------------------------- statistics


def _tables(rounds: Iterable[Iterable[Iterable[PlayerId | None]]]):
    for rnd in rounds:
        for table in rnd:
            yield [p for p in table if p is not None]


def meeting_matrix(
    past_rounds: Iterable[Iterable[Iterable[PlayerId | None]]],
) -> dict[tuple[PlayerId, PlayerId], int]:
    """``{(a, b): n}`` with ``a < b``: the number of tables the two players shared."""
    out: dict[tuple[PlayerId, PlayerId], int] = {}
    for people in _tables(past_rounds):
        for a, b in combinations(sorted(set(people)), 2):
            out[(a, b)] = out.get((a, b), 0) + 1
    return out


def start_counts(past_rounds: Iterable[Iterable[Sequence[PlayerId | None]]]) -> dict[PlayerId, int]:
    """How often each player had seat 0 (players who never started are absent)."""
    out: dict[PlayerId, int] = {}
    for rnd in past_rounds:
        for table in rnd:
            if len(table) and table[0] is not None:
                out[table[0]] = out.get(table[0], 0) + 1
    return out


def cpu_table_counts(
    past_rounds: Iterable[Iterable[Sequence[PlayerId | None]]],
) -> dict[PlayerId, int]:
    """How often each player sat at a table with a CPU seat (absent: never)."""
    out: dict[PlayerId, int] = {}
    for rnd in past_rounds:
        for table in rnd:
            if any(p is None for p in table):
                for p in table:
                    if p is not None:
                        out[p] = out.get(p, 0) + 1
    return out


def cpu_turns(counts: Sequence[int], cpu_places: int) -> list[int]:
    """Who must (``IN_TURN``), must not (``OUT_TURN``) or may (``FREE``) take one of this
    round's ``cpu_places`` places at CPU tables, given each player's CPU tables so far
    (``counts``): the places go to the players with the fewest, so whoever sits at a CPU
    table has had no more of them than anyone of this round who does not (nobody gets a
    second while someone has had none)."""
    if cpu_places <= 0 or cpu_places >= len(counts):
        return [FREE] * len(counts)
    level = sorted(counts)[cpu_places - 1]  # the fewest count still needing a place
    return [IN_TURN if c < level else OUT_TURN if c > level else FREE for c in counts]


def repeat_pairs(rounds: Iterable[Iterable[Iterable[PlayerId | None]]]) -> int:
    """Pair meetings beyond each pair's first (0 = nobody met anyone twice)."""
    return sum(n - 1 for n in meeting_matrix(rounds).values())


def table_shape(
    n_players: int, table_size: int = 4, min_table_size: int | None = None
) -> list[tuple[int, int]]:
    """``[(players, seats), …]`` per table, biggest first (see the module docstring)."""
    _check_sizes(table_size, min_table_size)
    if n_players <= 0:
        return []
    least = table_size if min_table_size is None else min_table_size
    k = -(-n_players // table_size)
    base, extra = divmod(n_players, k)
    sizes = [base + 1] * extra + [base] * (k - extra)
    return [(s, max(s, least)) for s in sizes]


def _check_sizes(table_size: int, min_table_size: int | None) -> None:
    if type(table_size) is not int or table_size < 2:
        raise ValueError("table_size must be an int of at least 2")
    if min_table_size is not None and (
        type(min_table_size) is not int or not 2 <= min_table_size <= table_size
    ):
        raise ValueError("min_table_size must be between 2 and table_size")


# ---------------------------------------------------------------------- randomness


class _Stream:
    """splitmix64: a small portable stream for the search (seeded from SHA-256)."""

    def __init__(self, *parts: object) -> None:
        text = "/".join(str(p) for p in ("okey/tournament-search", *parts))
        self.s = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")

    def next(self) -> int:
        self.s = (self.s + 0x9E3779B97F4A7C15) & _MASK
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return self.next() % n

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


# ---------------------------------------------------------------------- the search


class _Search:
    """Tabu search over ``L`` planned rounds of ``n`` players (indices) at fixed tables.

    ``tab[r][p]`` is p's table in planned round r, ``members[r][t]`` the players of table t.
    Only round 0 (the one being seated) carries the start, short-table and Swiss terms.
    """

    def __init__(
        self,
        n: int,
        sizes: list[int],
        n_rounds: int,
        past: list[list[int]],
        last: list[list[int]],
        starts: list[int],
        shorts: list[int],
        short_table: list[bool],
        rank: list[int] | None,
        rng: _Stream,
        apart: list[list[bool]] | None = None,
        turn: list[int] | None = None,
        cpu_table: list[bool] | None = None,
        turn_weight: int = HARD,
    ) -> None:
        self.n, self.sizes, self.L = n, sizes, n_rounds
        # hard rules, as a cost of HARD each: ``apart[u][x]`` (a must-not-meet pair, every
        # planned round); ``turn[p]`` (round 0): IN_TURN must sit at a CPU table, OUT_TURN
        # must not, FREE either; ``cpu_table[t]``: table t has a CPU seat. A seat out of
        # turn costs ``turn_weight``: HARD, or TURN once the turns must give way (fewest
        # seats out of turn, the pairs still HARD)
        self.turn_weight = turn_weight
        self.apart = apart or [[False] * n for _ in range(n)]
        self.turn = turn or [FREE] * n
        self.cpu_table = cpu_table or [False] * len(sizes)
        self.past, self.rng = past, rng
        self.starts, self.shorts, self.short_table = starts, shorts, short_table
        self.gmin = min(starts) if starts else 0
        self.shorts_sq = [v * v for v in shorts]
        # static pair cost of a meeting in round 0 / in a later planned round
        ap = self.apart
        self.base0 = [
            [
                REPEAT * past[u][x]
                + RECENT * last[u][x]
                + (SWISS * (rank[u] - rank[x]) ** 2 if rank is not None else 0)
                + (HARD if ap[u][x] else 0)
                for x in range(n)
            ]
            for u in range(n)
        ]
        self.baseF = [
            [REPEAT * past[u][x] + (HARD if ap[u][x] else 0) for x in range(n)] for u in range(n)
        ]
        self.evals = 0
        # swap partners worth trying: everyone, or (Swiss) players within SWISS_WINDOW
        # tables of ranking (further moves cost more than a repeat;
        # tables of ranking; a player under a hard rule may swap with anyone)
        everyone = list(range(n))
        if rank is None:
            self.partners = [everyone] * n
        else:
            reach = SWISS_WINDOW * max(sizes)
            self.partners = [
                everyone
                if self.turn[u] != FREE or any(ap[u])
                else [x for x in everyone if abs(rank[x] - rank[u]) <= reach]
                for u in everyone
            ]

    # ------------------------------------------------------------ costs
    def pc(self, r: int, u: int, x: int) -> int:
        """Cost of u and x sharing a table in planned round r, given the other rounds."""
        tab = self.tab
        c = self.base0[u][x] if r == 0 else self.baseF[u][x]
        if self.L > 1:
            for r2 in range(self.L):
                if r2 != r and tab[r2][u] == tab[r2][x]:
                    c += REPEAT
                    if r2 == r - 1 or r2 == r + 1:
                        c += RECENT
        return c

    def out_of_turn(self, p: int, t: int) -> bool:
        """Round 0: p at table t breaks the CPU-table turn."""
        turn = self.turn[p]
        return turn != FREE and (turn == IN_TURN) != self.cpu_table[t]

    def conflicted(self, r: int, a: int) -> bool:
        t = self.tab[r][a]
        if r == 0 and self.out_of_turn(a, t):
            return True
        for x in self.members[r][t]:
            if x == a:
                continue
            if self.past[a][x] or self.apart[a][x]:
                return True
            if self.L > 1:
                for r2 in range(self.L):
                    if r2 != r and self.tab[r2][a] == self.tab[r2][x]:
                        return True
        return False

    def table_extra(self, members: Iterable[int], t: int) -> int:
        """Round 0's start and short-table terms of one table."""
        ms = list(members)
        if not ms:
            return 0
        c = START * (min(self.starts[m] for m in ms) - self.gmin)
        if self.short_table[t]:
            c += SHORT * sum(self.shorts_sq[m] for m in ms)
        return c + self.turn_weight * sum(1 for m in ms if self.out_of_turn(m, t))

    def extra_swapped(self, ms: list[int], t: int, out_m: int, in_m: int) -> int:
        """``table_extra`` of table t with ``out_m`` replaced by ``in_m`` (fast path)."""
        starts = self.starts
        low = starts[in_m]
        for m in ms:
            if m != out_m and starts[m] < low:
                low = starts[m]
        c = START * (low - self.gmin)
        if self.short_table[t]:
            sq = self.shorts_sq
            c += SHORT * (sum(sq[m] for m in ms) - sq[out_m] + sq[in_m])
        bad = sum(1 for m in ms if m != out_m and self.out_of_turn(m, t))
        return c + self.turn_weight * (bad + self.out_of_turn(in_m, t))

    def total(self) -> int:
        c = 0
        for r in range(self.L):
            for t, ms in enumerate(self.members[r]):
                for u, x in combinations(ms, 2):
                    c += self.base0[u][x] if r == 0 else self.baseF[u][x]
                if r == 0:
                    c += self.table_extra(ms, t)
        if self.L > 1:  # meetings between planned rounds
            for r in range(self.L):
                for ms in self.members[r]:
                    for u, x in combinations(ms, 2):
                        for r2 in range(r + 1, self.L):
                            if self.tab[r2][u] == self.tab[r2][x]:
                                c += REPEAT + (RECENT if r2 == r + 1 else 0)
        return c

    def round0_cost(self) -> int:
        c = 0
        for t, ms in enumerate(self.members[0]):
            for u, x in combinations(ms, 2):
                c += self.base0[u][x]
            c += self.table_extra(ms, t)
        return c

    def delta(self, r: int, a: int, b: int) -> int:
        """Cost change of swapping a and b (different tables) in planned round r."""
        self.evals += self.L
        tab = self.tab[r]
        ta, tb = tab[a], tab[b]
        d = 0
        if self.L == 1:
            ba, bb = self.base0[a], self.base0[b]
            for x in self.members[r][ta]:
                if x != a:
                    d += bb[x] - ba[x]
            for y in self.members[r][tb]:
                if y != b:
                    d += ba[y] - bb[y]
        else:
            pc = self.pc
            for x in self.members[r][ta]:
                if x != a:
                    d += pc(r, b, x) - pc(r, a, x)
            for y in self.members[r][tb]:
                if y != b:
                    d += pc(r, a, y) - pc(r, b, y)
        if r == 0:
            ma, mb = self.members[0][ta], self.members[0][tb]
            d -= self.extra[ta] + self.extra[tb]
            d += self.extra_swapped(ma, ta, a, b) + self.extra_swapped(mb, tb, b, a)
        return d

    def swap(self, r: int, a: int, b: int) -> None:
        tab, mem = self.tab[r], self.members[r]
        ta, tb = tab[a], tab[b]
        mem[ta][mem[ta].index(a)] = b
        mem[tb][mem[tb].index(b)] = a
        tab[a], tab[b] = tb, ta
        if r == 0:
            self.extra[ta] = self.table_extra(mem[ta], ta)
            self.extra[tb] = self.table_extra(mem[tb], tb)

    # ------------------------------------------------------------ set-up
    def load(self, assignment: list[list[list[int]]]) -> None:
        self.members = [[list(t) for t in rnd] for rnd in assignment]
        self.tab = []
        for rnd in self.members:
            tab = [0] * self.n
            for t, ms in enumerate(rnd):
                for m in ms:
                    tab[m] = t
            self.tab.append(tab)
        self.extra = [self.table_extra(ms, t) for t, ms in enumerate(self.members[0])]

    def greedy(self, rank: list[int] | None) -> list[list[list[int]]]:
        """Round 0 by cheapest insertion (ranking order for Swiss), later rounds shuffled."""
        out = []
        for r in range(self.L):
            order = list(range(self.n))
            if r == 0 and rank is not None:
                order.sort(key=lambda p: rank[p])
            else:
                self.rng.shuffle(order)
            if r == 0 and rank is None:  # players under a hard rule find their place first
                order.sort(key=lambda p: self.turn[p] == FREE and not any(self.apart[p]))
            tables: list[list[int]] = [[] for _ in self.sizes]
            if r > 0:
                i = 0
                for t, size in enumerate(self.sizes):
                    tables[t] = order[i : i + size]
                    i += size
            else:
                base = self.base0
                for p in order:
                    best_t, best_c, ties = -1, 0, 0
                    for t, size in enumerate(self.sizes):
                        if len(tables[t]) >= size:
                            continue
                        if rank is not None and best_t >= 0 and not tables[t]:
                            break  # Swiss: fill tables in ranking order
                        c = sum(base[p][x] for x in tables[t])
                        c += self.turn_weight * self.out_of_turn(p, t)
                        if best_t < 0 or c < best_c:
                            best_t, best_c, ties = t, c, 1
                        elif c == best_c:
                            ties += 1
                            if rank is None and self.rng.below(ties) == 0:
                                best_t = t
                    tables[best_t].append(p)
            out.append(tables)
        return out

    # ------------------------------------------------------------ tabu search
    def run(self, start: list[list[list[int]]], budget: int) -> tuple[int, list]:
        self.load(start)
        cost = self.total()
        best_cost, best = cost, [[list(t) for t in rnd] for rnd in self.members]
        tabu: dict[tuple[int, int, int], int] = {}
        it = stall = since_best = 0
        limit = self.evals + budget
        while self.evals < limit:
            it += 1
            cands = [(r, a) for r in range(self.L) for a in range(self.n) if self.conflicted(r, a)]
            if not cands:
                break
            if len(cands) > 24:
                self.rng.shuffle(cands)
                cands = cands[:24]
            move, move_d, ties = None, 0, 0
            for r, a in cands:
                ta = self.tab[r][a]
                for b in self.partners[a]:
                    if self.tab[r][b] == ta:
                        continue
                    d = self.delta(r, a, b)
                    key = (r, min(a, b), max(a, b))
                    if tabu.get(key, 0) > it and cost + d >= best_cost:
                        continue
                    if move is None or d < move_d:
                        move, move_d, ties = (r, a, b), d, 1
                    elif d == move_d:
                        ties += 1
                        if self.rng.below(ties) == 0:
                            move = (r, a, b)
            if move is None:
                break
            r, a, b = move
            self.swap(r, a, b)
            cost += move_d
            tabu[(r, min(a, b), max(a, b))] = it + 4 + self.rng.below(8)
            if cost < best_cost:
                best_cost, best = cost, [[list(t) for t in rnd] for rnd in self.members]
                stall = since_best = 0
            else:
                stall += 1
                since_best += 1
                if since_best > (STALL_END if self.L > 1 else STALL_END // 4):
                    break
            if stall > STALL_KICK:  # perturb: a few random swaps
                stall = 0
                for _ in range(1 + self.rng.below(3)):
                    r = self.rng.below(self.L)
                    a, b = self.rng.below(self.n), self.rng.below(self.n)
                    if self.tab[r][a] != self.tab[r][b]:
                        cost += self.delta(r, a, b)
                        self.swap(r, a, b)
        self.load(best)
        return best_cost, best

    def polish(self, sweeps: int = 3, everyone: bool = False) -> None:
        """Round 0 only: take every improving swap of a player at a table that carries a
        start or short-table cost (``everyone``: any player, for Swiss)."""
        for _ in range(sweeps):
            improved = False
            mem = self.members[0]
            if everyone:
                movers = list(range(self.n))
            else:
                movers = [m for t, ms in enumerate(mem) if self.table_extra(ms, t) > 0 for m in ms]
            for a in movers:
                for b in self.partners[a]:
                    if self.tab[0][a] != self.tab[0][b] and self.delta(0, a, b) < 0:
                        self.swap(0, a, b)
                        improved = True
            if not improved:
                return


# ---------------------------------------------------------------------- affine planes


def _field(q: int):
    """Subtraction and multiplication of GF(q) for q in 2, 3, 4 (None otherwise)."""
    if q in (2, 3):
        return (lambda a, b: (a - b) % q), (lambda a, b: (a * b) % q)
    if q == 4:
        exp, log = [1, 2, 3], {1: 0, 2: 1, 3: 2}

        def mul(a: int, b: int) -> int:
            return 0 if a == 0 or b == 0 else exp[(log[a] + log[b]) % 3]

        return (lambda a, b: a ^ b), mul  # characteristic 2: subtraction is XOR
    return None


def _affine_round(
    ids: list[PlayerId], past: list[list], q: int, rng: _Stream
) -> list[list[PlayerId]] | None:
    """The next parallel class of an affine plane of order q (q² players at tables of q)
    that contains every round played so far, or None if the rounds played do not fit one
    (q = 2, 3 or 4).

    Players get coordinates (x, y) from their tables in rounds 1 and 2 (rows and columns);
    every later round must be the lines y = m·x + c of one slope m under some labelling
    of the rows and columns by field elements. A plane has q + 1 such rounds, each pair of
    players meeting exactly once, and any two orthogonal rounds extend to a full plane.
    """
    field = _field(q)
    if field is None or len(ids) != q * q or len(past) >= q + 1:
        return None
    sub, mul = field
    everyone = set(ids)
    where: list[dict[PlayerId, int]] = []
    for rnd in past:
        tables = [[p for p in t if p is not None] for t in rnd]
        if len(tables) != q or any(len(t) != q for t in tables):
            return None
        w = {p: i for i, t in enumerate(tables) for p in t}
        if set(w) != everyone:
            return None
        where.append(w)
    if len(past) == 1:  # columns: each row spread over the q columns
        rows: list[list[PlayerId]] = [[] for _ in range(q)]
        for p in ids:
            rows[where[0][p]].append(p)
        cols: list[list[PlayerId]] = [[] for _ in range(q)]
        for row in rows:
            rng.shuffle(row)
            for c, p in enumerate(row):
                cols[c].append(p)
        return cols
    cell = {}
    for p in ids:
        key = (where[0][p], where[1][p])
        if key in cell:
            return None  # rounds 1 and 2 are not orthogonal
        cell[key] = p
    for xs in permutations(range(q)):
        for ys in permutations(range(q)):
            slopes = []
            for w in where[2:]:
                slope = None
                for m in range(1, q):
                    # the round is the lines of slope m iff y - m·x is constant on each table
                    seen: dict[int, int] = {}
                    ok = True
                    for (r, c), p in cell.items():
                        line = sub(ys[c], mul(m, xs[r]))
                        if seen.setdefault(w[p], line) != line:
                            ok = False
                            break
                    if ok:
                        slope = m
                        break
                if slope is None or slope in slopes:
                    break
                slopes.append(slope)
            else:
                m = next(k for k in range(1, q) if k not in slopes)
                out: list[list[PlayerId]] = [[] for _ in range(q)]
                for (r, c), p in cell.items():
                    line = sub(ys[c], mul(m, xs[r]))
                    out[line].append(p)
                return out
    return None


# ---------------------------------------------------------------------- seating


def _exact(
    sizes: list[int],
    cpu_table: list[bool],
    turn: list[int],
    apart: list[list[bool]],
    nodes: int = EXACT_NODES,
    ahead: list[int] | None = None,
) -> tuple[str, list[list[int]] | None]:
    """Decide by backtracking whether the players (indices) fit the tables with no
    must-not-meet pair together and every CPU-table turn kept: ``("found", tables)``,
    ``("impossible", None)`` (proven), or ``("unknown", None)`` after ``nodes`` steps.

    ``ahead`` (each player's CPU tables so far): the seating must also leave the next
    round (the same players at the same tables) a seating that keeps both, so the turns
    of this round are not handed out in a way that forces a pair together next time.

    Only the players in a pair are placed by search; the others only need room of their
    kind (CPU table or not), which is counted at the end. Empty tables of the same size
    and kind are interchangeable, so only the first of them is tried."""
    return _decide(sizes, cpu_table, turn, apart, [nodes], ahead)


def _decide(
    sizes: list[int],
    cpu_table: list[bool],
    turn: list[int],
    apart: list[list[bool]],
    budget: list[int],
    ahead: list[int] | None,
) -> tuple[str, list[list[int]] | None]:
    """``_exact`` with its step budget shared with the look-ahead's checks (``budget[0]``)."""
    n = len(turn)
    paired = [p for p in range(n) if any(apart[p])]
    paired.sort(key=lambda p: (-sum(apart[p]), p))
    others = [p for p in range(n) if not any(apart[p])]
    tables: list[list[int]] = [[] for _ in sizes]
    cpu_places = sum(size for size, cpu in zip(sizes, cpu_table, strict=True) if cpu)

    def free_room() -> tuple[int, int]:
        free_cpu = sum(sizes[t] - len(ms) for t, ms in enumerate(tables) if cpu_table[t])
        free_full = sum(sizes[t] - len(ms) for t, ms in enumerate(tables) if not cpu_table[t])
        return free_cpu, free_full

    need_cpu = sum(1 for p in others if turn[p] == IN_TURN)
    need_full = sum(1 for p in others if turn[p] == OUT_TURN)

    def next_round_fits() -> bool | None:
        """The next round's turns (after this one's) leave a seating that keeps both."""
        assert ahead is not None
        counts = list(ahead)
        for t, ms in enumerate(tables):
            for p in ms:
                counts[p] += cpu_table[t]
        # the others who may go either way are alike: which of them fill the CPU seats
        # left over does not change what the next round can do
        left = free_room()[0] - need_cpu
        for p in others:
            if turn[p] == IN_TURN or (turn[p] == FREE and left > 0):
                counts[p] += 1
                left -= turn[p] == FREE
        status = _decide(sizes, cpu_table, cpu_turns(counts, cpu_places), apart, budget, None)[0]
        return None if status == "unknown" else status == "found"

    def place(i: int) -> bool | None:
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if i == len(paired):
            free_cpu, free_full = free_room()
            if need_cpu > free_cpu or need_full > free_full:
                return False
            return True if ahead is None else next_round_fits()
        p = paired[i]
        tried_empty: set[tuple[int, bool]] = set()
        unknown = False
        for t, ms in enumerate(tables):
            if len(ms) >= sizes[t] or any(apart[p][x] for x in ms):
                continue
            if turn[p] != FREE and (turn[p] == IN_TURN) != cpu_table[t]:
                continue
            if not ms:
                kind = (sizes[t], cpu_table[t])
                if kind in tried_empty:
                    continue
                tried_empty.add(kind)
            ms.append(p)
            found = place(i + 1)
            if found:
                return True
            ms.pop()
            if found is None:
                unknown = True
                break
        return None if unknown else False

    found = place(0)
    if found is None:
        return "unknown", None
    if not found:
        return "impossible", None
    for kind in (IN_TURN, OUT_TURN, FREE):  # the others, in order of need
        for p in others:
            if turn[p] != kind:
                continue
            for t, ms in enumerate(tables):
                fits = kind == FREE or (kind == IN_TURN) == cpu_table[t]
                if fits and len(ms) < sizes[t]:
                    ms.append(p)
                    break
    return "found", tables


def _pair_faults(search: _Search) -> int:
    """Round 0's must-not-meet pairs seated together."""
    return sum(1 for ms in search.members[0] for u, x in combinations(ms, 2) if search.apart[u][x])


def _turn_faults(search: _Search) -> int:
    """Round 0's players seated out of their CPU-table turn."""
    return sum(1 for t, ms in enumerate(search.members[0]) for m in ms if search.out_of_turn(m, t))


def _hard_faults(search: _Search) -> int:
    """Round 0's broken hard rules: pairs seated together, CPU-table turns not kept."""
    return _pair_faults(search) + _turn_faults(search)


def seat_round(
    players: Sequence[PlayerId],
    past_rounds: Sequence[Sequence[Sequence[PlayerId | None]]],
    *,
    seed: str,
    round_no: int,
    table_size: int = 4,
    min_table_size: int | None = None,
    method: str = "avoid_repeats",
    ranking: Sequence[PlayerId] | None = None,
    rounds_total: int | None = None,
    construction: bool = True,
    keep_apart: Iterable[Sequence[PlayerId]] = (),
) -> list[SeatedTable]:
    """Seat one round (see the module docstring). Deterministic for the same inputs.

    ``players``: who plays this round (after late entries, drop-outs, no-shows);
    ``past_rounds``: the rounds played so far; ``ranking``: the current standing order
    (best first, Swiss only; players missing from it rank last); ``rounds_total``:
    optional, the number of rounds of the tournament (bounds the look-ahead);
    ``construction=False`` turns the affine-plane continuation off (benchmarks of the
    search alone); ``keep_apart``: pairs of players who must never share a table (pairs
    with a player not in this round are ignored). Raises ``SeatingImpossible`` when no
    seating keeps every pair apart.
    """
    _check_sizes(table_size, min_table_size)
    if method not in METHODS:
        raise ValueError(f"unknown seating method {method!r} (choose from {METHODS})")
    ids = sorted(players)
    if len(set(ids)) != len(ids):
        raise ValueError("a player is listed twice")
    if any(not isinstance(p, str) for p in ids):
        raise ValueError("player ids are strings")
    shape = table_shape(len(ids), table_size, min_table_size)
    if not shape:
        return []
    sizes = [s for s, _ in shape]
    seats = [s for _, s in shape]
    past = [list(r) for r in past_rounds if any(any(p is not None for p in t) for t in r)]

    n = len(ids)
    index = {p: i for i, p in enumerate(ids)}
    pairs: list[tuple[PlayerId, PlayerId]] = []
    for pair in keep_apart:
        if len(pair) != 2 or pair[0] == pair[1]:
            raise ValueError("a must-not-meet pair is two different players")
        a, b = sorted(pair)
        if a in index and b in index and (a, b) not in pairs:
            pairs.append((a, b))
    pairs.sort()
    apart = [[False] * n for _ in range(n)]
    for a, b in pairs:
        apart[index[a]][index[b]] = apart[index[b]][index[a]] = True
    cpu_table = [n_seats > size for size, n_seats in shape]
    cpu_places = sum(size for size, cpu in zip(sizes, cpu_table, strict=True) if cpu)
    turn_counts = cpu_table_counts(past)
    had_cpu = [turn_counts.get(p, 0) for p in ids]
    turn = cpu_turns(had_cpu, cpu_places)

    def impossible(proven: bool) -> SeatingImpossible:
        return SeatingImpossible(pairs, len(sizes), proven)

    if not past:  # round 1: the published shuffle
        order = list(ids)
        SeedRng(seed, stream=f"tournament-seating/{round_no}").shuffle(order)
        chunks, i = [], 0
        for size in sizes:
            chunks.append(order[i : i + size])
            i += size
        if pairs and any(
            apart[index[u]][index[x]] for ch in chunks for u, x in combinations(ch, 2)
        ):
            chunks = _keep_round_one_apart(chunks, order, index, ids, sizes, apart, cpu_table)
            if chunks is None:
                raise impossible(_exact(sizes, cpu_table, [FREE] * n, apart)[0] == "impossible")
        return [
            SeatedTable(t + 1, tuple([*ch, *([None] * (seats[t] - len(ch)))]))
            for t, ch in enumerate(chunks)
        ]

    pastc = [[0] * n for _ in range(n)]
    last = [[0] * n for _ in range(n)]
    starts = [0] * n
    shorts = [0] * n
    for k, rnd in enumerate(past):
        for table in rnd:
            here = [index[p] for p in table if p is not None and p in index]
            for u, x in combinations(here, 2):
                pastc[u][x] += 1
                pastc[x][u] += 1
                if k == len(past) - 1:
                    last[u][x] = last[x][u] = 1
            if len(table) and table[0] is not None and table[0] in index:
                starts[index[table[0]]] += 1
            if len(table) < table_size or any(p is None for p in table):
                for u in here:
                    shorts[u] += 1
    short_table = [size < table_size or n_seats > size for size, n_seats in shape]

    rank: list[int] | None = None
    if method == "swiss":
        order_ = [p for p in dict.fromkeys(ranking or []) if p in index]
        order_ += [p for p in ids if p not in set(order_)]
        rank = [0] * n
        for i, p in enumerate(order_):
            rank[index[p]] = i

    rng = _Stream(seed, round_no, method)
    n_plan = 1
    if method == "avoid_repeats" and n >= table_size * table_size and n <= LOOKAHEAD_MAX_PLAYERS:
        n_plan = (n - 1) // (table_size - 1) - len(past)  # rounds that could be repeat-free
        if rounds_total is not None:
            n_plan = min(n_plan, rounds_total - len(past))
        n_plan = max(1, min(n_plan, LOOKAHEAD_MAX))

    def make(
        n_rounds: int, turns: list[int], ranked: list[int] | None = rank, weight: int = HARD
    ) -> _Search:
        return _Search(
            n, sizes, n_rounds, pastc, last, starts, shorts, short_table, ranked, rng,
            apart=apart, turn=turns, cpu_table=cpu_table, turn_weight=weight,
        )  # fmt: skip

    def search(n_rounds: int, turns: list[int]) -> _Search:
        s = make(n_rounds, turns)
        best: list | None = None
        best_cost = None
        spent = 0
        for _ in range(RESTARTS if n_rounds > 1 else 2):
            if spent >= WORK_BUDGET:
                break
            before = s.evals
            cost, plan = s.run(s.greedy(rank), WORK_BUDGET - spent)
            spent += max(1, s.evals - before)
            if best_cost is None or cost < best_cost:
                best_cost, best = cost, plan
            if not any(s.conflicted(r, a) for r in range(n_rounds) for a in range(n)):
                break
        assert best is not None
        s.load(best)
        return s

    full_square = len(sizes) * table_size == n == table_size * table_size
    if construction and method == "avoid_repeats" and full_square:
        plane = _affine_round(ids, past, table_size, rng)
        if plane is not None and not any(
            apart[index[u]][index[x]] for t in plane for u, x in combinations(t, 2)
        ):  # the repeat-free continuation that always exists (if it keeps the pairs apart)
            chosen = make(1, turn, None)
            chosen.load([[[index[p] for p in t] for t in plane]])
            return _finish(chosen, ids, starts, seats, None, rng)

    def seat(turns: list[int]) -> _Search:
        chosen = search(n_plan, turns)
        if n_plan > 1 and any(
            chosen.past[a][x] for ms in chosen.members[0] for a, x in combinations(ms, 2)
        ):
            single = search(1, turns)
            if single.round0_cost() < chosen.round0_cost():
                chosen = single
        if chosen.L > 1:
            chosen.L = 1
            chosen.tab, chosen.members = chosen.tab[:1], chosen.members[:1]
        chosen.polish(everyone=rank is not None)
        if not _hard_faults(chosen):
            return chosen
        # The search left a hard rule broken: decide exactly, and search again from a
        # seating that keeps them. The pairs come first: only if they leave no seating in
        # which the CPU-table turns are kept too do the turns give way, as few seats out of
        # turn as the search finds (each costs TURN; SHORT still spreads them).
        status, start = _exact(sizes, cpu_table, turns, apart)
        weight = HARD
        if start is None and status == "impossible" and any(t != FREE for t in turns):
            status, start = _exact(sizes, cpu_table, [FREE] * n, apart)
            weight = TURN
        if start is None:
            raise impossible(status == "impossible")
        chosen = make(1, turns, weight=weight)
        chosen.run([start], WORK_BUDGET)
        chosen.polish(everyone=rank is not None)
        if _pair_faults(chosen) or (weight == HARD and _turn_faults(chosen)):
            chosen.load([start])  # never: the start keeps them and costs only go down
        return chosen

    def dead_end(chosen: _Search) -> bool:
        """After this seating, the next round (same players) has no seating that keeps
        both the pairs and the CPU-table turns."""
        after = list(had_cpu)
        for t, ms in enumerate(chosen.members[0]):
            for m in ms:
                after[m] += cpu_table[t]
        return _exact(sizes, cpu_table, cpu_turns(after, cpu_places), apart)[0] == "impossible"

    chosen = seat(turn)
    another = rounds_total is None or len(past) + 1 < rounds_total
    if pairs and 0 < cpu_places < n and another and dead_end(chosen):
        # The turns leave a choice (players level with the fewest) and this one forces a
        # pair together at the next round's turns: hand the seats out so that the next
        # round can keep both, if that can be done, by fixing the turn of the players in
        # a pair (the others on the level are alike for the next round).
        status, start = _exact(sizes, cpu_table, turn, apart, ahead=had_cpu)
        if start is not None:
            planned = list(turn)
            for t, ms in enumerate(start):
                for m in ms:
                    if any(apart[m]):
                        planned[m] = IN_TURN if cpu_table[t] else OUT_TURN
            chosen = seat(planned)
    return _finish(chosen, ids, starts, seats, rank, rng)


def _keep_round_one_apart(
    chunks: list[list[PlayerId]],
    order: list[PlayerId],
    index: dict[PlayerId, int],
    ids: list[PlayerId],
    sizes: list[int],
    apart: list[list[bool]],
    cpu_table: list[bool],
) -> list[list[PlayerId]] | None:
    """Round 1's shuffle with the fewest moves that part its must-not-meet pairs: swaps
    of players in a pair with others (a search whose only cost is the pairs, started
    from the shuffle), each table's players then in their shuffle order (seat 0 the first
    of them). None if no seating keeps the pairs apart."""
    n = len(ids)
    zeros = [[0] * n for _ in range(n)]
    free = [FREE] * n
    s = _Search(
        n, sizes, 1, zeros, zeros, [0] * n, [0] * n, [False] * len(sizes), None,
        _Stream("round-one-apart", *order), apart=apart, turn=free, cpu_table=cpu_table,
    )  # fmt: skip
    start = [[index[p] for p in ch] for ch in chunks]
    s.run([start], WORK_BUDGET)
    if _hard_faults(s):
        status, found = _exact(sizes, cpu_table, free, apart)
        if found is None:
            return None
        s.run([found], WORK_BUDGET)
        if _hard_faults(s):
            s.load([found])
    pos = {p: i for i, p in enumerate(order)}
    return [sorted((ids[m] for m in ms), key=pos.__getitem__) for ms in s.members[0]]


def _finish(
    chosen: _Search,
    ids: list[PlayerId],
    starts: list[int],
    seats: list[int],
    rank: list[int] | None,
    rng: _Stream,
) -> list[SeatedTable]:
    """Number the tables (Swiss: by average rank) and order the seats: seat 0 to the
    player with the fewest starts (drawn among equals), the others drawn; CPU seats last."""

    tables = chosen.members[0]
    numbered = list(range(len(tables)))
    if rank is not None:
        numbered.sort(key=lambda t: (sum(rank[m] for m in tables[t]) / max(1, len(tables[t])), t))
    out = []
    for no, t in enumerate(numbered):
        ms = sorted(tables[t])
        fewest = min(starts[m] for m in ms)
        first_pool = [m for m in ms if starts[m] == fewest]
        first = first_pool[rng.below(len(first_pool))]
        rest = [m for m in ms if m != first]
        rng.shuffle(rest)
        seat_ids: list[PlayerId | None] = [ids[m] for m in [first, *rest]]
        seat_ids += [None] * (seats[t] - len(ms))
        out.append(SeatedTable(no + 1, tuple(seat_ids)))
    return out
