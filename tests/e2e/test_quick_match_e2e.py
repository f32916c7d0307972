"""Quick match in two browsers: two players press "Play now" for one rule set, end at
the same table and each sees the other waiting (the first one's card follows live); one
leaves the wait and the other's card follows, then comes back; after a minute one of
them fills the free seats with CPUs and both see the game start.

Set ``QUICK_SHOTS=/some/dir`` to save screenshots of the waiting card (with "Leave") at
390x844 and 1366x768."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from games.engine.rules import RULES
from tests.support.accounts import sign_up
from tests.support.servers import ROOT
from tests.support.waits import ws_open

pytestmark = pytest.mark.e2e

VARIANT = next(iter(RULES))  # the registry's first rule set
TABLE_URL = re.compile(r"/t/([\w-]+)/$")

# The server's clock cannot be moved from here: the table's opening time is moved back
# instead, on the server's own database, so that "Fill with CPUs" is due in 2 seconds.
AGE = """
from datetime import timedelta
from games.models import Table
table = Table.objects.get(code="{code}")
Table.objects.filter(pk=table.pk).update(created_at=table.created_at - timedelta(seconds=58))
"""


def play_now(page: Page, base: str) -> str:
    page.goto(f"{base}/")
    page.get_by_test_id(f"play-now-{VARIANT}").click()
    expect(page).to_have_url(TABLE_URL)
    ws_open(page)
    return TABLE_URL.search(page.url).group(1)


def shot(page: Page, name: str) -> None:
    where = os.environ.get("QUICK_SHOTS")
    if where:
        page.screenshot(path=str(Path(where) / f"{name}.png"), full_page=True)


def test_two_players_meet_by_quick_match_and_fill_with_cpus(
    browser: Browser, daphne_server: str, e2e_env: dict[str, str]
):
    ayse_ctx, mehmet_ctx = browser.new_context(), browser.new_context()
    ayse, mehmet = ayse_ctx.new_page(), mehmet_ctx.new_page()
    sign_up(ayse, daphne_server, "quick_ayse")
    sign_up(mehmet, daphne_server, "quick_mehmet")

    ayse.goto(f"{daphne_server}/")
    for name in RULES:  # one "Play now" per registered rule set
        expect(ayse.get_by_test_id(f"play-now-{name}")).to_be_visible()
    shot(ayse, "quick-lobby-1280x800")
    code = play_now(ayse, daphne_server)
    card_a = ayse.get_by_test_id("quick-wait")
    expect(card_a.get_by_test_id("quick-player")).to_have_count(1)
    assert play_now(mehmet, daphne_server) == code  # the same table
    card_m = mehmet.get_by_test_id("quick-wait")
    # each sees the other waiting, with ratings (a new player shows 1500); Ayşe's card
    # follows without a reload
    for card in (card_a, card_m):
        expect(card.get_by_test_id("quick-player")).to_have_count(2)
        expect(card).to_contain_text("Quick_Ayse")
        expect(card).to_contain_text("Quick_Mehmet")
        expect(card).to_contain_text("1500")
        expect(card.get_by_test_id("quick-status")).to_have_text("Waiting for 2 more players.")
        expect(card.get_by_test_id("quick-fill")).to_have_count(0)
    for width, height in ((390, 844), (1366, 768)):
        ayse.set_viewport_size({"width": width, "height": height})
        expect(card_a).to_be_in_viewport()
        expect(card_a.get_by_test_id("quick-leave")).to_be_in_viewport()
        shot(ayse, f"quick-wait-{width}x{height}")

    # Mehmet leaves the wait: back in the lobby, and Ayşe's card follows live
    card_m.get_by_test_id("quick-leave").click()
    expect(mehmet).to_have_url(re.compile(r"/#quick-match$"))
    expect(mehmet.locator(".messages")).to_contain_text("You have left the quick match.")
    expect(card_a.get_by_test_id("quick-player")).to_have_count(1)
    expect(card_a.get_by_test_id("quick-status")).to_have_text("Waiting for 3 more players.")
    # pressing "Play now" again seats him at the same table (within its window)
    assert play_now(mehmet, daphne_server) == code
    card_m = mehmet.get_by_test_id("quick-wait")
    expect(card_a.get_by_test_id("quick-player")).to_have_count(2)

    subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", AGE.format(code=code)],
        cwd=ROOT,
        env=e2e_env,
        check=True,
        capture_output=True,
        timeout=120,
    )
    for page in (ayse, mehmet):
        page.reload()
        ws_open(page)
    # the card asks again when the button is due: it appears by itself
    expect(mehmet.get_by_test_id("quick-fill")).to_be_visible(timeout=10_000)
    expect(ayse.get_by_test_id("quick-fill")).to_be_visible(timeout=10_000)
    shot(ayse, "quick-wait-fill")
    mehmet.get_by_test_id("quick-fill").click()  # not the one who opened the table

    for page in (ayse, mehmet):
        # Ayşe's rack comes over her socket once the fill has dealt: a whole deal and a
        # frame per seat, which a busy machine takes longer than the usual five seconds to send
        expect(page.locator("#rack-grid .tile").first).to_be_visible(timeout=15_000)
        expect(page.get_by_test_id("quick-wait")).to_have_count(0)
        expect(page.locator(".opp .opp-name", has_text="(CPU)")).to_have_count(2)
    ayse_ctx.close()
    mehmet_ctx.close()
