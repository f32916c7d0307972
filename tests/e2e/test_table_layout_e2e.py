"""The table fits one screen: at laptop and phone sizes (portrait and landscape), during
your own turn, in every rule set and with a dozen melds on the table, your whole rack,
the draw / take / discard / finish controls, the indicator, the pile, the discard you
may take and every opponent's tile count are inside the viewport, and the page does not
scroll (the melds scroll inside the felt). On a phone the site header is a menu button.

One table per rule set is looked at in every viewport (``page.set_viewport_size``). The
crowded lay-down table is a fifty-one hand built with the engine's testing helpers
(``games.engine.testing.make_state``) and written into the server's database as the
hand's cached state, which is what the table page renders from.

Set ``LAYOUT_SHOTS=/some/dir`` to also save a screenshot of every situation checked.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from games.engine.rules import RULES
from games.engine.testing import make_state
from tests.e2e.test_table_e2e import act, create_table
from tests.support.accounts import sign_up

pytestmark = pytest.mark.e2e

VIEWPORTS = [(1366, 768), (1280, 720), (390, 844), (360, 740), (844, 390)]
PHONE_WIDTH = 700  # below this, or this short, the header is a menu button (site.css)
PHONE_HEIGHT = 500


def no_clock(variant: str) -> dict[str, str]:
    """The form's choice that turns the clock off, where the rule set's default has one."""
    return {"clock": "0"} if RULES[variant].options["clock"][1] else {}


# What must be on screen during your turn, by test id or selector.
MUST_SEE = {
    "rack": "[data-testid=rack]",
    "draw button": "#t-controls [data-act=draw]",
    "take button": "#t-controls [data-act=take]",
    "indicator": "[data-testid=indicator]",
    "pile": "[data-testid=draw-pile]",
    "discard to take": "[data-testid=takeable]",
}
PLAY_PHASE = {
    "discard button": "#t-controls [data-act=discard]",
}


def finish_control(variant: str) -> str:
    """The finishing control in the play phase: close the whole rack, or lay melds down."""
    if RULES[variant].whole_rack:
        return "#t-controls [data-act=close]"
    return "#t-controls [data-melds]"


def shot(page: Page, name: str) -> None:
    where = os.environ.get("LAYOUT_SHOTS")
    if where:
        Path(where).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(where) / f"{name}.png"))


def layout_problems(page: Page, selectors: dict[str, str]) -> list[str]:
    """What is off screen, and whether the page scrolls, in the current viewport."""
    size = page.viewport_size
    width, height = size["width"], size["height"]
    problems = []
    for label, selector in selectors.items():
        loc = page.locator(selector)
        if loc.count() == 0:
            problems.append(f"{label} ({selector}) is missing")
            continue
        for i in range(loc.count()):
            box = loc.nth(i).bounding_box()
            if box is None:
                problems.append(f"{label} #{i} is not displayed")
            elif (
                box["x"] < -0.5
                or box["y"] < -0.5
                or box["x"] + box["width"] > width + 0.5
                or box["y"] + box["height"] > height + 0.5
            ):
                problems.append(f"{label} #{i} is outside the viewport: {box}")
    scroll = page.evaluate(
        "() => [document.scrollingElement.scrollWidth, document.scrollingElement.scrollHeight,"
        " window.innerWidth, window.innerHeight]"
    )
    if scroll[1] > scroll[3]:
        problems.append(f"the page scrolls: {scroll[1]} px high in {scroll[3]}")
    if scroll[0] > scroll[2]:
        problems.append(f"the page scrolls sideways: {scroll[0]} px wide in {scroll[2]}")
    return problems


def rack_problems(page: Page) -> list[str]:
    """The rack is two rows of 16 slots, with tiles big enough to read and tap; on a phone
    held upright each row folds into two lines of 8 (docs/table-page.md, "On a phone")."""
    slots = page.eval_on_selector_all(
        "#rack-grid .slot",
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.x, r.y]; })",
    )
    size = page.viewport_size
    upright = size["width"] < PHONE_WIDTH and size["height"] > PHONE_HEIGHT
    line = 8 if upright else 16
    problems = []
    lines = [slots[i : i + line] for i in range(0, len(slots), line)]
    if len(slots) != 32:
        problems.append(f"{len(slots)} slots")
    elif not (
        all(len({round(y) for _x, y in ln}) == 1 for ln in lines)
        and all(b[0][1] > a[0][1] for a, b in zip(lines, lines[1:], strict=False))
    ):
        problems.append(f"the rack is not {len(lines)} lines of {line} slots")
    tile = page.eval_on_selector(
        "#rack-grid .tile",
        """t => { const r = t.getBoundingClientRect();
                  return [r.width, r.height, parseFloat(getComputedStyle(t).fontSize)]; }""",
    )
    if tile[0] < (32 if upright else 20) or tile[1] < 30 or tile[2] < 12:
        problems.append(f"rack tiles too small to read or tap: {tile}")
    return problems


def header_problems(page: Page) -> list[str]:
    """A phone gets a menu button (keyboard-usable, aria-expanded); a laptop the links."""
    problems = []
    toggle = page.get_by_test_id("menu-toggle")
    links = page.locator(".site-nav .nav-links")
    size = page.viewport_size
    if size["width"] < PHONE_WIDTH or size["height"] <= PHONE_HEIGHT:
        if not toggle.is_visible():
            return ["no menu button on a phone"]
        if links.is_visible():
            problems.append("the nav links show before the menu is opened")
        if toggle.get_attribute("aria-expanded") != "false":
            problems.append("the closed menu is not aria-expanded=false")
        toggle.focus()
        page.keyboard.press("Enter")
        if toggle.get_attribute("aria-expanded") != "true" or not links.is_visible():
            problems.append("Enter on the menu button does not open the menu")
        page.keyboard.press("Escape")
        if toggle.get_attribute("aria-expanded") != "false" or links.is_visible():
            problems.append("Escape does not close the menu")
    else:
        if toggle.is_visible():
            problems.append("a menu button on a wide screen")
        if not links.is_visible():
            problems.append("no nav links on a wide screen")
    return problems


def check_all_viewports(page: Page, name: str, selectors: dict[str, str]) -> list[str]:
    problems = []
    for width, height in VIEWPORTS:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function(f"() => window.innerWidth === {width}")
        found = layout_problems(page, selectors) + rack_problems(page) + header_problems(page)
        shot(page, f"{name}-{width}x{height}")
        problems += [f"{name} at {width}x{height}: {p}" for p in found]
    page.set_viewport_size({"width": 1280, "height": 800})
    return problems


def opponents(page: Page) -> dict[str, str]:
    return {
        f"tile count of seat {seat}": f"[data-testid=count-{seat}]"
        for seat in page.eval_on_selector_all(".opp", "els => els.map(e => e.dataset.seat)")
    }


def wait_my_turn(page: Page) -> None:
    expect(page.get_by_test_id("status")).to_contain_text("Your turn", timeout=60_000)


@pytest.mark.parametrize("variant", list(RULES))
def test_the_table_fits_one_screen_in_every_rule_set(page: Page, daphne_server: str, variant):
    sign_up(page, daphne_server, f"layout_{variant.replace('-', '_')}")
    create_table(page, daphne_server, variant, **no_clock(variant))
    wait_my_turn(page)
    problems = []
    if page.locator("#t-controls [data-act=draw]:not([disabled])").count():
        act(page, "#t-controls [data-act=draw]")
    # The play phase: discard and finish controls (the first hand's starter begins here).
    expect(page.get_by_test_id("status")).to_contain_text("discard a tile")
    play = {**MUST_SEE, **PLAY_PHASE, "finish": finish_control(variant), **opponents(page)}
    problems += check_all_viewports(page, f"{variant}-play", play)
    # The next turn's start: draw, or take the discard shown beside the pile.
    page.locator("#rack-grid .tile").first.click()
    act(page, "#t-controls [data-act=discard]")
    expect(page.get_by_test_id("status")).to_contain_text("draw from the pile", timeout=60_000)
    expect(page.locator("[data-testid=takeable] .tile:not(.empty)")).to_have_count(1)
    problems += check_all_viewports(page, f"{variant}-draw", {**MUST_SEE, **opponents(page)})
    assert not problems, "\n".join(problems)


# A fifty-one hand late in play: thirteen melds on the table, 15 tiles in your rack.
CROWDED = {
    "racks": [
        "R1 R3 R5 R7 R9 Y2 Y4 Y6 K3 K5 K9 B1 B2 B3 B13",
        "R2 R4 R6 R8 R10 R11 R12",
        "Y1 Y3 Y5 Y7 Y9 Y10 Y11",
        "K1 K2 K4 K6 K7 K8 K10",
    ],
    "indicator": "B4",
    "melds": [
        {"owner": owner, "tiles": tiles}
        for owner, tiles in [
            (0, "R1 R2 R3 R4"),
            (1, "R5 R6 R7"),
            (2, "R8 R9 R10 R11"),
            (3, "Y1 Y2 Y3"),
            (0, "Y4 Y5 Y6 Y7"),
            (1, "Y8 Y9 Y10"),
            (2, "K1 K2 K3"),
            (3, "K4 K5 K6 K7"),
            (0, "K8 K9 K10"),
            (1, "B6 B7 B8 B9"),
            (2, "B10 B11 B12 B13"),
            (3, "R12 Y12 K12"),
            (0, "R13 Y13 K13"),
        ]
    ],
    "discards": ["B9", "K11", "Y12", "R13"],
}


def put_hand_state(e2e_env: dict[str, str], code: str, state_json: dict) -> None:
    """Make ``state_json`` (and its options) the current hand's state of table ``code`` in
    the server's database, and move the table's version on so the server reads it afresh."""
    db = re.sub(r"^sqlite:///", "", e2e_env["DATABASE_URL"])
    with sqlite3.connect(db) as conn:
        (table_id,) = conn.execute("SELECT id FROM games_table WHERE code = ?", (code,)).fetchone()
        conn.execute(
            "UPDATE games_hand SET state = ? WHERE table_id = ? AND number = "
            "(SELECT MAX(number) FROM games_hand WHERE table_id = ?)",
            (json.dumps(state_json), table_id, table_id),
        )
        conn.execute(
            "UPDATE games_table SET options = ?, version = version + 1, cpu_due_at = NULL,"
            " turn_deadline = NULL, updated_at = datetime('now') WHERE id = ?",
            (json.dumps(state_json["options"]), table_id),
        )


def test_a_dozen_melds_keep_the_rack_on_screen(page: Page, daphne_server: str, e2e_env):
    sign_up(page, daphne_server, "layout_melds")
    create_table(page, daphne_server, "fifty-one", clock="0")
    wait_my_turn(page)  # no CPU moves until this seat has played
    # An assisted table: one more control ("Put selected where it fits").
    state = make_state("fifty-one", **CROWDED, options={"clock": 0, "assisted": True})
    code = page.locator(".table-page").get_attribute("data-code")
    put_hand_state(e2e_env, code, state.to_json())
    page.reload()
    page.wait_for_function("() => document.body.classList.contains('ws-open')")
    expect(page.locator(".meld")).to_have_count(13)
    expect(page.locator("#rack-grid .tile")).to_have_count(15)
    expect(page.get_by_test_id("status")).to_contain_text("discard a tile")
    play = {
        **MUST_SEE,
        **PLAY_PHASE,
        "finish": finish_control("fifty-one"),
        "put where it fits": "[data-testid=place-fit]",
        **opponents(page),
    }
    problems = check_all_viewports(page, "fifty-one-melds", play)
    # Every meld can be reached: the melds area scrolls inside the felt.
    last = page.locator(".meld").last
    last.scroll_into_view_if_needed()
    expect(last).to_be_in_viewport()
    assert not problems, "\n".join(problems)


def test_the_phone_header_is_a_menu(page: Page, daphne_server: str, browser):
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{daphne_server}/")
    toggle = page.get_by_test_id("menu-toggle")
    rules = page.locator(".site-nav").get_by_role("link", name="How to play")
    expect(toggle).to_be_visible()
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(rules).to_be_hidden()
    header = page.locator(".site-header").bounding_box()
    assert header["height"] < 60, header  # one line, not three
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(rules).to_be_visible()
    expect(page.locator("#language-select")).to_be_visible()
    shot(page, "menu-open-360x740")
    # The open menu lies over the page: nothing below it moved, nothing scrolls.
    assert page.locator(".site-header").bounding_box() == header
    page.mouse.click(180, 700)  # elsewhere on the page
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(rules).to_be_hidden()
    # Tab order: the button, then (when open) the links.
    toggle.focus()
    page.keyboard.press("Space")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.textContent.trim()") == "Home"
    rules.click()
    expect(page).to_have_url(re.compile(r"/rules/"))

    # Without JavaScript there is no button, and the links show as they are.
    context = browser.new_context(java_script_enabled=False, viewport={"width": 360, "height": 740})
    try:
        bare = context.new_page()
        bare.goto(f"{daphne_server}/")
        expect(bare.get_by_test_id("menu-toggle")).to_be_hidden()
        expect(bare.locator(".site-nav").get_by_role("link", name="How to play")).to_be_visible()
    finally:
        context.close()
