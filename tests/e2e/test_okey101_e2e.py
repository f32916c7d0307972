"""101 Okey (games/engine/RULES.md §6) in a real browser.

- A 101 table against three CPUs is made from the home page's new-table form: the rule set
  is chosen in the form, which then shows 101's own options (hands, partners, turn clock,
  assisted table). Seat 0 starts the first hand [D2], so the page deals it 22 tiles and the
  others 21 [D25]; the player discards without drawing, the CPUs play, and the turn comes
  back with a draw.
- The table fits one screen with the 22-tile rack, on a phone held upright (390x844) and
  sideways (844x390) and on a laptop (1366x768): the rack keeps its two rows of 16 slots,
  the controls, the pile, the indicator and every opponent's count are in the viewport, and
  the page does not scroll (the checks of ``test_table_layout_e2e``); also with thirteen
  melds on the table and a meld staged beside the 22-tile rack.
- An opening below 101 is refused with its numbers, in the page's language [D28] [D29];
  with one more group it opens.
- The rules page of 101 (``/rules/101``) renders in English and Turkish, linked from the
  form.
- A 101 solo game starts from the solo page; when its three hands are over it is in the
  history but not among the records (RULES.md §6 "Online": the record board stays
  seventeen's).
- A finished hand's outcome dialog shows 101's score lines: −101 × m for the finisher, Σ × m
  for an opened rival (× 2 again for a pairs opener, an okey left counting 101 [D34]),
  202 × m for one who never opened; an okey as the last discard doubles them [D33].

Hand situations are built with the engine's testing helpers (``make_state``) and written
into the server's database as the hand's cached state, which the table renders from
(``test_table_layout_e2e.put_hand_state``); the hand's stored moves so far are dropped, so
the next move is stored as the built hand's first. Set ``OKEY101_SHOTS=/some/dir`` to save a
screenshot of every layout and dialog checked.
"""

from __future__ import annotations

import os
import re
import sqlite3
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from games.engine.testing import make_state
from tests.e2e.test_table_e2e import act, version
from tests.e2e.test_table_layout_e2e import (
    MUST_SEE,
    PLAY_PHASE,
    header_problems,
    layout_problems,
    opponents,
    put_hand_state,
    rack_problems,
)
from tests.support.accounts import sign_up
from tests.support.lobby import open_new_table_form
from tests.support.waits import ws_open

pytestmark = pytest.mark.e2e

VARIANT = "101"
# a phone upright and sideways, and a laptop
VIEWPORTS = [(390, 844), (844, 390), (1366, 768)]
FINISH = "#t-controls [data-melds]"  # a lay-down rule set finishes by laying melds down
REFUSAL = "[data-testid=message] [data-code=below_opening_limit]"


def shot(page: Page, name: str) -> None:
    where = os.environ.get("OKEY101_SHOTS")
    if where:
        Path(where).mkdir(parents=True, exist_ok=True)
        size = page.viewport_size
        page.screenshot(path=str(Path(where) / f"{name}-{size['width']}x{size['height']}.png"))


def fits_one_screen(page: Page, name: str, selectors: dict[str, str]) -> list[str]:
    """What is off screen or scrolls, at each of the three sizes."""
    problems = []
    for width, height in VIEWPORTS:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function(f"() => window.innerWidth === {width}")
        found = layout_problems(page, selectors) + rack_problems(page) + header_problems(page)
        shot(page, name)
        problems += [f"{name} at {width}x{height}: {p}" for p in found]
    page.set_viewport_size({"width": 1366, "height": 768})
    return problems


def tile_id(page: Page, t: str) -> str:
    return page.locator(f"#rack-grid .tile[data-t='{t}']").first.get_attribute("data-id")


def stage(page: Page, meld: str) -> None:
    for t in meld.split():
        page.click(f"#rack-grid .tile[data-id='{tile_id(page, t)}']")
    page.click("[data-stage]")


