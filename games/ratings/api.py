"""Ratings: what other parts of the site call (quick match, the lobby, the profile).

How a rating is computed
    openskill's Plackett-Luce model (``openskill.models.PlackettLuce`` with the library's
    defaults: mu 25, sigma 25/3, its default tau and beta). One rating per player and rule
    set (``Table.variant``). A finished rated table is one match: every seat is ranked by
    its game placing (``games.live.outcome.places`` over the game totals, the rules object's
    ``higher_wins``; equal totals share a placing, RULES.md [D6]). At a partners table
    (``Rules.teams``: fifty-one and 101 with partners) the two partners are one team of the
    match, ranked by the team's total; both get the team's placing.

How a rating is shown
    ``Shown.number`` = round(60 × mu): a new player shows 1500 (mu 25). ``Shown.uncertainty``
    = round(120 × sigma), i.e. "± 2σ" on the same scale (1000 for a new player). A player is
    provisional for their first ``PROVISIONAL_GAMES`` rated games of a rule set. Boards
    list established players first, then provisional ones, each by number.

Which games count
    Only tables stored with ``rated`` (chosen at creation: accounts only, no CPU seat; see
    games/ratings/rules.py) that finished. A game aborted before it counted (every person
    gone during the first hand, or one gone before their first move: games/live/actions/,
    "leavers") is not rated. A table that gets a CPU seat (the host's "fill with CPUs")
    stops being rated.

Leavers lose
    A person who forfeits (presses Leave, or stays away past the forfeit grace) is placed
    last whatever their stand-in CPU scores; several leavers, the first to leave last. A
    person who played fewer than ``OWN_TURNS_SHARE`` of their seat's turns themselves is
    placed as a leaver too (after the real ones): a rated result needs each person's own
    moves, so an account whose CPU played its game cannot farm rating.

Every rating can be rebuilt from the stored games: ``manage.py rebuild_ratings``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from openskill.models import PlackettLuce

from games.live.outcome import places
from games.live.realtime import game_for
from games.models import Table
from games.ratings.models import Rating, RatingChange

MODEL = PlackettLuce()
START_MU: float = MODEL.mu
START_SIGMA: float = MODEL.sigma
SCALE = 60  # display points per unit of mu: 25 -> 1500
PROVISIONAL_GAMES = 10


@dataclass(frozen=True)
class Shown:
    """A rating as players see it."""

    number: int  # the displayed rating (1500 for a new player)
    uncertainty: int  # "± this": two standard deviations on the displayed scale
    provisional: bool  # fewer than PROVISIONAL_GAMES rated games in this rule set
    games: int  # rated games finished in this rule set
    mu: float = START_MU
    sigma: float = START_SIGMA


def shown(mu: float, sigma: float, games: int) -> Shown:
    """The displayed form of a (mu, sigma) after ``games`` rated games."""
    return Shown(
        number=round(SCALE * mu),
        uncertainty=round(2 * SCALE * sigma),
        provisional=games < PROVISIONAL_GAMES,
        games=games,
        mu=mu,
        sigma=sigma,
    )


DEFAULT = shown(START_MU, START_SIGMA, 0)


def current_rating(user: Any, variant: str) -> Shown:
    """The player's rating in one rule set; the new player's default when they have played
    no rated game of it (or are not signed in)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return DEFAULT
    row = Rating.objects.filter(user=user, variant=variant).first()
    if row is None:
        return DEFAULT
    return shown(row.mu, row.sigma, row.games)


def ratings_of(user: Any) -> dict[str, Shown]:
    """Every rule set the player has a rating in, name -> Shown."""
    return {
        r.variant: shown(r.mu, r.sigma, r.games)
        for r in Rating.objects.filter(user=user).order_by("variant")
    }


def final_places(table: Table, game: Any) -> dict[int, int]:
    """Seat position -> game placing (1 = first, ties share) of a finished game; partners
    get their team's placing."""
    rules = game.rules
    teams = rules.teams(game.options)
    if teams is not None:
        team_places = places(game.team_totals() or [], rules.higher_wins)
        return {s: p for team, p in zip(teams, team_places, strict=True) for s in team}
    return dict(enumerate(places(game.totals(), rules.higher_wins)))


# A rated result needs each person to have played their own game: a seat whose person
# made fewer than this share of its turns (the rest played by its stand-in CPU, after a
# drop or time-outs) is ranked as a leaver, below everyone who played.
OWN_TURNS_SHARE = 0.5


def own_turn_shares(table: Table) -> dict[int, tuple[int, int]]:
    """Seat position -> (turns its person played, turns in all) (``Table.turn_shares``)."""
    return table.turn_shares()


