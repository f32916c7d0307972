"""Sign up through the real page in Chromium, served by daphne (the pattern for e2e tests)."""

import re

import pytest
from playwright.sync_api import Page, expect


@pytest.mark.e2e
def test_sign_up_in_the_browser_shows_display_name(page: Page, daphne_server: str):
    page.goto(f"{daphne_server}/")
    # The vendored front-end libraries are served and htmx is 2.x with the ws extension.
    page.wait_for_function("() => window.htmx && window.Sortable")
    assert page.evaluate("() => htmx.version").startswith("2.")
    expect(page.get_by_test_id("nav-user")).to_have_count(0)

    page.get_by_role("banner").get_by_role("link", name="Sign up").click()
    expect(page).to_have_url(re.compile(r"/accounts/signup/$"))

    page.get_by_label("Username").fill("e2e_player")
    page.get_by_label("Display name").fill("Tile Master")
    page.get_by_label("Password", exact=True).fill("green-felt-2024!")
    page.get_by_label("Password confirmation").fill("green-felt-2024!")
    page.locator("main").get_by_role("button", name="Sign up").click()

    expect(page).to_have_url(f"{daphne_server}/")
    expect(page.get_by_test_id("nav-user")).to_have_text("Tile Master")

    # Log out through the POST form in the nav.
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_test_id("nav-user")).to_have_count(0)
    expect(page.get_by_role("banner").get_by_role("link", name="Log in")).to_be_visible()
