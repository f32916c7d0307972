"""Loose ends around the table: the reconnecting notice, the profile language in pages and
frames, one date format per language, date inputs in every language, the replay's icons."""

from __future__ import annotations

import datetime as dt
import re
from html.parser import HTMLParser

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from games.models import Table
from games.review.forms import FilterForm
from games.tournaments import actions as tournament_actions
from games.tournaments.models import Tournament
from okeysite.asgi import application
from tests.accounts.test_i18n import compiled_messages  # noqa: F401 (a fixture)
from tests.games.conftest import cpu_table, play_out_hand
from tests.support.accounts import make_user

LANGS = ("en", "es", "de", "tr")


class Elements(HTMLParser):
    """Every start tag with its attributes and, for the ones asked for, the markup inside."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))


def elements(html: str) -> list[tuple[str, dict[str, str]]]:
    parser = Elements()
    parser.feed(html)
    return parser.tags


def inner(html: str, testid: str) -> str:
    """The markup inside the (non-nested) element with ``data-testid=testid``."""
    m = re.search(rf'<(\w+)[^>]*data-testid="{testid}"[^>]*>(.*?)</\1>', html, re.S)
    assert m, testid
    return m.group(2)


# The reconnecting notice -------------------------------------------------------------


@pytest.mark.django_db
def test_reconnecting_notice_is_translated_text_in_the_table_page(client, compiled_messages):  # noqa: F811
    user = make_user("ayse", language="de")
    client.force_login(user)
    table = cpu_table(user=user)
    html = client.get(reverse("games:table", args=[table.code])).content.decode()
    notice = [a for tag, a in elements(html) if a.get("id") == "ws-reconnecting"]
    assert len(notice) == 1 and "hidden" in notice[0]  # shown by table.js on a close
    with translation.override("de"):
        assert gettext("Reconnecting…") in inner(html, "reconnecting")


# The profile language in a page and in the frames --------------------------------------


@pytest.mark.django_db
def test_profile_language_without_a_cookie_sets_the_table_page(client, compiled_messages):  # noqa: F811
    """German in the profile, no language cookie, an English browser: the menus around
    the table are German like the table itself."""
    user = make_user("ayse", language="de")
    client.force_login(user)
    table = cpu_table(user=user)
    url = reverse("games:table", args=[table.code])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="de"' in html
    assert "Spielregeln" in html  # the header's "How to play"
    assert "Anzeiger" in html  # the table's "Indicator"


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_profile_language_without_a_cookie_sets_the_frames(compiled_messages):  # noqa: F811
    def setup() -> tuple[Table, str]:
        user = make_user("ayse", language="de")
        client = Client()
        client.force_login(user)
        return cpu_table(user=user), client.cookies["sessionid"].value

    table, session = await sync_to_async(setup)()
    headers = [
        (b"origin", b"http://testserver"),
        (b"cookie", f"sessionid={session}".encode()),
        (b"accept-language", b"en"),
    ]
    comm = WebsocketCommunicator(application, f"/ws/t/{table.code}/", headers=headers)
    ok, _ = await comm.connect()
    assert ok
    frame = await comm.receive_from()
    assert "Anzeiger" in frame and "Indicator" not in frame
    await comm.disconnect()


# One date format per language --------------------------------------------------------

# A year no other text on these pages contains: every "2031" is a date.
DAY = dt.date(2031, 12, 1)
EXPECTED_DATE = {"en": "1 Dec 2031", "es": "1 dic 2031", "de": "1. Dez. 2031", "tr": "1 Ara 2031"}
EXPECTED_DATETIME = {
    "en": "1 Dec 2031, 14:05",
    "es": "1 dic 2031, 14:05",
    "de": "1. Dez. 2031, 14:05",
    "tr": "1 Ara 2031 14:05",
}


def shown_dates(html: str) -> list[str]:
    """Every date shown in the page's text: the words before each "2031" (an ISO value
    in a date input's attribute is not shown as such and is left out)."""
    text = re.sub(r'value="2031-\d\d-\d\d"', "", html)
    return [
        m.group(0).strip() for m in re.finditer(r"[^>·]{0,20}2031(, \d\d:\d\d| \d\d:\d\d)?", text)
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
def test_tournament_pages_show_one_date_format(client, compiled_messages, lang):  # noqa: F811
    """The list, the public page and the desk show the same date the same way (the list
    used to say 12/01/2031 and the desk Dec. 1, 2031)."""
    organiser = make_user("orga", language=lang)
    t = tournament_actions.do_create_tournament(
        organiser,
        name="Club night",
        date=DAY,
        variant="classic",
        options={"start_points": 10},
        rounds=3,
        mode="in_person",
        seed="club-seed",
        published=True,
    )
    client.force_login(organiser)
    pages = {
        "list": reverse("tournaments:list"),
        "detail": reverse("tournaments:detail", args=[t.pk]),
        "desk": reverse("tournaments:desk", args=[t.pk]),
    }
    for name, url in pages.items():
        dates = shown_dates(client.get(url).content.decode())
        assert dates, name
        assert {d[-len(EXPECTED_DATE[lang]) :] for d in dates} == {EXPECTED_DATE[lang]}, (
            name,
            dates,
        )


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
def test_dates_with_a_time_use_the_same_date_format(client, compiled_messages, lang):  # noqa: F811
    user = make_user("ayse", language=lang)
    table = cpu_table(user=user)
    at = dt.datetime(2031, 12, 1, 14, 5, tzinfo=dt.UTC)
    Table.objects.filter(pk=table.pk).update(created_at=at)
    client.force_login(user)
    html = client.get(reverse("home")).content.decode()
    assert shown_dates(html) == [EXPECTED_DATETIME[lang]]


# Date inputs in every language -------------------------------------------------------


def browser_form_data(html: str, action: str) -> dict[str, str]:
    """What a browser submits from the form posting to ``action``: each input's value
    (a date input's value only if it is a valid ISO date: the browser empties any other),
    checked boxes, the selected option of each select."""
    start = html.index(f'action="{action}"')
    html = html[start : html.index("</form>", start)]
    data: dict[str, str] = {}
    select = None
    for tag, a in elements(html):
        name = a.get("name", "")
        if tag == "input" and name:
            kind = a.get("type", "text")
            value = a.get("value", "")
            if kind == "date" and not re.fullmatch(r"\d{4}-\d\d-\d\d", value):
                value = ""
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    data[name] = value or "on"
            else:
                data[name] = value
        elif tag == "select":
            select = name
        elif tag == "option" and select and ("selected" in a or select not in data):
            data[select] = a.get("value", "")
    return data


@pytest.mark.django_db
def test_new_tournament_form_shows_an_iso_date_in_turkish(client):
    client.force_login(make_user("orga", language="tr"))
    client.cookies["django_language"] = "tr"
    html = client.get(reverse("tournaments:create")).content.decode()
    date_inputs = [a for tag, a in elements(html) if a.get("type") == "date"]
    assert len(date_inputs) == 1
    assert re.fullmatch(r"\d{4}-\d\d-\d\d", date_inputs[0].get("value", ""))


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ("tr", "de", "es"))
def test_desk_settings_show_the_date_and_submit_in_each_language(client, lang):
    organiser = make_user("orga", language=lang)
    t = tournament_actions.do_create_tournament(
        organiser,
        name="Club night",
        date=DAY,
        variant="classic",
        options={"start_points": 10},
        rounds=3,
        mode="in_person",
        seed="club-seed",
    )
    client.force_login(organiser)
    client.cookies["django_language"] = lang
    html = client.get(reverse("tournaments:desk", args=[t.pk])).content.decode()
    data = browser_form_data(html, reverse("tournaments:edit", args=[t.pk]))
    assert data["date"] == "2031-12-01"
    data["date"] = "2031-12-02"  # what the browser's date picker sends
    data["name"] = "Club night II"
    client.post(reverse("tournaments:edit", args=[t.pk]), data)
    t = Tournament.objects.get(pk=t.pk)
    assert (t.name, t.date) == ("Club night II", dt.date(2031, 12, 2))


