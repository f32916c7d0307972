"""The expert's analysis is rationed (games/review/analysis.py, ``Quota``): the one-thread
pool is everyone's, so a user (a guest: a session) and an IP address may start only so
many new analyses an hour, and none is started while the queue is full. Beyond that the
fragment says so and nothing is queued; an analysis already made (or under way) is shown
whatever the counts. Time is the quota's injected clock (``analysis.clock``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client

from games.review import actions as review_actions
from games.review import analysis
from games.review.models import HandAnalysis
from tests.review.conftest import cpu_table, play_out_hand
from tests.review.test_analysis import Runner, first_is_best

pytestmark = pytest.mark.django_db

T0 = datetime(2031, 3, 9, 10, 0, tzinfo=UTC)
REFUSED = 'data-testid="analysis-refused"'
TOO_MANY = "Too many analyses requested; try again in a few minutes."


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock(monkeypatch):
    c = Clock()
    monkeypatch.setattr(analysis, "clock", c)
    return c


@pytest.fixture(autouse=True)
def _counts_from_zero():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def runner(monkeypatch):
    r = Runner()
    previous = analysis.set_runner(r)
    monkeypatch.setattr(analysis, "evaluator", first_is_best)
    yield r
    analysis.set_runner(previous)


@pytest.fixture
def limits(settings):
    """Small limits, so that a few hands' seats reach them."""
    settings.ANALYSIS_STARTS_PER_HOUR = 3
    settings.ANALYSIS_STARTS_PER_IP_HOUR = 5
    settings.ANALYSIS_QUEUE_LIMIT = 50
    return settings


def finished_hand(user=None):
    return play_out_hand(cpu_table("classic", user=user)).current_hand


def get(client: Client, url: str, django_capture_on_commit_callbacks) -> str:
    with django_capture_on_commit_callbacks(execute=True):
        response = client.get(url)
    assert response.status_code == 200  # htmx swaps the fragment in either way
    return response.content.decode()


def test_a_user_starts_at_most_n_analyses_an_hour(
    client, clock, runner, limits, django_capture_on_commit_callbacks
):
    ayse = User.objects.create_user("ayse", password="pw-long-enough-1")
    client.force_login(ayse)
    hand = finished_hand(ayse)
    url = f"/review/hand/{hand.pk}/analysis/"
    for seat in range(3):
        html = get(client, f"{url}?seat={seat}", django_capture_on_commit_callbacks)
        assert REFUSED not in html and 'data-testid="analysis-progress"' in html
    assert len(runner.started) == 3
    # the fourth new one in the hour: refused, said in words, nothing made or queued
    html = get(client, f"{url}?seat=3", django_capture_on_commit_callbacks)
    assert REFUSED in html and TOO_MANY in html and 'data-code="analysis_quota"' in html
    assert 'data-testid="analysis-retry"' in html and "every 1s" not in html
    assert not HandAnalysis.objects.filter(seat=3).exists()
    assert len(runner.started) == 3
    # the ones under way are still shown (polling one starts nothing new)
    html = get(client, f"{url}?seat=0", django_capture_on_commit_callbacks)
    assert REFUSED not in html and "every 1s" in html
    # once made, an analysis is always shown, even at the limit
    runner.run_all()
    html = get(client, f"{url}?seat=1", django_capture_on_commit_callbacks)
    assert 'data-testid="accuracy"' in html and REFUSED not in html
    # an hour after the first start, one more may start; not before
    clock.now = T0 + timedelta(minutes=59)
    assert REFUSED in get(client, f"{url}?seat=3", django_capture_on_commit_callbacks)
    clock.now = T0 + timedelta(hours=1, seconds=1)
    html = get(client, f"{url}?seat=3", django_capture_on_commit_callbacks)
    assert REFUSED not in html and HandAnalysis.objects.filter(seat=3).exists()