def new_101_table(page: Page, base: str, **options: str) -> str:
    """A 101 table against three CPUs from the home page's form; its code."""
    page.goto(f"{base}/")
    open_new_table_form(page)
    page.select_option("#id_variant", VARIANT)
    for key, value in options.items():
        page.select_option(f"select[name='{VARIANT}__{key}']", value)
    page.get_by_test_id("create-submit").click()
    expect(page).to_have_url(re.compile(r"/t/[\w-]+/$"))
    ws_open(page)
    expect(page.locator("#rack-grid .tile").first).to_be_visible()
    return page.locator(".table-page").get_attribute("data-code")


def forget_moves(e2e_env: dict, code: str) -> None:
    """Drop the current hand's stored moves: the built state replaces the hand so far
    (its move list is empty, and the next move is stored as the hand's first)."""
    db = re.sub(r"^sqlite:///", "", e2e_env["DATABASE_URL"])
    with sqlite3.connect(db) as conn:
        conn.execute(
            "DELETE FROM games_handaction WHERE hand_id = (SELECT h.id FROM games_hand h"
            " JOIN games_table t ON t.id = h.table_id WHERE t.code = ?"
            " ORDER BY h.number DESC LIMIT 1)",
            (code,),
        )


def with_state(page: Page, e2e_env: dict, code: str, state) -> None:
    """Make ``state`` the table's current hand (the CPUs wait for us) and reload."""
    # our turn, in any language: a draw or a discard is offered
    page.wait_for_function(
        "() => document.querySelector('#t-controls [data-act=draw]:not([disabled]),"
        " #t-controls [data-act=discard]:not([disabled])')",
        timeout=60_000,
    )
    put_hand_state(e2e_env, code, state.to_json())
    forget_moves(e2e_env, code)
    page.reload()
    ws_open(page)


def test_a_101_table_from_the_form_against_three_cpus(page: Page, daphne_server: str):
    page.set_viewport_size({"width": 1366, "height": 768})
    sign_up(page, daphne_server, "yuzbir_table")
    page.goto(f"{daphne_server}/")
    open_new_table_form(page)
    page.select_option("#id_variant", VARIANT)
    # the form shows 101's options, and only those
    mine = page.locator(f".variant-options[data-variant='{VARIANT}']")
    expect(mine).to_be_visible()
    expect(mine.locator("legend")).to_contain_text("101 Okey")
    expect(page.locator(".variant-options:visible")).to_have_count(1)
    hands = mine.get_by_label("Hands")
    expect(hands).to_have_value("3")  # [D25]-[D37] "Game length": 3 hands by default
    options = hands.locator("option").evaluate_all("os => os.map(o => o.textContent.trim())")
    assert options == ["1", "3", "5", "7", "9", "11"], options
    expect(mine.get_by_label("Partners (2 against 2)")).to_have_value("0")  # [D36] off
    # the form offers a 30 s clock first (docs/clock-and-presence.md); a table of one
    # person and CPUs is then given none
    expect(mine.get_by_label("Turn clock (seconds, 0 = off)")).to_have_value("30")
    expect(mine.get_by_label("Assisted table")).to_be_visible()
    expect(mine.locator("select[name$='__players']")).to_have_count(0)  # four, always
    expect(page.locator(".seat-field:visible")).to_have_count(3)  # three other seats

    new_101_table(page, daphne_server, hands="1", partners="0", clock="0", assisted="0")
    expect(page.get_by_test_id("status")).to_contain_text("Your turn")
    # [D25] the starter holds 22 and discards without drawing; the others hold 21
    rack = page.locator("#rack-grid .tile")
    expect(rack).to_have_count(22)
    expect(page.get_by_test_id("status")).to_contain_text("discard a tile")
    for seat in (1, 2, 3):
        expect(page.get_by_test_id(f"count-{seat}")).to_have_text("21")
    expect(page.get_by_test_id("opening-min")).to_have_text("101")  # [D28]
    expect(page.get_by_test_id("round")).to_have_text("Hand 1 of 1")
    expect(page.get_by_test_id("pile-count")).to_have_text("20")  # 106 − 85 − 1

    play = {**MUST_SEE, **PLAY_PHASE, "finish": FINISH, **opponents(page)}
    problems = fits_one_screen(page, "101-play-22", play)

    # discard; the three CPUs play; the turn comes back with a draw
    rack.last.click()
    act(page, "#t-controls [data-act=discard]")
    expect(rack).to_have_count(21)
    expect(page.get_by_test_id("status")).to_contain_text("draw from the pile", timeout=60_000)
    expect(page.locator("#opp-3 .discard-pile .tile")).not_to_have_count(0)  # it just discarded
    expect(page.locator("[data-testid=takeable] .tile:not(.empty)")).to_have_count(1)
    problems += fits_one_screen(page, "101-draw-21", {**MUST_SEE, **opponents(page)})

    before = version(page)
    page.get_by_test_id("draw-pile").click()
    page.wait_for_function(
        f"() => document.querySelector('#act-version').value !== '{before}'", timeout=20_000
    )
    expect(rack).to_have_count(22)
    expect(page.get_by_test_id("status")).to_contain_text("discard a tile")
    problems += fits_one_screen(page, "101-drawn-22", play)
    assert not problems, "\n".join(problems)


