"""The club ranking over a season's (or a club's) finished tournaments. Pure Python, no Django.

Per tournament, a player at rank ``r`` of ``n`` players scores::

    points = 1000 × (n − r) / (n − 1)

(1000 for the winner, 0 for last place). ``r`` is the tournament's own final rank (its
standings with every tie-break, games/tournaments/standings.py), except that players whose
order was settled only by the published draw share the mean of the places they cover
(two players drawn for 2nd and 3rd both have r = 2.5). ``n`` counts the players who played
at least one table; a tournament with fewer than two such players scores nothing.

Each result counts with the tournament's weight ``w`` (set when it is attached to the
season) and a decay ``d`` by the tournament's age on the ranking's date (EMA's MERS: full
weight for a year, then fading out)::

    d = 1                          age ≤ 365 days
    d = (1095 − age) / 730         365 < age < 1095 days (linear)
    d = 0                          age ≥ 1095 days (three years)

A tournament dated after the ranking's date does not count yet.

A player's club score is the weighted mean of their points, with a floor on the weight::

    score = Σ (points × w × d) / max(Σ (w × d), MIN_WEIGHT)        MIN_WEIGHT = 3

so a player with less than three full-weight results has the missing weight counted as
0 points (one win in one tournament is 333.3, not 1000), as MERS asks for a minimum count.
Every number is an exact fraction; pages round them for display.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

FULL_POINTS = 1000
DECAY_FULL_DAYS = 365
DECAY_ZERO_DAYS = 1095
MIN_WEIGHT = 3

PlayerKey = Hashable


def tournament_points(rank: Fraction | int, n: int) -> Fraction:
    """1000 × (n − rank) / (n − 1); ``rank`` may be a shared (mean) place."""
    if n < 2:
        raise ValueError("a tournament needs two players to score")
    rank = Fraction(rank)
    if not 1 <= rank <= n:
        raise ValueError(f"rank {rank} outside 1..{n}")
    return Fraction(FULL_POINTS) * (n - rank) / (n - 1)


def decay(age_days: int) -> Fraction:
    """1 up to 365 days, then linear to 0 at 1095 days (three years)."""
    if age_days < 0:
        raise ValueError("a tournament after the ranking's date does not count")
    if age_days <= DECAY_FULL_DAYS:
        return Fraction(1)
    if age_days >= DECAY_ZERO_DAYS:
        return Fraction(0)
    return Fraction(DECAY_ZERO_DAYS - age_days, DECAY_ZERO_DAYS - DECAY_FULL_DAYS)


def shared_places(order: Sequence[tuple[PlayerKey, bool]]) -> dict[PlayerKey, Fraction]:
    """The rank of each player from a tournament's final order, best first.

    ``order``: (player, drawn_with_next), where ``drawn_with_next`` says only the published
    draw separated this player from the next one. A run of players drawn together shares the
    mean of its places.
    """
    out: dict[PlayerKey, Fraction] = {}
    i = 0
    while i < len(order):
        j = i
        while j < len(order) - 1 and order[j][1]:
            j += 1
        place = Fraction(i + 1 + j + 1, 2)
        for k in range(i, j + 1):
            out[order[k][0]] = place
        i = j + 1
    return out


@dataclass(frozen=True)
class Result:
    """One player's final place in one finished tournament."""

    tournament: Hashable
    date: dt.date
    player: PlayerKey
    rank: Fraction
    n: int
    weight: Fraction


@dataclass(frozen=True)
class Line:
    """A result as it counts on the ranking's date."""

    result: Result
    points: Fraction
    decay: Fraction

    @property
    def weight(self) -> Fraction:
        """The result's effective weight, w × d."""
        return self.result.weight * self.decay

    @property
    def contribution(self) -> Fraction:
        """points × w × d."""
        return self.points * self.weight


@dataclass
class Score:
    player: PlayerKey
    lines: list[Line] = field(default_factory=list)

    @property
    def weight(self) -> Fraction:
        return sum((line.weight for line in self.lines), Fraction(0))

    @property
    def total(self) -> Fraction:
        """The club score: Σ contributions / max(Σ w × d, MIN_WEIGHT)."""
        contributions = sum((line.contribution for line in self.lines), Fraction(0))
        return contributions / max(self.weight, Fraction(MIN_WEIGHT))

    @property
    def tournaments(self) -> int:
        """Tournaments that count (decay above zero)."""
        return sum(1 for line in self.lines if line.decay > 0)


@dataclass(frozen=True)
class Standing:
    rank: int
    score: Score


def line_for(result: Result, as_of: dt.date) -> Line | None:
    """How ``result`` counts on ``as_of`` (``None``: dated after it)."""
    age = (as_of - result.date).days
    if age < 0:
        return None
    return Line(result, tournament_points(result.rank, result.n), decay(age))


def scores(results: Sequence[Result], as_of: dt.date) -> dict[PlayerKey, Score]:
    """Every player's lines on ``as_of``, oldest tournament first."""
    out: dict[PlayerKey, Score] = {}
    for result in sorted(results, key=lambda r: (r.date, str(r.tournament))):
        line = line_for(result, as_of)
        if line is None:
            continue
        out.setdefault(result.player, Score(result.player)).lines.append(line)
    return out


def rank(results: Sequence[Result], as_of: dt.date) -> list[Standing]:
    """The ranking on ``as_of``: highest score first; equal scores share a rank (1, 2, 2,
    4), listed by more tournaments counted, then by the player key. Players whose every
    result has decayed to nothing are left out."""
    table = [s for s in scores(results, as_of).values() if s.tournaments > 0]
    table.sort(key=lambda s: (-s.total, -s.tournaments, str(s.player)))
    out: list[Standing] = []
    for i, score in enumerate(table):
        if out and out[-1].score.total == score.total:
            out.append(Standing(out[-1].rank, score))
        else:
            out.append(Standing(i + 1, score))
    return out
