"""Rated or casual in the browser: the new-table form's Rated box opens a rated table of
people (the table says so), a guest cannot take its seat, a CPU seat makes it casual with a
message; the Ratings menu link, the board and the profile's ratings card at phone and
desktop sizes, with no console message (the chart is an SVG with no inline style)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.test_table_e2e import sign_up

pytestmark = pytest.mark.e2e


def _new_table(page: Page, base: str, seat_3: str) -> None:
    page.goto(f"{base}/")
    page.select_option("#id_variant", "fifty-one")
    for seat in ("#id_seat_1", "#id_seat_2"):
        page.select_option(seat, "human")
    page.select_option("#id_seat_3", seat_3)
    page.get_by_test_id("rated-field").locator("input").check()
    page.get_by_test_id("create-submit").click()
    expect(page).to_have_url(re.compile(r"/t/[\w-]+/$"))


def test_rated_and_casual_tables_from_the_form(browser: Browser, daphne_server: str):
    host_ctx, guest_ctx = browser.new_context(), browser.new_context()
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    sign_up(host, daphne_server, "rated_host")

    _new_table(host, daphne_server, "human")
    expect(host.get_by_test_id("rated-mark")).to_have_text("Rated")
    link = host.locator(".invite-link").input_value()

    guest.goto(link)  # no account: the seat is refused with the reason
    guest.get_by_role("button", name="Take a seat").click()
    expect(guest.locator(".messages")).to_contain_text(
        "Rated tables are for players with an account"
    )

    _new_table(host, daphne_server, "cpu:medium")
    expect(host.locator(".messages")).to_contain_text("A table with a computer player is casual")
    expect(host.get_by_test_id("rated-mark")).to_have_text("Casual")


@pytest.mark.parametrize("size", [(390, 844), (1366, 768)])
def test_ratings_pages_fit_and_log_nothing(browser: Browser, daphne_server: str, size):
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = ctx.new_page()
    said: list[str] = []
    page.on("console", lambda m: said.append(m.text))
    page.on("pageerror", lambda e: said.append(str(e)))
    sign_up(page, daphne_server, f"rater_{size[0]}")
    if size[0] < 600:
        page.get_by_test_id("menu-toggle").click()
    page.get_by_test_id("nav-ratings").click()
    expect(page).to_have_url(re.compile(r"/ratings/[\w-]+/$"))
    expect(page.get_by_test_id("rating-tabs").locator("a")).not_to_have_count(0)
    page.get_by_test_id("rating-tabs").get_by_role("link", name="Fifty-one").click()
    expect(page).to_have_url(re.compile(r"/ratings/fifty-one/$"))
    expect(page.get_by_test_id("rating-board")).to_be_visible()
    page.goto(f"{daphne_server}/accounts/profile/")
    expect(page.get_by_test_id("player-ratings")).to_contain_text("No rated games yet")
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= size[0]
    assert not [s for s in said if "autocomplete" not in s]
    ctx.close()
