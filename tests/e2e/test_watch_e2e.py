"""Watching a live table in the browser: a visitor opens Live tables, sees a public
table appear there live as it starts, clicks it and watches: the header counts one
watcher (at the player's table too) and the page shows no rack.

Set ``WATCH_SHOTS=/some/dir`` to save screenshots of the lobby's list and of the watched
table at 390x844 and 1366x768.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support.accounts import sign_up
from tests.support.lobby import open_new_table_form

pytestmark = pytest.mark.e2e
SIZES = ({"width": 390, "height": 844}, {"width": 1366, "height": 768})


def shots(page: Page, name: str) -> None:
    where = os.environ.get("WATCH_SHOTS")
    if not where:
        return
    for size in SIZES:
        page.set_viewport_size(size)
        page.screenshot(path=str(Path(where) / f"{name}-{size['width']}x{size['height']}.png"))
    page.set_viewport_size({"width": 1280, "height": 800})


def test_a_watcher_opens_the_lobby_clicks_a_live_table_and_sees_no_rack(
    browser: Browser, daphne_server: str
):
    player_ctx, watcher_ctx = browser.new_context(), browser.new_context()
    player, watcher = player_ctx.new_page(), watcher_ctx.new_page()
    watcher.goto(f"{daphne_server}/watch/")
    watcher.wait_for_function("() => document.querySelector('[hx-ext=ws]') && window.htmx")

    sign_up(player, daphne_server, "watched_player")
    player.goto(f"{daphne_server}/")
    open_new_table_form(player)
    player.select_option("#id_variant", "seventeen")
    player.get_by_test_id("public-field").locator("input").check()
    player.get_by_test_id("create-submit").click()
    expect(player).to_have_url(re.compile(r"/t/[\w-]+/$"))
    code = player.url.rstrip("/").rsplit("/", 1)[-1]
    expect(player.locator("#rack-grid .tile")).to_have_count(15)  # seat 0 starts

    # the table appears in the open lobby by itself (the lobby's socket)
    row = watcher.locator(f"[data-testid=live-table][data-code='{code}']")
    expect(row).to_be_visible()
    expect(row.get_by_test_id("live-rules")).to_have_text("Seventeen")
    expect(row.get_by_test_id("live-hand")).to_have_text("Hand 1 of 7")
    expect(row.get_by_test_id("live-player")).to_have_count(4)
    expect(row.locator(".cpu-badge")).to_have_count(3)
    expect(row.get_by_test_id("live-rating")).to_have_text("1500?")
    expect(row.get_by_test_id("live-watchers")).to_have_text("0 watching")
    # listed once (other tests' public tables, a quick match's say, may be live beside it)
    expect(row).to_have_count(1)
    shots(watcher, "watch-lobby")

    row.get_by_test_id("live-link").click()
    expect(watcher).to_have_url(f"{daphne_server}/t/{code}/")
    expect(watcher.get_by_test_id("watchers")).to_have_text("1 watching")
    expect(player.get_by_test_id("watchers")).to_have_text("1 watching")
    expect(watcher.get_by_test_id("indicator")).to_be_visible()
    expect(watcher.locator("#rack-grid .tile")).to_have_count(0)
    expect(watcher.locator("#t-rack .tile")).to_have_count(0)
    shots(watcher, "watch-table")

    # the watcher leaves: the player's header says so
    watcher_ctx.close()
    expect(player.get_by_test_id("watchers")).to_have_text("0 watching")
    player_ctx.close()
