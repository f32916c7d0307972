"""Tiles that explain themselves, by keyboard and screen reader, at a CPU table:
every tile is labelled in words (never notation), the arrow keys move through the
rack and the keys draw and discard, the tile just drawn is marked until it is
moved, the live region reads whose turn it is, and the hint's mark is not a
selection and its move is one click."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_table_e2e import create_table, version, wait_my_turn_or_end
from tests.support.accounts import sign_up
from tests.support.waits import wait_version_after

pytestmark = pytest.mark.e2e
NOTATION = re.compile(r"\b[RYBK]\d{1,2}\b")
SHOTS = "/tmp"


def heard(page: Page) -> str:
    """Every tile label, title and the live region's text on the page."""
    return page.evaluate(
        """() => [...document.querySelectorAll('[aria-label], [title]')]
            .map(e => (e.getAttribute('aria-label') || '') + ' ' + (e.getAttribute('title') || ''))
            .concat([document.querySelector('#t-announce').textContent,
                     document.querySelector('.table-page').innerText]).join(' | ')"""
    )


def to_my_draw(page: Page) -> None:
    """Our turn with a draw to make (pass the starter's opening turn by a discard)."""
    assert wait_my_turn_or_end(page)
    while not page.locator("#t-controls [data-act=draw]:not([disabled])").count():
        before = version(page)
        page.locator("#rack-grid .tile").last.click()
        page.click("#t-controls [data-act=discard]")
        wait_version_after(page, before)
        assert wait_my_turn_or_end(page)


def test_keyboard_play_labels_and_drawn_mark(page: Page, daphne_server: str):
    page.set_viewport_size({"width": 1366, "height": 768})
    sign_up(page, daphne_server, "keys_player")
    create_table(page, daphne_server, "classic")
    to_my_draw(page)

    tiles = page.locator("#rack-grid .tile")
    labels = tiles.evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    assert labels and all(labels), labels
    assert not any(NOTATION.search(x) for x in labels), labels
    assert tiles.first.get_attribute("role") == "button"
    # the live region read the move before ours: the previous seat's discard, in words
    expect(page.get_by_test_id("announce")).to_have_text(
        re.compile(r".+ discarded .+\. Your turn\.")
    )
    assert not NOTATION.search(heard(page)), NOTATION.findall(heard(page))

    # D draws; the drawn tile is marked "new"
    before = version(page)
    page.locator("body").press("d")
    wait_version_after(page, before)
    drawn = page.locator("#rack-grid .tile.drawn")
    expect(drawn).to_have_count(1)
    expect(drawn.locator(".drawn-mark")).to_be_visible()
    drawn_id = drawn.get_attribute("data-id")
    page.screenshot(path=f"{SHOTS}/tiles-drawn-1366.png")
    page.set_viewport_size({"width": 390, "height": 844})
    expect(drawn.locator(".drawn-mark")).to_be_visible()
    page.screenshot(path=f"{SHOTS}/tiles-drawn-390.png")
    page.set_viewport_size({"width": 1366, "height": 768})

    # one tab stop in the rack; the arrow keys move it, Space selects
    assert page.locator("#rack-grid .tile[tabindex='0']").count() == 1
    page.locator("#rack-grid .tile[tabindex='0']").focus()
    first = page.evaluate("() => document.activeElement.dataset.id")
    page.keyboard.press("ArrowRight")
    second = page.evaluate("() => document.activeElement.dataset.id")
    ids = tiles.evaluate_all("els => els.map(e => e.dataset.id)")
    assert ids.index(second) == ids.index(first) + 1
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("() => document.activeElement.dataset.id") == first
    page.keyboard.press("Space")
    focused = page.locator(f"#rack-grid .tile[data-id='{first}']")
    expect(focused).to_have_class(re.compile(r"\bselected\b"))
    expect(focused).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Space")
    expect(focused).to_have_attribute("aria-pressed", "false")

    # moving the drawn tile (a drag to another slot) takes its mark away
    src = page.locator(f"#rack-grid .tile[data-id='{drawn_id}']").bounding_box()
    empty = page.locator("#rack-grid .slot:not(:has(.tile))").last
    dst = empty.bounding_box()
    page.mouse.move(src["x"] + src["width"] / 2, src["y"] + src["height"] / 2)
    page.mouse.down()
    page.mouse.move(dst["x"] + 5, dst["y"] + 5, steps=8)
    page.mouse.move(dst["x"] + dst["width"] / 2, dst["y"] + dst["height"] / 2, steps=8)
    page.mouse.up()
    expect(page.locator("#rack-grid .tile.drawn")).to_have_count(0)
    expect(page.locator(f"#rack-grid .tile[data-id='{drawn_id}']")).to_have_count(1)

    # X discards the focused tile: it leaves the rack, the turn passes
    page.locator(f"#rack-grid .tile[data-id='{drawn_id}']").focus()
    before = version(page)
    page.keyboard.press("x")
    wait_version_after(page, before)
    expect(page.locator(f"#rack-grid .tile[data-id='{drawn_id}']")).to_have_count(0)
    expect(page.get_by_test_id("announce")).not_to_contain_text("Your turn.")
    assert not NOTATION.search(heard(page)), NOTATION.findall(heard(page))


def test_hint_mark_is_not_a_selection_and_acts_in_one_click(page: Page, daphne_server: str):
    page.set_viewport_size({"width": 390, "height": 844})
    sign_up(page, daphne_server, "hint_player")
    create_table(page, daphne_server, "classic")
    to_my_draw(page)
    before = version(page)
    page.click("#t-controls [data-act=draw]")
    wait_version_after(page, before)

    page.get_by_test_id("show-me").click()
    hint = page.get_by_test_id("hint")
    expect(hint).to_be_visible()
    assert not NOTATION.search(hint.inner_text()), hint.inner_text()
    hinted = page.locator("#rack-grid .tile.hinted")
    expect(hinted).to_have_count(1)  # the expert's choice: one tile to discard
    other = page.locator("#rack-grid .tile:not(.hinted)").first
    other.click()
    style = (
        "e => { const s = getComputedStyle(e); return [s.outlineStyle, s.boxShadow, s.transform]; }"
    )
    assert hinted.evaluate(style) != other.evaluate(style)
    assert "selected" not in (hinted.get_attribute("class") or "")
    page.screenshot(path=f"{SHOTS}/tiles-hint-390.png")
    page.set_viewport_size({"width": 1366, "height": 768})
    page.screenshot(path=f"{SHOTS}/tiles-hint-1366.png")
    other.click()  # unselect: the hint's button needs no selection

    button = page.get_by_test_id("hint-do")
    hinted_id = hinted.get_attribute("data-id")
    words = hinted.get_attribute("aria-label")
    expect(button).to_have_text(re.compile(re.escape(words)))
    before = version(page)
    button.click()
    wait_version_after(page, before)
    expect(page.locator(f"#rack-grid .tile[data-id='{hinted_id}']")).to_have_count(0)
    expect(page.locator("[data-testid=message] [data-code]")).to_have_count(0)
