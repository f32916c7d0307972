"""Bot accounts in the site's own process: making one (the API's upgrade and the profile
page's confirmation), its (BOT) marker, never rated, the bots page, inviting a bot to a
seat (the action and the table page's form), and who may open the bot stream."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.core.exceptions import ValidationError

from accounts.names import clean_public_name
from games.api import tokens
from games.api.bot_stream import STREAMS, mark_online
from games.live import actions
from games.live.rated import BOT_REFUSED, rated_refusal
from games.models import Seat, Table
from tests.api.conftest import Api
from tests.support.accounts import logged_in, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


def api(user) -> Api:
    _token, secret = tokens.do_create_token(user, "test", ["play", "read"])
    return Api(secret)


def bot_named(username: str, name: str = ""):
    user = make_user(username, name)
    assert api(user).post("/api/v1/bot/account/upgrade").status_code == 200
    user.refresh_from_db()
    return user


def waiting_table(host, players: int = 4, rated: bool = False) -> Table:
    specs = [actions.SeatSpec("me")] + [actions.SeatSpec("human")] * (players - 1)
    return actions.do_create_table(
        variant="classic", options={}, seats=specs, user=host, rated=rated
    )


# ------------------------------------------------------------------ making a bot


def test_the_upgrade_makes_a_bot_marked_everywhere_its_name_shows():
    user = make_user("robo", "Robo")
    answer = api(user).post("/api/v1/bot/account/upgrade")
    assert answer.status_code == 200
    assert answer.json()["bot"] is True
    assert answer.json()["name"] == "Robo (BOT)"
    user.refresh_from_db()
    assert user.profile.is_bot and user.profile.name == "Robo (BOT)"
    # a seat shows the profile's name: the table, the frames and the API say "(BOT)"
    host = make_user("host", "Host")
    table = waiting_table(host, players=4)
    mark_online(user.pk)
    actions.do_invite_bot(table.pk, user, user=host)
    seat = Seat.objects.select_related("user__profile").get(table=table, user=user)
    assert seat.display_name() == "Robo (BOT)"
    page = logged_in(host).get(f"/t/{table.code}/")
    assert "Robo (BOT)" in page.content.decode()


def test_the_upgrade_cannot_be_undone_and_a_second_one_changes_nothing():
    user = bot_named("robo")
    since = user.profile.bot_since
    again = api(user).post("/api/v1/bot/account/upgrade")
    assert again.status_code == 200
    user.profile.refresh_from_db()
    assert user.profile.is_bot and user.profile.bot_since == since
    # the profile form has no field that could turn it back
    logged_in(user).post("/accounts/profile/", {"display_name": "X", "language": "en"})
    user.profile.refresh_from_db()
    assert user.profile.is_bot


def test_an_account_that_played_rated_cannot_become_a_bot():
    people = [make_user(n) for n in ("a1", "a2")]
    table = actions.do_create_table(
        variant="classic",
        options={},
        seats=[actions.SeatSpec("me")] + [actions.SeatSpec("human")] * 3,
        user=people[0],
        rated=True,
    )
    actions.do_join_table(table.pk, user=people[1])
    # (the other two seats stay free: the table started or not, the account sat there)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    answer = api(people[0]).post("/api/v1/bot/account/upgrade")
    assert answer.status_code == 409
    assert answer.json()["code"] == "rated_player"
    people[0].profile.refresh_from_db()
    assert not people[0].profile.is_bot
    # the profile page's confirmation says so instead of offering the button
    page = logged_in(people[0]).get("/accounts/profile/bot/").content.decode()
    assert 'data-testid="bot-upgrade-refused"' in page
    assert 'data-testid="bot-upgrade-confirm"' not in page


def test_a_person_seated_at_a_table_cannot_become_a_bot_until_it_ends():
    """A person at a waiting (or playing) table stays a person there: the upgrade is
    refused while the seat lasts, so a rated table never gets a bot through it."""
    people = [make_user(n) for n in ("s1", "s2")]
    table = waiting_table(people[0], players=4, rated=True)
    actions.do_join_table(table.pk, user=people[1])
    answer = api(people[1]).post("/api/v1/bot/account/upgrade")
    assert answer.status_code == 409 and answer.json()["code"] == "seated"
    people[1].profile.refresh_from_db()
    assert not people[1].profile.is_bot


def test_an_entrant_of_a_tournament_not_over_cannot_become_a_bot():
    """A tournament's seats are people's: the upgrade waits until the tournament is over."""
    import datetime as dt

    from games.tournaments import actions as tournaments
    from games.tournaments.models import Tournament

    orga, player = make_user("orga"), make_user("entrant")
    cup = tournaments.do_create_tournament(
        orga,
        name="Cup",
        date=dt.date(2026, 11, 29),
        variant="classic",
        options={},
        rounds=1,
        mode="online",
        seed="cup",
    )
    tournaments.do_register_entry(cup.pk, orga, username="entrant")
    answer = api(player).post("/api/v1/bot/account/upgrade")
    assert answer.status_code == 409 and answer.json()["code"] == "tournament_entrant"
    player.profile.refresh_from_db()
    assert not player.profile.is_bot
    Tournament.objects.filter(pk=cup.pk).update(status=Tournament.Status.FINISHED)
    assert api(player).post("/api/v1/bot/account/upgrade").status_code == 200


def test_the_profile_page_makes_a_bot_after_a_confirmation():
    user = make_user("robo", "Robo")
    client = logged_in(user)
    profile = client.get("/accounts/profile/").content.decode()
    assert 'data-testid="bot-upgrade-start"' in profile
    confirm = client.get("/accounts/profile/bot/").content.decode()
    assert 'data-testid="bot-upgrade-confirm"' in confirm
    user.profile.refresh_from_db()
    assert not user.profile.is_bot  # looking at the confirmation changes nothing
    client.post("/accounts/profile/bot/", {"confirm": "yes"})
    user.profile.refresh_from_db()
    assert user.profile.is_bot
    assert 'data-testid="bot-account-state"' in client.get("/accounts/profile/").content.decode()


def test_people_cannot_take_the_bot_marker_as_their_name():
    with pytest.raises(ValidationError) as e:
        clean_public_name("Ayşe (BOT)")
    assert e.value.code == "bot"
    with pytest.raises(ValidationError):
        clean_public_name("Ayşe [ Bоt ]")  # a Cyrillic o, other brackets
    assert clean_public_name("Robotnik") == "Robotnik"


# ------------------------------------------------------------------ never rated


def test_bots_are_never_rated():
    bot = bot_named("robo")
    host = make_user("host")
    assert rated_refusal(bot, ["me", "human"]) == BOT_REFUSED
    with pytest.raises(actions.ActionRefused) as e:
        actions.do_create_table(
            variant="classic",
            options={},
            seats=[actions.SeatSpec("me")] + [actions.SeatSpec("human")] * 3,
            user=bot,
            rated=True,
        )
    assert e.value.code == "not_rated"
    rated = waiting_table(host, rated=True)
    with pytest.raises(actions.ActionRefused) as e:
        actions.do_join_table(rated.pk, user=bot)
    assert e.value.code == "bot_unrated"
    with pytest.raises(actions.ActionRefused) as e:
        actions.do_invite_bot(rated.pk, bot, user=host)
    assert e.value.code == "bot_unrated"
    assert not Seat.objects.filter(table=rated, user=bot).exists()
    # the API's join says the same, with its code
    answer = api(bot).post(f"/api/v1/tables/{rated.code}/join")
    assert answer.status_code == 400 and answer.json()["code"] == "bot_unrated"


# ------------------------------------------------------------------ inviting


def test_the_host_invites_an_online_bot_from_the_table_page():
    host = make_user("host", "Host")
    bot = bot_named("robo", "Robo")
    offline = bot_named("sleepy", "Sleepy")
    table = waiting_table(host)
    client = logged_in(host)
    page = client.get(f"/t/{table.code}/").content.decode()
    assert 'data-testid="bot-invite"' not in page  # no bot online yet
    mark_online(bot.pk)
    page = client.get(f"/t/{table.code}/").content.decode()
    assert "Robo (BOT)" in page and "Sleepy (BOT)" not in page
    client.post(f"/t/{table.code}/invite-bot/", {"bot": bot.pk})
    assert Seat.objects.get(table=table, position=1).user == bot
    # an offline bot is refused, and nobody else may invite
    client.post(f"/t/{table.code}/invite-bot/", {"bot": offline.pk})
    assert not Seat.objects.filter(table=table, user=offline).exists()
    stranger = make_user("stranger")
    with pytest.raises(actions.ActionRefused) as e:
        actions.do_invite_bot(table.pk, bot, user=stranger)
    assert e.value.code == "not_host"


def test_inviting_refuses_a_person_and_a_second_seat_and_the_last_seat_starts_the_game():
    host = make_user("host")
    person = make_user("person")
    bots = [bot_named(f"robo{i}") for i in range(3)]
    table = waiting_table(host)
    with pytest.raises(actions.ActionRefused) as e:
        actions.do_invite_bot(table.pk, person, user=host)
    assert e.value.code == "not_a_bot"
    actions.do_invite_bot(table.pk, bots[0], user=host)
    with pytest.raises(actions.ActionRefused) as e:
        actions.do_invite_bot(table.pk, bots[0], user=host)
    assert e.value.code == "already_seated"
    actions.do_invite_bot(table.pk, bots[1], user=host)
    table.refresh_from_db()
    assert table.status == Table.Status.WAITING
    actions.do_invite_bot(table.pk, bots[2], user=host)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert table.hands.count() == 1


def test_the_api_invites_only_online_bots():
    host = make_user("host")
    bot = bot_named("robo")
    table = waiting_table(host)
    path = f"/api/v1/tables/{table.code}/invite-bot"
    offline = api(host).post(path, {"bot": "robo"})
    assert offline.status_code == 404 and offline.json()["code"] == "bot_offline"
    mark_online(bot.pk)
    answer = api(host).post(path, {"bot": "robo", "seat": 2})
    assert answer.status_code == 200
    assert Seat.objects.get(table=table, position=2).user == bot


def test_the_bots_page_lists_bots_online_first():
    bot_named("sleepy", "Sleepy")
    awake = bot_named("awake", "Awake")
    make_user("person", "Person")
    mark_online(awake.pk)
    page = logged_in(make_user("viewer")).get("/bots/").content.decode()
    assert page.index("Awake (BOT)") < page.index("Sleepy (BOT)")
    assert page.count('data-testid="bot-row"') == 2
    assert page.count('data-testid="bot-online"') == 1
    assert "Person" not in page


# ------------------------------------------------------------------ the stream's door


def test_only_a_bot_account_opens_the_stream():
    person = make_user("person")
    answer = api(person).get("/api/v1/bot/stream")
    assert answer.status_code == 403
    assert answer.json()["code"] == "not_a_bot"
    assert Api(None).get("/api/v1/bot/stream").status_code == 401
    assert STREAMS.total == 0