@pytest.mark.django_db
def test_review_filters_keep_their_dates_in_turkish(client):
    client.force_login(make_user("ayse", language="tr"))
    client.cookies["django_language"] = "tr"
    url = reverse("review:my_games") + "?date_from=2031-12-01&date_to=2031-12-31"
    html = client.get(url).content.decode()
    values = {a["name"]: a.get("value") for tag, a in elements(html) if a.get("type") == "date"}
    assert values == {"date_from": "2031-12-01", "date_to": "2031-12-31"}
    # and dates given by the server (not typed) are shown in ISO too
    with translation.override("tr"):
        form = FilterForm(initial={"date_from": DAY})
        rendered = {a["name"]: a.get("value") for tag, a in elements(str(form["date_from"]))}
    assert rendered == {"date_from": "2031-12-01"}


# The replay's controls ---------------------------------------------------------------


@pytest.mark.django_db
def test_replay_play_and_step_forward_look_different(client):
    """On a phone the buttons show their icons only: Play and Step forward must not both
    be a "▶"; each has its own accessible name."""
    user = make_user("ayse")
    table = play_out_hand(cpu_table("fifty-one", user=user))
    client.force_login(user)
    html = client.get(reverse("review:hand", args=[table.current_hand.pk])).content.decode()
    icons = {}
    for testid in ("rv-first", "rv-prev", "rv-play", "rv-next", "rv-last"):
        markup = inner(html, testid)
        if testid == "rv-play":  # what it shows while paused
            markup = re.sub(r'<span class="when-playing">.*', "", markup, flags=re.S)
        markup = re.sub(r'<span class="rv-label">.*?</span>', "", markup, flags=re.S)
        icons[testid] = re.sub(r"</?span[^>]*>|\s+", "", markup)  # what is drawn
    assert len(set(icons.values())) == len(icons), icons
    labels = [
        a.get("aria-label")
        for tag, a in elements(html)
        if a.get("data-testid") in icons and tag == "button"
    ]
    assert len(labels) == 5 and all(labels) and len(set(labels)) == 5


