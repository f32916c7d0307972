"""The club pages and the organiser forms: only organisers change anything (others get
403, another club's ids 404, and nothing changes), name-only entries, ties, and the
pages in two languages."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
import time_machine

from games.clubs import actions
from games.clubs.models import (
    Club,
    Invitation,
    Membership,
    NameLink,
    Season,
    SeasonTournament,
)
from games.tournaments.models import Round, TableResult, Tournament, TournamentTable
from tests.clubs.conftest import finished_tournament, join
from tests.support.accounts import make_user

pytestmark = pytest.mark.django_db

DEC_1 = dt.datetime(2026, 12, 1, 12, tzinfo=dt.UTC)


@pytest.fixture(autouse=True)
def _on_1_dec_2026():
    with time_machine.travel(DEC_1, tick=False):
        yield


def snapshot() -> tuple:
    """Everything the organiser forms can change."""
    return (
        list(Club.objects.values_list("pk", "name", "slug")),
        list(Membership.objects.values_list("club", "user", "role")),
        list(Season.objects.values_list("club", "name", "start", "end")),
        list(SeasonTournament.objects.values_list("season", "tournament", "weight")),
        list(NameLink.objects.values_list("club", "key", "user")),
        list(Invitation.objects.values_list("club", "user", "role")),
    )


def test_creating_a_club_makes_its_creator_the_organiser(client, organiser):
    client.force_login(organiser)
    response = client.post("/clubs/new/", {"name": "  Kadıköy Okey  "})
    club = Club.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/clubs/{club.slug}/"
    assert club.name == "Kadıköy Okey" and club.created_by == organiser
    assert club.is_organiser(organiser)


def test_a_club_name_is_checked_like_a_tournament_name(client, organiser):
    client.force_login(organiser)
    page = client.post("/clubs/new/", {"name": "Okey\u202eclub"}).content.decode()
    assert not Club.objects.exists()
    assert "error" in page
    client.post("/clubs/new/", {"name": "New"})
    assert Club.objects.get().slug != "new"  # clubs/new/ stays the form


def test_an_organiser_invites_and_removes_members_and_makes_seasons(client, organiser, club):
    ayla = make_user("ayla")
    client.force_login(organiser)
    client.post(f"/clubs/{club.slug}/members/", {"username": "AYLA"})
    assert not club.memberships.filter(user=ayla).exists()  # invited, not in yet
    client.force_login(ayla)
    invitation = club.invitations.get(user=ayla)
    client.post(f"/clubs/invitations/{invitation.pk}/accept/")
    assert club.memberships.filter(user=ayla, role="member").exists()
    client.force_login(organiser)
    client.post(f"/clubs/{club.slug}/members/{ayla.pk}/remove/")
    assert not club.memberships.filter(user=ayla).exists()
    response = client.post(
        f"/clubs/{club.slug}/seasons/new/",
        {"name": "Winter 2026", "start": "2026-10-01", "end": "2027-03-31"},
    )
    season = Season.objects.get(club=club)
    assert response["Location"] == f"/clubs/{club.slug}/seasons/{season.pk}/"


def test_the_last_organiser_cannot_be_removed(client, organiser, club):
    client.force_login(organiser)
    client.post(f"/clubs/{club.slug}/members/{organiser.pk}/remove/")
    assert club.is_organiser(organiser)


def test_only_finished_published_tournaments_in_the_season_can_count(client, organiser, club):
    season = actions.do_create_season(
        club.pk, organiser, "2026", dt.date(2026, 1, 1), dt.date(2026, 12, 31)
    )
    a, b = make_user("a"), make_user("b")
    running = finished_tournament(
        organiser, "Running", dt.date(2026, 3, 1), [a, b], status=Tournament.Status.RUNNING
    )
    hidden = finished_tournament(organiser, "Hidden", dt.date(2026, 3, 1), [a, b], published=False)
    old = finished_tournament(organiser, "Old", dt.date(2025, 3, 1), [a, b])
    good = finished_tournament(organiser, "Good", dt.date(2026, 3, 1), [a, b])
    client.force_login(organiser)
    url = f"/clubs/{club.slug}/seasons/{season.pk}/tournaments/"
    for t in (running, hidden, old):
        client.post(url, {"tournament": t.pk, "weight": "1"})
    assert not SeasonTournament.objects.exists()
    for bad_weight in ("0", "11", "abc", "1.005"):
        client.post(url, {"tournament": good.pk, "weight": bad_weight})
    assert not SeasonTournament.objects.exists()
    client.post(url, {"tournament": good.pk, "weight": "1,5"})
    link = SeasonTournament.objects.get()
    assert link.weight == Decimal("1.5")
    client.post(f"{url}{link.pk}/weight/", {f"w{link.pk}-weight": "2"})
    link.refresh_from_db()
    assert link.weight == 2
    page = client.get(f"/clubs/{club.slug}/seasons/{season.pk}/").content.decode()
    assert "Good" in page and 'data-testid="attach-form"' not in page  # nothing left to add


def test_a_tournament_that_stops_being_finished_stops_counting(client, organiser, club):
    season = actions.do_create_season(
        club.pk, organiser, "2026", dt.date(2026, 1, 1), dt.date(2026, 12, 31)
    )
    a, b = make_user("a", "Ayla"), make_user("b", "Bora")
    t = finished_tournament(organiser, "Cup", dt.date(2026, 3, 1), [a, b])
    actions.do_attach_tournament(club.pk, organiser, season.pk, t.pk)
    assert "Ayla" in client.get(f"/clubs/{club.slug}/seasons/{season.pk}/").content.decode()
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.RUNNING)
    page = client.get(f"/clubs/{club.slug}/seasons/{season.pk}/").content.decode()
    assert "Ayla" not in page and "not finished: does not count" in page


@pytest.fixture
def setup(organiser, club):
    """A club with a member, a season and a counted tournament, and another club."""
    member = make_user("member")
    join(club, organiser, member)
    season = actions.do_create_season(
        club.pk, organiser, "2026", dt.date(2026, 1, 1), dt.date(2026, 12, 31)
    )
    t = finished_tournament(organiser, "Cup", dt.date(2026, 3, 1), [member, "Emre"])
    spare = finished_tournament(organiser, "Spare", dt.date(2026, 4, 1), [member, "Emre"])
    link = actions.do_attach_tournament(club.pk, organiser, season.pk, t.pk)
    actions.do_link_name(club.pk, organiser, "Someone", member.pk)
    other_orga = make_user("other")
    other = actions.do_create_club(other_orga, "Other club")
    other_season = actions.do_create_season(
        other.pk, other_orga, "2026", dt.date(2026, 1, 1), dt.date(2026, 12, 31)
    )
    other_t = finished_tournament(other_orga, "Elsewhere", dt.date(2026, 5, 1), [other_orga, "X"])
    other_link = actions.do_attach_tournament(other.pk, other_orga, other_season.pk, other_t.pk)
    return {
        "club": club,
        "member": member,
        "season": season,
        "link": link,
        "spare": spare,
        "name_link": NameLink.objects.get(club=club),
        "other": other,
        "other_orga": other_orga,
        "other_season": other_season,
        "other_link": other_link,
    }


def changes(s) -> list[tuple[str, dict]]:
    c, season, link = s["club"].slug, s["season"].pk, s["link"].pk
    return [
        (f"/clubs/{c}/members/", {"username": "other", "organiser": "on"}),
        (f"/clubs/{c}/members/{s['member'].pk}/remove/", {}),
        (f"/clubs/{c}/names/", {"name": "Emre", "member": s["member"].pk}),
        (f"/clubs/{c}/names/{s['name_link'].pk}/remove/", {}),
        (f"/clubs/{c}/seasons/new/", {"name": "X", "start": "2026-01-01", "end": "2026-02-01"}),
        (f"/clubs/{c}/seasons/{season}/tournaments/", {"tournament": s["spare"].pk, "weight": 1}),
        (f"/clubs/{c}/seasons/{season}/tournaments/{link}/weight/", {f"w{link}-weight": "3"}),
        (f"/clubs/{c}/seasons/{season}/tournaments/{link}/remove/", {}),
    ]


@pytest.mark.parametrize("who", ["member", "other_orga"])
def test_non_organisers_get_403_and_change_nothing(client, setup, who):
    client.force_login(setup[who])
    before = snapshot()
    for url, data in changes(setup):
        assert client.post(url, data).status_code == 403, url
    assert client.get(f"/clubs/{setup['club'].slug}/seasons/new/").status_code == 403
    assert snapshot() == before


def test_visitors_not_logged_in_are_sent_to_log_in_and_change_nothing(client, setup):
    before = snapshot()
    for url, data in changes(setup):
        response = client.post(url, data)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert snapshot() == before


def test_forged_ids_of_another_club_are_404_and_change_nothing(client, organiser, setup):
    client.force_login(organiser)
    c, other_season, other_link = setup["club"].slug, setup["other_season"].pk, setup["other_link"]
    other_name = NameLink.objects.create(
        club=setup["other"], key="x", name="X", user=setup["other_orga"]
    )
    before = snapshot()
    forged = [
        (f"/clubs/{c}/members/{setup['other_orga'].pk}/remove/", {}),
        (f"/clubs/{c}/names/", {"name": "Emre", "member": setup["other_orga"].pk}),
        (f"/clubs/{c}/names/{other_name.pk}/remove/", {}),
        (f"/clubs/{c}/seasons/{other_season}/tournaments/", {"tournament": 1, "weight": 1}),
        (
            f"/clubs/{c}/seasons/{setup['season'].pk}/tournaments/{other_link.pk}/weight/",
            {f"w{other_link.pk}-weight": "3"},
        ),
        (f"/clubs/{c}/seasons/{other_season}/tournaments/{other_link.pk}/remove/", {}),
        (f"/clubs/{c}/seasons/{setup['season'].pk}/tournaments/", {"tournament": 99999}),
    ]
    for url, data in forged:
        assert client.post(url, data).status_code == 404, url
    assert client.get(f"/clubs/{c}/seasons/{other_season}/").status_code == 404
    assert snapshot() == before


def test_a_name_entry_has_its_own_history_until_an_organiser_links_it(client, organiser, club):
    """'Emre' played by name only: ranked and with a history under that name; a member
    called emre is not matched by itself; once an organiser links the name, the results
    are the member's."""
    season = actions.do_create_season(
        club.pk, organiser, "2026", dt.date(2026, 1, 1), dt.date(2026, 12, 31)
    )
    emre = make_user("emre", "Emre Y.")
    join(club, organiser, emre)
    a = make_user("a", "Ayla")
    t = finished_tournament(organiser, "Cup", dt.date(2026, 3, 1), ["EMRE", a])
    actions.do_attach_tournament(club.pk, organiser, season.pk, t.pk)
    page = client.get(f"/clubs/{club.slug}/seasons/{season.pk}/").content.decode()
    assert "EMRE" in page and "(name only)" in page
    history = client.get(f"/clubs/{club.slug}/players/n:emre/").content.decode()
    assert "Cup" in history and "Club score 333.3 from 1 tournament." in history
    member_page = client.get(f"/clubs/{club.slug}/players/u{emre.pk}/").content.decode()
    assert "Cup" not in member_page

    client.force_login(organiser)
    client.post(f"/clubs/{club.slug}/names/", {"name": "Emre", "member": emre.pk})
    page = client.get(f"/clubs/{club.slug}/seasons/{season.pk}/").content.decode()
    assert "Emre Y." in page and "(name only)" not in page
    member_page = client.get(f"/clubs/{club.slug}/players/u{emre.pk}/").content.decode()
    assert "Cup" in member_page and "Club score 333.3 from 1 tournament." in member_page
    assert client.get(f"/clubs/{club.slug}/players/n:emre/").status_code == 404


