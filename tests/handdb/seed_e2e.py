"""Rows for the hand database's browser test, written into the e2e server's database by
``manage.py shell`` (test_handdb_e2e.py): two rated one-hand games of fifty-one between four
accounts, played through the table actions as the server's clock runs (its sweeper plays
nothing: every seat is a person who moves at once), then dated into the month before
the server's today, which the test builds."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.utils import timezone

from games.live import actions, cpu
from games.models import Table
from tests.support.accounts import make_user


def play(table: Table) -> None:
    for _ in range(5000):
        table.refresh_from_db()
        if table.status == Table.Status.FINISHED:
            return
        _hand, state, _game = actions.snapshot(table)
        action = cpu.choose(state, state.turn, "medium")
        actions.do_submit_action(table.pk, state.turn, action, table.version)
    raise AssertionError("the game did not finish")


def seed() -> str:
    users = [
        make_user("hdb_ayla", "Ayla Kaya", public_records=True),
        make_user("hdb_bora", "Bora Demir"),
        make_user("hdb_cem", "Cem Yıldız"),
        make_user("hdb_deniz", "Deniz Şahin"),
    ]
    today = timezone.now().astimezone(UTC)
    last_month = today.replace(day=1) - timedelta(days=1)
    month = f"{last_month.year:04d}-{last_month.month:02d}"
    for day in (3, 17):
        table = actions.do_create_table(
            variant="fifty-one",
            options={"hands": 1},
            seats=[actions.SeatSpec("me")] + [actions.SeatSpec("human")] * 3,
            user=users[0],
            rated=True,
        )
        for user in users[1:]:
            actions.do_join_table(table.pk, user=user)
        play(table)
        at = datetime(last_month.year, last_month.month, day, 20, tzinfo=UTC)
        Table.objects.filter(pk=table.pk).update(finished_at=at)
    return month
