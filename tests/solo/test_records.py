"""Only complete solo games count; guests and online games never enter records."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.urls import reverse
from django.utils import timezone

from games.live import actions
from games.models import Table
from games.signals import game_finished
from games.solo import records
from games.solo.models import SoloResult
from tests.solo.conftest import play_game, play_hand, solo_table

pytestmark = pytest.mark.django_db


def fake_game(totals, hands=7, winners=(1,)):
    return SimpleNamespace(
        totals=lambda: list(totals), hands=[None] * hands, winners=lambda: list(winners)
    )


def make_result(user, total, *, level="medium", variant="seventeen", days_ago=0, **kw):
    """A stored result; by default a verified challenge run (``verified=False``: a row
    from before the modes, ``mode="practice"``: a practice run)."""
    table = solo_table(variant=variant, user=user, level=level)
    kw.setdefault("verified", kw.get("mode", "challenge") == "challenge")
    return SoloResult.objects.create(
        user=user,
        table=table,
        variant=variant,
        level=level,
        total=total,
        rounds=kw.pop("rounds", 7),
        finished_at=kw.pop("finished_at", timezone.now() - timedelta(days=days_ago)),
        **kw,
    )


def test_a_complete_game_writes_its_result_and_is_a_record(client, django_user_model):
    user = django_user_model.objects.create_user("ayse", password="x")
    client.force_login(user)
    table = play_game(solo_table(user=user, level="easy", competitive=True))  # a challenge
    assert table.status == Table.Status.FINISHED and table.hands.count() == 7
    row = SoloResult.objects.get()
    assert (row.mode, row.verified, row.hints) == ("challenge", True, 0)
    game = actions.game_for(table)
    assert (row.user, row.table, row.variant, row.level, row.rounds) == (
        user,
        table,
        "seventeen",
        "easy",
        7,
    )
    assert row.total == game.totals()[0] and row.won == (0 in game.winners())
    assert row.finished_at == table.finished_at
    assert records.personal_bests(user)["easy"] == row and records.is_new_record(row)

    page = client.get(reverse("solo:result", args=[table.code])).content.decode()
    assert 'data-testid="solo-record"' in page and "New personal record" in page
    home = client.get(reverse("solo:home")).content.decode()
    assert f'data-testid="best-easy">{row.total}<' in home
    assert reverse("solo:result", args=[table.code]) in home  # history links the game
    # the table's game-over panel links the result page
    table_page = client.get(reverse("games:table", args=[table.code])).content.decode()
    assert 'data-testid="solo-result-link"' in table_page


def test_an_unfinished_game_is_resumable_and_never_counts(client, django_user_model):
    user = django_user_model.objects.create_user("ayse", password="x")
    client.force_login(user)
    table = play_game(solo_table(user=user), hands=3)
    assert (
        table.status == Table.Status.PLAYING
        and table.hands.filter(result__isnull=False).count() == 3
    )
    assert not SoloResult.objects.exists()
    home = client.get(reverse("solo:home")).content.decode()
    resume = home.split('data-testid="solo-resume"', 1)[1].split("</ul>", 1)[0]
    assert reverse("games:table", args=[table.code]) in resume
    page = client.get(reverse("solo:result", args=[table.code])).content.decode()
    assert 'data-testid="solo-unfinished"' in page and 'data-testid="solo-record"' not in page

    # abandoning it: gone from the resume list, still no result, never playable again
    client.post(reverse("solo:abandon", args=[table.code]))
    table.refresh_from_db()
    assert table.status == Table.Status.ABANDONED and table.cpu_due_at is None
    home = client.get(reverse("solo:home")).content.decode()
    assert (
        reverse("games:table", args=[table.code])
        not in home.split('data-testid="solo-resume"')[1].split("</ul>")[0]
    )
    with pytest.raises(actions.ActionRefused):
        actions.do_submit_action(table.pk, 0, {"type": "draw"}, None)
    assert not SoloResult.objects.exists() and records.personal_bests(user) == {}


def test_someone_else_cannot_abandon_my_game(client, django_user_model):
    owner = django_user_model.objects.create_user("ayse", password="x")
    table = solo_table(user=owner)
    client.force_login(django_user_model.objects.create_user("mehmet", password="x"))
    assert client.post(reverse("solo:abandon", args=[table.code])).status_code == 404
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING


def test_a_guest_game_never_enters_records(client):
    client.get("/")
    key = client.session.session_key
    table = play_game(solo_table(user=None, guest_key=key))
    row = SoloResult.objects.get(table=table)
    assert row.user is None and not row.counts_for_records and not records.is_new_record(row)
    assert not SoloResult.objects.records().exists()
    home = client.get(reverse("solo:home")).content.decode()
    assert reverse("solo:result", args=[table.code]) in home  # the guest's own history
    assert "records are kept only for players with an account" in home
    board = client.get(reverse("solo:board")).content.decode()
    assert 'data-testid="board-row"' not in board


def test_online_games_never_count(django_user_model):
    user = django_user_model.objects.create_user("ayse", password="x")
    table = actions.do_create_table(
        variant="seventeen",
        options={},
        seats=[actions.SeatSpec("me")] + [actions.SeatSpec("cpu")] * 3,
        user=user,
    )
    game_finished.send(sender=Table, table=table, game=fake_game([10, 20, 30, 40]))
    assert not SoloResult.objects.exists()


def test_other_variants_go_to_history_but_not_to_records(client, django_user_model):
    user = django_user_model.objects.create_user("ayse", password="x")
    client.force_login(user)
    for variant in ("classic", "rummy", "fifty-one"):
        table = solo_table(variant=variant, user=user)
        table.finished_at = timezone.now()
        game_finished.send(sender=Table, table=table, game=fake_game([3, 5, 7, 9], hands=4))
        row = SoloResult.objects.get(table=table)
        assert row.variant == variant and row.user == user and not row.counts_for_records
    assert records.personal_bests(user) == {} and not SoloResult.objects.public().exists()
    home = client.get(reverse("solo:home")).content.decode()
    history = home.split('data-testid="solo-history"', 1)[1]
    for label in ("Classic", "Okey Rummy", "Fifty-one"):
        assert label in history


def test_new_record_only_when_beating_every_earlier_game(django_user_model):
    user = django_user_model.objects.create_user("ayse", password="x")
    first = make_result(user, 1000, days_ago=4)
    worse = make_result(user, 1200, days_ago=3)
    better = make_result(user, 900, days_ago=2)
    equal = make_result(user, 900, days_ago=1)
    other_level = make_result(user, 1500, level="hard")
    assert [records.is_new_record(r) for r in (first, worse, better, equal)] == [
        True,
        False,
        True,
        False,
    ]
    assert records.is_new_record(other_level)  # bests are per CPU level
    bests = records.personal_bests(user)
    assert bests["medium"] == better and bests["hard"] == other_level


def test_start_creates_a_solo_table_and_remembers_the_level(client):
    home = client.get("/").content.decode()
    assert 'data-testid="solo-start"' in home and 'action="/solo/start/"' in home
    assert '<option value="medium" selected>' in home
    r = client.post(reverse("solo:start"), {"level": "hard"})
    table = Table.objects.get()
    assert r.status_code == 302 and r.url == reverse("games:table", args=[table.code])
    assert table.kind == Table.Kind.SOLO and table.variant == "seventeen"
    assert table.options["rounds"] == 7 and table.options["clock"] == 0
    seats = list(table.seats.all())
    assert not seats[0].is_cpu and seats[0].guest_key == client.session.session_key
    assert [s.cpu_level for s in seats[1:]] == ["hard"] * 3 and all(s.is_cpu for s in seats[1:])
    assert table.status == Table.Status.PLAYING
    home = client.get("/").content.decode()
    assert '<option value="hard" selected>' in home
    page = client.get(r.url).content.decode()
    assert 'data-testid="round">Hand 1 of 7<' in page


@pytest.mark.parametrize(
    "variant,length_key,length",
    [("classic", "start_points", 20), ("rummy", "length", "standard"), ("fifty-one", "hands", 1)],
)
def test_other_variants_start_with_their_own_length(client, variant, length_key, length):
    client.post(reverse("solo:start"), {"level": "easy", "variant": variant})
    table = Table.objects.get()
    assert table.kind == Table.Kind.SOLO and table.variant == variant
    assert table.options[length_key] == length and table.options["clock"] == 0
    assert client.session["solo_variant"] == variant


def test_bad_start_choices_create_nothing(client):
    client.post(reverse("solo:start"), {"level": "genius"})
    client.post(reverse("solo:start"), {"level": "easy", "variant": "chess"})
    assert not Table.objects.exists()


def test_one_hand_played_through_keeps_the_round_on_the_scoreboard(client, django_user_model):
    user = django_user_model.objects.create_user("ayse", password="x")
    client.force_login(user)
    table = solo_table(user=user)
    play_hand(table)
    table.refresh_from_db()
    actions.do_next_hand(table.pk, table.version)
    page = client.get(reverse("games:table", args=[table.code])).content.decode()
    assert 'data-testid="round">Hand 2 of 7<' in page


def test_admin_lists_solo_results(admin_client, django_user_model):
    user = django_user_model.objects.create_user("ayse", password="x")
    make_result(user, 777)
    page = admin_client.get("/admin/solo/soloresult/").content.decode()
    assert "777" in page and "ayse" in page


def test_solo_home_preselects_the_remembered_choice(client):
    client.post(reverse("solo:start"), {"level": "easy", "variant": "rummy"})
    page = client.get(reverse("solo:home")).content.decode()
    assert '<option value="easy" selected>' in page and '<option value="rummy" selected>' in page
    home = client.get("/").content.decode()  # the one-click start plays seventeen
    assert '<input type="hidden" name="variant" value="seventeen">' in home
