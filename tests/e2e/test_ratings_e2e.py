"""Rated or casual in the browser: the new-table form's Rated box opens a rated table of
people (the table says so), a guest cannot take its seat, a CPU seat makes it casual with a
message; the Ratings menu link, the board and the profile's ratings card at phone and
desktop sizes, with no console message (the chart is an SVG with no inline style); the
outcome dialog of a finished rated game shows each player's rating change.

Set ``RATING_SHOTS=/some/dir`` to save screenshots of that dialog at 390x844 and
1366x768."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support.accounts import sign_up
from tests.support.lobby import open_new_table_form
from tests.support.servers import ROOT

pytestmark = pytest.mark.e2e


def _new_table(page: Page, base: str, seat_3: str) -> None:
    page.goto(f"{base}/")
    open_new_table_form(page)
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


# A rated fifty-one game of four accounts played to its end on the server's own database
# (tests/ratings/conftest.py: each person's moves chosen by the medium CPU).
RATED_GAME = """
from tests.ratings.conftest import make_users, play_rated_game
users = make_users("ro_ana", "ro_ben", "ro_cem", "ro_dia")
for u in users:
    u.set_password("green-felt-2024!")
    u.save()
print("CODE", play_rated_game(users).code)
"""


def test_the_outcome_of_a_rated_game_shows_the_rating_changes(
    browser: Browser, daphne_server: str, e2e_env: dict[str, str]
):
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", RATED_GAME],
        cwd=ROOT,
        env=e2e_env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]  # the shell's traceback, if any
    code = re.search(r"CODE (\S+)", done.stdout).group(1)
    ctx = browser.new_context()
    page = ctx.new_page()
    # the websocket's first frame swaps the outcome in again: count frames, so the checks
    # below read the dialog that stays, not the one the frame replaces
    page.add_init_script(
        "window.okeyFrames = 0;"
        "document.addEventListener('htmx:wsAfterMessage', () => { window.okeyFrames += 1; });"
    )
    page.goto(f"{daphne_server}/accounts/login/")
    page.get_by_label("Username").fill("ro_ben")
    page.get_by_label("Password").fill("green-felt-2024!")
    page.locator("main").get_by_role("button", name="Log in").click()
    expect(page.get_by_test_id("nav-user")).to_have_text("ro_ben")
    for width, height in ((390, 844), (1366, 768)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{daphne_server}/t/{code}/")  # the dialog opens by itself
        page.wait_for_function("() => window.okeyFrames > 0")
        ratings = page.get_by_test_id("outcome").get_by_test_id("outcome-ratings")
        expect(ratings).to_be_visible()
        rows = ratings.locator("li")
        expect(rows).to_have_count(4)
        for i in range(4):
            expect(rows.nth(i)).to_contain_text(re.compile(r"1500 → \d+ \([+-]?\d+\)"))
        expect(ratings.locator(".rating-provisional")).to_have_count(4)  # first games
        expect(ratings.locator("li.me")).to_contain_text("ro_ben")
        ratings.scroll_into_view_if_needed()
        expect(ratings).to_be_in_viewport()
        where = os.environ.get("RATING_SHOTS")
        if where:
            page.screenshot(path=str(Path(where) / f"outcome-ratings-{width}x{height}.png"))
    ctx.close()
