"""Quick phrases at the table (games/phrases.py): a seated player's phrase reaches every
connection of the table in that connection's language; only ids of the fixed list are
shown, watchers cannot send, the limit holds, and nothing of the table changes."""

from __future__ import annotations

import html
import json
import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext, gettext_lazy

from games import phrases
from games.live import actions as table_actions
from games.live import consumers
from games.models import HandAction, Seat, Table
from okeysite.asgi import application
from tests.accounts.test_i18n import compiled_messages  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

BUBBLE = re.compile(
    r'<div id="phrase-(\d+)" hx-swap-oob="innerHTML"><p class="phrase-bubble[^"]*" '
    r'data-phrase="(\w+)"[^>]*><span class="visually-hidden">([^<]*): </span>([^<]*)</p>'
)
CODE = re.compile(r'data-code="(\w+)"')


def people() -> tuple[Table, list[Client]]:
    """A two-seat rummy table (alice reads English, bob German) and carol, a watcher
    who reads Turkish."""
    clients = []
    users = []
    for name, lang in (("alice", "en"), ("bob", "de"), ("carol", "tr")):
        user = User.objects.create_user(name, password=f"pw-{name}-123")
        user.profile.language = lang
        user.profile.display_name = name.title()
        user.profile.save()
        users.append(user)
        c = Client()
        c.force_login(user)
        clients.append(c)
    table = table_actions.do_create_table(
        variant="rummy",
        options={"players": 2},
        seats=[table_actions.SeatSpec("me"), table_actions.SeatSpec("human")],
        user=users[0],
    )
    table_actions.do_join_table(table.pk, user=users[1])
    # present from the start, as seats were before a seat nobody opened counted as away
    # (games/live/actions/, do_join_table): these tests are about each socket's own frames,
    # and a frame telling the table that a seat is back would come in between
    Seat.objects.filter(table=table).update(away_since=None)
    table.refresh_from_db()
    return table, clients


async def connect(code: str, client: Client) -> WebsocketCommunicator:
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    headers = [(b"origin", b"http://testserver"), (b"cookie", cookie.encode())]
    comm = WebsocketCommunicator(application, f"/ws/t/{code}/", headers=headers)
    ok, _ = await comm.connect()
    assert ok
    await comm.receive_from()  # the first frame: the whole table
    return comm


async def quiet(*comms: WebsocketCommunicator) -> bool:
    """Nothing more reaches any of these sockets."""
    return all([await c.receive_nothing(timeout=0.2) for c in comms])


async def settle(*comms: WebsocketCommunicator) -> None:
    """Read what these sockets were sent until they go quiet (a watcher's arrival
    updates every connection's watcher count, games/watch/table_actions.py)."""
    for c in comms:
        while not await c.receive_nothing(timeout=0.2):
            await c.receive_from()


def say(phrase: object) -> str:
    return json.dumps({"action": "phrase", "phrase": phrase})


@pytest.fixture
def now(monkeypatch) -> list[float]:
    """The consumers' clock, moved by the test; a fresh limit for each test."""
    clock = [1000.0]
    monkeypatch.setattr(consumers, "_clock", lambda: clock[0])
    monkeypatch.setattr(phrases, "LIMIT", phrases.PhraseLimit())
    return clock


async def test_a_phrase_reaches_every_seat_and_watcher_in_their_language(
    compiled_messages,  # noqa: F811
    monkeypatch,
    now,
):
    # a label the catalogues already translate stands in for "Good luck", so the test
    # shows each connection rendering in its own language
    monkeypatch.setitem(phrases.PHRASES, "good_luck", gettext_lazy("Score sheet"))
    table, (a, b, c) = await sync_to_async(people)()
    alice, bob, carol = [await connect(table.code, x) for x in (a, b, c)]
    await settle(alice, bob)  # the header's watcher count, carol having come
    await alice.send_to(say("good_luck"))
    seen = {}
    for who, comm in (("alice", alice), ("bob", bob), ("carol", carol)):
        m = BUBBLE.search(await comm.receive_from())
        assert m, who
        seen[who] = m.groups()
    assert seen == {
        "alice": ("0", "good_luck", "Alice", "Score sheet"),
        "bob": ("0", "good_luck", "Alice", "Punkteblatt"),
        "carol": ("0", "good_luck", "Alice", "Puan tablosu"),
    }
    # bob answers with an emote three seconds later; it lands by bob's seat (1)
    now[0] += 3
    await bob.send_to(say("thumbs_up"))
    for comm in (alice, bob, carol):
        assert BUBBLE.search(await comm.receive_from()).groups() == ("1", "thumbs_up", "Bob", "👍")
    assert await quiet(alice, bob, carol)
    # no engine action: the version and the hand's record are as they were
    t = await sync_to_async(Table.objects.get)(pk=table.pk)
    assert t.version == table.version
    assert await sync_to_async(HandAction.objects.count)() == 0
    for comm in (alice, bob, carol):
        await comm.disconnect()


