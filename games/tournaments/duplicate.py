"""Duplicate scoring: every table of a round plays the same deals (RULES.md [D38]).

Pure Python (no Django): the tournament app turns its tables' finished hands into
``Holding`` rows and asks this module for points, standings and a per-deal breakdown;
the organiser's deal cards (``deal_cards``) come from the engine's own deal.

A *holding* is one seat of one deal at one table: who held it (an entry id as a string,
or None for a CPU) and that seat's hand total (the engine's score lines for that hand,
summed). Holders are compared only with the holders of the SAME seat of the same deal at
the other tables of the round: they had the same tiles, so the difference is skill.

Matchpoints (the default method): among the holders of one (round, deal, seat), each
holder earns 2 for every other holder it beat and 1 for every tie. "Beat" is a higher
hand total when the rule set's higher total wins (``Rules.higher_wins``: classic and
rummy), else a lower one (fifty-one, seventeen, 101). With t tables the top is 2 (t - 1);
a deal played at one table only scores 0 (there is nobody to compare with).

IMPs (the alternative): the holder's difference from the datum, the mean of the OTHER
holders of that seat (the sign turned so that better is positive), is converted by the
bridge IMP table (``BRIDGE_IMP_THRESHOLDS``) after multiplying it by the rule set's
``IMP_FACTOR``: how many bridge points one point of that rule set stands for. The factors
make each rule set's usual big swing (an unopened rival's payment in the lay-down rule
sets, a seven-pairs okey close in classic, an okey close with a show in rummy) worth
about bridge's game swing, 350-550 bridge points or 8-11 IMPs. The table gives whole
IMPs; the sign is kept. Worked examples: docs/duplicate.md.

CPU holders (``player is None``) are compared against like anyone (their score is part
of the field) and get points in ``score`` (the breakdown shows them), but they are never
listed in ``standings``.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from games.engine.state import new_hand
from games.engine.tiles import kind_notation, kind_of, notation

METHODS = ("matchpoints", "imps")

# The bridge IMP table (WBF): a difference of at least each threshold is one more IMP
# (20-40 points: 1 IMP, 50-80: 2, ..., 4000 and more: 24).
BRIDGE_IMP_THRESHOLDS = (
    20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600,
    750, 900, 1100, 1300, 1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000,
)  # fmt: skip

# Bridge points per point of each rule set (see the module docstring):
# classic: a seven-pairs okey close costs 8 = 400; rummy: an okey close plus a show 7 = 350;
# fifty-one and seventeen: an unopened rival pays 500 (fifty-one) or 400-800 (seventeen's
# base) = the same in bridge points; 101: an unopened rival pays 202 = 404.
IMP_FACTOR = {"classic": 50, "rummy": 50, "fifty-one": 1, "seventeen": 1, "101": 2}

Key = tuple[int, int, int, int]  # (round, deal, seat, table)


class DuplicateError(ValueError):
    """A holding set that cannot be scored: a stable ``code`` and an English message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Holding:
    round: int
    deal: int
    seat: int
    table: int
    player: str | None  # an entry id as str; None: a CPU holder (compared against)
    score: int  # that seat's hand total in that deal (the engine's hand totals)

    @property
    def key(self) -> Key:
        return (self.round, self.deal, self.seat, self.table)


@dataclass(frozen=True)
class DuplicateRow:
    rank: int
    player: str
    points: float
    deals: int


@dataclass(frozen=True)
class TableResult:
    """One table's holder of a seat in a deal: who, the hand total, the points."""

    table: int
    player: str | None
    score: int
    points: float


@dataclass(frozen=True)
class DealLine:
    """One (round, deal, seat): each table's holder in table order."""

    round: int
    deal: int
    seat: int
    results: tuple[TableResult, ...]


@dataclass(frozen=True)
class SeatCard:
    """What one seat is dealt (tile notation, RULES.md §1), for a printed card.

    ``rack`` is in the order dealt, ``sorted_rack`` by colour (R, Y, B, K) and number
    with false jokers last; ``pile`` starts with its top tile (the first drawn).
    """

    seat: int
    starter: bool
    rack: tuple[str, ...]
    sorted_rack: tuple[str, ...]
    indicator: str
    okey: str
    pile: tuple[str, ...]


# ------------------------------------------------------------------ checking


def _grouped(holdings: Iterable[Holding]) -> dict[tuple[int, int, int], list[Holding]]:
    """Holdings by (round, deal, seat), each list in table order; refuses what cannot
    be compared."""
    seen: set[Key] = set()
    seats: dict[tuple[int, int], dict[int, set[int]]] = defaultdict(lambda: defaultdict(set))
    groups: dict[tuple[int, int, int], list[Holding]] = defaultdict(list)
    for h in holdings:
        if not isinstance(h, Holding):
            raise DuplicateError("bad_holding", f"{h!r} is not a Holding")
        if h.key in seen:
            raise DuplicateError(
                "duplicate_holding",
                f"round {h.round}, deal {h.deal}, seat {h.seat}, table {h.table} is held twice",
            )
        seen.add(h.key)
        seats[(h.round, h.deal)][h.table].add(h.seat)
        groups[(h.round, h.deal, h.seat)].append(h)
    for (rnd, deal), tables in seats.items():
        counts = {len(s) for s in tables.values()}
        if len(counts) > 1:
            raise DuplicateError(
                "player_count_mismatch",
                f"round {rnd}, deal {deal}: the tables have {sorted(counts)} seats; "
                "a deal dealt to another number of players is another deal",
            )
        for table, s in tables.items():
            if s != set(range(len(s))):
                raise DuplicateError(
                    "bad_seat",
                    f"round {rnd}, deal {deal}, table {table}: the seats must be "
                    f"0 to {len(s) - 1}, not {sorted(s)}",
                )
    for g in groups.values():
        g.sort(key=lambda h: h.table)
    return groups


