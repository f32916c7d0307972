"""The public record board: opt-in only (read at query time), filters, pagination."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.solo import views
from games.solo.models import SoloResult
from tests.solo.test_records import make_result

pytestmark = pytest.mark.django_db


def player(django_user_model, username, *, public=True, name=""):
    user = django_user_model.objects.create_user(username, password="x")
    user.profile.public_records = public
    user.profile.display_name = name
    user.profile.save()
    return user


def board_rows(client, **params):
    html = client.get(reverse("solo:board"), params).content.decode()
    rows = re.findall(r'<tr data-testid="board-row">(.*?)</tr>', html, re.S)
    out = []
    for row in rows:
        cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td>(.*?)</td>", row)]
        out.append((int(cells[0]), cells[1], int(cells[2]), cells[3]))
    return out


def test_only_opted_in_players_are_listed(client, django_user_model):
    ayse = player(django_user_model, "ayse", name="Ayşe")
    mehmet = player(django_user_model, "mehmet", public=False)
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
    ayse = player(django_user_model, "ayse", name="Ayşe")
    bora = player(django_user_model, "bora", name="Bora")
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
    ayse = player(django_user_model, "ayse", name="Ayşe")
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
    ayse = player(django_user_model, "ayse", name="Ayşe")
    bora = player(django_user_model, "bora", name="Bora")
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


def test_period_filters(client, django_user_model):
    ayse = player(django_user_model, "ayse", name="Ayşe")
    bora = player(django_user_model, "bora", name="Bora")
    cem = player(django_user_model, "cem", name="Cem")
    now = timezone.now()
    week_start = views.period_start("week", now)
    month_start = views.period_start("month", now)
    make_result(ayse, 500, finished_at=now)
    make_result(ayse, 300, finished_at=month_start - timedelta(days=40))
    make_result(bora, 600, finished_at=week_start - timedelta(seconds=1))
    make_result(cem, 650, finished_at=month_start - timedelta(seconds=1))
    assert [r[1:3] for r in board_rows(client)] == [("Ayşe", 300), ("Bora", 600), ("Cem", 650)]
    month = [r[1:3] for r in board_rows(client, period="month")]
    week = [r[1:3] for r in board_rows(client, period="week")]
    bora_in_month = week_start - timedelta(seconds=1) >= month_start
    assert month == [("Ayşe", 500)] + ([("Bora", 600)] if bora_in_month else [])
    assert week == [("Ayşe", 500)]


def test_period_start():
    wednesday = datetime(2026, 11, 25, 15, 30, tzinfo=UTC)
    assert views.period_start("week", wednesday) == datetime(2026, 11, 23, tzinfo=UTC)
    assert views.period_start("month", wednesday) == datetime(2026, 11, 1, tzinfo=UTC)
    assert views.period_start("all", wednesday) is None


def test_pagination_keeps_ranks_and_filters(client, django_user_model, monkeypatch):
    monkeypatch.setattr(views, "BOARD_PAGE_SIZE", 10)
    for i in range(23):
        make_result(player(django_user_model, f"p{i:02d}", name=f"P{i:02d}"), 1000 + i)
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
