"""The table on a phone held upright: rack tiles at least 32 CSS px wide and the tap
targets (the action bar's buttons, the draw pile, the discard drop zone) at least 44 px
high at 390x844 and 360x740, the score chips naming every player without clipping; the
invite card as the invited friend sees it ("Ayşe invites you to a Classic table", Take a
seat) and the host's Copy and Share buttons; a watcher's four seats around the felt as a
player's are.

Held sideways (844x390, 740x360) the score chips still name every player: each name
whole, or cut with an ellipsis and whole in the chip's title. In German, the long labels
of a fifty-one table's action bar stay inside their buttons at 390x844.

Set ``PHONE_SHOTS=/some/dir`` to save screenshots of each situation at 390x844, 360x740,
844x390, 740x360 and 1366x768.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from games.engine.testing import make_state
from tests.e2e.test_table_e2e import act
from tests.e2e.test_table_layout_e2e import (
    CROWDED,
    MUST_SEE,
    PLAY_PHASE,
    layout_problems,
    put_hand_state,
)
from tests.support.accounts import sign_up

pytestmark = pytest.mark.e2e

PHONES = [(390, 844), (360, 740)]
SIDEWAYS = [(844, 390), (740, 360)]
SHOT_SIZES = [(390, 844), (360, 740), (844, 390), (740, 360), (1366, 768)]
TILE_MIN_WIDTH = 32
TAP_MIN_HEIGHT = 44


def resize(page: Page, width: int, height: int) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_function(f"() => window.innerWidth === {width}")


def shots(page: Page, name: str) -> None:
    where = os.environ.get("PHONE_SHOTS")
    if not where:
        return
    Path(where).mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    for width, height in SHOT_SIZES:
        resize(page, width, height)
        page.screenshot(path=str(Path(where) / f"{name}-{width}x{height}.png"))
    resize(page, size["width"], size["height"])


def new_table(page: Page, base: str, variant: str, **options: str) -> None:
    """Create a table from the lobby's new-table form (opened first where it is folded)."""
    page.goto(f"{base}/")
    fold = page.locator("details#new-table:not([open]) > summary")
    if fold.count():
        fold.click()
    page.select_option("#id_variant", variant)
    for key, value in options.items():
        if key.startswith("seat_"):
            page.select_option(f"#id_{key}", value)
        else:
            page.select_option(f"select[name='{variant}__{key}']", value)
    page.get_by_test_id("create-submit").click()
    expect(page).to_have_url(re.compile(r"/t/[\w-]+/$"))


def ws_open(page: Page) -> None:
    page.wait_for_function("() => document.body.classList.contains('ws-open')")


def boxes(page: Page, selector: str) -> list[dict]:
    return page.eval_on_selector_all(
        selector,
        """els => els.filter(e => e.offsetParent !== null).map(e => {
             const r = e.getBoundingClientRect();
             return {what: e.dataset.testid || e.dataset.act || e.className,
                     width: r.width, height: r.height}; })""",
    )


def clipped_names(page: Page) -> list[str]:
    """Names in the score chips that are cut short without the full name on offer (the
    chip's title) or without an ellipsis to say so, and the chip row itself when it runs
    past its box (a chip scrolled out of sight)."""
    return page.evaluate(
        """() => {
          const row = document.querySelector('#t-scores');
          const out = [];
          if (row.scrollWidth > row.clientWidth + 1) {
            out.push('the row: ' + row.scrollWidth + ' > ' + row.clientWidth);
          }
          row.querySelectorAll('.name').forEach(n => {
            const cut = n.scrollWidth > n.clientWidth + 1;
            const full = n.closest('li').getAttribute('title') === n.textContent.trim();
            const ellipsis = getComputedStyle(n).textOverflow === 'ellipsis';
            if (cut && !(full && ellipsis)) out.push(n.textContent);
          });
          return out;
        }"""
    )


