"""The Content-Security-Policy in a real browser: with scripts from our static files only
(script-src 'self', no inline script, no event-handler attribute, no eval) every page still
works, and the browser reports no violation and logs nothing.

One player goes through the pages whose scripts moved to static/js/: the lobby (language
menu, new-table form), a table (moves over the websocket), the score sheet, the replay and the
game's page, a table waiting for a friend (invite link), a tournament's desk (the settings
form, a confirmation) and its live public page."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.e2e.test_table_e2e import (
    create_table,
    draw_if_needed,
    wait_my_turn_or_end,
    worst_tile,
)
from tests.support.accounts import sign_up
from tests.support.lobby import open_new_table_form

pytestmark = pytest.mark.e2e

REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", function (e) {
  window.__cspViolation([e.violatedDirective, e.blockedURI, e.sourceFile, e.lineNumber].join(" "));
});
"""


class Watch:
    """Everything the browser says about a context's pages: console messages, uncaught
    errors, CSP violations and failed responses."""

    def __init__(self, context: BrowserContext) -> None:
        self.problems: list[str] = []
        context.expose_function("__cspViolation", lambda text: self.problems.append(f"csp {text}"))
        context.add_init_script(REPORT_VIOLATIONS)
        context.on("page", self.watch)
        for page in context.pages:
            self.watch(page)

    def watch(self, page: Page) -> None:
        page.on("console", lambda m: self.problems.append(f"console {m.type} {m.text}"))
        page.on("pageerror", lambda e: self.problems.append(f"pageerror {e}"))
        page.on(
            "response",
            lambda r: r.status >= 400 and self.problems.append(f"http {r.status} {r.url}"),
        )


def drag_discard(page: Page, tile_id: int) -> None:
    """Drag the tile from the rack onto the player's discard zone, as a mouse does."""
    tile = page.locator(f"#rack-grid .tile[data-id='{tile_id}']")
    src = tile.bounding_box()
    dst = page.get_by_test_id("discard-zone").bounding_box()
    assert src and dst
    page.mouse.move(src["x"] + src["width"] / 2, src["y"] + src["height"] / 2)
    page.mouse.down()
    page.mouse.move(dst["x"] + 5, dst["y"] + 5, steps=8)
    page.mouse.move(dst["x"] + dst["width"] / 2, dst["y"] + dst["height"] / 2, steps=8)
    page.mouse.up()
    expect(tile).to_have_count(0)  # the discard was accepted: the tile left the rack