def test_players_separated_only_by_the_draw_share_their_places(client, organiser, club):
    """Equal scores at the one table: equal points, equal game totals, equal between them;
    only the tournament's published draw separates them, so both have rank 1.5 of 4
    (833.3 points) and share the club rank."""
    season = actions.do_create_season(
        club.pk, organiser, "2026", dt.date(2026, 1, 1), dt.date(2026, 12, 31)
    )
    a, b, c, d = (make_user(u, u.upper()) for u in "abcd")
    t = finished_tournament(
        organiser, "Cup", dt.date(2026, 3, 1), [a, b, c, d], scores=[9, 9, 5, 0]
    )
    actions.do_attach_tournament(club.pk, organiser, season.pk, t.pk)
    assert history_cells(client, club, a) == ["1.5", "4", "833.3"]
    assert history_cells(client, club, b) == ["1.5", "4", "833.3"]
    season_page = client.get(f"/clubs/{club.slug}/seasons/{season.pk}/").content.decode()
    rows = season_page.split('data-testid="ranking-row"')[1:]
    ranks = [r.split('class="num">', 1)[1].split("<", 1)[0] for r in rows]
    assert ranks == ["1", "1", "3", "4"]


@pytest.mark.parametrize(
    ("lang", "nav", "date"),
    [("en", "Tournaments", "1 Dec 2026"), ("tr", "Turnuvalar", "1 Ara 2026")],
)
def test_the_club_and_season_pages_render_in_two_languages(client, worked_example, lang, nav, date):
    club = worked_example["club"]
    season = worked_example["seasons"]["2026"]
    for url in (
        f"/clubs/{club.slug}/",
        f"/clubs/{club.slug}/seasons/{season.pk}/",
        f"/clubs/{club.slug}/players/n:emre/",
        "/clubs/",
    ):
        response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
        page = response.content.decode()
        assert response.status_code == 200
        assert f'<html lang="{lang}"' in page and nav in page, url
    page = client.get(f"/clubs/{club.slug}/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert date in page  # the ranking's date, in the reader's format
    assert "Ayla" in page and "Emre" in page


def test_the_club_page_shows_the_current_season_and_the_all_season_ranking(client, worked_example):
    club = worked_example["club"]
    page = client.get(f"/clubs/{club.slug}/").content.decode()
    season_part, club_part = page.split('data-testid="club-ranking"')
    assert "Season: 2026" in season_part
    # this season (Spring cup, November night): Ayla 888.9, Cem 555.6, Bora 444.4
    assert season_part.index("888.9") < season_part.index("555.6") < season_part.index("444.4")
    # all seasons: the worked example
    assert club_part.index("833.3") < club_part.index("523.8") < club_part.index("476.2")


def test_a_tie_broken_by_the_tournaments_own_tie_break_stands(client, organiser, club):
    """Equal placing points, but more game score: the tournament's game-total tie-break
    separates them, so the club keeps its order (1000 and 666.7 points, not a shared
    833.3)."""
    season = actions.do_create_season(
        club.pk, organiser, "2026", dt.date(2026, 1, 1), dt.date(2026, 12, 31)
    )
    a, b, c, d = (make_user(u, u.upper()) for u in "abcd")
    t = finished_tournament(organiser, "Cup", dt.date(2026, 3, 1), [a, b, c, d])
    entries = {e.user_id: str(e.pk) for e in t.entries.all()}
    second = Round.objects.create(tournament=t, number=2)
    table = TournamentTable.objects.create(
        round=second, number=1, seats=[entries[u.pk] for u in (b, a, d, c)]
    )
    TableResult.objects.create(table=table, scores=[40, 20, 10, 0])
    actions.do_attach_tournament(club.pk, organiser, season.pk, t.pk)
    assert history_cells(client, club, b) == ["1", "4", "1000.0"]
    assert history_cells(client, club, a) == ["2", "4", "666.7"]


def history_cells(client, club, user) -> list[str]:
    """Rank, players and points of the player's one history row."""
    page = client.get(f"/clubs/{club.slug}/players/u{user.pk}/").content.decode()
    [row] = page.split('data-testid="history-row"')[1:]
    cells = [c.rsplit(">", 1)[-1] for c in row.split("</tr>")[0].split("</td>")[:-1]]
    return cells[3:6]