async def test_only_ids_of_the_list_are_shown_and_watchers_cannot_send(now):
    table, (a, b, c) = await sync_to_async(people)()
    alice, bob, carol = [await connect(table.code, x) for x in (a, b, c)]
    await settle(alice, bob)  # the header's watcher count, carol having come
    for frame in (
        say("buy_gold"),  # an unknown id
        say("Good luck, you will need it"),  # free text where the id goes
        json.dumps({"action": "phrase", "text": "hello there"}),  # free text, no id
        say(["good_luck"]),
        say("GOOD_LUCK"),
    ):
        await alice.send_to(frame)
        answer = await alice.receive_from()
        assert CODE.findall(answer) == ["bad_phrase"], frame
        assert "phrase-bubble" not in answer
        assert await quiet(bob, carol), frame
    # a watcher is refused as for any move, and nobody sees a bubble
    await carol.send_to(say("good_luck"))
    assert CODE.findall(await carol.receive_from()) == ["not_seated"]
    assert await quiet(alice, bob, carol)
    t = await sync_to_async(Table.objects.get)(pk=table.pk)
    assert t.version == table.version
    for comm in (alice, bob, carol):
        await comm.disconnect()


async def test_one_phrase_every_three_seconds_and_ten_a_minute(now):
    table, (a, b, c) = await sync_to_async(people)()
    alice, bob = await connect(table.code, a), await connect(table.code, b)

    async def sent(frame: str) -> bool:
        """Whether bob saw it; a refusal goes quietly to alice alone."""
        await alice.send_to(frame)
        answer = await alice.receive_from()
        if "phrase-bubble" in answer:
            assert "phrase-bubble" in await bob.receive_from()
            return True
        assert CODE.findall(answer) == ["phrase_too_soon"]
        assert await quiet(bob)
        return False

    start = now[0]
    assert await sent(say("good_luck"))
    now[0] = start + 2.9
    assert not await sent(say("oops"))  # within three seconds of the last
    for k in range(1, 10):  # nine more, three seconds apart: ten within 27 s
        now[0] = start + 3 * k
        assert await sent(say("thanks")), k
    now[0] = start + 30
    assert not await sent(say("nice_move"))  # an eleventh within the minute
    now[0] = start + 60  # the first one is a minute old
    assert await sent(say("well_played"))
    # the other seat has its own allowance
    await bob.send_to(say("hurry_up"))
    assert "phrase-bubble" in await alice.receive_from()
    await alice.disconnect()
    await bob.disconnect()


@pytest.mark.parametrize("lang", ["en", "de", "tr", "es"])
async def test_the_picker_lists_the_phrases_for_a_seat_only(lang, compiled_messages):  # noqa: F811
    def pages() -> tuple[str, str]:
        table, (a, _b, c) = people()
        for client in (a, c):
            client.cookies["django_language"] = lang
            user = User.objects.get(pk=client.session["_auth_user_id"])
            user.profile.language = lang
            user.profile.save()
        url = reverse("games:table", args=[table.code])
        return a.get(url).content.decode(), c.get(url).content.decode()

    seated, watcher = await sync_to_async(pages)()
    with translation.override(lang):
        for pid in phrases.PHRASES:
            label = str(phrases.PHRASES[pid])
            assert f'data-phrase="{pid}" tabindex="-1">{label}</button>' in seated
            assert f'data-phrase="{pid}"' not in watcher
        mute = gettext("Hide others' phrases")
        assert mute in html.unescape(seated) and mute in html.unescape(watcher)
    for page in (seated, watcher):  # a slot by each seat for the bubbles
        assert 'id="phrase-0"' in page and 'id="phrase-1"' in page
