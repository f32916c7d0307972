"""The outcome dialog, a double click and the staging total, in a real browser.

A hand is brought to its last move with the engine's testing helpers
(``games.engine.testing.make_state``, written into the server's database as the
hand's cached state, which the table renders from), then finished through the
page: the dialog opens over the table with the focus in it, names the winner,
says which way the totals win, shows the finishing rack and the score lines,
closes on Escape and offers the next hand, the review and the score sheet.

Set ``OUTCOME_SHOTS=/some/dir`` to save screenshots of the dialog at 390x844 and
1366x768.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from games.engine.testing import make_state
from tests.e2e.test_table_e2e import create_table
from tests.support.accounts import sign_up
from tests.support.lobby import open_new_table_form

pytestmark = pytest.mark.e2e

# seat 0 starts (15 tiles, play phase): putting R4 down leaves 14 tiles in runs and a group
WINNING = "R1 R2 R3 R4 Y5 Y6 Y7 Y8 K9 K10 K11 K12 R13 Y13 K13"
VIEWPORTS = [(390, 844), (1366, 768)]


def shot(page: Page, name: str) -> None:
    where = os.environ.get("OUTCOME_SHOTS")
    if where:
        Path(where).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(where) / f"{name}.png"))


def put_hand_state(e2e_env: dict[str, str], code: str, state_json: dict) -> None:
    """Make ``state_json`` the current hand's state of table ``code`` in the server's
    database, and move the table's version on so the server reads it afresh."""
    db = re.sub(r"^sqlite:///", "", e2e_env["DATABASE_URL"])
    with sqlite3.connect(db) as conn:
        (table_id,) = conn.execute("SELECT id FROM games_table WHERE code = ?", (code,)).fetchone()
        conn.execute(
            "UPDATE games_hand SET state = ? WHERE table_id = ? AND number = "
            "(SELECT MAX(number) FROM games_hand WHERE table_id = ?)",
            (json.dumps(state_json), table_id, table_id),
        )
        conn.execute(
            "UPDATE games_table SET version = version + 1, cpu_due_at = NULL,"
            " turn_deadline = NULL, updated_at = datetime('now') WHERE id = ?",
            (table_id,),
        )


def table_with_state(page: Page, base: str, e2e_env: dict, user: str, variant: str, state):
    sign_up(page, base, user)
    create_table(page, base, variant, **({"clock": "0"} if variant == "fifty-one" else {}))
    expect(page.get_by_test_id("status")).to_contain_text("Your turn")  # CPUs wait for us
    code = page.locator(".table-page").get_attribute("data-code")
    put_hand_state(e2e_env, code, state.to_json())
    page.reload()
    page.wait_for_function("() => document.body.classList.contains('ws-open')")
    return code


def tile_id(page: Page, t: str) -> str:
    return page.locator(f"#rack-grid .tile[data-t='{t}']").first.get_attribute("data-id")