def _imps(points: Fraction) -> int:
    """Bridge points (either sign) to whole IMPs, sign kept."""
    size = abs(points)
    imps = sum(1 for t in BRIDGE_IMP_THRESHOLDS if size >= t)
    return imps if points >= 0 else -imps


# ------------------------------------------------------------------ scoring


def score(
    holdings: Iterable[Holding],
    *,
    method: str,
    higher_is_better: bool,
    variant: str | None = None,
) -> dict[Key, float]:
    """(round, deal, seat, table) -> the holder's matchpoints or IMPs (CPUs too).

    ``variant`` (the rule set's name) is needed for IMPs only: it picks ``IMP_FACTOR``.
    Refuses (``DuplicateError``): ``unknown_method``, ``imp_scale_unknown`` (IMPs without
    a known rule set), ``duplicate_holding``, ``player_count_mismatch`` (a deal whose
    tables do not all have the same number of seats), ``bad_seat`` (a table's seats are
    not 0 to n - 1), ``bad_holding``.
    """
    if method not in METHODS:
        raise DuplicateError("unknown_method", f"{method!r}: the methods are {METHODS}")
    factor = 0
    if method == "imps":
        if variant not in IMP_FACTOR:
            raise DuplicateError(
                "imp_scale_unknown", f"IMPs need a rule set's scale, not {variant!r}"
            )
        factor = IMP_FACTOR[variant]
    out: dict[Key, float] = {}
    for group in _grouped(holdings).values():
        for h in group:
            others = [o for o in group if o is not h]
            if method == "matchpoints":
                mp = 0
                for o in others:
                    if h.score == o.score:
                        mp += 1
                    elif (h.score > o.score) == higher_is_better:
                        mp += 2
                out[h.key] = float(mp)
            elif not others:
                out[h.key] = 0.0
            else:
                datum = Fraction(sum(o.score for o in others), len(others))
                diff = h.score - datum if higher_is_better else datum - h.score
                out[h.key] = float(_imps(diff * factor))
    return out


def matchpoint_top(tables: int) -> int:
    """The most matchpoints one holding can earn when ``tables`` tables played it."""
    return 2 * max(tables - 1, 0)


def _player_order(player: str) -> tuple[int, int, str]:
    return (0, int(player), player) if player.isdigit() else (1, 0, player)


def standings(
    holdings: Iterable[Holding],
    *,
    method: str,
    higher_is_better: bool,
    variant: str | None = None,
) -> list[DuplicateRow]:
    """Every player's total points, best first; CPU holders are never listed.

    ``deals`` counts the player's holdings (a late entry or a withdrawn player has fewer:
    nothing is scaled). Equal totals share a rank and the next rank is skipped
    (1, 1, 3); there is no tie-break, the order inside a tie is by entry id.
    """
    holdings = list(holdings)
    scored = score(holdings, method=method, higher_is_better=higher_is_better, variant=variant)
    points: dict[str, float] = defaultdict(float)
    deals: dict[str, int] = defaultdict(int)
    for h in holdings:
        if h.player is None:
            continue
        points[h.player] += scored[h.key]
        deals[h.player] += 1
    order = sorted(points, key=lambda p: (-points[p], _player_order(p)))
    rows: list[DuplicateRow] = []
    for i, p in enumerate(order):
        rank = rows[-1].rank if rows and rows[-1].points == points[p] else i + 1
        rows.append(DuplicateRow(rank=rank, player=p, points=points[p], deals=deals[p]))
    return rows


def breakdown(holdings: Iterable[Holding], scored: dict[Key, float]) -> list[DealLine]:
    """Per (round, deal, seat), in that order: each table's holder, hand total and
    points (from ``score``), in table order."""
    lines = []
    for (rnd, deal, seat), group in sorted(_grouped(holdings).items()):
        lines.append(
            DealLine(
                round=rnd,
                deal=deal,
                seat=seat,
                results=tuple(
                    TableResult(h.table, h.player, h.score, scored.get(h.key, 0.0)) for h in group
                ),
            )
        )
    return lines


# ------------------------------------------------------------------ deals


def commitment(seed: str) -> str:
    """The SHA-256 hex digest of the seed's UTF-8 bytes: published before the round,
    it lets anyone check the seed revealed after it (docs/duplicate.md)."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def _sorted(rack: tuple[int, ...]) -> tuple[str, ...]:
    # kinds run R1..R13, Y1.., B1.., K1..K13, then the false joker (FALSE_KIND, 52)
    return tuple(notation(t) for t in sorted(rack, key=lambda t: (kind_of(t), t)))


def deal_cards(variant: str, options: dict, seed: str, starter: int) -> list[SeatCard]:
    """Every seat's card for the deal the server makes from ``seed``: exactly
    ``new_hand(variant, options, seed, starter)`` (RULES.md §1, Deal), seat by seat.

    In a duplicate round deal k (from 1) starts at seat (k - 1) mod n ([D2], [D38]).
    Raises the engine's ``Refusal`` for bad options, seed or starter.
    """
    state = new_hand(variant, options, seed, starter)
    okey = kind_notation(state.okey_kind)
    indicator = notation(state.indicator)
    pile = tuple(notation(t) for t in reversed(state.pile))  # pile[-1] is the top
    return [
        SeatCard(
            seat=seat,
            starter=seat == starter,
            rack=tuple(notation(t) for t in rack),
            sorted_rack=_sorted(rack),
            indicator=indicator,
            okey=okey,
            pile=pile,
        )
        for seat, rack in enumerate(state.racks)
    ]