def leavers(table: Table) -> dict[int, datetime]:
    """Seat position -> when its person left, for every person who did not play the game
    out: a forfeit (``Seat.forfeited_at``: pressed Leave, or away past the forfeit grace),
    or fewer than ``OWN_TURNS_SHARE`` of the seat's turns played by its person (counted as
    leaving when the game ended, so after every real forfeit)."""
    shares = own_turn_shares(table)
    end = table.finished_at or timezone.now()
    out: dict[int, datetime] = {}
    for s in table.seats.all():
        if s.is_cpu:
            continue
        own, total = shares.get(s.position, (0, 0))
        if s.forfeited_at is not None:
            out[s.position] = s.forfeited_at
        elif total and own < OWN_TURNS_SHARE * total:
            out[s.position] = end
    return out


def _match(table: Table, game: Any) -> list[tuple[list[int], int]]:
    """The match openskill rates: (seat positions of one team, its placing), in seat
    order of each team's first seat. Teams without a leaver keep their game placing
    among themselves; every team with a leaver (``leavers``) comes after them, the
    latest to leave first, so the first to leave is last (a team leaves with its first
    leaver), whatever the stand-in scored."""
    teams = game.rules.teams(game.options) or [[s] for s in range(game.n_players)]
    where = final_places(table, game)
    gone = leavers(table)
    left_at = {
        i: min(gone[s] for s in team if s in gone)
        for i, team in enumerate(teams)
        if any(s in gone for s in team)
    }
    stayed = [i for i in range(len(teams)) if i not in left_at]
    # re-rank the teams that stayed: 1, 2, ... in their game order, ties still shared
    order = sorted({where[teams[i][0]] for i in stayed})
    place = {i: order.index(where[teams[i][0]]) + 1 for i in stayed}
    after = len(order)
    for n, i in enumerate(sorted(left_at, key=lambda i: (left_at[i], i), reverse=True)):
        place[i] = after + n + 1
    return [(list(team), place[i]) for i, team in enumerate(teams)]


def do_rate_finished_game(sender: Any, table: Table, game: Any = None, **kwargs: Any) -> None:
    """``game_finished`` receiver (games/signals.py): a rated game's ratings change once,
    inside the transaction that finished it."""
    do_rate_game(table, game, at=table.finished_at)


def do_rate_game(table: Table, game: Any = None, *, at: datetime | None = None) -> bool:
    """Change the ratings of a finished rated table's players, once.

    Called inside the transaction that finishes the game (``do_rate_finished_game``), with the
    engine game (``games.engine.game.Game``); loaded from the table when not given. Returns
    False, changing nothing, for a casual table, a table that is not finished, a seat
    without an account, or a table whose changes are already stored (the unique
    RatingChange per user and table: finishing twice does not count twice)."""
    if not table.rated or table.status != Table.Status.FINISHED:
        return False
    seats = {s.position: s for s in table.seats.all()}
    if any(s.is_cpu or s.user_id is None for s in seats.values()):
        return False
    marked = marked_accounts() & {s.user_id for s in seats.values()}
    if marked:  # an account staff marked for fair play: rated without it, as rebuild does
        return _rate_without(table, seats, marked)
    if game is None:
        game = game_for(table)
    match = [([seats[p].user_id for p in team], place) for team, place in _match(table, game)]
    return _rate(table, table.variant, match, at=at or table.finished_at)


def _rate(
    table: Table, variant: str, match: list[tuple[list[int], int]], *, at: datetime | None
) -> bool:
    """Rate one match: (user ids of a team, its placing) per team, in a fixed order."""
    user_ids = [uid for team, _place in match for uid in team]
    if len(set(user_ids)) != len(user_ids):
        return False  # one account in two seats: no match to rate
    at = at or timezone.now()
    with transaction.atomic():
        if RatingChange.objects.filter(table=table).exists():
            return False
        # A new player's row first (two tables finishing at once for the same new player:
        # the second insert waits for the first and does nothing), then every row locked
        # in user order (two finishing tables never wait for each other in a circle).
        Rating.objects.bulk_create(
            [
                Rating(
                    user_id=uid,
                    variant=variant,
                    mu=START_MU,
                    sigma=START_SIGMA,
                    games=0,
                    updated_at=at,
                )
                for uid in user_ids
            ],
            ignore_conflicts=True,
        )
        rows = {
            r.user_id: r
            for r in Rating.objects.select_for_update()
            .filter(user_id__in=user_ids, variant=variant)
            .order_by("user_id")
        }
        before = [
            [MODEL.create_rating([rows[uid].mu, rows[uid].sigma]) for uid in team]
            for team, _place in match
        ]
        after = MODEL.rate(before, ranks=[place for _team, place in match])
        for (team, place), old, new in zip(match, before, after, strict=True):
            for uid, o, n in zip(team, old, new, strict=True):
                row = rows[uid]
                RatingChange.objects.create(
                    user_id=uid,
                    table=table,
                    variant=variant,
                    mu_before=o.mu,
                    sigma_before=o.sigma,
                    mu_after=n.mu,
                    sigma_after=n.sigma,
                    place=place,
                    created_at=at,
                )
                row.mu, row.sigma = n.mu, n.sigma
                row.games += 1
                row.updated_at = at
                row.save()
    return True