# The reconnecting notice in a browser ------------------------------------------------

OVERLAPS = """() => {
  const page = document.querySelector(".table-page");
  const closed = {bubbles: true, detail: {event: {code: 1006}}};
  page.dispatchEvent(new CustomEvent("htmx:wsClose", closed));
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  const notice = document.getElementById("ws-reconnecting");
  const others = {};
  const around = [".site-header", "#language-select", "#t-status", "#t-felt", "#t-controls"];
  for (const sel of [...around, "#t-rack"]) {
    const el = document.querySelector(sel);
    if (el && el.getClientRects().length) others[sel] = box(el);
  }
  const visible = !notice.hidden && notice.getClientRects().length > 0;
  return {visible, notice: box(notice), others};
}"""


@pytest.mark.e2e
@pytest.mark.parametrize(("width", "height"), [(390, 844), (1366, 768)])
def test_reconnecting_notice_covers_nothing(page, daphne_server, width, height):
    """While the socket is closed the notice shows, over neither the header's menus
    (the language menu) nor any part of the table; it goes once the socket is open."""
    from tests.e2e.test_table_e2e import create_table
    from tests.support.accounts import sign_up

    page.set_viewport_size({"width": width, "height": height})
    sign_up(page, daphne_server, f"reconnect{width}")
    create_table(page, daphne_server, "classic")
    notice = page.get_by_test_id("reconnecting")
    assert notice.is_hidden()
    seen = page.evaluate(OVERLAPS)
    assert seen["visible"]
    nl, nt, nr, nb = seen["notice"]
    for name, (left, top, right, bottom) in seen["others"].items():
        assert nr <= left or nl >= right or nb <= top or nt >= bottom, name
    page.evaluate(
        """() => document.querySelector(".table-page").dispatchEvent(
            new CustomEvent("htmx:wsOpen", {bubbles: true}))"""
    )
    assert notice.is_hidden()


# The replay on a phone ---------------------------------------------------------------

SEAT_BOXES = """() => [...document.querySelectorAll(".rv-seat")].map((el) => {
  const r = el.getBoundingClientRect();
  return [r.left, r.top, r.right, r.bottom];
})"""


@pytest.mark.e2e
def test_replay_on_a_phone_shows_each_seat_apart(page, daphne_server):
    """The replay page flows like any page: the live table's one-screen layout does not
    squeeze its seats on top of each other."""
    from tests.e2e.test_table_e2e import (
        create_table,
        discard,
        draw_if_needed,
        wait_my_turn_or_end,
        worst_tile,
    )
    from tests.support.accounts import sign_up

    sign_up(page, daphne_server, "phone_replayer")
    create_table(page, daphne_server, "classic")
    while wait_my_turn_or_end(page):
        draw_if_needed(page)
        if page.locator("#t-result.show").count():
            break
        discard(page, worst_tile(page))
    href = page.get_by_test_id("review-hand").get_attribute("href")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{daphne_server}{href}")
    page.get_by_test_id("rv-next").click()
    boxes = page.evaluate(SEAT_BOXES)
    assert len(boxes) == 4
    for i, (al, at, ar, ab) in enumerate(boxes):
        assert ar - al > 300  # a seat spans the phone's width
        for bl, bt, br, bb in boxes[i + 1 :]:
            assert ar <= bl or al >= br or ab <= bt or at >= bb
