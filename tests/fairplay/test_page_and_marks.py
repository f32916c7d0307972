"""The staff page (staff only, the figures) and marking an account (off the boards,
ratings rated again without it)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from openskill.models import PlackettLuce

from games.fairplay.models import GameCheck, HandCheck, LogEntry, PlayerStats
from games.models import Hand, Table
from games.ratings.models import Rating, RatingChange
from games.solo import views as solo_views
from games.solo.models import RECORD_ROUNDS, RECORD_VARIANT, SoloResult

from .conftest import make_users, play_game, rated_table
from .policies import level

pytestmark = pytest.mark.django_db
AT = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
URL = "/staff/fair-play/"


def staff():
    user = get_user_model().objects.create_user("warden", password="pw-warden-123")
    user.is_staff = True
    user.save()
    return user


def stats_for(user, matches: int, decisions: int = 300) -> PlayerStats:
    bits = "1" * matches + "0" * (decisions - matches)
    return PlayerStats.objects.create(
        user=user,
        variant="classic",
        hands=decisions // 20,
        decisions=decisions,
        matches=matches,
        loss=0.01 * (decisions - matches),
        recent="".join(sorted(bits)),  # the misses first, the matches last
        updated_at=AT,
    )


def board_names(client) -> set[str]:
    return {r["username"] for r in client.get("/ratings/fifty-one/").context["rows"]}


def test_only_staff_see_the_page(client):
    (player,) = make_users("pia")
    assert client.get(URL).status_code == 404
    client.force_login(player)
    assert client.get(URL).status_code == 404
    assert client.post(URL + "mark/", {"username": "pia", "reason": "x"}).status_code == 404
    assert not LogEntry.objects.exists()
    client.force_login(staff())
    page = client.get(URL)
    assert page.status_code == 200
    assert 'data-testid="fp-empty"' in page.content.decode()


def test_the_page_lists_an_improbable_rate_with_its_figures(client):
    rates = {"p1": 270, "p2": 262, "p3": 280, "p4": 255, "p5": 275, "p6": 268, "ace": 300}
    users = make_users(*rates)
    for u in users:
        stats_for(u, rates[u.username])
    client.force_login(staff())
    html = client.get(URL).content.decode()
    assert html.count('data-testid="fp-player"') == 1
    assert 'data-username="ace"' in html
    assert "300" in html and "100.0 %" in html  # decisions, rate
    # every scored player with ?all=1, the listed one marked "improbable"
    html = client.get(URL + "?all=1").content.decode()
    assert html.count('data-testid="fp-player"') == 7
    assert html.count('class="fp-flag"') == 1


def _hands(n: int) -> list[Hand]:
    table = Table.objects.create(variant="classic", competitive=True, status="finished")
    return [
        Hand.objects.create(table=table, number=i, seed=f"s{i}", seed_commitment="c", starter=0)
        for i in range(n)
    ]


def test_the_page_lists_a_feeding_pair_and_a_pair_always_together(client):
    a, b, c, d = make_users("ann", "bob", "cat", "dan")
    # bob, seated after ann, finished 9 of 12 hands with her discard; cat after bob 2 of 12
    for i, hand in enumerate(_hands(12)):
        for seat, (user, feeder, fed) in enumerate(
            [(a, d, False), (b, a, i < 9), (c, b, i < 2), (d, c, False)]
        ):
            HandCheck.objects.create(
                hand=hand,
                seat=seat,
                user=user,
                variant="classic",
                status="done",
                claimed_at=AT,
                feeder=feeder,
                fed=fed,
            )
    # cat and dan shared 12 games and dan never placed ahead of cat
    for i in range(12):
        table = Table.objects.create(variant="classic", competitive=True, status="finished")
        GameCheck.objects.create(
            table=table,
            variant="classic",
            players=4,
            finished_at=AT,
            seats={str(c.pk): [0, 1 + i % 2], str(d.pk): [1, 3 + i % 2]},
        )
    client.force_login(staff())
    html = client.get(URL).content.decode()
    assert html.count('data-testid="fp-feed"') == 1
    assert 'data-feeder="ann" data-finisher="bob"' in html
    assert html.count('data-testid="fp-pair"') == 1
    assert "cat &amp; dan" in html


@pytest.fixture
def rated():
    """One rated game of four (fifty-one, one hand) and a record of the first player's."""
    users = make_users("una", "vic", "wes", "xia")
    table = rated_table(users, variant="fifty-one", hands=1)
    play_game(table, {s: level("medium") for s in range(4)})
    solo = Table.objects.create(variant=RECORD_VARIANT, kind="solo", status="finished")
    fields = {f.name for f in SoloResult._meta.get_fields()}
    extra = {k: v for k, v in {"mode": "challenge", "verified": True}.items() if k in fields}
    SoloResult.objects.create(
        user=users[0],
        table=solo,
        variant=RECORD_VARIANT,
        level="hard",
        total=40,
        rounds=RECORD_ROUNDS,
        won=True,
        finished_at=AT,
        **extra,
    )
    return users, table


