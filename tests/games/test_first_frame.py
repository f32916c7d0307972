"""The socket's first frame leaves out what the page already shows.

The table page is rendered with every fragment; its version input carries the digests
of their keys (``data-seen``, ``realtime.page_seen``), and each frame's version input
the digests of what the browser shows after it. The page's script puts the latest
into the socket's URL (static/js/table.js), and the first frame sends only the
fragments whose key is no longer the one the browser has: connecting does not swap
the outcome dialog, a menu or the focus away, and a reconnect after missed moves gets
everything that went stale (the browser then shows what a fresh page would).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import quote

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.live import actions, consumers, realtime
from games.models import Seat, Table
from okeysite.asgi import application
from tests.games.conftest import cpu_table, play_out_hand

SEEN = re.compile(r'id="act-version"[^>]*data-seen="([^"]*)"')
ROOT_ID = re.compile(r'<[a-z]+\b[^>]*\bid="([^"]+)"')
VOID = {"input", "br", "img", "meta", "link", "hr", "source", "col", "wbr"}
# the live fragments of a frame (the version input and the watcher chip aside)
VERSION_AND_CHIP = {"act-version", "t-watchers"}


@pytest.fixture(autouse=True)
def _fresh_leaves():
    """Shared leaves are kept per table pk, which the test database reuses."""
    realtime._LEAVES.clear()


class _Elements(HTMLParser):
    """The outer HTML of every element with an id, by id (the first of each)."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=False)
        self.html, self.found, self.open = html, {}, []
        lines = html.split("\n")
        self.starts = [0]
        for line in lines:
            self.starts.append(self.starts[-1] + len(line) + 1)
        self.feed(html)

    def _offset(self) -> int:
        line, col = self.getpos()
        return self.starts[line - 1] + col

    def handle_starttag(self, tag, attrs):
        ident = dict(attrs).get("id")
        start = self._offset()
        if tag in VOID:
            if ident and ident not in self.found:
                end = self.html.index(">", start) + 1
                self.found[ident] = self.html[start:end]
            return
        self.open.append((tag, ident, start))

    def handle_startendtag(self, tag, attrs):
        ident = dict(attrs).get("id")
        if ident and ident not in self.found:
            start = self._offset()
            self.found[ident] = self.html[start : self.html.index(">", start) + 1]

    def handle_endtag(self, tag):
        while self.open:
            name, ident, start = self.open.pop()
            if name == tag:
                if ident and ident not in self.found:
                    end = self.html.index(">", self._offset()) + 1
                    self.found[ident] = self.html[start:end]
                return


def elements(html: str) -> dict[str, str]:
    return _Elements(html).found


def normal(html: str) -> str:
    """An element as the browser keeps it after an out-of-band swap."""
    html = re.sub(r'\s*hx-swap-oob="[^"]*"', "", html)
    return re.sub(r">\s+<", "><", html).strip()


def inner(html: str) -> str:
    return normal(html[html.index(">") + 1 : html.rindex("<")])


def same(a: str, b: str, ident: str) -> bool:
    # the announcement is swapped by its content (innerHTML); every other fragment whole
    return inner(a) == inner(b) if ident == "t-announce" else normal(a) == normal(b)


def frame_roots(frame: str) -> list[str]:
    """The ids of a frame's top-level elements (the fragments it swaps)."""
    parser = _Elements(frame)
    return [i for i in ROOT_ID.findall(frame) if i in parser.found and _top(frame, i)]


def _top(frame: str, ident: str) -> bool:
    found = elements(frame)
    return not any(ident != other and f'id="{ident}"' in found[other] for other in found)


def page(client: Client, table: Table) -> tuple[str, str]:
    html = client.get(reverse("games:table", args=[table.code])).content.decode()
    return html, SEEN.search(html).group(1)


def member(table: Table, seat: Seat | None, seen: str | None) -> consumers.TableConsumer:
    """A table connection as the consumer makes it, given the URL's ``seen``."""
    m = consumers.TableConsumer()
    m.scope, m.table_id, m._lang = {}, table.pk, "en"
    m.seat_id = seat.pk if seat else None
    m.position = seat.position if seat else None
    m._seen = realtime.seen_digests(seen, "en")
    return m


