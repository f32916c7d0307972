"""An in-person duplicate round for the deal cards tests (test_deal_cards.py), written
through the ORM so that it needs no seating: the browser test runs it in the e2e server's
database with ``manage.py shell``."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from games.tournaments.models import Deal, Round, Tournament, TournamentTable
from tests.tournaments.conftest import in_person, register_names

NAMES = ["Ayşe", "Baran", "Cem", "Deniz", "Elif", "Fatma", "Gülizar Nur Karaosmanoğlu"]
SEEDS = ["dup-r1-d1", "dup-r1-d2"]


def duplicate_round(owner, *, variant: str = "classic", options: dict | None = None) -> Round:
    """Round 1 of an in-person duplicate tournament owned by ``owner``: seven names at two
    tables (table 2's last seat a CPU), two deals of known seeds for four players."""
    t = in_person(owner, variant=variant, options=options or {})
    Tournament.objects.filter(pk=t.pk).update(format=Tournament.Format.DUPLICATE)
    entries = register_names(t, owner, NAMES)
    rnd = Round.objects.create(tournament=t, number=1)
    pids = [e.pid for e in entries]
    TournamentTable.objects.create(round=rnd, number=1, seats=pids[:4])
    TournamentTable.objects.create(round=rnd, number=2, seats=[*pids[4:], None])
    for number, seed in enumerate(SEEDS, start=1):
        Deal.objects.create(round=rnd, number=number, seed=seed, players=4)
    return rnd


def seed(owner_username: str) -> int:
    """For the browser test: the round for an account it signed up; prints the
    tournament's id."""
    owner = get_user_model().objects.get(username=owner_username)
    rnd = duplicate_round(owner)
    print(rnd.tournament_id)
    return rnd.tournament_id