def test_the_outcome_dialog_at_the_end_of_a_hand(page: Page, daphne_server: str, e2e_env):
    state = make_state(
        "classic", racks=[WINNING, None, None, None], indicator="B4", turns_done=[0, 0, 0, 0]
    )
    table_with_state(page, daphne_server, e2e_env, "outcome_winner", "classic", state)
    expect(page.locator("#outcome-dialog")).to_have_count(0)
    page.click(f"#rack-grid .tile[data-id='{tile_id(page, 'R4')}']")
    page.click("#t-controls [data-act=close]")

    dialog = page.locator("#outcome-dialog")
    expect(dialog).to_be_visible()
    assert dialog.evaluate("d => d.open && d.matches(':modal')")
    # the focus is inside the dialog, on its first action
    expect(page.get_by_test_id("next-hand")).to_be_focused()
    expect(page.get_by_role("dialog", name="Outcome_Winner wins the hand.")).to_be_visible()
    expect(dialog.get_by_test_id("outcome-direction")).to_have_text("The highest total wins.")
    expect(dialog.get_by_test_id("result-text")).to_contain_text("Outcome_Winner closed the hand")
    # the finishing rack: the shown melds and the tile put down
    expect(dialog.locator("[data-testid=outcome-rack] .outcome-group")).to_have_count(4)
    expect(dialog.locator(".outcome-last .tile")).to_have_count(1)
    # classic counts down from 20: every other player loses 2 for a plain close
    expect(dialog.get_by_test_id("outcome-total-0")).to_have_text("20")
    for seat in (1, 2, 3):
        expect(dialog.get_by_test_id(f"outcome-total-{seat}")).to_have_text("18")
        expect(dialog.get_by_test_id(f"outcome-seat-{seat}")).to_contain_text("Hand closed")
    expect(dialog.get_by_test_id("outcome-seat-0")).to_contain_text("No points this hand")
    assert re.search(
        r"/review/hand/\d+/$", dialog.get_by_test_id("review-hand").get_attribute("href")
    )
    assert dialog.get_by_test_id("outcome-sheet").get_attribute("href").endswith("/sheet/")
    for w, h in VIEWPORTS:
        page.set_viewport_size({"width": w, "height": h})
        box = dialog.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= w, (w, h, box)
        assert box["y"] >= 0 and box["y"] + box["height"] <= h, (w, h, box)
        assert dialog.evaluate("d => d.scrollWidth <= d.clientWidth"), (w, h)
        shot(page, f"outcome-{w}x{h}")
    page.set_viewport_size({"width": 1366, "height": 768})

    # Escape closes it; the page offers it again; the running scores open the same way
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    page.get_by_test_id("outcome-open").click()
    expect(dialog).to_be_visible()
    page.keyboard.press("Escape")
    page.get_by_test_id("standings-open").click()
    standings = page.locator("#standings-dialog")
    expect(standings).to_be_visible()
    expect(standings.get_by_test_id("standings-direction")).to_have_text("The highest total wins.")
    expect(standings.get_by_test_id("standing-total-1")).to_have_text("18")
    for w, h in VIEWPORTS:
        page.set_viewport_size({"width": w, "height": h})
        box = standings.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= w, (w, h, box)
        # the table of totals fits the dialog: nothing to scroll sideways
        assert standings.evaluate("d => d.scrollWidth <= d.clientWidth"), (w, h)
        shot(page, f"standings-{w}x{h}")
    page.keyboard.press("Escape")
    expect(standings).to_be_hidden()

    # a reload shows the dialog again while the hand is over; Next hand deals anew
    page.reload()
    expect(dialog).to_be_visible()
    page.get_by_test_id("next-hand").click()
    expect(page.locator("#outcome-dialog")).to_have_count(0)
    expect(page.locator("#rack-grid .tile")).to_have_count(14)  # seat 1 starts hand 2


def test_a_double_click_on_the_pile_draws_once_and_shows_no_error(
    page: Page, daphne_server: str, e2e_env
):
    state = make_state("classic", racks=[None, None, None, None], indicator="B4", turn=0)
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(payload)))
    table_with_state(page, daphne_server, e2e_env, "double_clicker", "classic", state)
    expect(page.locator("#rack-grid .tile")).to_have_count(14)
    pile = page.get_by_test_id("draw-pile")
    expect(pile).to_be_enabled()
    pile.dblclick()
    expect(page.locator("#rack-grid .tile")).to_have_count(15)
    expect(page.get_by_test_id("status")).to_contain_text("discard a tile")
    expect(page.locator("[data-testid=message] [data-code]")).to_have_count(0)
    draws = [f for f in sent if '"draw"' in f]
    assert len(draws) == 1, draws  # the second click was not sent


def test_staging_shows_its_total_against_the_opening_and_survives_a_refusal(
    page: Page, daphne_server: str, e2e_env
):
    state = make_state(
        "fifty-one",
        racks=["R10 R11 R12 K7 Y7 B7 B1 B2 Y9 K3 K5 R2 R5 Y11 B13", None, None, None],
        indicator="B4",
        options={"clock": 0},
    )
    table_with_state(page, daphne_server, e2e_env, "stager", "fifty-one", state)
    for t in ("R10", "R11", "R12"):
        page.click(f"#rack-grid .tile[data-id='{tile_id(page, t)}']")
    page.click("[data-stage]")
    total = page.get_by_test_id("staging-total")
    expect(total).to_have_text("33 of 51 needed to open · 18 more")
    # the opening falls short: refused, and the staged meld is still there
    page.click("#t-controls [data-act=open]")
    expect(page.locator("[data-testid=message] [data-code=below_opening_limit]")).to_have_text(
        "Your opening totals 33; it needs at least 51."
    )
    expect(page.locator("#staging .staged")).to_have_count(1)
    expect(total).to_have_text("33 of 51 needed to open · 18 more")
    for t in ("K7", "Y7", "B7"):
        page.click(f"#rack-grid .tile[data-id='{tile_id(page, t)}']")
    page.click("[data-stage]")
    expect(total).to_have_text("54 of 51 needed to open")
    shot(page, "staging-1366x768")
    page.click("#t-controls [data-act=open]")
    expect(page.locator(".meld[data-owner='0']")).to_have_count(2)
    expect(page.locator("#staging .staged")).to_have_count(0)