def first_frame(table: Table, seat: Seat | None, seen: str | None) -> str:
    return member(table, seat, seen).render_view()


def seated_table(client: Client) -> tuple[Table, Seat]:
    user = User.objects.create_user("ayse", password="pw-Ayse-123")
    client.force_login(user)
    table = cpu_table("classic", user=user)
    return table, table.seats.get(position=0)


# ------------------------------------------------------------ the page's fragments


@pytest.mark.django_db
@pytest.mark.parametrize("over", [False, True], ids=["playing", "hand over"])
@pytest.mark.parametrize("watching", [False, True], ids=["seat", "watcher"])
def test_a_fragment_left_out_is_the_one_the_page_shows(client, over, watching):
    """Leaving a fragment out of the first frame is safe only if the page shows what
    the frame would have sent: every fragment whose digest the page carries is, element
    for element, the one a first frame without ``seen`` sends."""
    table, seat = seated_table(client)
    if over:
        table = play_out_hand(table)
    viewer, who = (Client(), None) if watching else (client, seat)
    html, seen = page(viewer, Table.objects.get(pk=table.pk))
    digests = realtime.seen_digests(seen, "en")
    assert {"title", "info", "scores", "center", "controls", "rack"} <= set(digests)
    frame = first_frame(Table.objects.get(pk=table.pk), who, None)
    now = realtime.seen_digests(SEEN.search(frame).group(1), "en")
    ours, theirs = elements(html), elements(frame)
    compared = 0
    for ident in frame_roots(frame):
        if ident in VERSION_AND_CHIP:
            continue
        name = _leaf_name(ident)
        if digests.get(name) is None or digests[name] != now.get(name):
            continue  # not what the page shows: it is sent
        assert same(ours[ident], theirs[ident], ident), ident
        compared += 1
    assert compared >= 8


def _leaf_name(ident: str) -> str:
    names = {
        "t-title": "title",
        "t-info": "info",
        "t-scores": "scores",
        "center": "center",
        "my-discards": "mine",
        "t-rack": "rack",
        "t-controls": "controls",
        "t-msg": "message",
        "t-result": "result",
        "t-standings": "standings",
        "t-invite": "invite",
        "t-announce": "announce",
    }
    return names.get(ident, ident)


# ------------------------------------------------------------ the first frame


@pytest.mark.django_db
@pytest.mark.parametrize("watching", [False, True], ids=["seat", "watcher"])
def test_the_first_frame_after_a_page_load_swaps_nothing_the_page_shows(client, watching):
    table, seat = seated_table(client)
    viewer, who = (Client(), None) if watching else (client, seat)
    _html, seen = page(viewer, table)
    frame = first_frame(Table.objects.get(pk=table.pk), who, seen)
    # nothing but the message (news each time) besides the version and the watcher count
    assert set(frame_roots(frame)) - VERSION_AND_CHIP <= {"t-msg"}, frame_roots(frame)
    assert 'id="t-rack"' not in frame and 'id="t-result"' not in frame
    # without what the page shows (an old page, a client that says nothing): everything
    full = first_frame(Table.objects.get(pk=table.pk), who, None)
    assert {"t-title", "t-scores", "center", "t-controls", "t-rack"} <= set(frame_roots(full))


@pytest.mark.django_db
def test_the_outcome_dialog_is_not_swapped_by_the_first_frame(client):
    """The hand is over: the page opens its outcome dialog; the socket's first frame
    must leave it (and its scroll) alone."""
    table, seat = seated_table(client)
    table = play_out_hand(table)
    _html, seen = page(client, table)
    frame = first_frame(Table.objects.get(pk=table.pk), seat, seen)
    assert 'id="t-result"' not in frame and 'id="t-title"' not in frame