def phone_problems(page: Page, selectors: dict[str, str]) -> list[str]:
    problems = []
    for width, height in PHONES:
        resize(page, width, height)
        where = f"at {width}x{height}"
        tiles = boxes(page, "#rack-grid .tile")
        assert tiles, "no tiles in the rack"
        problems += [
            f"{where}: a rack tile {t['width']:.1f} px wide"
            for t in tiles
            if t["width"] < TILE_MIN_WIDTH
        ]
        taps = boxes(
            page,
            "#t-controls .buttons .button, [data-testid=draw-pile], [data-testid=discard-zone]",
        )
        assert len(taps) >= 4, taps
        problems += [
            f"{where}: {t['what']} {t['height']:.1f} px high"
            for t in taps
            if t["height"] < TAP_MIN_HEIGHT
        ]
        problems += [f"{where}: score chip clipped: {n}" for n in clipped_names(page)]
        problems += [f"{where}: {p}" for p in layout_problems(page, selectors)]
    return problems


def test_a_phone_gets_big_tiles_and_tap_targets_during_a_hand(page: Page, daphne_server: str):
    sign_up(page, daphne_server, "phone_player_with_a_long_name")
    new_table(page, daphne_server, "classic", clock="0")
    ws_open(page)
    expect(page.get_by_test_id("status")).to_have_text("Your turn: discard a tile to end it.")
    shots(page, "play-your-turn")
    problems = phone_problems(page, {**MUST_SEE, **PLAY_PHASE})
    # the rack's tiles still move: a tap selects, the discard button sends it
    page.locator("#rack-grid .tile").first.click()
    act(page, "#t-controls [data-act=discard]")
    expect(page.get_by_test_id("status")).to_contain_text("Your turn: draw", timeout=60_000)
    problems += phone_problems(page, MUST_SEE)
    assert not problems, "\n".join(problems)


def test_a_phone_held_sideways_names_every_player_in_the_score_chips(
    page: Page, daphne_server: str
):
    sign_up(page, daphne_server, "sideways_player_with_a_long_name")
    new_table(page, daphne_server, "classic", clock="0")
    ws_open(page)
    expect(page.get_by_test_id("status")).to_have_text("Your turn: discard a tile to end it.")
    expect(page.locator("#t-scores li")).to_have_count(4)
    shots(page, "sideways-chips")
    problems = []
    for width, height in SIDEWAYS:
        resize(page, width, height)
        where = f"at {width}x{height}"
        problems += [f"{where}: score chip clipped: {n}" for n in clipped_names(page)]
        # each chip shows some of its name, and its total whole
        chips = page.eval_on_selector_all(
            "#t-scores li",
            """els => els.map(li => {
                 const n = li.querySelector('.name'), b = li.querySelector('b');
                 return [li.title, n.getBoundingClientRect().width,
                         b.scrollWidth <= b.clientWidth + 1]; })""",
        )
        problems += [
            f"{where}: the chip of {name} shows {shown:.0f} px of the name, total whole: {whole}"
            for name, shown, whole in chips
            if shown < 24 or not whole
        ]
        problems += [f"{where}: {p}" for p in layout_problems(page, {**MUST_SEE, **PLAY_PHASE})]
    assert not problems, "\n".join(problems)


def labels_outside_their_buttons(page: Page) -> list[str]:
    """Action-bar buttons whose label (any line of it) runs past the button's box."""
    return page.evaluate(
        """() => [...document.querySelectorAll('#t-controls .buttons .button')]
          .filter(b => b.offsetParent !== null)
          .filter(b => {
            const box = b.getBoundingClientRect();
            const range = document.createRange();
            range.selectNodeContents(b);
            return [...range.getClientRects()].some(r => r.width > 0 && (
              r.left < box.left - 0.5 || r.right > box.right + 0.5 ||
              r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5));
          })
          .map(b => b.textContent.trim())"""
    )


