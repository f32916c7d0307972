"""The public record board: opt-in only (read at query time), filters, pagination."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.urls import reverse

from games.solo import views
from games.solo.models import SoloResult
from tests.solo.test_records import make_result
from tests.support.accounts import make_user

pytestmark = pytest.mark.django_db


def board_rows(client, **params):
    html = client.get(reverse("solo:board"), params).content.decode()
    rows = re.findall(r'<tr data-testid="board-row">(.*?)</tr>', html, re.S)
    out = []
    for row in rows:
        cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td>(.*?)</td>", row)]
        out.append((int(cells[0]), cells[1], int(cells[2]), cells[3]))
    return out


def test_only_opted_in_players_are_listed(client, django_user_model):
    ayse = make_user("ayse", "Ayşe", public_records=True)
    mehmet = make_user("mehmet")
    make_result(ayse, 800)
    make_result(mehmet, 500)
    make_result(None, 100)  # a guest
    assert board_rows(client) == [(1, "Ayşe", 800, "Medium")]
    assert not mehmet.profile.public_records  # off by default for new users too
    fresh = django_user_model.objects.create_user("new", password="x")
    assert fresh.profile.public_records is False


def test_opting_out_removes_the_rows_at_once_and_opting_in_brings_them_back(
    client, django_user_model
):
    ayse = make_user("ayse", "Ayşe", public_records=True)
    bora = make_user("bora", "Bora", public_records=True)
    make_result(ayse, 700)
    make_result(bora, 900)
    assert [r[1] for r in board_rows(client)] == ["Ayşe", "Bora"]
    ayse.profile.public_records = False
    ayse.profile.save()
    assert board_rows(client) == [(1, "Bora", 900, "Medium")]
    ayse.profile.public_records = True
    ayse.profile.save()
    assert [r[1] for r in board_rows(client)] == ["Ayşe", "Bora"]


def test_opt_out_through_the_profile_page(client, django_user_model):
    ayse = make_user("ayse", "Ayşe", public_records=True)
    make_result(ayse, 700)
    client.force_login(ayse)
    assert board_rows(client)
    form = client.get(reverse("accounts:profile")).context["form"]
    data = {k: v for k, v in form.initial.items() if v not in (None, False)}
    data.pop("public_records", None)
    client.post(reverse("accounts:profile"), data)
    ayse.profile.refresh_from_db()
    assert ayse.profile.public_records is False
    assert board_rows(client) == []


def test_one_row_per_player_and_level_best_first(client, django_user_model):
    ayse = make_user("ayse", "Ayşe", public_records=True)
    bora = make_user("bora", "Bora", public_records=True)
    make_result(ayse, 900)
    make_result(ayse, 600)
    make_result(ayse, 400, level="hard")
    make_result(bora, 700)
    make_result(bora, 650, variant="classic")  # other rule sets never reach the board
    make_result(bora, 100, rounds=3)  # cannot happen in play, but never counts
    assert board_rows(client) == [
        (1, "Ayşe", 400, "Hard"),
        (2, "Ayşe", 600, "Medium"),
        (3, "Bora", 700, "Medium"),
    ]
    assert board_rows(client, level="medium") == [
        (1, "Ayşe", 600, "Medium"),
        (2, "Bora", 700, "Medium"),
    ]
    assert board_rows(client, level="easy") == []


# The instants that broke a calendar-dependent version of this test: the first day of a
# month after its week began (Tuesday 1 December 2026: the week started on 30 November), New
# Year's Day, a leap day, and the days around a daylight-saving change in a time zone that has
# one (Europe/Berlin moves to summer time at 02:00 on Sunday 29 March 2026).
PERIOD_INSTANTS = [
    ("UTC", datetime(2026, 12, 1, 9, 0)),
    ("UTC", datetime(2027, 1, 1, 0, 30)),
    ("UTC", datetime(2028, 2, 29, 23, 59)),
    ("UTC", datetime(2026, 11, 25, 15, 30)),
    ("Europe/Berlin", datetime(2026, 3, 29, 12, 0)),
    ("Europe/Berlin", datetime(2026, 3, 30, 0, 30)),
    ("Europe/Berlin", datetime(2026, 10, 25, 2, 30)),
    ("Europe/Berlin", datetime(2026, 11, 1, 1, 0)),
]


def _site_time(settings, zone: str, wall: datetime) -> datetime:
    """Switch the site to ``zone`` and return ``wall`` as an aware instant there."""
    settings.TIME_ZONE = zone
    return wall.replace(tzinfo=ZoneInfo(zone))


@pytest.mark.parametrize(("zone", "wall"), PERIOD_INSTANTS, ids=lambda v: str(v))
def test_period_filters(client, django_user_model, settings, zone, wall):
    """Each period keeps exactly the results finished since its start in the site's time
    zone: a result one second before the start is out, one at the start is in."""
    now = _site_time(settings, zone, wall)
    week_start = views.period_start("week", now)
    month_start = views.period_start("month", now)
    names = ["ayse", "bora", "cem", "deniz", "ece"]
    ayse, bora, cem, deniz, ece = (make_user(n, n.title(), public_records=True) for n in names)
    results = [
        (ayse, "Ayse", 500, now),
        (ayse, "Ayse", 300, month_start - timedelta(days=40)),
        (bora, "Bora", 600, week_start - timedelta(seconds=1)),
        (cem, "Cem", 650, month_start - timedelta(seconds=1)),
        (deniz, "Deniz", 700, week_start),
        (ece, "Ece", 750, month_start),
    ]
    for user, _, total, at in results:
        make_result(user, total, finished_at=at)

    def expected(since: datetime | None) -> list[tuple[str, int]]:
        best: dict[str, int] = {}
        for _, name, total, at in results:
            if since is None or at >= since:
                best[name] = min(total, best.get(name, total))
        return sorted(best.items(), key=lambda row: row[1])

    with time_machine.travel(now, tick=False):
        everything = [r[1:3] for r in board_rows(client)]
        month = [r[1:3] for r in board_rows(client, period="month")]
        week = [r[1:3] for r in board_rows(client, period="week")]
    assert everything == expected(None)
    assert month == expected(month_start)
    assert week == expected(week_start)
    # The boundaries themselves, independently of the helper above.
    assert ("Deniz", 700) in week and ("Bora", 600) not in week
    assert ("Ece", 750) in month and ("Cem", 650) not in month
    assert ("Ayse", 500) in week and ("Ayse", 500) in month


@pytest.mark.parametrize(("zone", "wall"), PERIOD_INSTANTS, ids=lambda v: str(v))
def test_period_start_is_local_midnight_of_monday_and_of_the_first(settings, zone, wall):
    now = _site_time(settings, zone, wall)
    week = views.period_start("week", now).astimezone(ZoneInfo(zone))
    month = views.period_start("month", now).astimezone(ZoneInfo(zone))
    assert (week.hour, week.minute, week.weekday()) == (0, 0, 0)
    assert (month.hour, month.minute, month.day) == (0, 0, 1)
    assert week <= now and month <= now
    assert now - week < timedelta(days=7, hours=1)
    assert (month.year, month.month) == (wall.year, wall.month)


def test_period_start():
    wednesday = datetime(2026, 11, 25, 15, 30, tzinfo=UTC)
    assert views.period_start("week", wednesday) == datetime(2026, 11, 23, tzinfo=UTC)
    assert views.period_start("month", wednesday) == datetime(2026, 11, 1, tzinfo=UTC)
    assert views.period_start("all", wednesday) is None


def test_period_start_across_daylight_saving_changes(settings):
    """Sunday 29 March 2026 in Berlin: the week began on Monday 23 March at midnight CET
    (UTC+1), not at midnight CEST; the month began on 1 March at midnight CET."""
    now = _site_time(settings, "Europe/Berlin", datetime(2026, 3, 29, 12, 0))
    assert views.period_start("week", now) == datetime(2026, 3, 22, 23, 0, tzinfo=UTC)
    assert views.period_start("month", now) == datetime(2026, 2, 28, 23, 0, tzinfo=UTC)
    # Back to winter time at 03:00 on Sunday 25 October: the week began at midnight CEST.
    autumn = _site_time(settings, "Europe/Berlin", datetime(2026, 10, 25, 12, 0))
    assert views.period_start("week", autumn) == datetime(2026, 10, 18, 22, 0, tzinfo=UTC)
    assert views.period_start("month", autumn) == datetime(2026, 9, 30, 22, 0, tzinfo=UTC)


@pytest.mark.slow
def test_pagination_keeps_ranks_and_filters(client, django_user_model, monkeypatch):
    monkeypatch.setattr(views, "BOARD_PAGE_SIZE", 10)
    for i in range(23):
        make_result(make_user(f"p{i:02d}", f"P{i:02d}", public_records=True), 1000 + i)
    first = board_rows(client)
    third = board_rows(client, page=3)
    assert [r[0] for r in first] == list(range(1, 11)) and first[0][1:3] == ("P00", 1000)
    assert [r[0] for r in third] == [21, 22, 23] and third[-1][1:3] == ("P22", 1022)
    html = client.get(reverse("solo:board"), {"level": "medium", "page": 2}).content.decode()
    assert "Page 2 of 3" in html
    assert "?level=medium&amp;period=all&amp;page=3" in html
    assert "?level=medium&amp;period=all&amp;page=1" in html
    assert board_rows(client, page=99)[-1][0] == 23  # past the end: the last page
    assert SoloResult.objects.public().count() == 23