@pytest.mark.django_db
def test_a_watcher_at_a_finished_hand_keeps_the_outcome_the_page_shows(client):
    """A watcher's page at a finished hand shows the seats to follow in its outcome
    dialog, as the socket's frames do: the first frame leaves the dialog (and its
    scroll) alone."""
    table, _seat = seated_table(client)
    table = play_out_hand(table)
    html, seen = page(Client(), table)
    assert 'data-testid="follow-0"' in html
    frame = first_frame(Table.objects.get(pk=table.pk), None, seen)
    assert 'id="t-result"' not in frame


def advance(table: Table) -> Table:
    """One move: the player's (seat 0) when it is their turn, else a CPU's."""
    table = Table.objects.get(pk=table.pk)
    state = realtime.snapshot(table)[1]
    if state.turn == 0:
        move = (
            {"type": "draw"}
            if state.phase == "draw"
            else {"type": "discard", "tile": state.racks[0][0]}
        )
        actions.do_submit_action(table.pk, 0, move, table.version)
    else:
        assert actions.sweep() >= 1
    return Table.objects.get(pk=table.pk)


@pytest.mark.django_db
def test_a_reconnect_after_missed_moves_brings_the_browser_up_to_date(client):
    """The browser shows an old page (its ``seen``); moves happen while its socket is
    closed; the first frame of the new socket sends what went stale, and the browser
    then shows every fragment as a fresh page would, with that page's ``seen``."""
    table, seat = seated_table(client)
    old_html, old_seen = page(client, table)
    for _ in range(5):
        table = advance(table)
    frame = first_frame(table, seat, old_seen)
    sent = set(frame_roots(frame))
    assert {"t-scores", "center"} <= sent  # stale: sent
    fresh_html, fresh_seen = page(client, table)
    shown, fresh, got = elements(old_html), elements(fresh_html), elements(frame)
    for ident in sent - VERSION_AND_CHIP:
        shown[ident] = got[ident]
    for ident in ("t-title", "t-info", "t-scores", "center", "my-discards", "t-rack", "t-controls"):
        assert same(shown[ident], fresh[ident], ident), ident
    for p in range(1, 4):
        assert same(shown[f"opp-{p}"], fresh[f"opp-{p}"], f"opp-{p}")
    # what the browser now shows, as the next reconnect will say it
    assert SEEN.search(frame).group(1) == fresh_seen


@pytest.mark.django_db
def test_every_frame_says_what_the_browser_shows_after_it(client):
    """A reconnect reads the last frame's ``seen``: after each move's frame (which
    carries only what changed), it is the fresh page's."""
    table, seat = seated_table(client)
    _html, seen = page(client, table)
    conn = member(table, seat, seen)
    conn.render_view()
    for _ in range(4):
        table = advance(table)
        frame = conn.render_view(found=realtime.read_table(table.pk, None))
        assert SEEN.search(frame).group(1) == page(client, table)[1]


@pytest.mark.parametrize(
    "seen",
    [
        "de|title=0123456789ab",  # another language
        "en|title=zz",  # not a digest
        "en|" + ",".join(f"x{i}=0123456789ab" for i in range(200)),  # oversize
        "garbage",
    ],
)
def test_a_seen_value_that_cannot_be_read_claims_nothing(seen):
    assert realtime.seen_digests(seen, "en") is None


# ------------------------------------------------------------ through the socket


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_socket_reads_what_the_page_shows_from_its_url():
    client = Client()

    def setup():
        table, _seat = seated_table(client)
        return table, page(client, table)[1]

    table, seen = await sync_to_async(setup)()
    headers = [
        (b"origin", b"http://testserver"),
        (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()),
    ]
    frames = []
    for url in (f"/ws/t/{table.code}/?seen={quote(seen)}", f"/ws/t/{table.code}/"):
        comm = WebsocketCommunicator(application, url, headers=headers)
        assert (await comm.connect())[0]
        frames.append(await comm.receive_from())
        await comm.disconnect()
    told, untold = frames
    assert 'id="t-rack"' not in told and 'id="center"' not in told
    assert f'value="{table.version}"' in told
    assert 'id="t-rack"' in untold and 'id="center"' in untold
