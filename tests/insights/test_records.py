"""Insights' rows as games are played through the real table actions: one HandStat per
account and finished hand (no guest, no CPU), the monthly sums kept as hands finish and as
the review's par and analysis arrive, and those sums equal a rebuild from the stored
hands (``manage.py rebuild_insights``)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.core.management import call_command

from games.engine.simulate import play_hand
from games.insights import actions as insights
from games.insights.models import HandStat, MonthStat
from games.live import actions
from games.models import Hand, Seat, Table
from games.review.models import HandAnalysis, HandPar
from games.signals import analysis_ready, par_ready
from tests.insights.conftest import Clock, play_hands
from tests.support.accounts import make_users

pytestmark = pytest.mark.django_db


def month_rows() -> dict[tuple, dict]:
    return {
        (m.user_id, m.variant, m.month, m.rated, m.cpu_level): m.values()
        for m in MonthStat.objects.all()
    }


STAT_FIELDS = (
    "user_id",
    "hand_id",
    "seat",
    "variant",
    "finished_at",
    "rated",
    "cpu_level",
    "total",
    "won",
    "ending",
    "opening_turn",
    "okeys_kept",
    "okeys_wasted",
    "fed",
    "penalties",
    "par",
    "decisions",
    "accuracy",
    "lost_milli",
    "embargoed",
)


def stat_rows() -> list[tuple]:
    return sorted(tuple(str(v) for v in row) for row in HandStat.objects.values_list(*STAT_FIELDS))


def assert_equals_rebuild() -> tuple[dict, list]:
    """The incremental rows equal what a rebuild computes from the stored hands."""
    months, stats = month_rows(), stat_rows()
    call_command("rebuild_insights", verbosity=0)
    assert month_rows() == months
    assert stat_rows() == stats
    return months, stats


def rated_game(users, clock: Clock):
    seats = [actions.SeatSpec("me")] + [actions.SeatSpec("human")] * 3
    table = actions.do_create_table(
        variant="fifty-one", options={"hands": 3}, seats=seats, user=users[0], rated=True
    )
    for u in users[1:]:
        actions.do_join_table(table.pk, user=u)
    return play_hands(table, 2, clock)


def cpu_game(user, variant: str, levels: list[str], played: int, clock: Clock, **options):
    seats = [actions.SeatSpec("me")] + [actions.SeatSpec("cpu", lv) for lv in levels]
    table = actions.do_create_table(variant=variant, options=options, seats=seats, user=user)
    return play_hands(table, played, clock)


def test_every_account_seat_gets_its_row_and_the_sums_equal_a_rebuild():
    ana, ben, cem, dia = make_users("ana", "ben", "cem", "dia")
    rated = rated_game([ana, ben, cem, dia], Clock(datetime(2026, 3, 31, 23, 58, tzinfo=UTC)))
    casual = cpu_game(ana, "101", ["easy", "easy", "medium"], 2, Clock(), hands=3)
    hard = cpu_game(ben, "classic", ["hard", "hard", "hard"], 3, Clock())

    rated_hands = list(Hand.objects.filter(table=rated, result__isnull=False))
    assert len(rated_hands) == 2
    assert HandStat.objects.filter(hand__table=rated).count() == 8  # four accounts a hand
    assert set(HandStat.objects.filter(hand__table=rated).values_list("rated", "cpu_level")) == {
        (True, "none")
    }
    # a person's seat among CPUs: one row a hand, the opponents' level said
    assert set(
        HandStat.objects.filter(hand__table=casual).values_list("user__username", "cpu_level")
    ) == {("ana", "mixed")}
    assert HandStat.objects.filter(hand__table=casual).count() == 2
    assert HandStat.objects.filter(hand__table=hard, cpu_level="hard").count() == 3

    # each row says what its hand's final state says of that seat
    for stat in HandStat.objects.select_related("hand"):
        hand = stat.hand
        assert stat.total == hand.result["totals"][stat.seat]
        assert stat.won == (hand.result["finisher"] == stat.seat)
        assert stat.finished_at == hand.finished_at
    # the rated game's first hand ended on 31 March, its second on 1 April (UTC): a
    # month row each, four hands (four accounts) in each
    by_month = {
        (m.month.month, m.hands)
        for m in MonthStat.objects.filter(variant="fifty-one", user__in=[ana, ben, cem, dia])
    }
    assert by_month == {(3, 1), (4, 1)}
    assert MonthStat.objects.filter(variant="fifty-one").count() == 8
    totals = {}
    for m in MonthStat.objects.filter(user=ana):
        totals[m.variant] = totals.get(m.variant, 0) + m.total_sum
    assert totals["fifty-one"] == sum(
        s.total for s in HandStat.objects.filter(user=ana, variant="fifty-one")
    )
    assert_equals_rebuild()


def test_par_and_analysis_join_the_sums_and_a_rebuild_reads_them_from_the_review():
    (ana,) = make_users("ana")
    table = cpu_game(ana, "classic", ["hard", "hard", "hard"], 3, Clock())
    hands = list(Hand.objects.filter(table=table, result__isnull=False).order_by("number"))
    assert len(hands) == 3
    # the review stores the par and the analysis, then says so (as games/review does)
    pars = [2, -4, 0]
    for hand, par in zip(hands, pars, strict=True):
        row = HandPar.objects.create(
            hand=hand, seat=0, status=HandPar.Status.DONE, par=par, result=0, versus=0
        )
        par_ready.send(sender=HandPar, hand_id=hand.pk, seat=0, par=row.as_dict())
    data = {"accuracy": 80, "decisions": [{"loss": 0.25}, {"loss": 0.0}, {"loss": 1.5}]}
    HandAnalysis.objects.create(hand=hands[0], seat=0, status="done", data=data)
    analysis_ready.send(
        sender=HandAnalysis,
        hand_id=hands[0].pk,
        seat=0,
        summary={"accuracy": 80, "value_lost": 1.75, "decisions": 3},
    )
    month = MonthStat.objects.get(user=ana)
    totals = [h.result["totals"][0] for h in hands]
    assert (month.par_hands, month.par_sum, month.par_total_sum) == (3, sum(pars), sum(totals))
    assert (month.analysed_hands, month.decisions, month.accuracy_sum, month.lost_milli) == (
        1,
        3,
        240,
        1750,
    )
    # the same par again changes nothing; a new one replaces the old
    par_ready.send(sender=HandPar, hand_id=hands[0].pk, seat=0, par={"par": 2})
    assert MonthStat.objects.get(user=ana).par_sum == sum(pars)
    HandPar.objects.filter(hand=hands[0]).update(par=5)
    par_ready.send(sender=HandPar, hand_id=hands[0].pk, seat=0, par={"par": 5})
    assert MonthStat.objects.get(user=ana).par_sum == sum(pars) + 3
    # a CPU's seat has no row: nothing to add
    assert insights.do_note_par(hands[0].pk, 1, {"par": 9}) is None
    assert_equals_rebuild()


def test_a_guest_and_a_lesson_leave_no_row():
    table = actions.do_create_table(
        variant="classic",
        options={},
        seats=[actions.SeatSpec("me")] + [actions.SeatSpec("cpu", "easy")] * 3,
        guest_key="guest-1",
    )
    play_hands(table, 1, Clock())
    assert Hand.objects.filter(table=table, result__isnull=False).exists()
    assert not HandStat.objects.exists()
    # a lesson's hand (games/learn: a scripted deal, its seed marked) is no play of the
    # learner's
    (ana,) = make_users("ana")
    lesson = Table.objects.create(variant="classic", status="finished")
    Seat.objects.create(table=lesson, position=0, user=ana)
    state = play_hand("classic", None, "learn:classic-1", 0)
    hand = Hand.objects.create(
        table=lesson,
        number=0,
        seed="learn:classic-1",
        seed_commitment="-",
        starter=0,
        snapshot=state.to_json(),
        result=state.result,
        finished_at=datetime(2026, 3, 1, tzinfo=UTC),
    )
    assert insights.do_record_hand(lesson, hand, state) == []
    hand.seed = "classic-1"  # the same hand at an ordinary table counts
    assert len(insights.do_record_hand(lesson, hand, state)) == 1


def test_a_failure_in_insights_never_stops_a_hand_from_being_recorded(monkeypatch, caplog):
    (ana,) = make_users("ana")

    def broken(*args, **kwargs):
        raise RuntimeError("insights broke")

    monkeypatch.setattr(insights, "seat_stats", broken)
    table = cpu_game(ana, "classic", ["easy"] * 3, 2, Clock())
    assert Hand.objects.filter(table=table, result__isnull=False).count() == 2
    assert not HandStat.objects.exists()
    assert "insights: hand" in caplog.text
    monkeypatch.undo()
    call_command("rebuild_insights", verbosity=0)  # the rebuild restores the rows
    assert HandStat.objects.filter(user=ana).count() == 2


def test_a_hand_under_a_duplicate_embargo_is_added_when_the_embargo_ends(monkeypatch):
    from games import plugins

    (ana,) = make_users("ana")
    kept_back: set[int] = set()
    monkeypatch.setattr(plugins, "deal_embargoed", lambda table: table.pk in kept_back)
    seats = [actions.SeatSpec("me")] + [actions.SeatSpec("cpu", "easy")] * 3
    table = actions.do_create_table(variant="classic", options={}, seats=seats, user=ana)
    kept_back.add(table.pk)
    play_hands(table, 1, Clock())
    stat = HandStat.objects.get(user=ana)
    assert stat.embargoed and not MonthStat.objects.exists()
    assert insights.do_release_embargoed([ana.pk]) == 0  # still kept back
    assert_equals_rebuild()  # a rebuild keeps it back too
    kept_back.clear()
    assert insights.do_release_embargoed([ana.pk]) == 1
    assert MonthStat.objects.get(user=ana).hands == 1
    assert_equals_rebuild()


def test_rebuild_of_one_player_leaves_the_others_alone():
    ana, ben = make_users("ana", "ben")
    cpu_game(ana, "classic", ["easy"] * 3, 1, Clock())
    cpu_game(ben, "classic", ["easy"] * 3, 1, Clock())
    before = month_rows()
    MonthStat.objects.filter(user=ana).update(hands=99)
    MonthStat.objects.filter(user=ben).update(hands=77)
    call_command("rebuild_insights", user="ana", verbosity=0)
    after = month_rows()
    assert [v["hands"] for k, v in after.items() if k[0] == ana.pk] == [
        v["hands"] for k, v in before.items() if k[0] == ana.pk
    ]
    assert [v["hands"] for k, v in after.items() if k[0] == ben.pk] == [77]
