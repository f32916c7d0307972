"""Quick phrases between two browsers at one table (games/phrases.py): a phrase sent from
the picker shows by the sender's seat on both screens, the menu works from the keyboard,
and "Hide others' phrases" hides the other's bubbles and survives a reload."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.e2e.test_two_players_e2e import ws_open
from tests.support.accounts import sign_up
from tests.support.lobby import open_new_table_form

pytestmark = pytest.mark.e2e

SHOTS = "/tmp"


def center_x_inside(inner: Locator, outer: Locator) -> None:
    """The bubble's middle is above the seat's box (horizontally), inside the viewport."""
    a, b = inner.bounding_box(), outer.bounding_box()
    assert a and b
    middle = a["x"] + a["width"] / 2
    assert b["x"] - 8 <= middle <= b["x"] + b["width"] + 8, (a, b)
    page_width = inner.page.viewport_size["width"]
    assert a["x"] >= 0 and a["x"] + a["width"] <= page_width, (a, page_width)


def inside_viewport(locator: Locator) -> None:
    box, size = locator.bounding_box(), locator.page.viewport_size
    assert box and size
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], (box, size)
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (box, size)


def pick(page: Page, label: str) -> None:
    page.get_by_test_id("phrase-open").click()
    menu = page.get_by_test_id("phrase-menu")
    expect(menu).to_be_visible()
    menu.get_by_role("menuitem", name=label, exact=True).click()
    expect(menu).to_be_hidden()


def test_a_phrase_shows_by_the_senders_seat_and_mute_hides_others(
    browser: Browser, daphne_server: str
):
    host_ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    guest_ctx = browser.new_context(viewport={"width": 390, "height": 844})
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    sign_up(host, daphne_server, "phrase_host")
    host.goto(f"{daphne_server}/")
    open_new_table_form(host)
    host.select_option("#id_variant", "rummy")
    host.select_option("select[name='rummy__players']", "2")
    host.select_option("#id_seat_1", "human")
    host.get_by_test_id("create-submit").click()
    expect(host).to_have_url(re.compile(r"/t/[\w-]+/$"))
    link = host.locator(".invite-link").input_value()
    guest.goto(link)  # a guest, no account: seat 1
    guest.get_by_role("button", name="Take a seat").click()
    ws_open(guest)
    host.reload()  # the host's page without the invite card
    ws_open(host)
    expect(host.locator("#rack-grid .tile")).to_have_count(15)

    # the guest (phone) says "Good luck": a bubble by the guest's seat on both screens
    pick(guest, "Good luck")
    on_host = host.locator("#phrase-1 .phrase-bubble")
    expect(on_host).to_have_text(re.compile(r"Good luck$"))
    expect(on_host).to_be_visible()
    center_x_inside(host.get_by_test_id("phrase-slot-1"), host.locator("#opp-1"))
    own = guest.locator("#phrase-1 .phrase-bubble")
    expect(own).to_be_visible()
    center_x_inside(guest.get_by_test_id("phrase-slot-1"), guest.locator("#my-discards"))
    for page in (host, guest):  # the pictures once the bubble has faded in
        page.wait_for_function(
            "() => getComputedStyle(document.querySelector('#phrase-1 .phrase-bubble'))"
            ".opacity === '1'"
        )
    host.screenshot(path=f"{SHOTS}/phrases-1366x768.png")
    guest.screenshot(path=f"{SHOTS}/phrases-390x844.png")
    # the bubble goes by itself after about four seconds
    expect(on_host).to_have_count(0, timeout=8000)

    # the menu from the keyboard: Enter opens it on its first phrase, arrows move,
    # Escape closes it and gives the focus back
    opener = host.get_by_test_id("phrase-open")
    opener.focus()
    host.keyboard.press("Enter")
    expect(host.get_by_test_id("phrase-menu")).to_be_visible()
    expect(opener).to_have_attribute("aria-expanded", "true")
    expect(host.get_by_role("menuitem", name="Good luck", exact=True)).to_be_focused()
    host.keyboard.press("ArrowDown")
    expect(host.get_by_role("menuitem", name="Well played", exact=True)).to_be_focused()
    inside_viewport(host.get_by_test_id("phrase-menu"))
    host.screenshot(path=f"{SHOTS}/phrases-menu-1366x768.png")
    host.keyboard.press("Escape")
    expect(host.get_by_test_id("phrase-menu")).to_be_hidden()
    expect(opener).to_be_focused()
    expect(host.locator("#rack-grid .tile")).to_have_count(15)  # no key reached the table

    # the guest hides others' phrases; the choice survives a reload
    guest.get_by_test_id("phrase-open").click()
    expect(guest.get_by_test_id("phrase-menu")).to_be_visible()
    inside_viewport(guest.get_by_test_id("phrase-menu"))
    # a seat's menu: the eleven phrases and emotes, then the switch (a menuitemcheckbox)
    expect(guest.get_by_test_id("phrase-menu").get_by_role("menuitem")).to_have_count(11)
    guest.screenshot(path=f"{SHOTS}/phrases-menu-390x844.png")
    guest.get_by_test_id("phrase-mute").click()
    expect(guest.get_by_test_id("phrase-mute")).to_have_attribute("aria-checked", "true")
    guest.keyboard.press("Escape")
    guest.reload()
    ws_open(guest)
    expect(guest.get_by_test_id("phrase-mute")).to_have_attribute("aria-checked", "true")

    # the host says "Well played" from the keyboard: the host sees it, the guest does not
    opener.focus()
    host.keyboard.press("Enter")
    expect(host.get_by_role("menuitem", name="Good luck", exact=True)).to_be_focused()
    host.keyboard.press("ArrowDown")
    expect(host.get_by_role("menuitem", name="Well played", exact=True)).to_be_focused()
    host.keyboard.press("Enter")
    expect(host.locator("#phrase-0 .phrase-bubble")).to_have_text(re.compile(r"Well played$"))
    hidden = guest.locator("#phrase-0 .phrase-bubble")
    expect(hidden).to_have_count(1)  # it arrived ...
    expect(hidden).to_be_hidden()  # ... and is not shown
    # the guest's choice is the guest's alone
    expect(host.get_by_test_id("phrase-mute")).to_have_attribute("aria-checked", "false")
    host_ctx.close()
    guest_ctx.close()
