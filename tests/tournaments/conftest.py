from __future__ import annotations

import datetime as dt
import itertools

import pytest

from games.live.actions import base as actions_base
from games.tournaments import actions
from tests.support.accounts import make_user


@pytest.fixture(autouse=True)
def _fast_cpus(settings):
    settings.OKEY_CPU_DELAY_MS = 0
    settings.OKEY_AWAY_GRACE_S = 15


@pytest.fixture(autouse=True)
def fixed_seeds(monkeypatch):
    """Deterministic deals: seeds tn-0, tn-1, … in order."""
    counter = itertools.count()
    monkeypatch.setattr(actions_base, "seed_source", lambda table, number: f"tn-{next(counter)}")


@pytest.fixture
def organiser(db):
    return make_user("orga")


@pytest.fixture
def stranger(db):
    return make_user("stranger")


def in_person(owner, **values):
    """An in-person classic tournament (results entered by hand)."""
    return actions.do_create_tournament(
        owner,
        **{
            "name": "Club night",
            "date": dt.date(2026, 11, 29),
            "variant": "classic",
            "options": {"start_points": 10},
            "rounds": 3,
            "mode": "in_person",
            "seed": "club-seed",
            **values,
        },
    )


def online(owner, **values):
    """An online fifty-one tournament of one-hand games, players play at once."""
    return actions.do_create_tournament(
        owner,
        **{
            "name": "Online cup",
            "date": dt.date(2026, 11, 29),
            "variant": "fifty-one",
            "options": {"hands": 1, "clock": 0},
            "rounds": 2,
            "mode": "online",
            "seed": "online-seed",
            "arrival_s": 0,
            **values,
        },
    )


def register_names(t, actor, names, **kw):
    return [actions.do_register_entry(t.pk, actor, name=n, **kw) for n in names]


def register_accounts(t, actor, usernames, **kw):
    entries = []
    for u in usernames:
        make_user(u)
        entries.append(actions.do_register_entry(t.pk, actor, username=u, **kw))
    return entries


# classic, start 10: valid final scores (losses are multiples of 3 in total, someone at 0)
CLASSIC_OK = [[10, 4, 0, 2], [7, 6, 1, -1], [5, 4, 4, 0], [1, 9, 9, 0]]


def enter_all(t, actor, round_no: int, results=None) -> None:
    from games.tournaments.models import TournamentTable

    tables = TournamentTable.objects.filter(round__tournament=t, round__number=round_no)
    for i, tt in enumerate(tables.order_by("number")):
        scores = (results or CLASSIC_OK)[i % len(results or CLASSIC_OK)][: len(tt.seats)]
        actions.do_enter_result(t.pk, actor, tt.pk, scores)
