"""Rows for the fair-play browser test, written into the e2e server's database by
``manage.py shell`` (test_fairplay_e2e.py): the signed-up account made staff, seven
players' figures in classic (one of them following the expert at every decision), a pair
feeding each other, a pair always together, and a scan in the log."""

from __future__ import annotations

from datetime import UTC, datetime

from django.contrib.auth import get_user_model

from games.fairplay.models import GameCheck, HandCheck, LogEntry, PlayerStats
from games.models import Hand, Table

AT = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
RATES = {"pelin": 270, "orhan": 262, "selin": 280, "kerem": 255, "yusuf": 275, "zeynep": 268}


def player(username: str, name: str):
    user = get_user_model().objects.create_user(username, password="green-felt-2024!")
    user.profile.display_name = name
    user.profile.save()
    return user


def seed(staff_username: str) -> None:
    staff = get_user_model().objects.get(username=staff_username)
    staff.is_staff = True
    staff.save()
    users = {u: player(u, u.title()) for u in RATES}
    users["ace"] = player("ace", "Ace Engine")
    for username, matches in {**RATES, "ace": 300}.items():
        PlayerStats.objects.create(
            user=users[username],
            variant="classic",
            hands=15,
            decisions=300,
            matches=matches,
            loss=0.012 * (300 - matches),
            recent="0" * (300 - matches) + "1" * matches,
            updated_at=AT,
        )
    a, b, c, d = (users[u] for u in ("pelin", "orhan", "selin", "kerem"))
    table = Table.objects.create(variant="classic", competitive=True, status="finished")
    for i in range(12):
        hand = Hand.objects.create(
            table=table, number=i, seed=f"s{i}", seed_commitment="c", starter=0
        )
        for seat, (user, feeder, fed) in enumerate(
            [(a, d, False), (b, a, i < 9), (c, b, i < 2), (d, c, False)]
        ):
            HandCheck.objects.create(
                hand=hand,
                seat=seat,
                user=user,
                variant="classic",
                status="done",
                claimed_at=AT,
                feeder=feeder,
                fed=fed,
            )
    for i in range(12):
        game = Table.objects.create(variant="classic", competitive=True, status="finished")
        GameCheck.objects.create(
            table=game,
            variant="classic",
            players=4,
            finished_at=AT,
            seats={str(c.pk): [0, 1 + i % 2], str(d.pk): [1, 3 + i % 2]},
        )
    LogEntry.objects.create(
        at=AT,
        action=LogEntry.Action.SCAN,
        detail={"hands": 12, "seats": 48, "decisions": 1000, "failed": 0, "games": 12},
    )
