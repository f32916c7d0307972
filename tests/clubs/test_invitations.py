"""Joining a club is an invitation the player accepts or declines; members may leave;
inviting is no way to learn which usernames exist (games/clubs/actions.py)."""

from __future__ import annotations

import pytest

from games.clubs import actions
from games.clubs.models import Invitation, Membership
from tests.clubs.conftest import join
from tests.support.accounts import make_user

pytestmark = pytest.mark.django_db


def flashed(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def invite(client, club, username: str, organiser: bool = False):
    data = {"username": username, **({"organiser": "on"} if organiser else {})}
    return client.post(f"/clubs/{club.slug}/members/", data, follow=True)


def state() -> tuple:
    return (
        sorted(Membership.objects.values_list("club", "user", "role")),
        sorted(Invitation.objects.values_list("club", "user", "role")),
    )


def test_an_invited_player_is_not_in_the_club_until_they_accept(client, organiser, club):
    ayla = make_user("ayla", "Ayla")
    client.force_login(organiser)
    invite(client, club, "ayla")
    assert not club.memberships.filter(user=ayla).exists()
    assert "Ayla" not in client.get(f"/clubs/{club.slug}/").content.decode()

    client.force_login(ayla)
    for url in ("/clubs/invitations/", "/accounts/profile/", f"/clubs/{club.slug}/", "/clubs/"):
        page = client.get(url).content.decode()
        assert "Moda Okey Kulübü" in page and "invitation-accept" in page, url
    invitation = Invitation.objects.get(user=ayla)
    response = client.post(f"/clubs/invitations/{invitation.pk}/accept/", follow=True)
    assert response.redirect_chain[-1][0] == f"/clubs/{club.slug}/"
    assert club.memberships.filter(user=ayla, role=Membership.Role.MEMBER).exists()
    assert not Invitation.objects.exists()
    assert "invitation-accept" not in client.get("/accounts/profile/").content.decode()


def test_a_declined_invitation_goes_and_nothing_else_changes(client, organiser, club):
    ayla = make_user("ayla")
    actions.do_invite(club.pk, organiser, "ayla")
    client.force_login(ayla)
    invitation = Invitation.objects.get(user=ayla)
    response = client.post(f"/clubs/invitations/{invitation.pk}/decline/", follow=True)
    assert "declined" in " ".join(flashed(response))
    assert not Invitation.objects.exists()
    assert not club.memberships.filter(user=ayla).exists()


def test_an_unknown_name_is_answered_as_a_known_one_and_nothing_is_made(client, organiser, club):
    make_user("ayla")
    member = make_user("bora")
    join(club, organiser, member)
    client.force_login(organiser)
    answers = []
    for name in ("ayla", "nobody-here", "bora"):  # an account, no account, a member
        response = invite(client, club, name)
        assert response.status_code == 200
        answers.append([m.replace(name, "NAME") for m in flashed(response)])
    assert answers[0] == answers[1] == answers[2]
    assert "If a player called" in answers[0][0]
    assert sorted(Invitation.objects.values_list("user__username", flat=True)) == ["ayla"]


def test_invitations_are_throttled_per_organiser_whatever_the_names(
    client, organiser, club, settings
):
    settings.CLUB_INVITE_LIMIT = 2
    make_user("ayla")
    client.force_login(organiser)
    invite(client, club, "nobody-1")
    invite(client, club, "nobody-2")
    before = state()
    refused = invite(client, club, "ayla")
    assert "many invitations" in " ".join(flashed(refused))
    assert state() == before  # ayla was not invited
    other = make_user("other")
    elsewhere = actions.do_create_club(other, "Other club")
    client.force_login(other)
    invite(client, elsewhere, "ayla")  # another organiser's count
    assert Invitation.objects.filter(club=elsewhere, user__username="ayla").exists()


def test_an_invitation_is_its_players_alone(client, organiser, club):
    ayla, bora = make_user("ayla"), make_user("bora")
    actions.do_invite(club.pk, organiser, "ayla")
    invitation = Invitation.objects.get(user=ayla)
    client.force_login(bora)
    before = state()
    assert client.post(f"/clubs/invitations/{invitation.pk}/accept/").status_code == 404
    assert client.post(f"/clubs/invitations/{invitation.pk}/decline/").status_code == 404
    assert client.post("/clubs/invitations/99999/accept/").status_code == 404
    assert state() == before
    client.logout()
    for url in (
        "/clubs/invitations/",
        f"/clubs/invitations/{invitation.pk}/accept/",
        f"/clubs/{club.slug}/leave/",
    ):
        response = client.post(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert state() == before


def test_a_member_leaves_the_club(client, organiser, club):
    ayla = make_user("ayla")
    join(club, organiser, ayla)
    client.force_login(ayla)
    assert "club-leave" in client.get(f"/clubs/{club.slug}/").content.decode()
    response = client.post(f"/clubs/{club.slug}/leave/", follow=True)
    assert "You have left" in " ".join(flashed(response))
    assert not club.memberships.filter(user=ayla).exists()
    # not in the club (any more): nothing to leave, nothing changes
    before = state()
    response = client.post(f"/clubs/{club.slug}/leave/", follow=True)
    assert "not in the club" in " ".join(flashed(response))
    assert state() == before


def test_the_last_organiser_hands_the_club_over_before_leaving(client, organiser, club):
    ayla = make_user("ayla")
    join(club, organiser, ayla)
    client.force_login(organiser)
    page = client.get(f"/clubs/{club.slug}/").content.decode()
    assert "club-leave" not in page and "leave-help" in page
    before = state()
    response = client.post(f"/clubs/{club.slug}/leave/", follow=True)
    assert "only organiser" in " ".join(flashed(response))
    assert state() == before
    invite(client, club, "ayla", organiser=True)  # a member invited as an organiser
    client.force_login(ayla)
    invitation = Invitation.objects.get(user=ayla)
    assert invitation.role == Membership.Role.ORGANISER
    client.post(f"/clubs/invitations/{invitation.pk}/accept/")
    assert club.is_organiser(ayla)
    client.force_login(organiser)
    client.post(f"/clubs/{club.slug}/leave/")
    assert not club.memberships.filter(user=organiser).exists()
    assert list(club.memberships.values_list("user", "role")) == [(ayla.pk, "organiser")]


def test_no_club_can_take_the_invitations_address(organiser):
    assert actions.do_create_club(organiser, "Invitations").slug != "invitations"
