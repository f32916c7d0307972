"""The par in a real browser: a classic hand played against three CPUs; when it ends the
server computes the player's par in the background (nobody asked for it), and the hand's
review shows, in its result card, the player's result beside the par, the result against
par and the luck of the deal in words; with the review's pool full at the hand's end, the
card says so and Try again computes it later. Screenshots at phone and desktop size go to
``PAR_SHOTS`` (a directory) when it is set."""

from __future__ import annotations

import os
import re
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from games.review.analysis import QUEUE_LIMIT
from tests.e2e.test_table_e2e import (
    create_table,
    discard,
    draw_if_needed,
    wait_my_turn_or_end,
    worst_tile,
)
from tests.support.accounts import sign_up

pytestmark = pytest.mark.e2e
SHOTS = os.environ.get("PAR_SHOTS")


def shot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)
        card = page.get_by_test_id("rv-result")
        card.screenshot(path=str(Path(SHOTS) / f"{name}-result.png"))


def no_horizontal_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_the_review_shows_the_par_and_the_luck_of_the_deal(page: Page, daphne_server: str):
    sign_up(page, daphne_server, "par_player")
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
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(daphne_server + link.get_attribute("href"))
    expect(page).to_have_url(re.compile(r"/review/hand/\d+/"))

    card = page.get_by_test_id("par")
    # computed when the hand ended (or, if the pool was busy, started by this visit)
    expect(card).to_have_attribute("data-status", "done", timeout=60_000)
    line = page.get_by_test_id("par-line-0")
    expect(line).to_have_attribute("data-status", "done")
    expect(line.get_by_test_id("par-value")).to_have_text(re.compile(r"^[+-]?\d+$"))
    # "par +4" / "par -3", or "level with par" when the result equals it
    expect(line.get_by_test_id("par-versus")).to_have_text(
        re.compile(r"^(par [+-]\d+|level with par)$")
    )
    expect(line.get_by_test_id("par-luck")).to_contain_text(
        re.compile(r"from winning at the start: (lucky|average|unlucky)|a winning rack")
    )
    # the result beside the par is the hand's total in the result table
    total_row = page.locator(".rv-result tfoot tr").first
    total = total_row.locator("th").nth(1).inner_text()
    result = line.get_by_test_id("par-result").inner_text()
    assert int(result) == int(total)
    # the CPUs have no par line
    for seat in (1, 2, 3):
        expect(page.get_by_test_id(f"par-line-{seat}")).to_have_count(0)

    card.scroll_into_view_if_needed()
    shot(page, "par-1366")
    no_horizontal_scroll(page)
    page.set_viewport_size({"width": 390, "height": 844})
    card.scroll_into_view_if_needed()
    expect(line.get_by_test_id("par-luck")).to_be_visible()
    shot(page, "par-390")
    no_horizontal_scroll(page)


def server_db(e2e_env: dict[str, str]) -> sqlite3.Connection:
    return sqlite3.connect(re.sub(r"^sqlite:///", "", e2e_env["DATABASE_URL"]))


def test_a_full_queue_at_the_hands_end_leaves_the_par_to_the_review(
    page: Page, daphne_server: str, e2e_env
):
    """The review's pool is full when the hand ends (running analyses written into the
    server's database): nothing is queued; the review's card says the expert is busy and
    offers to try again; once the queue has room, Try again computes the par."""
    sign_up(page, daphne_server, "par_busy")
    create_table(page, daphne_server, "classic")
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
    with server_db(e2e_env) as db:
        (hand_id,) = db.execute("SELECT MAX(id) FROM games_hand").fetchone()
        db.executemany(
            "INSERT INTO review_handanalysis (hand_id, seat, status, done, total, data,"
            " error, created, updated) VALUES (?, ?, 'running', 0, 0, '{}', '', ?, ?)",
            [(hand_id, seat, now, now) for seat in range(10, 10 + QUEUE_LIMIT)],
        )
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
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(daphne_server + link.get_attribute("href"))

    card = page.get_by_test_id("par")
    expect(card).to_have_attribute("data-status", "refused")
    expect(page.get_by_test_id("par-refused")).to_contain_text(
        "The expert is busy with other hands"
    )
    expect(page.get_by_test_id("par-line-0")).to_have_attribute("data-status", "missing")
    with server_db(e2e_env) as db:
        made = db.execute("SELECT COUNT(*) FROM review_handpar WHERE hand_id = ?", (hand_id,))
        assert made.fetchone()[0] == 0
    card.scroll_into_view_if_needed()
    shot(page, "par-busy-390")
    no_horizontal_scroll(page)
    page.set_viewport_size({"width": 1366, "height": 768})
    card.scroll_into_view_if_needed()
    shot(page, "par-busy-1366")

    with server_db(e2e_env) as db:
        db.execute("DELETE FROM review_handanalysis WHERE seat >= 10")
    page.get_by_test_id("par-retry").click()
    expect(card).to_have_attribute("data-status", "done", timeout=60_000)
    expect(page.get_by_test_id("par-line-0").get_by_test_id("par-value")).to_have_text(
        re.compile(r"^[+-]?\d+$")
    )