def test_long_german_labels_stay_inside_the_action_bar_buttons(
    page: Page, daphne_server: str, e2e_env
):
    sign_up(page, daphne_server, "phone_deutsch")
    new_table(page, daphne_server, "fifty-one", clock="0")
    ws_open(page)
    # seat 0 has opened (its melds are on the table): "lay" and "group" are offered, and
    # the assisted table adds "put selected where it fits"
    state = make_state("fifty-one", **CROWDED, options={"clock": 0, "assisted": True})
    put_hand_state(e2e_env, page.locator(".table-page").get_attribute("data-code"), state.to_json())
    page.reload()
    ws_open(page)
    # the site's language menu (it saves the choice in the profile, and comes back here)
    page.select_option("#language-select", "de")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    ws_open(page)
    # "Diese Kombinationen auslegen", "Auswahl als Kombination ..." (the German catalogue's
    # wording may change; what matters is a word too long for a quarter of the bar)
    bar = page.locator("#t-controls .buttons")
    expect(bar.locator("[data-act=lay][data-melds]")).to_contain_text("Kombinationen")
    expect(bar.locator("[data-stage]")).to_contain_text("Kombination")
    shots(page, "deutsch-lay-down")
    problems = []
    for width, height in [(390, 844), (360, 740)]:
        resize(page, width, height)
        problems += [
            f"at {width}x{height}: a label outside its button: {label}"
            for label in labels_outside_their_buttons(page)
        ]
        # the wider cells take one more row: the rack and the pile stay in view
        problems += [f"at {width}x{height}: {p}" for p in layout_problems(page, MUST_SEE)]
    assert not problems, "\n".join(problems)


def test_the_invited_friend_sees_an_invitation_and_the_host_copies_the_link(
    browser: Browser, daphne_server: str
):
    host_ctx = browser.new_context()
    friend_ctx = browser.new_context()
    host, friend = host_ctx.new_page(), friend_ctx.new_page()
    sign_up(host, daphne_server, "Ayse_Host")
    new_table(host, daphne_server, "classic", clock="0", seat_1="human")
    ws_open(host)
    link = host.url
    card = host.get_by_test_id("invite-card")
    expect(card.get_by_role("heading")).to_have_text("Invite your friends")
    expect(card.get_by_test_id("invite-link")).to_have_value(link)

    # Copy puts the link on the clipboard (Clipboard API) and says so
    host_ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=daphne_server)
    card.get_by_test_id("invite-copy").click()
    expect(card.get_by_test_id("invite-copied")).to_have_text("Link copied")
    assert host.evaluate("() => navigator.clipboard.readText()") == link
    # Share shows only where the browser has the Web Share API
    has_share = host.evaluate("() => typeof navigator.share === 'function'")
    expect(card.get_by_test_id("invite-share")).to_be_visible() if has_share else expect(
        card.get_by_test_id("invite-share")
    ).to_be_hidden()
    shots(host, "waiting-host")

    # the friend opens the link: an invitation, not the host's box
    friend.goto(link)
    ws_open(friend)
    invite = friend.get_by_test_id("invite-card")
    expect(invite.get_by_role("heading")).to_have_text("Ayse_Host invites you to a Classic table")
    expect(invite.get_by_text("Invite your friends")).to_have_count(0)
    expect(invite.get_by_test_id("invite-copy")).to_have_count(0)
    shots(friend, "waiting-friend")
    invite.get_by_role("button", name="Take a seat").click()
    ws_open(friend)
    expect(friend.locator("#t-invite")).to_be_hidden()
    status = friend.get_by_test_id("status")
    expect(status).to_contain_text(re.compile(r"Your turn|'s turn\.|is thinking\."))
    if status.text_content().startswith("Your turn"):  # the friend starts: one discard
        friend.locator("#rack-grid .tile").first.click()
        act(friend, "#t-controls [data-act=discard]")
    # the two CPUs play on; then the host's turn, named on the friend's status line
    expect(status).to_have_text("Ayse_Host's turn.", timeout=60_000)
    expect(host.get_by_test_id("status")).to_contain_text("Your turn")
    shots(friend, "play-others-turn")
    shots(host, "play-your-turn-draw")
    host_ctx.close()
    friend_ctx.close()


