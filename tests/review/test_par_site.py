"""The par of every hand on the site (games/review/par.py): queued when a hand ends (once
its transaction commits) for each person's seat, computed in the analyses' background
pool and counted in their queue, stored once with its luck, announced with ``par_ready``;
shown on the hand's review beside each person's result, with a waiting card while it is
computed; never for a hand in play or a deal still embargoed. And the analysis announces
itself with ``analysis_ready``."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.template.loader import render_to_string

from games import plugins
from games.engine import par as engine_par
from games.engine.rules import rules_for
from games.live import actions, cpu
from games.models import Hand
from games.review import actions as review_actions
from games.review import analysis
from games.review import par as review_par
from games.review.models import HandAnalysis, HandPar
from games.review.replay import record_for_hand, start_state
from games.signals import analysis_ready, par_ready
from tests.review.test_analysis import first_is_best

pytestmark = pytest.mark.django_db


class Runner:
    """Keeps the jobs started on the pool (hand-end queueing, pars, analyses), first in
    first out; ``run_all`` runs them and the jobs they start (the background thread's
    work, done when the test says)."""

    def __init__(self):
        self.jobs: list[tuple] = []

    def __call__(self, fn, pk):
        self.jobs.append((fn, pk))

    @property
    def pars(self) -> list[int]:
        """The par rows waiting in the pool."""
        return [pk for fn, pk in self.jobs if fn is review_par.do_run]

    def run_next(self):
        fn, pk = self.jobs.pop(0)
        fn(pk)

    def run_all(self):
        while self.jobs:
            self.run_next()


@pytest.fixture
def runner(monkeypatch):
    r = Runner()
    previous = analysis.set_runner(r)
    monkeypatch.setattr(analysis, "evaluator", first_is_best)
    yield r
    analysis.set_runner(previous)


@pytest.fixture
def at_hand_end(settings):
    settings.OKEY_PAR_AT_HAND_END = True


@pytest.fixture
def ayse(client):
    user = User.objects.create_user("ayse", password="pw-long-enough-1")
    client.force_login(user)
    return user


@pytest.fixture
def sent():
    """The par_ready and analysis_ready signals sent, as (signal name, kwargs)."""
    got: list[tuple[str, dict]] = []

    def on_par(sender, **kw):
        got.append(("par", kw))

    def on_analysis(sender, **kw):
        got.append(("analysis", kw))

    par_ready.connect(on_par)
    analysis_ready.connect(on_analysis)
    yield got
    par_ready.disconnect(on_par)
    analysis_ready.disconnect(on_analysis)


def two_person_table(user, variant="classic", **options):
    """Seat 0: ``user``; seat 2: another account; seats 1 and 3: CPUs."""
    bob = User.objects.create_user(f"bob{User.objects.count()}", password="pw-long-enough-1")
    seats = [
        actions.SeatSpec("me"),
        actions.SeatSpec("cpu", "medium"),
        actions.SeatSpec("player", user=bob, name=bob.username),
        actions.SeatSpec("cpu", "medium"),
    ]
    return actions.do_create_table(variant=variant, options=options, seats=seats, user=user)


def play_out_hand(table, people=(0, 2), limit=3000):
    """Play the hand to its end: the persons' seats play like easy CPUs, the CPUs are
    swept."""
    for _ in range(limit):
        table.refresh_from_db()
        hand, state, _game = actions.snapshot(table)
        if hand.result is not None:
            return table
        if state.turn in people:
            action = cpu.choose(state, state.turn, "easy")
            actions.do_submit_action(table.pk, state.turn, action, table.version)
        else:
            assert actions.sweep() >= 1
    raise AssertionError("hand did not finish")


def finish(table, capture) -> Hand:
    """Play the hand out (the persons play like easy CPUs), running the commit callbacks
    of its last action (the hand's end) as a server does."""
    with capture(execute=True):
        table = play_out_hand(table)
    return table.current_hand


def drain(runner, capture) -> None:
    """Run the pool's jobs and the jobs they start on commit (the pool's autocommit)
    until none is left."""
    while runner.jobs:
        with capture(execute=True):
            runner.run_all()


def test_a_finished_hand_queues_each_persons_par_off_the_tables_path_and_stores_the_engines_par(
    ayse, runner, at_hand_end, sent, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        hand = play_out_hand(two_person_table(ayse)).current_hand
    assert runner.jobs == []  # nothing inside the table's transaction
    for callback in callbacks:
        callback()
    # once it commits, the table's request hands one job to the pool and makes no row
    assert runner.jobs == [(review_par.do_queue_at_hand_end, hand.pk)]
    assert HandPar.objects.count() == 0

    with django_capture_on_commit_callbacks(execute=True):  # the pool's autocommit
        runner.run_next()  # in the pool: a row per person's seat, each started
    rows = list(HandPar.objects.filter(hand=hand).order_by("seat"))
    assert [(r.seat, r.status) for r in rows] == [(0, "pending"), (2, "pending")]  # no CPU seat
    assert runner.pars == [r.pk for r in rows]

    runner.run_all()
    initial = start_state(record_for_hand(hand))
    for row in rows:
        row.refresh_from_db()
        expected = engine_par.par_for_seat(initial, row.seat)
        assert row.status == "done" and row.error == ""
        assert row.par == expected.par
        assert row.result == hand.result["totals"][row.seat]
        assert row.versus == engine_par.versus_par(row.result, row.par, "classic")
        assert row.luck == expected.luck.to_json()
        assert row.actions == len(expected.actions) and row.cpu_seconds > 0
    pars = [kw for name, kw in sent if name == "par"]
    assert [(kw["hand_id"], kw["seat"]) for kw in pars] == [(hand.pk, 0), (hand.pk, 2)]
    assert pars[0]["par"] == rows[0].as_dict()
    assert pars[0]["par"]["par"] == rows[0].par and "word" in pars[0]["par"]["luck"]


def test_a_full_queue_at_the_hands_end_queues_nothing_and_the_review_queues_it_later(
    client, ayse, runner, at_hand_end, settings, django_capture_on_commit_callbacks
):
    settings.ANALYSIS_QUEUE_LIMIT = 1
    other = play_out_hand(two_person_table(ayse)).current_hand
    HandAnalysis.objects.create(hand=other, seat=0)  # the one place of the queue is taken
    table = two_person_table(ayse)
    hand = finish(table, django_capture_on_commit_callbacks)
    runner.run_all()
    assert HandPar.objects.filter(hand=hand).count() == 0 and runner.jobs == []

    HandAnalysis.objects.all().delete()
    settings.ANALYSIS_QUEUE_LIMIT = 8
    with django_capture_on_commit_callbacks(execute=True):
        html = client.get(f"/review/hand/{hand.pk}/par/").content.decode()
    assert 'data-status="waiting"' in html and 'hx-trigger="every 2s"' in html
    assert html.count('data-testid="par-waiting"') == 2
    assert HandPar.objects.filter(hand=hand).count() == 2
    # each par the visit started counts in the visitor's analysis quota
    assert len(analysis._starts(f"u:{ayse.pk}", analysis.clock())) == 2

    runner.run_all()
    html = client.get(f"/review/hand/{hand.pk}/par/").content.decode()
    assert 'data-status="done"' in html and "every 2s" not in html
    row = HandPar.objects.get(hand=hand, seat=0)
    assert f'data-testid="par-value">{row.par}<' in html
    assert review_par.luck_text(row.luck)[1:] in html  # the luck in words


def test_pars_count_in_the_analyses_queue(client, ayse, runner, settings):
    settings.ANALYSIS_QUEUE_LIMIT = 2
    hand = play_out_hand(two_person_table(ayse)).current_hand
    review_par.do_ensure(hand)  # two pars waiting: the queue is full
    response = client.get(f"/review/hand/{hand.pk}/analysis/")
    assert 'data-code="analysis_queue_full"' in response.content.decode()
    assert HandAnalysis.objects.count() == 0


def test_over_the_quota_the_par_card_says_so_and_makes_nothing(client, ayse, runner, settings):
    settings.ANALYSIS_STARTS_PER_HOUR = 1
    hand = play_out_hand(two_person_table(ayse)).current_hand
    html = client.get(f"/review/hand/{hand.pk}/par/").content.decode()
    assert 'data-testid="par-refused"' in html and 'data-code="analysis_quota"' in html
    assert HandPar.objects.filter(hand=hand).count() == 1  # the first par, within the quota
    assert 'data-status="pending" data-testid="par-line-0"' in html
    assert 'data-status="missing" data-testid="par-line-2"' in html
    assert "Par not computed yet." in html


def test_the_par_card_shows_result_par_versus_and_luck_in_words(
    client, ayse, runner, django_capture_on_commit_callbacks
):
    analysis.set_runner(lambda fn, pk: fn(pk))  # computed at once
    table = play_out_hand(two_person_table(ayse, "101"))
    hand = table.current_hand
    with django_capture_on_commit_callbacks(execute=True):
        client.get(f"/review/hand/{hand.pk}/par/")
    html = client.get(f"/review/hand/{hand.pk}/par/").content.decode()
    row = HandPar.objects.get(hand=hand, seat=0)
    assert row.status == "done"
    # 101: the lowest total wins, so being below par is being better than par
    assert row.versus == row.par - row.result
    if row.versus:
        sign = f"+{row.versus}" if row.versus > 0 else str(row.versus)
        assert f"par {sign}" in html
    else:
        assert "level with par" in html
    assert "from opening at the start" in html or "could open at the start" in html
    assert row.luck["word"] in ("lucky", "average", "unlucky")
    assert f": {row.luck['word']}." in html
    # the replay page loads the card into its result section
    page = client.get(f"/review/hand/{hand.pk}/").content.decode()
    assert f'hx-get="/review/hand/{hand.pk}/par/"' in page


def test_a_shared_hand_shows_its_pars_and_a_stranger_sees_nothing(
    client, ayse, runner, django_capture_on_commit_callbacks
):
    analysis.set_runner(lambda fn, pk: fn(pk))
    table = play_out_hand(two_person_table(ayse))
    hand = table.current_hand
    with django_capture_on_commit_callbacks(execute=True):
        review_par.do_ensure(hand)
    assert HandPar.objects.filter(status="done").count() == 2

    stranger = User.objects.create_user("stranger", password="pw-long-enough-1")
    client.force_login(stranger)
    assert client.get(f"/review/hand/{hand.pk}/par/").status_code == 404

    # a hand of a finished game shared by a link: anyone with the link sees its pars
    table.status = table.Status.FINISHED
    table.save(update_fields=["status"])
    link = review_actions.do_share_table(table.pk, user=ayse)
    html = client.get(f"/review/s/{link.token}/hand/1/par/").content.decode()
    assert 'data-status="done"' in html and html.count('data-testid="par-value"') == 2


def test_a_hand_in_play_has_no_par(client, ayse, runner):
    table = two_person_table(ayse)
    hand = table.current_hand
    assert client.get(f"/review/hand/{hand.pk}/par/").status_code == 403
    with pytest.raises(ValueError):
        review_par.do_ensure(hand)
    assert HandPar.objects.count() == 0


def test_an_embargoed_deal_gets_no_par_until_the_embargo_ends(
    client, ayse, runner, at_hand_end, monkeypatch, django_capture_on_commit_callbacks
):
    embargoed = {"on": True}
    monkeypatch.setattr(plugins, "deal_embargoed", lambda table: embargoed["on"])
    hand = finish(two_person_table(ayse), django_capture_on_commit_callbacks)
    runner.run_all()
    assert HandPar.objects.count() == 0 and runner.jobs == []
    with django_capture_on_commit_callbacks(execute=True):
        response = client.get(f"/review/hand/{hand.pk}/par/")
    assert response.status_code == 403  # the review of the hand is closed
    with django_capture_on_commit_callbacks(execute=True):
        assert review_par.do_ensure(hand) == []
    html = render_to_string("review/_par.html", {"hidden": True, "url": "/x/"})
    assert 'data-status="hidden"' in html and "Par" not in html.split("-->")[-1]
    assert HandPar.objects.count() == 0 and runner.jobs == []

    # a par queued before the embargo is not computed while it lasts
    embargoed["on"] = False
    with django_capture_on_commit_callbacks(execute=True):
        review_par.do_ensure(hand)
    embargoed["on"] = True
    pars = runner.pars
    runner.run_all()
    assert set(HandPar.objects.values_list("status", flat=True)) == {"pending"}

    embargoed["on"] = False
    for pk in pars:  # started again (a visit does it once the embargo ends)
        runner(review_par.do_run, pk)
    runner.run_all()
    assert set(HandPar.objects.values_list("status", flat=True)) == {"done"}


def test_a_failed_par_is_stored_with_its_code(
    ayse, runner, monkeypatch, django_capture_on_commit_callbacks
):
    hand = play_out_hand(two_person_table(ayse)).current_hand
    monkeypatch.setattr(engine_par, "MAX_ACTIONS", 3)
    with django_capture_on_commit_callbacks(execute=True):
        review_par.do_ensure(hand, seats=[0])
    runner.run_all()
    row = HandPar.objects.get()
    assert row.status == "failed" and row.error.startswith("par_unfinished: ")


def test_each_stored_analysis_of_a_played_hand_sends_analysis_ready(
    client, ayse, runner, sent, django_capture_on_commit_callbacks
):
    hand = play_out_hand(two_person_table(ayse)).current_hand
    with django_capture_on_commit_callbacks(execute=True):
        client.get(f"/review/hand/{hand.pk}/analysis/")
    runner.run_all()
    data = HandAnalysis.objects.get().data
    [(name, kw)] = sent
    assert name == "analysis" and (kw["hand_id"], kw["seat"]) == (hand.pk, 0)
    summary = kw["summary"]
    assert summary["decisions"] == len(data["decisions"]) > 0
    assert summary["accuracy"] == data["accuracy"]
    assert summary["value_lost"] == pytest.approx(sum(d["loss"] for d in data["decisions"]))


def test_a_failing_par_ready_receiver_leaves_the_par_stored(
    ayse, runner, django_capture_on_commit_callbacks
):
    def broken(sender, **kw):
        raise RuntimeError("another app's bookkeeping failed")

    par_ready.connect(broken)
    try:
        hand = play_out_hand(two_person_table(ayse)).current_hand
        with django_capture_on_commit_callbacks(execute=True):
            review_par.do_ensure(hand, seats=[0])
        runner.run_all()
    finally:
        par_ready.disconnect(broken)
    assert HandPar.objects.get().status == "done"


def test_versus_par_reads_the_rule_sets_direction():
    assert rules_for("classic").higher_wins and not rules_for("101").higher_wins
    assert engine_par.versus_par(5, 1, "classic") == 4
    assert engine_par.versus_par(20, 60, "101") == 40


@pytest.fixture(autouse=True)
def _quota_from_zero():
    cache.clear()
    yield
    cache.clear()


def test_the_worker_process_computes_the_same_par_and_its_errors_keep_their_code(ayse, settings):
    settings.OKEY_PAR_PROCESS = True
    hand = play_out_hand(two_person_table(ayse, "seventeen")).current_hand
    record = record_for_hand(hand)
    try:
        found, cpu = review_par.compute(record, 2)
        assert found == engine_par.par_for_seat(start_state(record), 2).to_json()
        assert cpu > 0
        with pytest.raises(engine_par.ParError) as e:
            review_par.compute(record, 7)
        assert e.value.code == "par_bad_seat" and e.value.detail == {"seat": 7}
    finally:
        review_par._forget_worker()


def test_the_next_hands_end_catches_up_on_hands_left_without_a_par(
    ayse, runner, at_hand_end, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """A hand that ended with the queue full, and one whose deal was embargoed, get their
    pars queued when a later hand ends with room in the queue."""
    settings.ANALYSIS_QUEUE_LIMIT = 1
    blocker = play_out_hand(two_person_table(ayse)).current_hand
    HandAnalysis.objects.create(hand=blocker, seat=0)
    full = finish(two_person_table(ayse), django_capture_on_commit_callbacks)
    drain(runner, django_capture_on_commit_callbacks)
    embargoed = {"table": None}
    monkeypatch.setattr(plugins, "deal_embargoed", lambda t: t.pk == embargoed["table"])
    settings.ANALYSIS_QUEUE_LIMIT = 8
    table = two_person_table(ayse)
    embargoed["table"] = table.pk
    held = finish(table, django_capture_on_commit_callbacks)
    drain(runner, django_capture_on_commit_callbacks)
    # the embargoed hand: nothing; the hand of the full queue: caught up meanwhile
    assert not HandPar.objects.filter(hand=held).exists()
    assert HandPar.objects.filter(hand=full).count() == 2

    embargoed["table"] = None  # the round's last table has played the deal
    HandAnalysis.objects.all().delete()
    later = finish(two_person_table(ayse), django_capture_on_commit_callbacks)
    drain(runner, django_capture_on_commit_callbacks)
    for hand in (held, later, full):
        assert set(HandPar.objects.filter(hand=hand).values_list("status", flat=True)) == {"done"}
    # the blocker's own hand ended before the hand-end queueing was on: caught up too
    assert HandPar.objects.filter(hand=blocker).count() == 2
