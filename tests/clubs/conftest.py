"""Clubs fixtures: finished tournaments built as rows (one table, one round), so a test
says the final order it wants; the order itself is read back through the tournaments
app's own standings (games/tournaments/actions.standings)."""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Sequence

import pytest

from games.clubs import actions
from games.clubs.models import Invitation
from games.tournaments.models import Entry, Round, TableResult, Tournament, TournamentTable
from tests.support.accounts import make_user

_seeds = itertools.count()


@pytest.fixture(autouse=True)
def _fresh_throttles():
    """The invitation counts (accounts/throttle.py) live in the cache; a test's accounts
    may reuse an earlier test's ids."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


def finished_tournament(
    owner,
    name: str,
    date: dt.date,
    players: Sequence[object],
    *,
    scores: Sequence[int] | None = None,
    status: str = Tournament.Status.FINISHED,
    published: bool = True,
) -> Tournament:
    """A classic tournament (the highest game score wins) of one table: ``players`` (an
    account, or a ``str`` for a name-only entry) in seat order, with ``scores`` (by default
    30, 20, 10, 0: the players finish in the order given)."""
    t = Tournament.objects.create(
        name=name,
        date=date,
        variant="classic",
        options={"start_points": 10},
        rounds=1,
        mode=Tournament.Mode.IN_PERSON,
        seed=f"club-test-{next(_seeds)}",
        status=status,
        published=published,
        owner=owner,
    )
    seats = []
    for p in players:
        if isinstance(p, str):
            e = Entry.objects.create(tournament=t, name=p)
        else:
            e = Entry.objects.create(tournament=t, user=p, name=p.profile.name)
        seats.append(str(e.pk))
    rnd = Round.objects.create(tournament=t, number=1)
    table = TournamentTable.objects.create(round=rnd, number=1, seats=seats)
    if scores is None:
        scores = [30, 20, 10, 0][: len(seats)]
    TableResult.objects.create(table=table, scores=list(scores))
    return t


def join(club, organiser, user, *, as_organiser: bool = False):
    """``organiser`` invites ``user``, who accepts: a member (or an organiser) of ``club``."""
    actions.do_invite(club.pk, organiser, user.get_username(), organiser=as_organiser)
    invitation = Invitation.objects.get(club=club, user=user)
    return actions.do_accept_invitation(invitation.pk, user)


@pytest.fixture
def organiser(db):
    return make_user("orga", "Orhan")


@pytest.fixture
def club(organiser):
    return actions.do_create_club(organiser, "Moda Okey Kulübü")


@pytest.fixture
def worked_example(organiser, club):
    """The worked example of docs/clubs.md, ranked on 1 Dec 2026."""
    ayla, bora, cem, deniz = (
        make_user(u, u.capitalize()) for u in ("ayla", "bora", "cem", "deniz")
    )
    for u in (ayla, bora, cem, deniz):
        join(club, organiser, u)
    s2025 = actions.do_create_season(
        club.pk, organiser, "2024–25", dt.date(2024, 9, 1), dt.date(2025, 8, 31)
    )
    s2026 = actions.do_create_season(
        club.pk, organiser, "2026", dt.date(2026, 1, 1), dt.date(2026, 12, 31)
    )
    t1 = finished_tournament(
        organiser, "Spring cup", dt.date(2026, 5, 10), [ayla, bora, cem, deniz]
    )
    t2 = finished_tournament(organiser, "Winter open", dt.date(2024, 12, 1), [bora, ayla, cem])
    t3 = finished_tournament(
        organiser, "November night", dt.date(2026, 11, 1), [cem, ayla, "Emre", bora]
    )
    actions.do_attach_tournament(club.pk, organiser, s2026.pk, t1.pk, "2")
    actions.do_attach_tournament(club.pk, organiser, s2025.pk, t2.pk, "1")
    actions.do_attach_tournament(club.pk, organiser, s2026.pk, t3.pk, "1")
    return {
        "club": club,
        "users": {"ayla": ayla, "bora": bora, "cem": cem, "deniz": deniz},
        "seasons": {"2025": s2025, "2026": s2026},
        "tournaments": {"t1": t1, "t2": t2, "t3": t3},
    }
