"""Solo challenge and practice in a real browser: a challenge run has no "Show me"; a
practice run offers it, answers it, is played to its end and stays off the public record
board even for a player who is listed there; its result page, the score sheet and the
solo history say it was practice and how often "Show me" was used.

The seven hands of the practice run are brought to their last move on the server (each
hand, once it is the player's turn, becomes one in which the player lays the whole rack at
once, RULES.md §5 [D19]; ``games.engine.testing.make_state`` written into the server's
database) and finished through the page.

Set ``SOLO_SHOTS=/some/dir`` to save screenshots of the start form, the result page, the
board, the score sheet and the solo home at 390x844 and 1366x768.
"""

from __future__ import annotations

import os
import re
import sqlite3
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from games.engine.testing import make_state
from tests.e2e.test_okey101_e2e import with_state
from tests.e2e.test_outcome_e2e import tile_id
from tests.e2e.test_table_e2e import act
from tests.support.accounts import sign_up

pytestmark = pytest.mark.e2e

VIEWPORTS = [(390, 844), (1366, 768)]
# seventeen: the player to move holds these 15 tiles, opens with four melds and puts the
# last one down: the whole rack laid at once ends the hand (as in test_outcome_e2e)
LAY_DOWN = "R10 R11 R12 R13 K10 K11 K12 K13 Y11 Y12 Y13 B11 B12 B13 B5"
MELDS = ("R10 R11 R12 R13", "K10 K11 K12 K13", "Y11 Y12 Y13", "B11 B12 B13")
ROUNDS = 7


def shots(page: Page, name: str) -> None:
    """Screenshots of the whole page at both sizes (when SOLO_SHOTS names a folder)."""
    where = os.environ.get("SOLO_SHOTS")
    if not where:
        return
    Path(where).mkdir(parents=True, exist_ok=True)
    for w, h in VIEWPORTS:
        page.set_viewport_size({"width": w, "height": h})
        page.screenshot(path=str(Path(where) / f"{name}-{w}x{h}.png"), full_page=True)
        # nothing scrolls the page sideways
        assert page.evaluate("document.documentElement.scrollWidth") <= w, (name, w)
    page.set_viewport_size({"width": 1280, "height": 800})


def start_solo(page: Page, base: str, *, mode: str, variant: str = "seventeen") -> str:
    page.goto(f"{base}/solo/")
    page.get_by_test_id("solo-variant").select_option(variant)
    page.get_by_test_id("solo-level").select_option("easy")
    page.get_by_test_id(f"solo-mode-{mode}").check()
    page.get_by_test_id("solo-start-submit").click()
    expect(page).to_have_url(re.compile(r"/t/[\w-]+/$"))
    page.wait_for_function("() => document.body.classList.contains('ws-open')")
    return page.url.rstrip("/").rsplit("/", 1)[1]


def lay_the_whole_rack(page: Page) -> None:
    for meld in MELDS:
        for t in meld.split():
            page.click(f"#rack-grid .tile[data-id='{tile_id(page, t)}']")
        page.click("[data-stage]")
    page.click("#t-controls [data-act=open]")
    expect(page.locator("#rack-grid .tile")).to_have_count(1)
    page.click(f"#rack-grid .tile[data-id='{tile_id(page, 'B5')}']")
    page.click("#t-controls [data-act=discard]")


def add_older_record(e2e_env: dict[str, str], username: str, code: str, total: int) -> None:
    """A record row as the migration leaves one made before the modes (a challenge, not
    verified), for ``username``'s table ``code``; the player is listed on the board."""
    db = re.sub(r"^sqlite:///", "", e2e_env["DATABASE_URL"])
    with sqlite3.connect(db) as conn:
        (user_id,) = conn.execute(
            "SELECT id FROM auth_user WHERE username = ?", (username,)
        ).fetchone()
        (table_id,) = conn.execute("SELECT id FROM games_table WHERE code = ?", (code,)).fetchone()
        conn.execute("UPDATE accounts_profile SET public_records = 1 WHERE user_id = ?", (user_id,))
        conn.execute(
            "INSERT INTO solo_soloresult (user_id, table_id, variant, level, total, rounds, won,"
            " finished_at, mode, verified, hints) VALUES (?, ?, 'seventeen', 'easy', ?, 7, 1,"
            " '2026-01-05 12:00:00', 'challenge', 0, 0)",
            (user_id, table_id, total),
        )


