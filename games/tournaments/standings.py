"""Tournament standings. Pure Python, no Django.

Scoring (``compute_standings(scoring=…)``):

* ``"placing"`` (default): each table ranks its seats by game score in the variant's
  direction (``higher_is_better``); placing 1 earns ``placing_points[0]`` and so on. A table
  with fewer seats than ``placing_points`` gives its last place the last value (a
  three-seat table with 4/2/1/0 pays 4/2/0), so last place is worth the same everywhere.
  Tied placings share the average of the points of the places they cover (two seats tied
  for first at 4/2/1/0 get 3 each). CPU seats take placings at their table like anyone,
  but are never listed in the standings.
* ``"sum"``: a player's points are the sum of their game scores; ranked in the variant's
  direction.

Rounds missed by a late entry (``missed``: the rounds before the one a player joined) count
as last place: the last value of ``placing_points`` (0 with 4/2/1/0), and in the game total
(and the points of ``"sum"``) the worst game score of that round, in the variant's
direction (the lowest where the highest wins, the highest where the lowest wins). So a late
entry never gains from the rounds they missed, whichever way the rule set counts (a zero
would be a good score where the lowest wins). Only rounds with a result count, never one
the player has a result in; ``played`` stays the rounds actually played, ``missed`` the
rounds scored as last place.

Tie-breaks, in order:

1. ``game_total``: the sum of game scores, in the variant's direction;
2. ``head_to_head``: only tables where two or more of the still-tied players sat together:
   at each such table every tied player scores 1 for each tied player they beat there
   (better game score in the variant's direction) and 0.5 for each equal score; the sums
   are compared (higher first). A subgroup still tied after a split is compared again
   among itself (results between just those players);
3. ``draw``: a published random draw: ``draw_key(draw_seed, player)`` (SHA-256 hex of
   ``"okey/tournament-draw/<seed>/<player>"``), smallest key first.

``StandingRow.decided_by`` names what separated a player from the next row: ``"points"``,
``"game_total"``, ``"head_to_head"`` or ``"draw"`` (``""`` for the last row).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from games.engine.rules import rules_for

from .seating import PlayerId

SCORINGS = ("placing", "sum")


@dataclass(frozen=True)
class TableResult:
    round_no: int
    table_no: int
    seats: tuple[PlayerId | None, ...]
    scores: tuple[int, ...]  # each seat's game score as the variant counts it


@dataclass(frozen=True)
class StandingRow:
    rank: int
    player: PlayerId
    points: float
    game_total: int
    played: int
    decided_by: str
    missed: int = 0  # rounds missed by a late entry, scored as last place


def higher_is_better(variant: str) -> bool:
    """classic and rummy: the highest game score wins; fifty-one and seventeen: the lowest
    (the engine's ``Rules.higher_wins``). Raises ``Refusal("bad_variant")``."""
    return rules_for(variant).higher_wins


def seat_placings(scores: Sequence[int], higher: bool) -> list[float]:
    """Placing (1..n) of each seat; equal scores share the average of their places."""
    order = sorted(range(len(scores)), key=lambda s: -scores[s] if higher else scores[s])
    out = [0.0] * len(scores)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        place = (i + 1 + j + 1) / 2
        for k in range(i, j + 1):
            out[order[k]] = place
        i = j + 1
    return out


def table_placings(result: TableResult, variant: str) -> dict[PlayerId | None, float]:
    """Placing (1..n, ties share the average) of each player at the table.

    CPU seats take placings too; the ``None`` key, if present, holds the best CPU placing.
    """
    _check_result(result)
    places = seat_placings(result.scores, higher_is_better(variant))
    out: dict[PlayerId | None, float] = {}
    for p, place in zip(result.seats, places, strict=True):
        if p is None and None in out:
            out[None] = min(out[None], place)
        else:
            out[p] = place
    return out


def points_for_places(n_seats: int, placing_points: Sequence[float]) -> list[float]:
    """Points of places 1..n at an n-seat table: the first n-1 values, then the last value
    for last place (4/2/1/0 → 4/2/0 at three seats); padded with the last value."""
    pts = list(placing_points)
    if not pts:
        raise ValueError("placing_points must not be empty")
    if n_seats <= 0:
        return []
    head = pts[: n_seats - 1]
    head += [pts[-1]] * (n_seats - 1 - len(head))
    return head + [pts[-1]]


def seat_points(result: TableResult, variant: str, placing_points: Sequence[float]) -> list[float]:
    """Placing points of each seat: tied places share the average of the points they cover."""
    return [float(x) for x in _exact_seat_points(result, higher_is_better(variant), placing_points)]


def _exact_seat_points(
    result: TableResult, higher: bool, placing_points: Sequence[float]
) -> list[Fraction]:
    """``seat_points`` as exact fractions (a third of a point stays a third)."""
    _check_result(result)
    scores = result.scores
    by_place = points_for_places(len(scores), placing_points)
    places = seat_placings(scores, higher)
    out = []
    for s in range(len(scores)):
        tied = sum(1 for t in range(len(scores)) if scores[t] == scores[s])
        first = int(places[s] - (tied - 1) / 2)  # first place index (1-based) of the tie
        covered = by_place[first - 1 : first - 1 + tied]
        out.append(sum((Fraction(c) for c in covered), Fraction(0)) / tied)
    return out


def draw_key(draw_seed: str, player: PlayerId) -> str:
    """The published draw: SHA-256 hex of ``okey/tournament-draw/<seed>/<player>``;
    the smaller key ranks first."""
    return hashlib.sha256(f"okey/tournament-draw/{draw_seed}/{player}".encode()).hexdigest()


def _check_result(result: TableResult) -> None:
    if len(result.seats) != len(result.scores):
        raise ValueError(
            f"round {result.round_no} table {result.table_no}: seats and scores differ in length"
        )


def compute_standings(
    players: Sequence[PlayerId],
    results: Sequence[TableResult],
    *,
    variant: str,
    scoring: str = "placing",
    placing_points: Sequence[float] = (4, 2, 1, 0),
    draw_seed: str,
    missed: Mapping[PlayerId, Iterable[int]] | None = None,
) -> list[StandingRow]:
    """The ranking with every tie-break applied (see the module docstring).

    ``players``: everyone to list (players with no results get zeros); a player who
    appears in ``results`` but not in ``players`` is listed too. CPU seats never are.
    ``missed``: per player, the round numbers they missed by entering late (scored as
    last place, see the module docstring).
    """
    if scoring not in SCORINGS:
        raise ValueError(f"unknown scoring {scoring!r} (choose from {SCORINGS})")
    higher = higher_is_better(variant)
    everyone: list[PlayerId] = list(dict.fromkeys(players))
    seen = set(everyone)
    # Placing points are summed exactly: shared places give thirds and quarters, and float
    # sums of those depend on the order of the results, so equal points could compare as
    # unequal and skip a tie-break.
    exact: dict[PlayerId, Fraction] = {p: Fraction(0) for p in everyone}
    total: dict[PlayerId, int] = {p: 0 for p in everyone}
    played: dict[PlayerId, int] = {p: 0 for p in everyone}
    for res in results:
        pts = _exact_seat_points(res, higher, placing_points)
        for p, score, pt in zip(res.seats, res.scores, pts, strict=True):
            if p is None:
                continue
            if p not in seen:
                seen.add(p)
                everyone.append(p)
                exact[p], total[p], played[p] = Fraction(0), 0, 0
            exact[p] += pt
            total[p] += score
            played[p] += 1
    missed_n: dict[PlayerId, int] = {p: 0 for p in everyone}
    if missed:
        worst: dict[int, int] = {}  # per round with a result: its worst game score
        sat: set[tuple[PlayerId, int]] = set()  # (player, round) with a result of theirs
        for res in results:
            sat.update((p, res.round_no) for p in res.seats if p is not None)
            for score in res.scores:
                w = worst.get(res.round_no, score)
                worst[res.round_no] = min(w, score) if higher else max(w, score)
        last_place = Fraction(placing_points[-1]) if len(placing_points) else Fraction(0)
        for p, rounds in missed.items():
            if p not in seen:
                continue
            for r in set(rounds):
                if r in worst and (p, r) not in sat:
                    exact[p] += last_place
                    total[p] += worst[r]
                    missed_n[p] += 1
    points: dict[PlayerId, float] = {p: float(exact[p]) for p in everyone}
    if scoring == "sum":
        points = {p: float(total[p]) for p in everyone}

    sign = 1 if higher else -1

    def points_key(p: PlayerId) -> float | Fraction:
        return exact[p] if scoring == "placing" else sign * points[p]

    def total_key(p: PlayerId) -> float:
        return sign * total[p]

    def h2h(group: list[PlayerId]) -> Callable[[PlayerId], float]:
        members = set(group)
        score = {p: 0.0 for p in group}
        for res in results:
            here = [(p, sc) for p, sc in zip(res.seats, res.scores, strict=True) if p in members]
            if len(here) < 2:
                continue
            for p, sc in here:
                for q, sq in here:
                    if p == q:
                        continue
                    if sc == sq:
                        score[p] += 0.5
                    elif (sc > sq) == higher:
                        score[p] += 1
        return score.__getitem__

    def split(group: list[PlayerId], key: Callable[[PlayerId], float]) -> list[list[PlayerId]]:
        ordered = sorted(group, key=lambda p: -key(p))
        blocks: list[list[PlayerId]] = []
        for p in ordered:
            if blocks and key(blocks[-1][0]) == key(p):
                blocks[-1].append(p)
            else:
                blocks.append([p])
        return blocks

    def order(group: list[PlayerId], level: int) -> list[tuple[PlayerId, str]]:
        """(player, what separates them from the next player in this group)."""
        if len(group) == 1:
            return [(group[0], "")]
        if level == 0:
            name, blocks = "points", split(group, points_key)
        elif level == 1:
            name, blocks = "game_total", split(group, total_key)
        elif level == 2:
            name, blocks = "head_to_head", split(group, h2h(group))
            if len(blocks) > 1:
                out: list[tuple[PlayerId, str]] = []
                for b in blocks:
                    sub = order(b, 2)  # results between just these players, then the draw
                    sub[-1] = (sub[-1][0], name)
                    out += sub
                out[-1] = (out[-1][0], "")
                return out
        else:
            ordered = sorted(group, key=lambda p: draw_key(draw_seed, p))
            return [(p, "draw") for p in ordered[:-1]] + [(ordered[-1], "")]
        if len(blocks) == 1:
            return order(group, level + 1)
        out = []
        for b in blocks:
            sub = order(b, level + 1)
            sub[-1] = (sub[-1][0], name)
            out += sub
        out[-1] = (out[-1][0], "")
        return out

    rows: list[StandingRow] = []
    if not everyone:
        return rows
    for i, (p, why) in enumerate(order(everyone, 0)):
        rows.append(StandingRow(i + 1, p, points[p], total[p], played[p], why, missed_n[p]))
    return rows