# A 101 hand late in play: thirteen melds of the three others on the table, and your
# rack of 22 tiles (unopened, after a draw) with a meld staged and its running total.
CROWDED = {
    "racks": [
        "R1 R2 R3 R4 R5 R6 R7 Y1 Y2 Y3 Y4 Y5 Y6 Y7 K1 K2 K3 K4 K5 K6 K7 B1",
        None,
        None,
        None,
    ],
    "indicator": "K12",
    "melds": [
        {"owner": 1 + i % 3, "tiles": tiles}
        for i, tiles in enumerate(
            [
                "R8 R9 R10",
                "R11 R12 R13",
                "Y8 Y9 Y10",
                "Y11 Y12 Y13",
                "K8 K9 K10",
                "K11 K12 K13",
                "B8 B9 B10",
                "B11 B12 B13",
                "B2 B3 B4",
                "B5 B6 B7",
                "R1 Y1 K1",
                "R2 Y2 K2",
                "R3 Y3 K3",
            ]
        )
    ],
}


def test_a_22_tile_rack_and_a_dozen_melds_fit_one_screen(page: Page, daphne_server: str, e2e_env):
    sign_up(page, daphne_server, "yuzbir_crowded")
    code = new_101_table(page, daphne_server, assisted="1")
    state = make_state(VARIANT, **CROWDED, options={"clock": 0, "assisted": True})
    with_state(page, e2e_env, code, state)
    expect(page.locator(".meld")).to_have_count(13)
    expect(page.locator("#rack-grid .tile")).to_have_count(22)
    stage(page, "R1 R2 R3")
    expect(page.get_by_test_id("staging-total")).to_have_text("6 of 101 needed to open · 95 more")
    play = {
        **MUST_SEE,
        **PLAY_PHASE,
        "finish": FINISH,
        "staged meld": "#staging .staged",
        "staging total": "[data-testid=staging-total]",
        **opponents(page),
    }
    problems = fits_one_screen(page, "101-crowded-22", play)
    last = page.locator(".meld").last
    last.scroll_into_view_if_needed()  # the melds scroll inside the felt
    expect(last).to_be_in_viewport()
    assert not problems, "\n".join(problems)


# Indicator K12: the okey is K13, in nobody's rack. B10-B12 (33) + K11 Y11 R11 (33) +
# Y4-Y7 (22) = 88, short of 101; R8 K8 B8 (24) makes 112.
SHORT = ["B10 B11 B12", "K11 Y11 R11", "Y4 Y5 Y6 Y7"]
OPENER = " ".join(SHORT) + " R8 K8 B8 R1 Y2 K5 B3 R13 Y9 K3 B6 R6"
REFUSED = {
    "en": "Your opening totals 88; it needs at least 101.",
    "tr": "Açılışınız 88 ediyor; en az 101 gerekiyor.",
}


