"""A quick-match table waiting for players, in two browsers: the felt says so ("Waiting for
players…", how many seats are still to fill), shows who is seated and which seats are
free (no "Guest" panels), and offers nothing of a hand (no pile, no drop zone, no rack
or its buttons) until the hand is dealt; it follows live as the second player sits down,
and once CPUs fill the seats the hand is on.

Set ``QUICK_SHOTS=/some/dir`` to save screenshots at 390x844 and 1366x768."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from games.engine.rules import RULES
from tests.e2e.test_quick_match_e2e import AGE, TABLE_URL, ws_open
from tests.support.accounts import sign_up
from tests.support.servers import ROOT

pytestmark = pytest.mark.e2e

# the registry's last rule set: test_quick_match_e2e meets at the first one's tables
VARIANT = list(RULES)[-1]
SEATS = RULES[VARIANT].players[-1]


def shot(page: Page, name: str) -> None:
    where = os.environ.get("QUICK_SHOTS")
    if where:
        Path(where).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(where) / f"{name}.png"), full_page=True)


def play_now(page: Page, base: str) -> str:
    page.goto(f"{base}/")
    page.get_by_test_id(f"play-now-{VARIANT}").click()
    expect(page).to_have_url(TABLE_URL)
    ws_open(page)
    return TABLE_URL.search(page.url).group(1)


def no_hand(page: Page) -> None:
    """Nothing of a hand on the page: no pile, no drop zone, no rack, no move buttons."""
    for selector in (
        "[data-testid=discard-zone]",
        "[data-testid=draw-pile]",
        "#rack-grid",
        "[data-sort]",
        "#t-controls button",
        "[data-testid^=total-]",
    ):
        expect(page.locator(selector)).to_have_count(0)


def test_a_quick_match_table_waits_with_its_seats_and_no_hand(
    browser: Browser, daphne_server: str, e2e_env: dict[str, str]
):
    ayse_ctx, mehmet_ctx = browser.new_context(), browser.new_context()
    ayse, mehmet = ayse_ctx.new_page(), mehmet_ctx.new_page()
    sign_up(ayse, daphne_server, "qwait_ayse")
    sign_up(mehmet, daphne_server, "qwait_mehmet")

    code = play_now(ayse, daphne_server)
    felt = ayse.locator("#t-felt")
    expect(ayse.get_by_test_id("waiting-felt")).to_contain_text("Waiting for players…")
    expect(ayse.get_by_test_id("seats-to-fill")).to_have_text(f"{SEATS - 1} seats still to fill.")
    expect(ayse.get_by_test_id("my-seat")).to_contain_text("Qwait_Ayse")
    expect(felt.locator(".opp-free")).to_have_count(SEATS - 1)
    expect(felt.locator(".opp-free").first).to_have_text("Free seat")
    expect(felt).not_to_contain_text("Guest")
    expect(ayse.locator("#t-scores")).not_to_contain_text("Guest")
    no_hand(ayse)
    for width, height in ((390, 844), (1366, 768)):
        ayse.set_viewport_size({"width": width, "height": height})
        expect(ayse.get_by_test_id("waiting-felt")).to_be_visible()
        box = ayse.get_by_test_id("waiting-felt").bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= width
        shot(ayse, f"quick-waiting-table-{width}x{height}")

    # the second player sits down: both felts follow, one seat fewer to fill
    assert play_now(mehmet, daphne_server) == code
    for page, other in ((ayse, "Qwait_Mehmet"), (mehmet, "Qwait_Ayse")):
        expect(page.get_by_test_id("seats-to-fill")).to_have_text(
            f"{SEATS - 2} seats still to fill." if SEATS > 3 else "1 seat still to fill."
        )
        expect(page.locator("#t-felt .opp-waiting", has_text=other)).to_have_count(1)
        no_hand(page)

    # after the wait, CPUs fill the free seats: the hand is dealt and the felt is a table
    subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", AGE.format(code=code)],
        cwd=ROOT,
        env=e2e_env,
        check=True,
        capture_output=True,
        timeout=120,
    )
    mehmet.reload()
    ws_open(mehmet)
    mehmet.get_by_test_id("quick-fill").click(timeout=10_000)
    for page in (ayse, mehmet):
        expect(page.locator("#rack-grid .tile").first).to_be_visible()
        expect(page.get_by_test_id("waiting-felt")).to_have_count(0)
        expect(page.get_by_test_id("my-seat")).to_have_count(0)
        expect(page.get_by_test_id("discard-zone")).to_be_visible()
        expect(page.get_by_test_id("draw-pile")).to_be_visible()
        expect(page.locator("#t-felt .opp-free")).to_have_count(0)
    shot(ayse, "quick-dealt-1366x768")
    assert re.fullmatch(r"[\w-]+", code)
    ayse_ctx.close()
    mehmet_ctx.close()
