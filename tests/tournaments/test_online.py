"""Online rounds: seating opens one table per tournament table (players bound to
their accounts, CPUs in the fill seats), a player's CPU plays for them after the
arrival time, and a finished game posts its result through ``game_finished``."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.live import actions as table_actions
from games.models import Table
from games.tournaments import actions
from games.tournaments.models import TableResult, Tournament, TournamentTable
from tests.tournaments.conftest import online, register_accounts

pytestmark = pytest.mark.django_db

PLAYERS = ["ayse", "baran", "cem", "deniz", "elif", "fatma"]


def play_out(t: Tournament, round_no: int, limit: int = 5000) -> None:
    """Sweep until every game of the round is over (all seats played by CPUs)."""
    games = Table.objects.filter(
        tournament_table__round__tournament=t, tournament_table__round__number=round_no
    )
    for _ in range(limit):
        if not games.exclude(status=Table.Status.FINISHED).exists():
            return
        assert table_actions.sweep() >= 1, "nothing was due: a table is stuck"
    raise AssertionError("the round's games did not finish")


def test_seating_an_online_round_opens_the_tables(organiser):
    t = online(organiser)
    entries = register_accounts(t, organiser, PLAYERS)
    rnd = actions.do_seat_next_round(t.pk, organiser)
    tables = list(rnd.tables.select_related("game").order_by("number"))
    assert len(tables) == 2
    by_pid = {e.pid: e for e in entries}
    for tt in tables:
        game = tt.game
        assert game.status == Table.Status.PLAYING and game.variant == "fifty-one"
        assert game.options["hands"] == 1 and game.options["players"] == 4
        assert game.current_hand is not None
        seats = list(game.seats.order_by("position"))
        for seat, pid in zip(seats, tt.seats, strict=True):
            if pid is None:
                assert seat.is_cpu and seat.user is None
            else:
                assert not seat.is_cpu and seat.user == by_pid[pid].user
                assert seat.name == by_pid[pid].name
                assert seat.away_since is not None  # not at the table yet
    assert sum(tt.seats.count(None) for tt in tables) == 2


def test_a_player_who_has_not_arrived_is_played_by_their_cpu_after_the_arrival_time(
    organiser,
):
    t = online(organiser, arrival_s=120)
    register_accounts(t, organiser, PLAYERS[:4])
    tt = actions.do_seat_next_round(t.pk, organiser).tables.get()
    game = tt.game
    now = timezone.now()
    assert not table_actions.do_play_due(game.pk, at=now + timedelta(seconds=60))
    assert table_actions.do_play_due(game.pk, at=now + timedelta(seconds=121))
    game.refresh_from_db()
    assert game.hands.get().actions.filter(by_cpu=True).count() == 1


def test_finished_games_post_their_results_and_the_tournament_goes_on(organiser):
    t = online(organiser, rounds=2)
    entries = register_accounts(t, organiser, PLAYERS)
    actions.do_seat_next_round(t.pk, organiser)
    play_out(t, 1)
    results = TableResult.objects.filter(table__round__tournament=t)
    assert results.count() == 2
    for r in results.select_related("table__game"):
        assert r.source == TableResult.Source.GAME and r.entered_by is None
        game = r.table.game
        assert r.scores == table_actions.game_for(game).totals()
    posted = t.audit.filter(action="result_posted")
    assert posted.count() == 2 and all(a.actor is None for a in posted)
    # the organiser's rules: nobody came, so every player's seat was played by its CPU,
    # scored as played, and the log says how many of their turns that was
    for a in posted:
        tt = TournamentTable.objects.get(round__tournament=t, number=int(a.what.split()[-1]))
        people = {str(i) for i, pid in enumerate(tt.seats) if pid is not None}
        assert set(a.after["stand_in_turns"]) == people
        assert all(n > 0 for n in a.after["stand_in_turns"].values())
        # and the table's score sheet marks the turns its CPU played, per player
        sheet = Client().get(f"/t/{tt.game.code}/sheet/").content.decode()
        marked = set(re.findall(r'data-testid="sheet-stand-in" data-seat="(\d)"', sheet))
        assert marked == people
    rows = actions.standings(t)
    assert len(rows) == 6 and all(r.played == 1 for r in rows)
    assert {r.player for r in rows} == {e.pid for e in entries}

    actions.do_seat_next_round(t.pk, organiser)
    play_out(t, 2)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert all(r.played == 2 for r in actions.standings(t))
    assert t.audit.filter(action="finished").exists()


def test_a_result_the_organiser_entered_first_is_kept(organiser):
    t = online(organiser, rounds=1)
    register_accounts(t, organiser, PLAYERS[:4])
    tt = actions.do_seat_next_round(t.pk, organiser).tables.get()
    manual = [-1000, 50, 20, 60]
    actions.do_enter_result(t.pk, organiser, tt.pk, manual)
    play_out(t, 1)
    result = TableResult.objects.get(table=tt)
    assert result.scores == manual and result.source == TableResult.Source.ENTERED
    ignored = t.audit.get(action="game_result_ignored")
    assert ignored.before == {"scores": manual}
    assert ignored.after["scores"] == table_actions.game_for(tt.game).totals()


def test_online_seating_refuses_players_without_an_account(organiser):
    """Imported or edited tournaments may hold name-only players: online, they
    cannot be seated (nobody could play their seat), and nothing is created."""
    t = online(organiser)
    register_accounts(t, organiser, PLAYERS[:3])
    t.entries.create(name="Paper player")
    with pytest.raises(actions.TournamentError) as e:
        actions.do_seat_next_round(t.pk, organiser)
    assert e.value.code == "accounts_missing" and e.value.params == {"names": "Paper player"}
    assert not TournamentTable.objects.exists() and not Table.objects.exists()


def test_other_tables_finishing_are_ignored(organiser):
    from tests.games.conftest import cpu_table, play_out_hand

    t = online(organiser, arrival_s=600)  # nobody plays the tournament table meanwhile
    register_accounts(t, organiser, PLAYERS[:4])
    actions.do_seat_next_round(t.pk, organiser)
    table = cpu_table("fifty-one", hands=1, clock=0)
    play_out_hand(table)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert not TableResult.objects.exists()


def test_three_player_rummy_tables_instead_of_cpu_seats(organiser):
    t = online(organiser, variant="rummy", options={"length": "short", "clock": 0})
    actions.do_update_tournament(t.pk, organiser, three_player_tables=True)
    register_accounts(t, organiser, PLAYERS + ["gul"])
    rnd = actions.do_seat_next_round(t.pk, organiser)
    sizes = sorted(len(tt.seats) for tt in rnd.tables.all())
    assert sizes == [3, 4] and all(None not in tt.seats for tt in rnd.tables.all())
    small = next(tt for tt in rnd.tables.select_related("game") if len(tt.seats) == 3)
    assert small.game.options["players"] == 3 and small.game.seats.count() == 3


def test_organiser_deals_the_next_hand_of_a_table_nobody_attends(organiser, stranger):
    from django.test import Client
    from django.urls import reverse

    t = online(organiser, options={"hands": 3, "clock": 0})
    register_accounts(t, organiser, PLAYERS[:4])
    tt = actions.do_seat_next_round(t.pk, organiser).tables.select_related("game").get()
    with pytest.raises(actions.TournamentError) as e:
        actions.do_deal_next_hand(t.pk, organiser, tt.pk)
    assert e.value.code == "hand_not_over"
    for _ in range(3000):
        tt.game.refresh_from_db()
        if tt.game.current_hand.result is not None:
            break
        table_actions.sweep()
    # nobody attends: the sweeper will deal the next hand itself (after the grace
    # period, games.live.actions.clock._schedule_next_hand); the desk can deal it at once
    assert table_actions.due_tables() == [tt.game.pk]
    with pytest.raises(actions.TournamentError) as e:
        actions.do_deal_next_hand(t.pk, stranger, tt.pk)
    assert e.value.code == "not_organiser"
    desk = Client()
    desk.force_login(organiser)
    html = desk.get(reverse("tournaments:desk", args=[t.pk])).content.decode()
    assert 'data-testid="next-hand"' in html
    response = desk.post(reverse("tournaments:next_hand", args=[t.pk, tt.pk]))
    assert response.status_code == 302
    assert tt.game.hands.count() == 2 and table_actions.due_tables() == [tt.game.pk]
    assert t.audit.filter(action="next_hand", actor=organiser).exists()


def test_a_tournament_game_links_back_to_its_tournament(organiser):
    from django.test import Client
    from django.urls import reverse

    t = online(organiser, options={"hands": 1, "clock": 0})
    register_accounts(t, organiser, PLAYERS[:4])
    tt = actions.do_seat_next_round(t.pk, organiser).tables.select_related("game").get()
    viewer = Client()
    viewer.force_login(organiser)
    html = viewer.get(reverse("games:table", args=[tt.game.code])).content.decode()
    assert 'data-testid="tournament-link"' in html
    assert reverse("tournaments:detail", args=[t.pk]) in html
