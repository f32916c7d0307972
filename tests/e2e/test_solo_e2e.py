"""The solo challenge in a real browser: sign up, start from the home page, play all seven
rounds of seventeen through the page (draw, discard a leftover tile), check each hand's deal
commitment against the seed revealed after it, and see the score sheet and the new record."""

from __future__ import annotations

import hashlib
import re
import time

import pytest
from playwright.sync_api import Page, expect

from games.engine.evaluate import best_arrangement
from games.engine.tiles import kind_of, parse_kind
from tests.e2e.test_table_e2e import act, draw_if_needed, rack
from tests.support.accounts import sign_up
from tests.support.waits import wait_my_turn_or_end

pytestmark = pytest.mark.e2e


def leftover_tiles(page: Page) -> list[int]:
    """Rack tiles by how little they help: leftovers first (never an okey), high first."""
    ids = [i for i, _ in rack(page)]
    okey = parse_kind(page.get_by_test_id("okey").get_attribute("data-t"))
    arr = best_arrangement(ids, okey, values="sum", pairs=False)
    loose = [t for t in arr.leftover if kind_of(t) != okey]
    rest = [t for t in ids if kind_of(t) != okey and t not in loose]
    key = lambda t: -(kind_of(t) % 13)  # noqa: E731
    return sorted(loose, key=key) + sorted(rest, key=key)


def play_turn(page: Page) -> None:
    """Draw, then discard a leftover tile. A tile the table refuses or sends back (a usable
    tile in seventeen returns to the rack) is not tried again this turn."""
    draw_if_needed(page)
    tried: set[int] = set()
    for _ in range(16):
        if not page.locator(".controls [data-act=discard]:not([disabled])").count():
            return  # the turn is over (or the hand)
        tile = next(t for t in leftover_tiles(page) if t not in tried)
        tried.add(tile)
        page.click(f"#rack-grid .tile[data-id='{tile}']")
        act(page, "[data-act=discard]")
        if not page.locator(f"#rack-grid .tile[data-id='{tile}']").count():
            return
    pytest.fail("no tile could be discarded")


def test_seven_round_solo_game_through_the_page(page: Page, daphne_server: str):
    started = time.monotonic()
    sign_up(page, daphne_server, "solo_player")
    page.goto(f"{daphne_server}/")
    page.get_by_test_id("solo-level").select_option("easy")
    page.get_by_test_id("solo-start-submit").click()
    expect(page).to_have_url(re.compile(r"/t/[\w-]+/$"))
    code = page.url.rstrip("/").rsplit("/", 1)[1]
    page.wait_for_function("() => document.body.classList.contains('ws-open')")

    for round_no in range(1, 8):
        expect(page.get_by_test_id("round")).to_have_text(f"Hand {round_no} of 7")
        commitment = page.get_by_test_id("commitment").get_attribute("data-commitment")
        assert re.fullmatch(r"[0-9a-f]{64}", commitment)
        expect(page.get_by_test_id("revealed-seed")).to_have_count(0)  # secret during the hand
        turns = 0
        while wait_my_turn_or_end(page):
            play_turn(page)
            turns += 1
            assert turns < 60, "a hand should end before the pile runs out"
        expect(page.get_by_test_id("result")).to_contain_text(
            "Game over" if round_no == 7 else "Hand over"
        )
        seed = page.get_by_test_id("revealed-seed").text_content()
        assert hashlib.sha256(seed.encode()).hexdigest() == commitment
        if round_no < 7:
            act(page, "[data-testid=next-hand]")

    # the game is over: the sheet and the record
    expect(page.get_by_test_id("sheet-link")).to_be_visible()
    page.get_by_test_id("solo-result-link").click()
    expect(page.get_by_test_id("solo-result")).to_be_visible()
    expect(page.get_by_test_id("solo-record")).to_contain_text("New personal record")
    expect(page.locator("[data-testid=solo-sheet] tbody tr")).to_have_count(7)
    my_total = page.get_by_test_id("result-total").first.inner_text()
    page.goto(f"{daphne_server}/t/{code}/sheet/")
    expect(page.get_by_test_id("score-sheet")).to_be_visible()
    expect(page.locator(".sheet-table tbody tr")).to_have_count(7)
    expect(page.get_by_test_id("sheet-total").first).to_have_text(my_total)
    page.goto(f"{daphne_server}/solo/")
    expect(page.get_by_test_id("best-easy")).to_have_text(my_total)
    expect(page.get_by_test_id("solo-level")).to_have_value("easy")  # remembered
    assert time.monotonic() - started < 240