def test_a_guest_counts_per_session_and_every_session_per_ip(
    clock, runner, limits, django_capture_on_commit_callbacks
):
    """A guest with a share link: three of its own (its session's limit), and a new
    session (cookies dropped) from the same address only up to the address's five."""
    ayse = User.objects.create_user("ayse", password="pw-long-enough-1")
    # a fifty-one game of one hand is over with its hand
    tables = [play_out_hand(cpu_table("fifty-one", user=ayse)) for _ in range(2)]
    links = [review_actions.do_share_table(t.pk, user=ayse, guest_key="") for t in tables]
    urls = [f"/review/s/{link.token}/hand/1/analysis/" for link in links]
    asks = [f"{u}?seat={s}" for u in urls for s in range(4)]
    guest = Client()
    for ask in asks[:3]:
        assert REFUSED not in get(guest, ask, django_capture_on_commit_callbacks)
    assert TOO_MANY in get(guest, asks[3], django_capture_on_commit_callbacks)
    other = Client()  # the same guest without their cookie: the same IP
    for ask in asks[3:5]:
        assert REFUSED not in get(other, ask, django_capture_on_commit_callbacks)
    assert TOO_MANY in get(other, asks[5], django_capture_on_commit_callbacks)
    assert HandAnalysis.objects.count() == len(runner.started) == 5
    # another address is not held back by this one
    far = Client(REMOTE_ADDR="203.0.113.9")
    assert REFUSED not in get(far, asks[5], django_capture_on_commit_callbacks)


def test_no_analysis_starts_while_the_queue_is_full(
    client, clock, runner, settings, django_capture_on_commit_callbacks
):
    settings.ANALYSIS_QUEUE_LIMIT = 2
    ayse = User.objects.create_user("ayse", password="pw-long-enough-1")
    client.force_login(ayse)
    hand = finished_hand(ayse)
    url = f"/review/hand/{hand.pk}/analysis/"
    for seat in (0, 1):
        get(client, f"{url}?seat={seat}", django_capture_on_commit_callbacks)
    HandAnalysis.objects.update(updated=T0)  # made now, by the quota's clock
    html = get(client, f"{url}?seat=2", django_capture_on_commit_callbacks)
    assert 'data-code="analysis_queue_full"' in html
    assert "The expert is busy with other analyses; try again in a few minutes." in html
    assert not HandAnalysis.objects.filter(seat=2).exists()
    # one is done: room for the next
    runner.run_all()
    html = get(client, f"{url}?seat=2", django_capture_on_commit_callbacks)
    assert REFUSED not in html and HandAnalysis.objects.filter(seat=2).exists()


def test_a_row_left_waiting_by_a_dead_process_stops_counting_in_the_queue(clock):
    hand = finished_hand(User.objects.create_user("ayse", password="pw-long-enough-1"))
    for seat in (0, 1):
        HandAnalysis.objects.create(hand=hand, seat=seat)
    HandAnalysis.objects.filter(seat=0).update(updated=T0 - timedelta(minutes=5))
    HandAnalysis.objects.filter(seat=1).update(updated=T0 - timedelta(minutes=16))
    assert analysis.queued(T0) == 1
    HandAnalysis.objects.filter(seat=1).update(status="running", updated=T0 - timedelta(minutes=1))
    assert analysis.queued(T0) == 2
    HandAnalysis.objects.filter(seat=1).update(updated=T0 - timedelta(minutes=3))  # stale
    assert analysis.queued(T0) == 1


class _Pool:
    """The pool, as the analyses are handed to it (run when the test says)."""

    def __init__(self) -> None:
        self.jobs: list = []

    def submit(self, job) -> None:
        self.jobs.append(job)


def test_the_pool_holds_each_analysis_once_however_often_it_is_asked_for(monkeypatch):
    pool, ran = _Pool(), []
    monkeypatch.setattr(analysis, "_pool", pool)
    monkeypatch.setattr(analysis, "_handed", set())
    for _ in range(5):  # five polls of a waiting card
        analysis._in_thread(ran.append, 7)
    analysis._in_thread(ran.append, 8)
    assert len(pool.jobs) == 2
    pool.jobs.pop(0)()  # 7 computed: asked for again, it is handed again
    analysis._in_thread(ran.append, 7)
    assert ran == [7] and len(pool.jobs) == 2