def do_rebuild() -> int:
    """Delete every rating and recompute all from the finished rated tables, in finishing
    order (then id); a game with an account marked for fair play is rated without it
    (``_rate_without``). Returns how many games were rated."""
    with transaction.atomic():
        RatingChange.objects.all().delete()
        Rating.objects.all().delete()
        done = 0
        tables = Table.objects.filter(rated=True, status=Table.Status.FINISHED).order_by(
            "finished_at", "id"
        )
        marked = marked_accounts()
        for table in tables.prefetch_related("seats"):
            seats = {s.position: s for s in table.seats.all()}
            if marked.isdisjoint(s.user_id for s in seats.values()):
                rated = do_rate_game(table, game_for(table))
            else:
                rated = _rate_without(table, seats, marked)
            done += int(rated)
    return done


def marked_accounts() -> set[int]:
    """The accounts staff marked on the fair-play page (``Profile.fair_play_marked``):
    ``rebuild`` rates their games without them."""
    return set(
        get_user_model().objects.filter(profile__fair_play_marked=True).values_list("pk", flat=True)
    )


def _rate_without(table: Table, seats: dict[int, Any], marked: set[int]) -> bool:
    """Rate a finished rated game as if the ``marked`` accounts had not played it: the
    match of ``_match`` without their seats (a partners team keeps its other partner),
    the others keeping their placings, so their order among themselves; nothing when
    fewer than two teams are left."""
    if any(s.is_cpu or s.user_id is None for s in seats.values()):
        return False
    match = []
    for team, place in _match(table, game_for(table)):
        users = [seats[p].user_id for p in team if seats[p].user_id not in marked]
        if users:
            match.append((users, place))
    if len(match) < 2:
        return False
    return _rate(table, table.variant, match, at=table.finished_at)


@dataclass(frozen=True)
class GameChange:
    """What one finished rated game did to one player's shown rating (the outcome
    dialog's "1500 → 1523 (+23)")."""

    user_id: int
    position: int  # the player's seat at the table
    place: int  # the game placing (1 = first; ties share)
    before: int  # shown rating before the game
    after: int  # shown rating after it
    provisional: bool  # still provisional after this game (its games counted)

    @property
    def delta(self) -> int:
        return self.after - self.before


def table_changes(table: Table) -> list[GameChange]:
    """The rating change of every player of a finished rated table, by placing then seat;
    empty for a casual or unfinished table. Read from the ``RatingChange`` rows, written
    in the transaction that finished the game: whoever sees the finished table sees them.
    A player is provisional after the game while their rated games of the rule set, this
    one included, are fewer than ``PROVISIONAL_GAMES``."""
    if not table.rated or table.status != Table.Status.FINISHED:
        return []
    seat_of = {s.user_id: s.position for s in table.seats.all() if s.user_id is not None}
    out = []
    for c in RatingChange.objects.filter(table=table):
        if c.user_id not in seat_of:
            continue
        games = (
            RatingChange.objects.filter(user_id=c.user_id, variant=c.variant)
            .filter(Q(created_at__lt=c.created_at) | Q(created_at=c.created_at, id__lte=c.id))
            .count()
        )
        out.append(
            GameChange(
                user_id=c.user_id,
                position=seat_of[c.user_id],
                place=c.place,
                before=round(SCALE * c.mu_before),
                after=round(SCALE * c.mu_after),
                provisional=games < PROVISIONAL_GAMES,
            )
        )
    return sorted(out, key=lambda g: (g.place, g.position))


def history(user: Any, variant: str) -> list[RatingChange]:
    """The player's rating changes in one rule set, oldest first."""
    return list(
        RatingChange.objects.filter(user=user, variant=variant)
        .select_related("table")
        .order_by("created_at", "id")
    )


__all__ = [
    "DEFAULT",
    "PROVISIONAL_GAMES",
    "GameChange",
    "Shown",
    "OWN_TURNS_SHARE",
    "current_rating",
    "do_rate_finished_game",
    "do_rate_game",
    "do_rebuild",
    "leavers",
    "ratings_of",
    "shown",
    "table_changes",
]
