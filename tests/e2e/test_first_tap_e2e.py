"""A newcomer's first minute in a real browser (docs/first-ten-minutes.md): a fresh guest sees
"Play now" on the home page's first screen at phone and desktop size and is at a dealt
table after one click; back home, "Resume your game" leads to that table; the new-table
form waits folded behind "More options".

Set ``FIRSTTAP_SHOTS=/some/dir`` to save screenshots of the home page (logged out, with a
table to resume, logged in) and of the table at 390x844 and 1366x768."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support.accounts import sign_up
from tests.support.waits import ws_open

pytestmark = pytest.mark.e2e

TABLE_URL = re.compile(r"/t/([\w-]+)/$")
SIZES = {"phone": (390, 844), "desktop": (1366, 768)}


def shot(page: Page, name: str) -> None:
    where = os.environ.get("FIRSTTAP_SHOTS")
    if where:
        Path(where).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(where) / f"{name}.png"))


@pytest.mark.parametrize("size", SIZES)
def test_a_fresh_guest_is_at_a_dealt_table_in_one_click_and_can_resume_it(
    browser: Browser, daphne_server: str, size: str
):
    width, height = SIZES[size]
    ctx = browser.new_context(viewport={"width": width, "height": height})
    page = ctx.new_page()
    page.goto(f"{daphne_server}/")
    play = page.get_by_test_id("play-cpu")
    # on the first screen, without scrolling: Play now, what it opens, and quick match
    expect(play).to_be_in_viewport()
    expect(page.get_by_test_id("play-cpu-what")).to_contain_text("Classic against 3")
    expect(page.get_by_test_id("play-cpu-what")).to_contain_text("No account needed")
    signup = page.get_by_test_id("play-cpu-what").get_by_role("link", name="sign up")
    expect(signup).to_have_attribute("href", "/accounts/signup/")
    expect(page.get_by_test_id("quick-match").locator("h2")).to_be_in_viewport()
    assert page.evaluate("() => window.scrollY") == 0
    # the new-table form is folded: its summary shows, its fields do not
    fold = page.get_by_test_id("more-options")
    expect(fold.locator("summary")).to_contain_text("Classic · 4 seats · medium CPUs")
    expect(page.get_by_test_id("create-submit")).to_be_hidden()
    expect(page.get_by_test_id("resume")).to_have_count(0)  # nothing to resume yet
    shot(page, f"home-guest-{width}")

    play.click()
    expect(page).to_have_url(TABLE_URL)
    code = TABLE_URL.search(page.url).group(1)
    ws_open(page)
    # dealt: the guest's own rack holds a hand, three CPUs sit with them
    tiles = page.locator("#rack-grid .tile")
    expect(tiles.first).to_be_visible()
    assert tiles.count() in (14, 15)
    expect(page.locator("body")).to_contain_text("(CPU)")
    shot(page, f"table-guest-{width}")

    # home again: the table is listed to resume, above the fold, and leads back to it
    page.goto(f"{daphne_server}/")
    resume = page.get_by_test_id(f"resume-{code}")
    expect(resume).to_be_in_viewport()
    shot(page, f"home-guest-resume-{width}")
    resume.click()
    expect(page).to_have_url(re.compile(rf"/t/{code}/$"))
    ws_open(page)
    expect(page.locator("#rack-grid .tile").first).to_be_visible()

    # More options opens the form with its fields
    page.goto(f"{daphne_server}/")
    page.get_by_test_id("more-options").locator("summary").click()
    expect(page.locator("#id_variant")).to_be_visible()
    expect(page.get_by_test_id("create-submit")).to_be_visible()
    ctx.close()


@pytest.mark.parametrize("size", SIZES)
def test_an_account_plays_now_from_the_first_screen(
    browser: Browser, daphne_server: str, size: str
):
    width, height = SIZES[size]
    ctx = browser.new_context(viewport={"width": width, "height": height})
    page = ctx.new_page()
    sign_up(page, daphne_server, f"firsttap_{size}")
    page.goto(f"{daphne_server}/")
    play = page.get_by_test_id("play-cpu")
    expect(play).to_be_in_viewport()
    expect(page.get_by_test_id("play-cpu-what")).not_to_contain_text("No account needed")
    shot(page, f"home-account-{width}")
    play.click()
    expect(page).to_have_url(TABLE_URL)
    ws_open(page)
    expect(page.locator("#rack-grid .tile").first).to_be_visible()
    ctx.close()


def test_two_guests_meet_by_quick_match_at_a_casual_table(browser: Browser, daphne_server: str):
    pages = []
    for n in range(2):
        ctx = browser.new_context(viewport={"width": 390, "height": 844} if n else None)
        page = ctx.new_page()
        page.goto(f"{daphne_server}/")
        expect(page.get_by_test_id("quick-casual-note")).to_be_visible()
        page.get_by_test_id("play-now-classic").click()
        expect(page).to_have_url(TABLE_URL)
        ws_open(page)
        pages.append(page)
    first, second = pages
    assert TABLE_URL.search(first.url).group(1) == TABLE_URL.search(second.url).group(1)
    for page in pages:
        card = page.get_by_test_id("quick-wait")
        # each sees both waiting (the first one's card follows live), casual, no ratings
        expect(card.get_by_test_id("quick-player")).to_have_count(2)
        expect(card.get_by_test_id("quick-casual")).to_be_visible()
        expect(card.get_by_test_id("rated-rules")).to_have_count(0)
        expect(card.get_by_test_id("quick-leave")).to_be_visible()
    shot(second, "quick-guest-390")
    # back home, the lobby leads the guest back to the table they wait at
    second.goto(f"{daphne_server}/")
    expect(second.get_by_test_id("quick-back")).to_be_visible()
    for page in pages:
        page.context.close()
