"""Rows for the clubs browser test, written into the e2e server's database by
``manage.py shell`` (test_clubs_e2e.py): four accounts and three finished tournaments of
the README's worked example, owned by an account the browser signed up."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model

from tests.clubs.conftest import finished_tournament, make_user


def seed(owner_username: str) -> None:
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
    finished_tournament(owner, "Spring cup", dt.date(2026, 5, 10), [ayla, bora, cem, deniz])
    finished_tournament(owner, "Winter open", dt.date(2024, 12, 1), [bora, ayla, cem])
    finished_tournament(owner, "November night", dt.date(2026, 11, 1), [cem, ayla, "Emre", bora])
