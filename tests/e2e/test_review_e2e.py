"""Review in a real browser: play a classic hand against three CPUs, open its replay from
the hand-over panel, step through it with the buttons and the keyboard, jump with the
timeline, play/pause, read the CPU commentary, and find it on "My games"."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_table_e2e import (
    create_table,
    discard,
    draw_if_needed,
    wait_my_turn_or_end,
    worst_tile,
)
from tests.support.accounts import sign_up

pytestmark = pytest.mark.e2e


def step(page: Page) -> int:
    return int(page.get_by_test_id("rv-step").inner_text())


def rack_ids(page: Page, seat: int) -> list[str]:
    return page.eval_on_selector_all(
        f"[data-testid=rv-rack-{seat}] .tile", "els => els.map(e => e.dataset.id)"
    )


def all_racks(page: Page) -> list[list[str]]:
    return [rack_ids(page, s) for s in range(4)]


def test_step_through_a_replay(page: Page, daphne_server: str):
    sign_up(page, daphne_server, "review_player")
    create_table(page, daphne_server, "classic")
    turns = 0
    while wait_my_turn_or_end(page):
        draw_if_needed(page)
        if page.locator("#t-result.show").count():
            break
        discard(page, worst_tile(page))
        turns += 1
        assert turns < 40
    link = page.get_by_test_id("review-hand")
    expect(link).to_be_visible()
    page.goto(daphne_server + link.get_attribute("href"))
    expect(page).to_have_url(re.compile(r"/review/hand/\d+/"))

    total = int(re.search(r"of (\d+)", page.get_by_test_id("rv-counter").inner_text()).group(1))
    assert total > 8
    assert step(page) == 0
    deal = all_racks(page)
    assert [len(r) for r in deal] == [15, 14, 14, 14]  # every rack revealed

    # buttons
    page.get_by_test_id("rv-next").click()
    assert step(page) == 1
    after_one = all_racks(page)
    assert after_one != deal  # the starter discarded: a rack changed
    assert sum(len(r) for r in after_one) == sum(len(r) for r in deal) - 1
    expect(page.locator(".rv-timeline li.current")).to_have_attribute("data-step", "1")
    page.get_by_test_id("rv-next").click()
    page.get_by_test_id("rv-next").click()
    assert step(page) == 3
    page.get_by_test_id("rv-prev").click()
    assert step(page) == 2

    # keyboard
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("ArrowRight")
    assert step(page) == 3
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert step(page) == 1
    assert all_racks(page) == after_one
    page.keyboard.press("End")
    assert step(page) == total
    end = all_racks(page)
    assert end != deal
    page.keyboard.press("Home")
    assert step(page) == 0
    assert all_racks(page) == deal

    # the timeline jumps anywhere; the last button too
    page.locator(".rv-timeline li[data-step='5'] button").click()
    assert step(page) == 5
    page.get_by_test_id("rv-last").click()
    assert step(page) == total
    page.get_by_test_id("rv-first").click()
    assert step(page) == 0

    # play, then pause, on the page's clock (Playwright's: no waiting on time)
    page.clock.install()
    page.get_by_test_id("rv-play").click()
    page.clock.run_for(1500)  # a step every 700 ms
    assert step(page) >= 2
    page.get_by_test_id("rv-play").click()
    paused = step(page)
    page.clock.run_for(5000)
    assert step(page) == paused
    page.clock.resume()

    # the CPU commentary arrives after the page, with its summary
    expect(page.get_by_test_id("agreement")).to_contain_text("agreed on", timeout=30_000)
    page.locator(".rv-comments li button").first.click()
    assert step(page) > 0
    expect(page.get_by_test_id("rv-cpu-now")).to_be_visible()  # the CPU's view of this move
    expect(page.get_by_test_id("rv-cpu-now")).to_contain_text("—")

    # the hand is on "My games"
    page.get_by_test_id("nav-my-games").click()
    expect(page.get_by_test_id("my-games")).to_contain_text("Classic")
    expect(page.get_by_test_id("review-hand-link").first).to_be_visible()


def test_replay_on_a_phone(page: Page, daphne_server: str):
    """360 px wide: no sideways scrolling, the controls still work."""
    sign_up(page, daphne_server, "phone_reviewer")
    create_table(page, daphne_server, "classic")
    while wait_my_turn_or_end(page):
        draw_if_needed(page)
        if page.locator("#t-result.show").count():
            break
        discard(page, worst_tile(page))
    href = page.get_by_test_id("review-hand").get_attribute("href")
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(daphne_server + href)
    widest = page.evaluate(
        """() => Math.max(...Array.from(document.querySelectorAll('#review *'))
            .map(e => e.getBoundingClientRect().right))"""
    )
    offenders = page.evaluate(
        """() => Array.from(document.querySelectorAll("#review *"))
            .filter(e => e.getBoundingClientRect().right > 360)
            .slice(0, 5).map(e => e.className)"""
    )
    assert widest <= 360, offenders
    page.get_by_test_id("rv-next").click()
    page.get_by_test_id("rv-next").click()
    assert step(page) == 2
    page.keyboard.press("End")
    widest_end = page.evaluate(
        """() => Math.max(...Array.from(document.querySelectorAll('#review *'))
            .map(e => e.getBoundingClientRect().right))"""
    )
    assert widest_end <= 360
