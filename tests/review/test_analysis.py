"""The expert's analysis on the site (games/review/analysis.py): computed once per hand and
seat in the background with a progress fragment that polls until done, cached, shown for
played, shared and imported hands, never for a hand in play nor to a stranger."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from games.engine import analysis as engine_analysis
from games.live import actions
from games.review import actions as review_actions
from games.review import analysis
from games.review.models import HandAnalysis, ImportedRecord
from tests.review.conftest import cpu_table, play_out_hand
from tests.review.test_exchange import _export, _upload

pytestmark = pytest.mark.django_db


def first_is_best(view, legal):
    """A constructed expert: the first legal choice is worth 0, every other one a whole
    swing less (so any other move is a blunder)."""
    unit = engine_analysis.swing(engine_analysis.rules_for(view["variant"]))
    return [
        engine_analysis.Option(action=a, value=0.0 if i == 0 else -unit, reason="draw")
        for i, a in enumerate(legal)
    ]


class Runner:
    """Keeps the started analyses; ``run_all`` computes them (the background thread's
    work, done when the test says)."""

    def __init__(self):
        self.started: list[int] = []

    def __call__(self, fn, pk):
        self.started.append(pk)

    def run_all(self):
        for pk in self.started:
            analysis.do_run(pk)


@pytest.fixture
def runner(monkeypatch):
    r = Runner()
    previous = analysis.set_runner(r)
    monkeypatch.setattr(analysis, "evaluator", first_is_best)
    yield r
    analysis.set_runner(previous)


@pytest.fixture
def get(client, django_capture_on_commit_callbacks):
    """GET, with the after-commit callbacks run (the analysis starts after its row is
    committed: in a test's transaction, at the end of the request, so a runner that
    computes at once has its result shown by the next request)."""

    def do(url: str):
        with django_capture_on_commit_callbacks(execute=True):
            client.get(url)
        return client.get(url)

    return do


@pytest.fixture
def ayse(client):
    user = User.objects.create_user("ayse", password="pw-long-enough-1")
    client.force_login(user)
    return user


def fragment(client, url: str):
    response = client.get(url)
    return response, response.content.decode()


def test_the_analysis_runs_in_the_background_once_with_its_progress(
    client, ayse, runner, django_capture_on_commit_callbacks
):
    table = play_out_hand(cpu_table("classic", user=ayse))
    hand = table.current_hand
    url = f"/review/hand/{hand.pk}/analysis/"
    with django_capture_on_commit_callbacks(execute=True):
        response, html = fragment(client, url)
    assert response.status_code == 200
    row = HandAnalysis.objects.get()
    assert (row.hand, row.seat, row.status) == (hand, 0, "pending")
    assert runner.started == [row.pk]
    # waiting: the fragment polls itself
    assert 'hx-trigger="every 1s"' in html and 'data-testid="analysis-progress"' in html
    # a second visit while it waits starts nothing new and makes no second row
    with django_capture_on_commit_callbacks(execute=True):
        fragment(client, url)
    assert HandAnalysis.objects.count() == 1

    # half-way: the progress says how far it is
    HandAnalysis.objects.filter(pk=row.pk).update(status="running", done=3, total=9)
    _r, html = fragment(client, url)
    assert "3 of 9" in html and 'hx-trigger="every 1s"' in html

    HandAnalysis.objects.filter(pk=row.pk).update(status="pending", done=0)
    runner.run_all()
    runner.run_all()  # a second claimer finds it done and computes nothing
    row.refresh_from_db()
    assert row.status == "done" and row.done == row.total > 0
    _r, html = fragment(client, url)
    assert "every 1s" not in html  # finished: no more polling
    assert 'data-testid="accuracy"' in html
    assert 'data-testid="eval-graph"' in html


def test_the_finished_analysis_shows_classes_accuracy_graph_and_retry(get, ayse, runner):
    analysis.set_runner(lambda fn, pk: fn(pk))  # computed in the request
    table = play_out_hand(cpu_table("classic", user=ayse))
    hand = table.current_hand
    html = get(f"/review/hand/{hand.pk}/analysis/").content.decode()
    data = HandAnalysis.objects.get().data
    decisions = data["decisions"]
    assert decisions
    # every point of the graph jumps to its move
    for d in decisions:
        assert f'href="#move-{d["step"]}" data-goto="{d["step"]}"' in html
    acc = re.search(r"Accuracy of ayse in this hand: <b>(\d+)</b>/100", html)
    assert acc and int(acc.group(1)) == data["accuracy"]
    blunders = [d for d in decisions if d["class"] == "blunder"]
    for cls in engine_analysis.CLASSES:
        n = sum(1 for d in decisions if d["class"] == cls)
        assert f'data-testid="count-{cls}"><b>{n}</b>' in html
    retry = json.loads(
        re.search(
            r'<script id="rv-retry-data" type="application/json">(.*?)</script>', html, re.S
        ).group(1)
    )
    assert [q["step"] for q in retry] == [d["step"] for d in blunders]
    assert retry  # the constructed expert finds blunders in the easy player's hand
    assert "Retry my mistakes" in html
    q = retry[0]
    assert q["best_text"] and q["played_text"] and q["options"]


def test_the_replay_page_loads_the_analysis_and_the_retry_panel(client, ayse):
    table = play_out_hand(cpu_table("classic", user=ayse))
    hand = table.current_hand
    html = client.get(f"/review/hand/{hand.pk}/").content.decode()
    assert f'hx-get="/review/hand/{hand.pk}/analysis/?seat=0"' in html
    assert 'data-testid="retry" hidden' in html
    assert not HandAnalysis.objects.exists()  # the page itself computes nothing


def test_no_analysis_of_a_hand_in_play_nor_for_a_stranger(client, get, ayse, runner):
    table = cpu_table("classic", user=ayse)
    hand = table.current_hand
    response = get(f"/review/hand/{hand.pk}/analysis/")
    assert response.status_code == 403 and b"still being played" in response.content
    with pytest.raises(ValueError):
        analysis.do_ensure(seat=0, hand=hand)
    assert not HandAnalysis.objects.exists()

    done = play_out_hand(cpu_table("classic", user=ayse)).current_hand
    client.logout()
    User.objects.create_user("mehmet", password="pw-long-enough-1")
    client.login(username="mehmet", password="pw-long-enough-1")
    assert get(f"/review/hand/{done.pk}/analysis/").status_code == 404
    assert not HandAnalysis.objects.exists()


def test_shared_and_imported_hands_are_analysed_too(client, get, ayse, runner):
    analysis.set_runner(lambda fn, pk: fn(pk))
    table = play_out_hand(cpu_table("fifty-one", user=ayse))  # one hand: the game is over
    hand = table.current_hand
    link = review_actions.do_share_table(table.pk, user=ayse, guest_key="")
    client.logout()
    response = get(f"/review/s/{link.token}/hand/1/analysis/?seat=0")
    assert response.status_code == 200 and b'data-testid="accuracy"' in response.content
    assert HandAnalysis.objects.filter(hand=hand, seat=0, status="done").count() == 1
    review_actions.do_revoke_share(link.pk, user=ayse, guest_key="")
    assert get(f"/review/s/{link.token}/hand/1/analysis/").status_code == 404

    client.force_login(ayse)
    doc = _export(client, hand)
    assert _upload(client, doc).status_code == 302
    rec = ImportedRecord.objects.get()
    response = get(f"/review/imported/{rec.pk}/hand/1/analysis/?seat=0")
    assert response.status_code == 200 and b'data-testid="accuracy"' in response.content
    imported = HandAnalysis.objects.get(imported__record=rec)
    # the same moves, the same analysis
    assert imported.data == HandAnalysis.objects.get(hand=hand, seat=0).data
    client.logout()
    assert get(f"/review/imported/{rec.pk}/hand/1/analysis/").status_code == 404


def test_a_stale_run_is_claimed_again_and_a_live_one_is_not(ayse, runner):
    hand = play_out_hand(cpu_table("classic", user=ayse)).current_hand
    row = analysis.do_ensure(seat=0, hand=hand)
    now = timezone.now()
    HandAnalysis.objects.filter(pk=row.pk).update(status="running", updated=now)
    assert not analysis._claim(row.pk, now + timedelta(seconds=30))
    assert analysis._claim(row.pk, now + analysis.STALE_AFTER + timedelta(seconds=1))


def test_a_failed_analysis_says_so_and_stops_polling(get, ayse, runner, monkeypatch):
    def broken(view, legal):
        raise RuntimeError("no expert")

    monkeypatch.setattr(analysis, "evaluator", broken)
    analysis.set_runner(lambda fn, pk: fn(pk))
    hand = play_out_hand(cpu_table("classic", user=ayse)).current_hand
    html = get(f"/review/hand/{hand.pk}/analysis/").content.decode()
    assert 'data-testid="analysis-failed"' in html and "every 1s" not in html
    assert HandAnalysis.objects.get().status == "failed"


def test_the_game_accuracy_joins_the_analysed_hands(client, get, ayse, runner):
    analysis.set_runner(lambda fn, pk: fn(pk))
    table = play_out_hand(cpu_table("classic", user=ayse))
    first = table.current_hand
    get(f"/review/hand/{first.pk}/analysis/")
    actions.do_next_hand(table.pk, table.version)
    table.refresh_from_db()
    table = play_out_hand(table)
    second = table.current_hand
    html = get(f"/review/hand/{second.pk}/analysis/").content.decode()
    rows = list(HandAnalysis.objects.filter(status="done"))
    expected = engine_analysis.game_accuracy(r.data for r in rows)
    assert f"In the game: <b>{expected}</b>/100 over 2 analysed hands." in html
    page = client.get(f"/review/game/{table.code}/").content.decode()
    assert f"Your accuracy over 2 analysed hands: <b>{expected}</b>/100." in page
    for row in rows:
        assert f"accuracy {row.data['accuracy']}/100" in page


def test_the_admin_lists_the_analyses(client):
    admin = User.objects.create_superuser("root", "root@example.org", "pw-long-enough-9")
    client.force_login(admin)
    assert client.get("/admin/review/handanalysis/").status_code == 200