def test_share_uses_the_web_share_api_where_there_is_one(browser: Browser, daphne_server: str):
    ctx = browser.new_context()
    ctx.add_init_script(
        "navigator.share = (data) => { window.sharedWith = data; return Promise.resolve(); };"
    )
    page = ctx.new_page()
    sign_up(page, daphne_server, "phone_sharer")
    new_table(page, daphne_server, "classic", seat_1="human")
    share = page.get_by_test_id("invite-share")
    expect(share).to_be_visible()
    share.click()
    page.wait_for_function("() => window.sharedWith !== undefined")
    assert page.evaluate("() => window.sharedWith.url") == page.url
    ctx.close()


def test_a_watcher_sees_the_four_seats_around_the_felt(browser: Browser, daphne_server: str):
    player_ctx, watcher_ctx = browser.new_context(), browser.new_context()
    player, watcher = player_ctx.new_page(), watcher_ctx.new_page()
    sign_up(player, daphne_server, "phone_watched")
    new_table(player, daphne_server, "classic", clock="0")
    ws_open(player)
    watcher.goto(player.url)
    ws_open(watcher)
    expect(watcher.locator(".opp")).to_have_count(4)
    shots(watcher, "watcher")
    shots(player, "watched-player")
    problems = []
    for width, height in SHOT_SIZES:
        resize(watcher, width, height)
        where = f"{width}x{height}"
        seats = watcher.evaluate(
            """() => Object.fromEntries([...document.querySelectorAll('.opp')].map(o => {
                 const r = o.getBoundingClientRect();
                 const place = [...o.classList].find(c => /^opp-(top|left|right|bottom)$/.test(c));
                 return [o.dataset.seat, {place, x: r.x, y: r.y, w: r.width, h: r.height}]; }))"""
        )
        felt = watcher.locator("#t-felt").bounding_box()
        pile = watcher.get_by_test_id("draw-pile").bounding_box()
        mid = felt["x"] + felt["width"] / 2
        # the seats are where a player at seat 0 sees them; seat 0 is the bottom one
        places = {s: seats[s]["place"] for s in seats}
        if places != {"0": "opp-bottom", "1": "opp-right", "2": "opp-top", "3": "opp-left"}:
            problems.append(f"{where}: places {places}")
            continue
        top, bottom = seats["2"], seats["0"]
        if bottom["y"] < top["y"] + top["h"]:
            problems.append(f"{where}: seat 0 {bottom} is not below the top seat {top}")
        boxes_ = list(seats.values())
        for a in range(4):
            for b in range(a + 1, 4):
                p, q = boxes_[a], boxes_[b]
                if (
                    p["x"] < q["x"] + q["w"]
                    and q["x"] < p["x"] + p["w"]
                    and p["y"] < q["y"] + q["h"]
                    and q["y"] < p["y"] + p["h"]
                ):
                    problems.append(f"{where}: two seat boxes overlap: {p} {q}")
        if height > 500:  # upright and wide: top and bottom face each other, centred
            for s in ("0", "2"):
                centre = seats[s]["x"] + seats[s]["w"] / 2
                if abs(centre - mid) > felt["width"] * 0.1:
                    problems.append(f"{where}: seat {s} is not centred: {seats[s]}")
            if bottom["y"] < pile["y"] + pile["height"]:
                problems.append(f"{where}: seat 0 is not below the pile row")
            if (
                seats["3"]["x"] + seats["3"]["w"] / 2 > mid
                or seats["1"]["x"] + seats["1"]["w"] / 2 < mid
            ):
                problems.append(f"{where}: the side seats are not on their sides")
        else:  # sideways: the seats stacked at the left, seat 0 last
            if not (seats["2"]["y"] < seats["3"]["y"] < seats["1"]["y"] < bottom["y"]):
                problems.append(f"{where}: the stacked seats are out of order: {seats}")
        problems += [
            f"{where}: {p}" for p in layout_problems(watcher, {"pile": "[data-testid=draw-pile]"})
        ]
    assert not problems, "\n".join(problems)
    player_ctx.close()
    watcher_ctx.close()
