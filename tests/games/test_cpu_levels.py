"""The expert CPU level is offered wherever CPUs play: a table's seats, solo and a
tournament's fill seats; its seats play, and solo records count per level."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest
from django.urls import reverse

from games.engine.bots import LEVELS as ENGINE_LEVELS
from games.live import actions as table_actions
from games.live import cpu
from games.live.actions import base as actions_base
from games.models import CPU_LEVELS, Table
from games.solo.models import SoloResult
from games.tournaments import actions as tournaments
from games.tournaments.forms import TournamentForm
from games.tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast(settings, monkeypatch):
    settings.OKEY_CPU_DELAY_MS = 0
    settings.OKEY_AWAY_GRACE_S = 15
    counter = itertools.count()
    monkeypatch.setattr(actions_base, "seed_source", lambda table, number: f"lv-{next(counter)}")


def test_every_offered_level_is_an_engine_level_and_expert_is_offered():
    assert [code for code, _ in CPU_LEVELS] == list(cpu.LEVELS)
    assert "expert" in cpu.LEVELS and set(cpu.LEVELS) <= set(ENGINE_LEVELS)
    assert cpu.describe("expert") == "Expert"


def test_a_table_created_with_expert_seats_is_played_by_the_expert(client):
    page = client.get("/").content.decode()
    assert 'value="cpu:expert"' in page
    r = client.post(
        reverse("games:create"),
        {
            "variant": "seventeen",
            "seat_1": "cpu:expert",
            "seat_2": "cpu:hard",
            "seat_3": "cpu:expert",
        },
    )
    table = Table.objects.get()
    assert r.status_code == 302
    assert [s.cpu_level for s in table.seats.order_by("position") if s.is_cpu] == [
        "expert",
        "hard",
        "expert",
    ]
    # the person plays their first turn; the sweeper then plays the CPU seats' moves
    # (the expert's among them) until it is the person's turn again
    state = table_actions.load_state(table.current_hand)
    assert state.turn == 0
    table_actions.do_submit_action(table.pk, 0, cpu.choose(state, 0, "hard"), table.version)
    for _ in range(200):
        if not table_actions.sweep():
            break
    table.refresh_from_db()
    state = table_actions.load_state(table.current_hand)
    assert state.turn == 0 or state.over
    by_seat = {a.seat for a in table.current_hand.actions.all()}
    assert {1, 2, 3} <= by_seat


def test_solo_accepts_the_expert_level_and_keeps_its_record_apart(client, django_user_model):
    user = django_user_model.objects.create_user("ayse", password="x")
    client.force_login(user)
    home = client.get(reverse("solo:home")).content.decode()
    assert 'value="expert"' in home and 'data-level="expert"' in home
    r = client.post(reverse("solo:start"), {"level": "expert", "variant": "seventeen"})
    assert r.status_code == 302
    table = Table.objects.get(kind=Table.Kind.SOLO)
    assert {s.cpu_level for s in table.seats.all() if s.is_cpu} == {"expert"}
    SoloResult.objects.create(
        user=user,
        table=table,
        variant="seventeen",
        level="expert",
        total=120,
        rounds=7,
        verified=True,  # a challenge run without Show me (docs/solo.md)
        finished_at=table.created_at,
    )
    SoloResult.objects.get(level="expert").full_clean()  # a valid choice of the field
    home = client.get(reverse("solo:home")).content.decode()
    assert 'data-testid="best-expert">120<' in home


def test_a_tournament_fills_empty_seats_with_cpus_of_its_level(django_user_model):
    owner = django_user_model.objects.create_user("orga", password="x")
    form = TournamentForm()
    assert ("expert", "Expert") in [
        (c, str(label)) for c, label in form.fields["cpu_level"].choices
    ]
    t = tournaments.do_create_tournament(
        owner,
        name="Expert cup",
        date=dt.date(2026, 11, 29),
        variant="fifty-one",
        options={"hands": 1, "clock": 0},
        rounds=1,
        mode="online",
        seed="expert-seed",
        arrival_s=0,
        cpu_level="expert",
    )
    for name in ("ayse", "baran"):
        django_user_model.objects.create_user(name, password="x")
        tournaments.do_register_entry(t.pk, owner, username=name)
    rnd = tournaments.do_seat_next_round(t.pk, owner)
    game = rnd.tables.get().game
    assert [s.cpu_level for s in game.seats.all() if s.is_cpu] == ["expert", "expert"]
    assert Tournament.objects.get(pk=t.pk).get_cpu_level_display() == "Expert"


def test_a_tournament_refuses_an_unknown_cpu_level(django_user_model):
    owner = django_user_model.objects.create_user("orga", password="x")
    with pytest.raises(tournaments.TournamentError):
        tournaments.do_create_tournament(
            owner,
            name="Cup",
            date=dt.date(2026, 11, 29),
            variant="classic",
            options={},
            rounds=1,
            mode="in_person",
            seed="s",
            cpu_level="grandmaster",
        )