@pytest.mark.parametrize("language", ["en", "tr"])
def test_an_opening_below_101_is_refused_with_its_numbers(
    page: Page, daphne_server: str, e2e_env, language: str
):
    sign_up(page, daphne_server, f"yuzbir_open_{language}", language=language)
    code = new_101_table(page, daphne_server)
    state = make_state(VARIANT, racks=[OPENER, None, None, None], indicator="K12")
    with_state(page, e2e_env, code, state)
    expect(page.locator("#rack-grid .tile")).to_have_count(22)
    for meld in SHORT:
        stage(page, meld)
    if language == "en":
        expect(page.get_by_test_id("staging-total")).to_have_text(
            "88 of 101 needed to open · 13 more"
        )
    page.click("#t-controls [data-act=open]")
    # [D29] refused with its numbers; nothing changes: no meld, no penalty, the rack whole
    expect(page.locator(REFUSAL)).to_have_text(REFUSED[language])
    expect(page.locator(".meld")).to_have_count(0)
    expect(page.locator("#rack-grid .tile")).to_have_count(22)
    expect(page.locator("#staging .staged")).to_have_count(3)
    expect(page.get_by_test_id("total-0")).to_have_text("0")
    shot(page, f"101-refused-{language}")
    stage(page, "R8 K8 B8")
    if language == "en":
        expect(page.get_by_test_id("staging-total")).to_have_text("112 of 101 needed to open")
    page.click("#t-controls [data-act=open]")
    expect(page.locator(".meld[data-owner='0']")).to_have_count(4)
    expect(page.locator("#rack-grid .tile")).to_have_count(9)
    expect(page.locator(REFUSAL)).to_have_count(0)


def test_the_rules_page_of_101_in_english_and_turkish(page: Page, daphne_server: str):
    page.goto(f"{daphne_server}/")
    open_new_table_form(page)
    page.select_option("#id_variant", VARIANT)
    page.locator(f".variant-options[data-variant='{VARIANT}'] legend a").click()
    expect(page).to_have_url(re.compile(r"/rules/101$"))
    expect(page.locator("html")).to_have_attribute("lang", "en")
    article = page.locator("article.rules-page")
    expect(page).to_have_title(re.compile(r"^101 Okey\b"))  # the page's first heading
    expect(article.get_by_role("heading", name="The aim")).to_be_visible()
    expect(article).to_contain_text("at least 101 points, or with five pairs")
    nav = page.locator(".rules-nav [aria-current=page]")
    expect(nav).to_have_text("101 Okey")
    shot(page, "101-rules-en")

    page.context.add_cookies([{"name": "django_language", "value": "tr", "url": daphne_server}])
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "tr")
    expect(page).to_have_title(re.compile(r"^101 Okey\b"))
    expect(article.get_by_role("heading", name="Amaç")).to_be_visible()
    expect(article).to_contain_text("en az 101")
    expect(nav).to_have_text("101 Okey")
    shot(page, "101-rules-tr")


def finish_now(page: Page, e2e_env: dict, code: str, hand: int) -> None:
    """Bring the current hand to its last move (seat 0 opened, one tile left) and make it:
    the discard of the last tile finishes the hand [§6 "Ending"]."""
    state = make_state(
        VARIANT,
        racks=["R5", None, None, None],
        indicator="B4",
        melds=[{"owner": 0, "tiles": "K1 K2 K3"}],
        phase="play",
        starter=hand % 4,
        options={"clock": 0},
    )
    with_state(page, e2e_env, code, state)
    page.click(f"#rack-grid .tile[data-id='{tile_id(page, 'R5')}']")
    page.click("#t-controls [data-act=discard]")
    expect(page.locator("#outcome-dialog")).to_be_visible()


