"""Rows for the clubs browser test, written into the e2e server's database by
``manage.py shell`` (test_clubs_e2e.py): four accounts and three finished tournaments of
the worked example of docs/clubs.md, owned by an account the browser signed up, dated as many
days before ``today`` as in the example (so the server ranks them alike on any day)."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model

from tests.clubs.conftest import finished_tournament
from tests.support.accounts import make_user


def seed(owner_username: str, today: str) -> None:
    day = dt.date.fromisoformat(today)
    owner = get_user_model().objects.get(username=owner_username)
    ayla, bora, cem, deniz = (
        make_user(u, name)
        for u, name in [
            ("ayla", "Ayla Kaya"),
            ("bora", "Bora Demir"),
            ("cem", "Cem Yıldız"),
            ("deniz", "Deniz Şahin"),
        ]
    )
    finished_tournament(owner, "Spring cup", day - dt.timedelta(days=205), [ayla, bora, cem, deniz])
    finished_tournament(owner, "Winter open", day - dt.timedelta(days=730), [bora, ayla, cem])
    finished_tournament(
        owner, "November night", day - dt.timedelta(days=30), [cem, ayla, "Emre", bora]
    )


def accept_invitations(club_slug: str) -> None:
    """Every player invited to the club accepts (as each of them would on their page)."""
    from games.clubs import actions
    from games.clubs.models import Invitation

    for invitation in Invitation.objects.filter(club__slug=club_slug).select_related("user"):
        actions.do_accept_invitation(invitation.pk, invitation.user)


def player(username: str, display_name: str) -> None:
    """An account to invite, with the browser tests' password."""
    make_user(username, display_name)