def test_every_page_works_under_the_policy(page: Page, daphne_server: str):
    base = daphne_server
    watch = Watch(page.context)

    # The policy is the one the server sends (not a meta tag the test could miss).
    response = page.goto(f"{base}/")
    policy = response.headers["content-security-policy"]
    assert "script-src 'self';" in policy + ";"
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy

    # The language menu switches at once (static/js/site.js), and back.
    page.select_option("#language-select", "de")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    page.select_option("#language-select", "en")
    expect(page.locator("html")).to_have_attribute("lang", "en")

    # The favicon the page names is there (a 404 would be a failed response).
    icon = page.locator("link[rel=icon]").get_attribute("href")
    assert page.request.get(base + icon).ok
    assert page.request.get(f"{base}/favicon.ico").ok  # redirected to the same icon

    # A guest's first minute: "Play now" deals a table at once; the lessons' list and a
    # lesson table (its panel) render under the policy too.
    page.get_by_test_id("play-cpu").click()
    expect(page.locator("#rack-grid .tile").first).to_be_visible()
    page.goto(f"{base}/learn/")
    page.get_by_test_id("learn-start-classic").click()
    expect(page.get_by_test_id("lesson-step")).to_be_visible()

    sign_up(page, base, "csp_player")

    # The new-table form shows the chosen rule set's options only (static/js/new-table.js).
    page.goto(f"{base}/")
    open_new_table_form(page)
    page.select_option("#id_variant", "fifty-one")
    expect(page.locator(".variant-options[data-variant='fifty-one']")).to_be_visible()
    expect(page.locator(".variant-options[data-variant='classic']")).to_be_hidden()

    # A table: moves go over the websocket (connect-src 'self'); the hand is played out by
    # dragging each discard onto the discard zone (static/js/table.js's drag and drop).
    create_table(page, base, "classic")
    table_url = page.url
    code = re.search(r"/t/([\w-]+)/$", table_url).group(1)
    turns = 0
    while wait_my_turn_or_end(page):
        draw_if_needed(page)
        if page.locator("#t-result.show").count():
            break
        drag_discard(page, worst_tile(page))
        turns += 1
        assert turns < 40
    expect(page.get_by_test_id("result")).to_contain_text("Hand over")
    review_href = page.get_by_test_id("review-hand").get_attribute("href")

    page.goto(table_url + "sheet/")
    expect(page.get_by_test_id("score-sheet")).to_be_visible()

    # The replay steps (static/js/review.js) and loads the commentary (htmx, hx-trigger=load).
    page.goto(base + review_href)
    page.get_by_test_id("rv-next").click()
    expect(page.get_by_test_id("rv-step")).to_have_text("1")
    expect(page.get_by_test_id("rv-commentary").locator("*").first).to_be_attached()

    # The game's page.
    page.goto(f"{base}/review/game/{code}/")
    expect(page.get_by_test_id("share")).to_be_visible()

    # A table waiting for a friend: its invite link is selected with one click (site.js).
    page.goto(f"{base}/")
    open_new_table_form(page)
    page.select_option("select[name=seat_1]", "human")
    page.get_by_test_id("create-submit").click()
    invite = page.locator("input.invite-link")
    invite.click()
    selected = invite.evaluate("el => el.value.substring(el.selectionStart, el.selectionEnd)")
    assert selected == invite.input_value() and selected.startswith("http")

    # A tournament: the settings form adapts (static/js/tournament-form.js) ...
    page.goto(f"{base}/tournaments/new/")
    page.locator("#id_name").fill("Policy cup")
    online_only = page.locator("[data-online-only]")  # the away-seat rule, the fill seats' level
    page.select_option("#id_mode", "online")
    expect(online_only).to_have_count(2)
    for i in range(2):
        expect(online_only.nth(i)).to_be_visible()
    page.select_option("#id_mode", "in_person")
    for i in range(2):
        expect(online_only.nth(i)).to_be_hidden()
    page.locator("#id_published").check()
    page.get_by_test_id("tournament-create").click()
    expect(page).to_have_url(re.compile(r"/tournaments/\d+/desk/$"))
    desk_url = page.url
    form = page.get_by_test_id("entry-form")
    for name in ("Ada", "Bora"):
        form.locator("input[name=name]").fill(name)
        form.get_by_test_id("entry-add").click()
        expect(page.locator(f"[data-testid=entry-row][data-name='{name}']")).to_have_count(1)

    # ... a removal asks first (data-confirm in site.js): dismissed, nothing happens;
    # accepted, the entry goes.
    dialogs: list[str] = []

    def answer(dialog, accept: bool) -> None:
        dialogs.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    row = page.locator("[data-testid=entry-row][data-name='Bora']")
    page.once("dialog", lambda d: answer(d, accept=False))
    row.get_by_test_id("entry-remove").click()
    expect(page.get_by_test_id("entry-row")).to_have_count(2)
    page.once("dialog", lambda d: answer(d, accept=True))
    row.get_by_test_id("entry-remove").click()
    expect(page.get_by_test_id("entry-row")).to_have_count(1)
    assert dialogs == ["Remove Bora from the tournament?"] * 2

    # ... and its public page goes live over its websocket (static/js/tournament-live.js).
    page.goto(desk_url.replace("/desk/", "/"))
    page.wait_for_function("() => document.body.dataset.live === 'open'")

    # A page that is not there: the site's 404 page, under the same policy. Its response is
    # the one failure expected.
    page.goto(f"{base}/no/such/page/")
    expect(page.get_by_test_id("error-404")).to_be_visible()
    expected_404 = [f"http 404 {base}/no/such/page/"]
    unexpected = [p for p in watch.problems if p not in expected_404]
    console_404 = [p for p in unexpected if p.startswith("console error Failed to load")]
    assert len(console_404) <= 1  # Chromium logs the 404 of the page itself
    assert [p for p in unexpected if p not in console_404] == []