def test_a_101_solo_game_goes_to_the_history_not_the_records(
    page: Page, daphne_server: str, e2e_env
):
    sign_up(page, daphne_server, "yuzbir_solo")
    page.goto(f"{daphne_server}/solo/")
    page.get_by_test_id("solo-variant").select_option(VARIANT)
    page.get_by_test_id("solo-level").select_option("easy")
    page.get_by_test_id("solo-start-submit").click()
    expect(page).to_have_url(re.compile(r"/t/[\w-]+/$"))
    ws_open(page)
    code = page.url.rstrip("/").rsplit("/", 1)[1]
    expect(page.locator("#rack-grid .tile")).to_have_count(22)  # seat 0 starts [D25]
    expect(page.get_by_test_id("round")).to_have_text("Hand 1 of 3")
    for hand in range(3):
        if hand:
            act(page, "[data-testid=next-hand]")
            expect(page.get_by_test_id("round")).to_have_text(f"Hand {hand + 1} of 3")
        finish_now(page, e2e_env, code, hand)
    expect(page.get_by_role("dialog", name="Yuzbir_Solo wins the game.")).to_be_visible()
    page.get_by_test_id("solo-result-link").click()
    expect(page.get_by_test_id("solo-result")).to_contain_text("101 Okey")
    expect(page.get_by_test_id("solo-record")).to_contain_text(
        "Only Seventeen games count for records; this game is in your history."
    )
    page.goto(f"{daphne_server}/solo/")
    history = page.get_by_test_id("solo-history")
    expect(history.locator("tbody tr")).to_have_count(1)
    expect(history.locator("tbody tr").first).to_contain_text("101 Okey")
    expect(page.locator("[data-testid=solo-bests] [data-testid^=best-]")).to_have_count(0)


# Indicator R2: both R3 are okeys and F plays a plain red 3 (the worked example of
# RULES.md §6). Seat 0 opened and holds one tile; seat 1 opened with runs and groups and
# keeps K5 Y9 F (Σ = 17); seat 2 opened with five pairs and keeps B2 K12 R3 (Σ = 2 + 12 +
# 101 = 115, [D34]), doubled for its pairs; seat 3 never opened.
TABLE_MELDS = [
    {"owner": 0, "tiles": "B10 B11 B12 B13"},
    {"owner": 1, "tiles": "Y10 Y11 Y12"},
    *({"owner": 2, "tiles": f"{t} {t}"} for t in ("B7", "K8", "Y1", "R9", "K10")),
]


@pytest.mark.parametrize(
    ("last", "m"),
    [("R5", 1), ("R3", 2)],  # a plain finish; an okey as the last discard (× 2, [D33])
    ids=["plain", "okey"],
)
def test_the_outcome_dialog_shows_101s_score_lines(
    page: Page, daphne_server: str, e2e_env, last: str, m: int
):
    user = f"yuzbir_end_{'okey' if m == 2 else 'plain'}"
    sign_up(page, daphne_server, user)
    code = new_101_table(page, daphne_server)
    state = make_state(
        VARIANT,
        racks=[last, "K5 Y9 F", "B2 K12 R3", None],
        indicator="R2",
        melds=TABLE_MELDS,
        phase="play",
    )
    with_state(page, e2e_env, code, state)
    page.click(f"#rack-grid .tile[data-id='{tile_id(page, last)}']")
    page.click("#t-controls [data-act=discard]")

    dialog = page.get_by_role("dialog", name=f"{user.title()} wins the hand.")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_test_id("outcome-direction")).to_have_text("The lowest total wins.")
    totals = {0: -101 * m, 1: 17 * m, 2: 115 * 2 * m, 3: 202 * m}
    for seat, total in totals.items():
        expect(dialog.get_by_test_id(f"outcome-total-{seat}")).to_have_text(str(total))
    expect(dialog.get_by_test_id("outcome-seat-0")).to_contain_text("Finished the hand")
    expect(dialog.get_by_test_id("outcome-seat-1")).to_contain_text("Tiles left in the rack")
    expect(dialog.get_by_test_id("outcome-seat-1")).to_contain_text(f"3 tiles left worth 17, × {m}")
    expect(dialog.get_by_test_id("outcome-seat-2")).to_contain_text(
        f"3 tiles left worth 115, × {2 * m}"
    )
    expect(dialog.get_by_test_id("outcome-seat-3")).to_contain_text("Never opened")
    expect(dialog.get_by_test_id("next-hand")).to_be_focused()  # three hands by default
    for w, h in VIEWPORTS:
        page.set_viewport_size({"width": w, "height": h})
        box = dialog.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= w, (w, h, box)
        assert box["y"] >= 0 and box["y"] + box["height"] <= h, (w, h, box)
        assert dialog.evaluate("d => d.scrollWidth <= d.clientWidth"), (w, h)
        shot(page, f"101-outcome-{'okey' if m == 2 else 'plain'}")
    page.set_viewport_size({"width": 1366, "height": 768})
