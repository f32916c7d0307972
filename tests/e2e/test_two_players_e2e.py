"""Two people at one table, each in their own browser context:
the invite link seats the friend, each sees their own rack and the other's moves
at once, and the table shows when a player is away."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support.accounts import sign_up
from tests.support.lobby import open_new_table_form
from tests.support.waits import ws_open

pytestmark = pytest.mark.e2e


def rack_ids(page: Page) -> set[int]:
    return set(page.eval_on_selector_all("#rack-grid .tile", "els => els.map(e => +e.dataset.id)"))


def test_two_browsers_at_one_rummy_table(browser: Browser, daphne_server: str):
    host_ctx, guest_ctx = browser.new_context(), browser.new_context()
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    sign_up(host, daphne_server, "host_player")
    host.goto(f"{daphne_server}/")
    open_new_table_form(host)
    host.select_option("#id_variant", "rummy")
    host.select_option("select[name='rummy__players']", "2")
    host.select_option("#id_seat_1", "human")
    host.get_by_test_id("create-submit").click()
    expect(host).to_have_url(re.compile(r"/t/[\w-]+/$"))
    link = host.locator(".invite-link").input_value()
    ws_open(host)

    guest.goto(link)  # a guest, no account
    guest.get_by_role("button", name="Take a seat").click()
    ws_open(guest)
    expect(guest.locator("#rack-grid .tile")).to_have_count(14)
    expect(host.locator("#rack-grid .tile")).to_have_count(15)  # the host starts
    assert not rack_ids(host) & rack_ids(guest)

    # the host discards; the guest sees it at once and it is the guest's turn
    tile = host.locator("#rack-grid .tile").first
    tile_id = tile.get_attribute("data-id")
    tile.click()
    host.click("[data-act=discard]")
    expect(guest.locator(f".takeable .tile[data-id='{tile_id}']")).to_have_count(1)
    expect(guest.get_by_test_id("status")).to_contain_text("Your turn")
    # the host picks a tile while waiting: the guest's moves do not replace the host's
    # rack (a frame carries only what changed), so the tile stays selected
    waiting = host.locator("#rack-grid .tile").nth(3)
    waiting.click()
    expect(waiting).to_have_class(re.compile(r"\bselected\b"))
    guest.click(".controls [data-act=draw]")
    expect(guest.locator("#rack-grid .tile")).to_have_count(15)
    guest.locator("#rack-grid .tile").first.click()
    guest.click("[data-act=discard]")
    expect(host.get_by_test_id("status")).to_contain_text("Your turn")
    expect(host.get_by_test_id("pile-count")).to_have_text("75")
    expect(host.locator("#rack-grid .tile.selected")).to_have_count(1)
    expect(waiting).to_have_class(re.compile(r"\bselected\b"))

    # the guest leaves: the host's table shows them away
    guest_ctx.close()
    expect(host.locator(".opp .badge.away")).to_be_visible()
    host_ctx.close()
