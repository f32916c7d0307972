"""The socket's first frame swaps nothing the page already shows, in a real browser.

The socket is routed through Playwright (``page.route_web_socket``) so the test says
when the server's frames reach the page: the page is loaded, the player scrolls the
outcome dialog or moves the focus, and only then does the first frame arrive. It must
leave the dialog (the same element, open, scrolled where it was) and the focus alone.
A reconnect after frames the page never got (moves it missed) brings the page to what
a fresh load shows.

Set ``FIRST_FRAME_SHOTS=/some/dir`` to save screenshots at 390x844 and 1366x768.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from games.engine.testing import make_state
from tests.e2e.test_outcome_e2e import WINNING, table_with_state, tile_id

pytestmark = pytest.mark.e2e

VIEWPORTS = [(390, 844), (1366, 768)]
COUNT_FRAMES = (
    "window.okeyFrames = 0;"
    "document.addEventListener('htmx:wsAfterMessage', () => { window.okeyFrames += 1; });"
    "window.okeyOpens = 0;"
    "document.addEventListener('htmx:wsOpen', () => {"
    " window.okeyOpens += 1; window.okeyFramesAtOpen = window.okeyFrames; });"
)


def shot(page: Page, name: str) -> None:
    where = os.environ.get("FIRST_FRAME_SHOTS")
    if where:
        Path(where).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(where) / f"{name}.png"))


class Gate:
    """The table's socket, routed: the server's frames wait here until released (or
    are dropped: frames the page misses)."""

    def __init__(self, page: Page) -> None:
        self.urls: list[str] = []
        self.held: list[str | bytes] = []
        self.holding, self.dropping = True, False
        self.route: WebSocketRoute | None = None
        page.route_web_socket(re.compile(r"/ws/t/"), self._connect)

    def _connect(self, ws: WebSocketRoute) -> None:
        self.urls.append(ws.url)
        self.route, self.dropping = ws, False  # a new socket hears everything
        server = ws.connect_to_server()

        def from_server(message: str | bytes) -> None:
            if self.dropping or ws is not self.route:
                return
            if self.holding:
                self.held.append(message)
            else:
                ws.send(message)

        server.on_message(from_server)

    def release(self) -> None:
        self.holding = False
        held, self.held = self.held, []
        for message in held:
            self.route.send(message)

    def seen(self) -> str:
        return parse_qs(urlparse(self.urls[-1]).query).get("seen", [""])[0]


def frames(page: Page) -> int:
    return page.evaluate("() => window.okeyFrames")


@pytest.mark.parametrize(("width", "height"), VIEWPORTS)
def test_the_first_frame_leaves_the_outcome_dialog_and_the_focus_alone(
    page: Page, daphne_server: str, e2e_env, width: int, height: int
):
    page.set_viewport_size({"width": width, "height": height})
    state = make_state(
        "classic", racks=[WINNING, None, None, None], indicator="B4", turns_done=[0, 0, 0, 0]
    )
    code = table_with_state(page, daphne_server, e2e_env, f"first_{width}", "classic", state)
    page.add_init_script(COUNT_FRAMES)
    gate = Gate(page)

    # during the hand: the focus on a rack tile (the rack's roving tab stop)
    page.reload()
    page.wait_for_function("() => document.body.classList.contains('ws-open')")
    tile = page.locator("#rack-grid .tile").nth(3)
    tile.focus()
    page.evaluate("() => { window.okeyFocused = document.activeElement; }")
    assert gate.seen().startswith("en|") and "rack=" in gate.seen()
    gate.release()
    page.wait_for_function("() => window.okeyFrames > 0")
    assert page.evaluate("() => document.activeElement === window.okeyFocused")
    assert page.evaluate("() => document.getElementById('rack-grid').contains(window.okeyFocused)")

    # the hand ends; a reload opens the dialog by itself
    page.click(f"#rack-grid .tile[data-id='{tile_id(page, 'R4')}']")
    page.click("#t-controls [data-act=close]")
    expect(page.locator("#outcome-dialog")).to_be_visible()
    gate.holding = True
    page.reload()
    page.wait_for_function("() => document.body.classList.contains('ws-open')")
    dialog = page.locator("#outcome-dialog")
    expect(dialog).to_be_visible()
    # the player opens "All racks", scrolls and moves the focus to "Review this hand"
    dialog.locator(".outcome-revealed summary").click()
    dialog.get_by_test_id("review-hand").focus()
    dialog.evaluate("d => { d.scrollTop = 120; window.okeyDialog = d; }")
    top = dialog.evaluate("d => d.scrollTop")
    assert top > 0  # the dialog scrolls at this size with the racks shown
    page.evaluate("() => { window.okeyFocused = document.activeElement; }")
    gate.release()
    page.wait_for_function("() => window.okeyFrames > 0")
    shot(page, f"first-frame-outcome-{width}x{height}")
    assert page.evaluate("() => document.getElementById('outcome-dialog') === window.okeyDialog")
    assert dialog.evaluate("d => d.open")
    assert dialog.evaluate("d => d.scrollTop") == top
    assert dialog.evaluate("d => d.querySelector('.outcome-revealed').open")
    assert page.evaluate("() => document.activeElement === window.okeyFocused")
    assert code


def test_a_reconnect_after_missed_moves_shows_what_a_fresh_page_shows(
    page: Page, daphne_server: str, e2e_env
):
    """The player discards; the frames of that move and of the CPUs' moves after it
    never reach the page (dropped); the socket closes (1012: the htmx extension
    reconnects by itself) and the new socket's first frame brings every stale fragment:
    the page then shows what a fresh load of it shows."""
    from tests.e2e.test_table_e2e import create_table
    from tests.support.accounts import sign_up

    page.set_viewport_size({"width": 1366, "height": 768})
    sign_up(page, daphne_server, "first_reconnect")
    create_table(page, daphne_server, "classic")
    page.add_init_script(COUNT_FRAMES)
    gate = Gate(page)
    page.reload()
    page.wait_for_function("() => document.body.classList.contains('ws-open')")
    gate.release()
    page.wait_for_function("() => window.okeyFrames > 0")
    expect(page.get_by_test_id("status")).to_contain_text("Your turn")
    before = page.locator("#t-scores").inner_html()
    gate.dropping = True
    page.locator("#rack-grid .tile").first.click()
    page.click("#t-controls [data-act=discard]")
    # the move was applied (and the CPUs played on) though the page heard nothing
    fresh = page.context.new_page()
    fresh.goto(page.url)
    expect(fresh.get_by_test_id("status")).to_contain_text("Your turn")
    assert page.locator("#t-scores").inner_html() == before  # the page is stale
    seen_then = page.locator("#act-version").get_attribute("data-seen")
    reconnects = len(gate.urls)
    gate.route.close(code=1012, reason="restart")  # still dropping: nothing comes before
    page.wait_for_function(
        "() => window.okeyOpens > 1 && window.okeyFrames > window.okeyFramesAtOpen",
        timeout=15_000,
    )
    assert len(gate.urls) == reconnects + 1
    assert gate.seen() == seen_then  # what the page showed when its socket closed
    expect(page.get_by_test_id("status")).to_contain_text("Your turn")
    for selector in ("#t-scores", "#center", "#opp-1", "#opp-2", "#opp-3", "#t-controls"):
        assert page.locator(selector).inner_html() == fresh.locator(selector).inner_html()
    ids = "els => els.map(e => e.dataset.id)"
    assert page.eval_on_selector_all("#rack-grid .tile", ids) == fresh.eval_on_selector_all(
        "#rack-grid .tile", ids
    )
    shot(page, "first-frame-reconnected-1366x768")
