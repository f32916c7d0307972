"""A selected tile stays selected when a frame replaces the rack before the player acts (a
sort, a second tab, a late frame of the draw): the discard button stays available and the
discard goes through."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_table_e2e import create_table, wait_my_turn_or_end
from tests.support.accounts import sign_up

pytestmark = pytest.mark.e2e


def _replace_rack(page: Page) -> None:
    """Sort the rack until the server's frame replaces it (a sort that keeps the order sends
    no rack)."""
    page.evaluate("() => { document.getElementById('rack-grid').dataset.old = '1'; }")
    for mode in ("groups", "runs", "pairs", "groups"):
        page.click(f"[data-sort={mode}]")
        try:
            page.wait_for_function(
                "() => !document.querySelector('#rack-grid[data-old]')", timeout=3_000
            )
            return
        except Exception:  # noqa: BLE001 - that sort kept the order: try the next one
            continue
    pytest.fail("no sort replaced the rack")


def test_a_selection_survives_a_frame_that_replaces_the_rack(page: Page, daphne_server):
    sign_up(page, daphne_server, "selector")
    create_table(page, daphne_server, "classic")
    assert wait_my_turn_or_end(page)  # seat 0 starts: 15 tiles, a discard to make
    tile = page.locator("#rack-grid .tile").nth(3)
    tile_id = tile.get_attribute("data-id")
    tile.click()
    discard = page.locator("#t-controls [data-act=discard]")
    expect(discard).not_to_have_attribute("aria-disabled", "true")
    _replace_rack(page)
    expect(page.locator(f"#rack-grid .tile[data-id='{tile_id}']")).to_have_class(
        # the same tile, re-rendered, still selected
        re.compile(r"\bselected\b")
    )
    expect(discard).not_to_have_attribute("aria-disabled", "true")
    discard.click()
    expect(page.locator(f"#rack-grid .tile[data-id='{tile_id}']")).to_have_count(0)