def test_the_end_of_the_game_names_its_winner_and_the_places(
    page: Page, daphne_server: str, e2e_env
):
    state = make_state(
        "fifty-one",
        racks=["R10 R11 R12 R13 K10 K11 K12 K13 Y11 Y12 Y13 B11 B12 B13 B5", None, None, None],
        indicator="Y4",
        options={"clock": 0},
    )
    table_with_state(page, daphne_server, e2e_env, "game_winner", "fifty-one", state)
    for meld in ("R10 R11 R12 R13", "K10 K11 K12 K13", "Y11 Y12 Y13", "B11 B12 B13"):
        for t in meld.split():
            page.click(f"#rack-grid .tile[data-id='{tile_id(page, t)}']")
        page.click("[data-stage]")
    expect(page.get_by_test_id("staging-total")).to_have_text("164 of 51 needed to open")
    page.click("#t-controls [data-act=open]")
    expect(page.locator("#rack-grid .tile")).to_have_count(1)
    page.click(f"#rack-grid .tile[data-id='{tile_id(page, 'B5')}']")
    page.click("#t-controls [data-act=discard]")

    dialog = page.get_by_role("dialog", name="Game_Winner wins the game.")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_test_id("sheet-link")).to_be_focused()
    expect(dialog.get_by_test_id("outcome-direction")).to_have_text("The lowest total wins.")
    expect(dialog.get_by_test_id("result-text")).to_have_text("Game_Winner finished the hand.")
    places = dialog.locator("[data-testid=places] li")
    expect(places).to_have_count(4)
    expect(places.first).to_contain_text("1. Game_Winner -500")
    for i in (1, 2, 3):
        expect(places.nth(i)).to_contain_text("2.")  # the three others share second place
        expect(places.nth(i)).to_contain_text("500")
    expect(dialog.get_by_test_id("outcome-seat-1")).to_contain_text("Never opened")
    expect(dialog.get_by_test_id("next-hand")).to_have_count(0)  # no hand follows
    for w, h in VIEWPORTS:
        page.set_viewport_size({"width": w, "height": h})
        box = dialog.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= h, (w, h, box)
        # the way on (score sheet, review) is on screen without scrolling the dialog
        sheet = dialog.get_by_test_id("sheet-link").bounding_box()
        assert sheet["y"] >= box["y"] and sheet["y"] + sheet["height"] <= box["y"] + box["height"]
        shot(page, f"game-over-{w}x{h}")


LAY_DOWN = "R10 R11 R12 R13 K10 K11 K12 K13 Y11 Y12 Y13 B11 B12 B13 B5"


@pytest.mark.parametrize(
    ("variant", "direction", "totals"),
    [
        ("rummy", "The highest total wins.", ["3", "0", "0", "0"]),  # the closer scores 3
        # seventeen, okey yellow: base 600; the whole rack laid at once [D19]
        ("seventeen", "The lowest total wins.", ["-60", "2400", "2400", "2400"]),
    ],
)
def test_the_outcome_dialog_in_the_other_rule_sets(
    page: Page, daphne_server: str, e2e_env, variant, direction, totals
):
    if variant == "rummy":
        state = make_state(
            variant, racks=[WINNING, None, None, None], indicator="B4", turns_done=[0, 0, 0, 0]
        )
    else:
        state = make_state(variant, racks=[LAY_DOWN, None, None, None], indicator="Y4")
    user = f"{variant}_winner"
    table_with_state(page, daphne_server, e2e_env, user, variant, state)
    if variant == "rummy":
        page.click(f"#rack-grid .tile[data-id='{tile_id(page, 'R4')}']")
        page.click("#t-controls [data-act=close]")
    else:
        for meld in ("R10 R11 R12 R13", "K10 K11 K12 K13", "Y11 Y12 Y13", "B11 B12 B13"):
            for t in meld.split():
                page.click(f"#rack-grid .tile[data-id='{tile_id(page, t)}']")
            page.click("[data-stage]")
        expect(page.get_by_test_id("staging-total")).to_have_text("50 of 17 needed to open")
        page.click("#t-controls [data-act=open]")
        expect(page.locator("#rack-grid .tile")).to_have_count(1)
        page.click(f"#rack-grid .tile[data-id='{tile_id(page, 'B5')}']")
        page.click("#t-controls [data-act=discard]")
    dialog = page.get_by_role("dialog", name=f"{user.title()} wins the hand.")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_test_id("outcome-direction")).to_have_text(direction)
    for seat, total in enumerate(totals):
        expect(dialog.get_by_test_id(f"outcome-total-{seat}")).to_have_text(total)
    expect(dialog.get_by_test_id("next-hand")).to_be_focused()
    shot(page, f"outcome-{variant}-1366x768")


