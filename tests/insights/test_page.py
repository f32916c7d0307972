"""The Insights page: who may see it, what its figures say, its filters (the period is
exact to the day though the sums are kept per month), the chart, and the links to it."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.urls import reverse

from games.insights.actions import months_of
from games.insights.models import HandStat, MonthStat
from games.models import Hand, Table
from tests.support.accounts import logged_in, make_user

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 6, 15, 12, 0, tzinfo=UTC)


def store(user, variant: str, rows: list[dict]) -> list[HandStat]:
    """HandStat rows (one hand each, at a stored table) and their month sums."""
    table = Table.objects.create(variant=variant)
    stats = []
    for i, fields in enumerate(rows):
        hand = Hand.objects.create(
            table=table, number=i, seed=f"s{i}", seed_commitment="x", starter=0
        )
        values = {
            "seat": 0,
            "variant": variant,
            "rated": False,
            "cpu_level": "none",
            "total": 0,
            "ending": "close",
            **fields,
        }
        values["finished_at"] = values.pop("at")
        stats.append(HandStat(user=user, hand=hand, **values))
    HandStat.objects.bulk_create(stats)
    MonthStat.objects.bulk_create(months_of(stats))
    return stats


def url(user, variant: str = "classic", **query) -> str:
    base = reverse("insights:player", args=[user.get_username(), variant])
    return base + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def test_private_by_default_public_with_the_opt_in():
    ana = make_user("ana")
    store(ana, "classic", [{"at": NOW, "total": -2}])
    other = logged_in(make_user("ben"))
    with time_machine.travel(NOW, tick=False):
        assert logged_in(ana).get(url(ana)).status_code == 200
        assert other.get(url(ana)).status_code == 404
        from django.test import Client

        assert Client().get(url(ana)).status_code == 404
        ana.profile.public_records = True
        ana.profile.save()
        page = other.get(url(ana))
        assert page.status_code == 200
        assert "Only you can see this page" not in page.content.decode()
        ana.profile.fair_play_marked = True  # staff took the account off public pages
        ana.profile.save()
        assert other.get(url(ana)).status_code == 404
        assert logged_in(ana).get(url(ana)).status_code == 200
    assert other.get(url(ana, "no-such-rules")).status_code == 404


def test_the_figures_of_a_lay_down_rule_set():
    ana = make_user("ana")
    store(
        ana,
        "fifty-one",
        [
            # won with an okey on her 3rd turn's opening; a par of -500: 100 better
            {"at": NOW - timedelta(days=1), "total": -1000, "won": True, "ending": "okey",
             "opening_turn": 3, "par": -900},
            # lost: tiles left and a discard taken; fed the next player; threw an okey
            {"at": NOW - timedelta(days=2), "total": 130, "ending": "hand", "opening_turn": 5,
             "okeys_wasted": 1, "fed": 1,
             "penalties": {"tiles_left": [1, 30], "discard_taken": [2, 100]},
             "par": 30, "decisions": 10, "accuracy": 70, "lost_milli": 12500},
            # never opened
            {"at": NOW - timedelta(days=3), "total": 500, "ending": "hand", "okeys_kept": 2,
             "penalties": {"not_opened": [1, 500]}},
        ],
    )  # fmt: skip
    with time_machine.travel(NOW, tick=False):
        page = logged_in(ana).get(url(ana, "fifty-one"))
    html = page.content.decode()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
    assert "3 hands" in text
    assert "Only you can see this page" in text
    # two hands with a par: mean par (-900 + 30) / 2 = -435, her mean (-1000 + 130) / 2
    # = -435: lower is better here, so 0 against par
    assert "par -435.0, your result -435.0" in text
    assert "0.0 better than par per hand" in text
    assert "Hands won 1 (33 %)" in text
    assert "With an okey 1" in text
    assert "Average turn of opening 4.0" in text  # (3 + 5) / 2
    assert "Hands opened 2 (67 %)" in text
    assert "Accuracy 70 %" in text
    assert "Value lost per decision 1.25" in text
    assert "Okeys held at the end 2" in text
    assert "Okeys discarded 1" in text
    assert "Discards the next player finished with 1" in text
    rows = re.findall(r'data-reason="(\w+)"', html)
    assert rows == ["not_opened", "discard_taken", "tiles_left"]  # most points first
    assert "Never opened" in text and "Their discard was taken" in text
    assert 'data-testid="insights-chart"' in html
    assert re.findall(r'data-testid="insights-bar" data-month="([\d-]+)"', html) == ["2026-06"]


def test_a_whole_rack_rule_set_has_no_opening_and_its_chart_says_better_or_worse():
    ana = make_user("ana")
    store(
        ana,
        "classic",
        [
            {"at": datetime(2026, 4, 10, tzinfo=UTC), "total": 0, "won": True, "par": -2},
            {"at": datetime(2026, 5, 10, tzinfo=UTC), "total": -4, "par": 0},
            {"at": datetime(2026, 5, 11, tzinfo=UTC), "total": -2, "par": -2},
        ],
    )
    with time_machine.travel(NOW, tick=False):
        html = logged_in(ana).get(url(ana)).content.decode()
    assert 'data-testid="insights-opening"' not in html
    bars = re.findall(r'data-month="([\d-]+)" data-value="(-?[\d.]+)"', html)
    # higher is better in classic: April +2 (0 against -2), May (-4 - 0 + -2 + 2) / 2 = -2
    assert bars == [("2026-04", "2.0"), ("2026-05", "-2.0")]
    assert "ins-bar-better" in html and "ins-bar-worse" in html
    assert '<title id="ins-chart-title">Result against par per month: Classic</title>' in html


def test_the_period_counts_days_exactly_across_a_month_boundary():
    ana = make_user("ana")
    # 90 days before NOW is 17 March, 12:00: the 10 March hand is out, the 20 March one in
    days = [1, 20, 40, 87, 95, 200, 400]
    store(ana, "classic", [{"at": NOW - timedelta(days=d), "total": -1} for d in days])
    client = logged_in(ana)
    with time_machine.travel(NOW, tick=False):
        for period, n in (("30", 2), ("90", 4), ("365", 6), ("all", 7)):
            html = client.get(url(ana, period=period)).content.decode()
            assert 'data-testid="insights-mean">-1.0' in html
            assert re.search(rf"\b{n} hands?\b", re.sub(r"<[^>]+>", " ", html)), period


def test_rated_and_cpu_filters():
    ana = make_user("ana")
    store(
        ana,
        "classic",
        [
            {"at": NOW, "rated": True, "cpu_level": "none", "total": -2},
            {"at": NOW, "cpu_level": "hard", "total": -4},
            {"at": NOW, "cpu_level": "easy", "total": 0},
        ],
    )
    client = logged_in(ana)
    with time_machine.travel(NOW, tick=False):

        def mean(**q) -> str:
            html = client.get(url(ana, **q)).content.decode()
            return re.search(r'data-testid="insights-mean">([^<]+)<', html).group(1)

        assert mean() == "-2.0"
        assert mean(rated="rated") == "-2.0"
        assert mean(rated="casual") == "-2.0"  # (-4 + 0) / 2
        assert mean(cpu="hard") == "-4.0"
        assert mean(cpu="easy", rated="casual") == "0.0"
        html = client.get(url(ana, cpu="expert")).content.decode()
        assert 'data-testid="insights-empty"' in html
        assert client.get(url(ana, period="bogus")).status_code == 200  # the default


def test_the_index_opens_the_most_played_rule_set_and_the_profile_links_it():
    ana = make_user("ana")
    store(ana, "classic", [{"at": NOW}])
    store(ana, "101", [{"at": NOW}, {"at": NOW}])
    client = logged_in(ana)
    answer = client.get(reverse("insights:index", args=["ana"]))
    assert answer.status_code == 302 and answer["Location"] == url(ana, "101")
    assert (
        reverse("insights:index", args=["ana"])
        in client.get(reverse("accounts:profile")).content.decode()
    )
    ana.profile.public_records = True
    ana.profile.save()
    public = client.get(reverse("ratings:player", args=["ana"])).content.decode()
    assert reverse("insights:index", args=["ana"]) in public