def test_a_marked_account_leaves_the_boards_and_is_rated_out(client, rated):
    (una, vic, wes, xia), table = rated
    before = {r.user_id: (r.mu, r.sigma) for r in Rating.objects.all()}
    assert len(before) == 4
    places = {c.user_id: c.place for c in RatingChange.objects.filter(table=table)}
    assert "una" in board_names(client)
    assert [r.user for r in solo_views.board_queryset()] == [una]
    una.profile.public_records = True
    una.profile.save(update_fields=["public_records"])
    public_page = reverse("ratings:player", args=["una"])
    assert client.get(public_page).status_code == 200

    client.force_login(staff())
    refused = client.post(URL + "mark/", {"username": "una", "action": "mark"}, follow=True)
    assert "Say why" in refused.content.decode()  # a mark needs a reason
    una.profile.refresh_from_db()
    assert not una.profile.fair_play_marked
    client.post(URL + "mark/", {"username": "una", "action": "mark", "reason": "engine use"})

    una.profile.refresh_from_db()
    assert una.profile.fair_play_marked and una.profile.fair_play_marked_at is not None
    assert board_names(client) == {"vic", "wes", "xia"}
    assert list(solo_views.board_queryset()) == []
    assert client.get(public_page).status_code == 404  # no public page shows her ratings
    # the game is rated as if una had not played it: the other three in their order
    assert not Rating.objects.filter(user=una).exists()
    others = [vic, wes, xia]
    model = PlackettLuce()
    fresh = [[model.create_rating([model.mu, model.sigma])] for _ in others]
    expected = model.rate(fresh, ranks=[places[u.pk] for u in others])
    for u, (new,) in zip(others, expected, strict=True):
        row = Rating.objects.get(user=u)
        assert row.mu == pytest.approx(new.mu) and row.sigma == pytest.approx(new.sigma)
        assert (row.mu, row.sigma) != pytest.approx(before[u.pk])
    entry = LogEntry.objects.get(action=LogEntry.Action.MARK)
    assert entry.actor.username == "warden" and entry.target == una
    assert entry.reason == "engine use"

    # unmarking puts everything back as it was
    client.post(URL + "mark/", {"username": "una", "action": "unmark"})
    after = {r.user_id: (r.mu, r.sigma) for r in Rating.objects.all()}
    assert set(after) == set(before)
    for uid, (mu, sigma) in before.items():
        assert after[uid] == (pytest.approx(mu), pytest.approx(sigma))
    assert [r.user for r in solo_views.board_queryset()] == [una]
    assert client.get(public_page).status_code == 200
    assert LogEntry.objects.filter(action=LogEntry.Action.UNMARK, target=una).exists()


def test_the_admin_shows_the_rows_and_the_mark_only_as_text(client):
    (player,) = make_users("pia")
    stats_for(player, 250)
    admin = get_user_model().objects.create_superuser("root", password="pw-root-123")
    client.force_login(admin)
    for model in ("playerstats", "handcheck", "gamecheck", "logentry"):
        assert client.get(f"/admin/fairplay/{model}/").status_code == 200
    page = client.get(f"/admin/auth/user/{player.pk}/change/").content.decode()
    assert "marked for fair play" in page.lower()
    assert 'name="profile-0-fair_play_marked"' not in page  # not editable here