def test_the_invite_card_goes_for_the_host_when_the_friend_fills_the_table(
    browser: Browser, daphne_server: str
):
    host_ctx, guest_ctx = browser.new_context(), browser.new_context()
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    sign_up(host, daphne_server, "inviting_host")
    host.goto(f"{daphne_server}/")
    open_new_table_form(host)
    host.select_option("#id_variant", "rummy")
    host.select_option("select[name='rummy__players']", "2")
    host.select_option("#id_seat_1", "human")
    host.get_by_test_id("create-submit").click()
    host.wait_for_function("() => document.body.classList.contains('ws-open')")
    card = host.locator(".invite")
    expect(card).to_be_visible()
    guest.goto(host.locator(".invite-link").input_value())
    guest.get_by_role("button", name="Take a seat").click()
    expect(guest.locator("#rack-grid .tile")).to_have_count(14)
    expect(guest.locator(".invite")).to_have_count(0)
    # the host's page never reloaded: the card went with the frame that started the hand
    expect(card).to_have_count(0)
    expect(host.locator("#rack-grid .tile")).to_have_count(15)
    host_ctx.close()
    guest_ctx.close()


# counts, from before the page's own scripts run, how often the socket's frames replaced
# the version input (every frame carries it) and the outcome (``#t-result``)
COUNT_SWAPS = """
window.__swaps = {"act-version": 0, "t-result": 0};
new MutationObserver(function (records) {
  records.forEach(function (r) {
    r.removedNodes.forEach(function (n) {
      if (n.id && n.id in window.__swaps) window.__swaps[n.id] += 1;
    });
  });
}).observe(document, {childList: true, subtree: true});
"""


def test_a_watcher_at_a_finished_hand_follows_a_seat_from_the_outcome(
    page: Page, browser: Browser, daphne_server: str, e2e_env
):
    state = make_state(
        "classic", racks=[WINNING, None, None, None], indicator="B4", turns_done=[0, 0, 0, 0]
    )
    code = table_with_state(page, daphne_server, e2e_env, "followed_winner", "classic", state)
    page.click(f"#rack-grid .tile[data-id='{tile_id(page, 'R4')}']")
    page.click("#t-controls [data-act=close]")
    expect(page.locator("#outcome-dialog")).to_be_visible()

    watcher_ctx = browser.new_context()
    watcher = watcher_ctx.new_page()
    watcher.add_init_script(COUNT_SWAPS)
    watcher.goto(f"{daphne_server}/t/{code}/")
    dialog = watcher.locator("#outcome-dialog")
    expect(dialog).to_be_visible()
    # the page itself offers the seats to follow, and no replay (a watcher gets none)
    expect(dialog.get_by_test_id("follow-0")).to_have_text("Followed_Winner")
    expect(dialog.get_by_test_id("review-hand")).to_have_count(0)
    watcher.wait_for_function("() => document.body.classList.contains('ws-open')")
    # the socket's first frame has come (it always brings the version input) and left
    # the outcome dialog as the page drew it
    watcher.wait_for_function("() => window.__swaps['act-version'] >= 1")
    assert watcher.evaluate("() => window.__swaps['t-result']") == 0
    expect(dialog).to_be_visible()

    # following the winner shows their finished rack and points in the dialog
    dialog.get_by_test_id("follow-0").click()
    followed = watcher.locator("#outcome-dialog [data-testid=followed]")
    expect(followed).to_have_attribute("data-seat", "0")
    # the 14 tiles that closed (R4 went down as the 15th)
    expect(followed.locator("[data-testid=followed-rack] .tile")).to_have_count(14)
    expect(watcher.get_by_test_id("follow-0")).to_have_attribute("aria-pressed", "true")
    for w, h in VIEWPORTS:
        watcher.set_viewport_size({"width": w, "height": h})
        box = watcher.locator("#outcome-dialog").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= w, (w, h, box)
        assert watcher.locator("#outcome-dialog").evaluate("d => d.scrollWidth <= d.clientWidth"), (
            w,
            h,
        )
        shot(watcher, f"outcome-watcher-{w}x{h}")
    watcher_ctx.close()
