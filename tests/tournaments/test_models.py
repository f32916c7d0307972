"""Entries: which rounds a player is seated in (late entry, drop-out, no-shows)."""

from __future__ import annotations

import pytest

from games.tournaments.models import Entry, Tournament
from tests.tournaments.conftest import in_person

pytestmark = pytest.mark.django_db


def test_plays_round_follows_late_entry_drop_out_and_no_shows(organiser):
    t = in_person(organiser, rounds=5)
    e = Entry.objects.create(tournament=t, name="Ayşe", joins_round=2, no_shows=[3])
    e.dropped_from_round = 5
    assert [n for n in range(1, 6) if e.plays_round(n)] == [2, 4]


def test_new_tournaments_get_a_published_seed_and_default_placing_points(organiser):
    a, b = in_person(organiser, seed=None), in_person(organiser, seed=None)
    assert a.seed and b.seed and a.seed != b.seed
    assert a.placing_points == [4, 2, 1, 0]
    assert a.status == Tournament.Status.REGISTRATION and not a.published


def test_organisers_are_the_owner_and_co_organisers(organiser, stranger):
    t = in_person(organiser)
    assert t.is_organiser(organiser) and not t.is_organiser(stranger)
    t.organisers.add(stranger)
    assert t.is_organiser(stranger)
    from django.contrib.auth.models import AnonymousUser

    assert not t.is_organiser(AnonymousUser()) and not t.is_organiser(None)


def test_one_entry_per_account_but_any_number_by_name(organiser):
    from django.db import IntegrityError, transaction

    t = in_person(organiser)
    Entry.objects.create(tournament=t, name="Same")
    Entry.objects.create(tournament=t, name="Same")
    Entry.objects.create(tournament=t, name="A", user=organiser)
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.create(tournament=t, name="B", user=organiser)