def test_a_challenge_run_offers_no_show_me(page: Page, daphne_server: str, e2e_env):
    sign_up(page, daphne_server, "solo_challenger")
    page.goto(f"{daphne_server}/solo/")
    form = page.get_by_test_id("solo-mode")
    expect(page.get_by_test_id("solo-mode-challenge")).to_be_checked()  # the default
    expect(form).to_contain_text("No “Show me”")
    expect(form).to_contain_text("Never a record")
    shots(page, "solo-start-form")
    table_code = start_solo(page, daphne_server, mode="challenge")
    expect(page.get_by_test_id("status")).to_contain_text("Your turn")  # seat 0 starts
    expect(page.locator("#t-controls [data-act=discard]")).to_have_count(1)  # my controls
    expect(page.get_by_test_id("rules-line")).to_have_text("No engine help")
    expect(page.get_by_test_id("show-me")).to_have_count(0)
    page.goto(f"{daphne_server}/")  # the choice is remembered, on the home page too
    expect(page.get_by_test_id("solo-mode-challenge")).to_be_checked()
    shots(page, "home-solo-start")

    # an older record (before the modes): off the board unless asked for, then marked
    add_older_record(e2e_env, "solo_challenger", table_code, 321)
    page.goto(f"{daphne_server}/solo/board/")
    expect(page.get_by_test_id("board-row")).to_have_count(0)
    page.get_by_test_id("board-unverified").check()
    page.get_by_role("button", name="Show").click()
    row = page.get_by_test_id("board-row")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("Solo_Challenger")
    expect(row.get_by_test_id("board-unverified-mark")).to_have_text("unverified")
    shots(page, "board-unverified-row")


def test_a_practice_run_uses_show_me_finishes_and_stays_off_the_board(
    page: Page, daphne_server: str, e2e_env: dict[str, str]
):
    sign_up(page, daphne_server, "solo_practiser")
    page.goto(f"{daphne_server}/accounts/profile/")
    page.get_by_label(re.compile("public boards", re.I)).check()  # listed on the board
    page.locator("main form").get_by_role("button", name="Save").click()
    page.goto(f"{daphne_server}/accounts/profile/")
    expect(page.get_by_label(re.compile("public boards", re.I))).to_be_checked()

    code = start_solo(page, daphne_server, mode="practice")
    expect(page.get_by_test_id("status")).to_contain_text("Your turn")
    page.get_by_test_id("show-me").click()
    expect(page.get_by_test_id("hint")).to_be_visible(timeout=30_000)

    for number in range(ROUNDS):
        expect(page.get_by_test_id("round")).to_have_text(f"Hand {number + 1} of {ROUNDS}")
        state = make_state(
            "seventeen",
            racks=[LAY_DOWN, None, None, None],
            indicator="Y4",
            starter=number % 4,
            options={"clock": 0},
        )
        with_state(page, e2e_env, code, state)
        expect(page.get_by_test_id("show-me")).to_be_visible()  # offered on every turn
        lay_the_whole_rack(page)
        expect(page.get_by_test_id("result")).to_contain_text(
            "Game over" if number == ROUNDS - 1 else "Hand over"
        )
        if number < ROUNDS - 1:
            act(page, "[data-testid=next-hand]")

    page.get_by_test_id("solo-result-link").click()
    expect(page.get_by_test_id("solo-result")).to_be_visible()
    expect(page.get_by_test_id("solo-mode-tag")).to_have_text("Practice")
    expect(page.get_by_test_id("solo-record")).to_contain_text("never counts for records")
    expect(page.get_by_test_id("solo-hints-used")).to_have_text("You asked “Show me” on 1 turn.")
    expect(page.locator("[data-testid=solo-sheet] [data-testid=sheet-hints]")).to_have_text(
        ["Show me ×1"]
    )
    shots(page, "solo-result-practice")

    page.goto(f"{daphne_server}/t/{code}/sheet/")
    expect(page.locator(".sheet-table tbody tr")).to_have_count(ROUNDS)
    hints = page.locator(".sheet-table tbody tr").first.get_by_test_id("sheet-hints")
    expect(hints).to_have_text("Show me ×1")
    expect(page.get_by_test_id("sheet-hint-total").first).to_have_text("×1")
    shots(page, "score-sheet-practice")

    for query in ("", "?unverified=1"):
        page.goto(f"{daphne_server}/solo/board/{query}")
        # other players' records may be there (the browser tests share one server)
        expect(page.get_by_test_id("board")).not_to_contain_text("Solo_Practiser")
    shots(page, "board-unverified-filter")

    page.goto(f"{daphne_server}/solo/")
    expect(page.get_by_test_id("solo-mode-practice")).to_be_checked()  # remembered
    expect(page.get_by_test_id("best-easy")).to_have_count(0)  # no personal best
    row = page.get_by_test_id("history-row")
    expect(row).to_have_count(1)
    expect(row.get_by_test_id("history-mode")).to_have_text("Practice")
    expect(row.get_by_test_id("history-hints")).to_have_text("Show me ×1")
    shots(page, "solo-home")
