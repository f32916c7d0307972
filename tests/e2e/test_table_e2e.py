"""Play at a table in a real browser: sign up, create a table with three CPUs,
drag a tile within the rack, draw and discard until the hand ends, read the
score sheet; and open with melds at a fifty-one table."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect

from games.engine.evaluate import best_arrangement
from games.engine.melds import sum_value
from games.engine.tiles import kind_of, parse_kind
from tests.support.accounts import sign_up
from tests.support.lobby import open_new_table_form
from tests.support.waits import wait_my_turn_or_end

pytestmark = pytest.mark.e2e
TURN = "Your turn"


def create_table(page: Page, base: str, variant: str, **options: str) -> None:
    page.goto(f"{base}/")
    open_new_table_form(page)
    page.select_option("#id_variant", variant)
    for key, value in options.items():
        page.select_option(f"select[name='{variant}__{key}']", value)
    page.get_by_test_id("create-submit").click()
    expect(page).to_have_url(re.compile(r"/t/[\w-]+/$"))
    page.wait_for_function("() => document.body.classList.contains('ws-open')")
    expect(page.locator("#rack-grid .tile").first).to_be_visible()


def rack(page: Page) -> list[tuple[int, str]]:
    return page.eval_on_selector_all(
        "#rack-grid .tile", "els => els.map(e => [parseInt(e.dataset.id), e.dataset.t])"
    )


def version(page: Page) -> str:
    return page.locator("#act-version").input_value()


def act(page: Page, selector: str, tries: int = 3) -> None:
    """Click an action control and wait for the table's version to move on. A
    click that raced another change is refused as stale (the page then shows the
    fresh table): click again, as a player would."""
    for _ in range(tries):
        before = version(page)
        page.click(selector)
        page.wait_for_function(
            f"() => document.querySelector('#act-version').value !== '{before}' || "
            "document.querySelector('[data-testid=message] [data-code]')",
            timeout=20_000,
        )
        if not page.locator("[data-testid=message] [data-code='stale_state']").count():
            return


def discard(page: Page, tile_id: int) -> None:
    for _ in range(3):
        page.click(f"#rack-grid .tile[data-id='{tile_id}']")
        act(page, "[data-act=discard]", tries=1)
        if not page.locator("[data-testid=message] [data-code='stale_state']").count():
            return


def draw_if_needed(page: Page) -> None:
    if page.locator(".controls [data-act=draw]:not([disabled])").count():
        act(page, ".controls [data-act=draw]")


def okey_kind(page: Page) -> int:
    return parse_kind(page.get_by_test_id("okey").get_attribute("data-t"))


def worst_tile(page: Page) -> int:
    ids = [i for i, _ in rack(page)]
    okey = okey_kind(page)
    arr = best_arrangement(ids, okey, values="sum", pairs=False)
    loose = [t for t in arr.leftover if kind_of(t) != okey] or [
        t for t in ids if kind_of(t) != okey
    ]
    return max(loose, key=lambda t: kind_of(t) % 13)


def test_classic_hand_against_three_cpus(page: Page, daphne_server: str):
    sign_up(page, daphne_server, "classic_player")
    create_table(page, daphne_server, "classic")
    expect(page.locator("#rack-grid .tile")).to_have_count(15)  # the starter holds 15

    # Drag the first tile to an empty slot of the second row; the order is saved.
    first_id = rack(page)[0][0]
    src = page.locator(f"#rack-grid .tile[data-id='{first_id}']").bounding_box()
    dst = page.locator("#rack-grid .slot[data-slot='20']").bounding_box()
    page.mouse.move(src["x"] + src["width"] / 2, src["y"] + src["height"] / 2)
    page.mouse.down()
    page.mouse.move(dst["x"] + 5, dst["y"] + 5, steps=8)
    page.mouse.move(dst["x"] + dst["width"] / 2, dst["y"] + dst["height"] / 2, steps=8)
    page.mouse.up()
    expect(
        page.locator(f"#rack-grid .slot:nth-child(21) .tile[data-id='{first_id}']")
    ).to_have_count(1)
    # The order is the server's: a second page of the same player, opened until the
    # reorder frame has been stored (this page keeps its socket meanwhile), shows it too.
    moved = f"#rack-grid .slot:nth-child(21) .tile[data-id='{first_id}']"
    other = page.context.new_page()
    deadline = time.monotonic() + 15
    while True:
        other.goto(page.url)
        other.locator("#rack-grid .tile").first.wait_for()
        if other.locator(moved).count() == 1:
            break
        assert time.monotonic() < deadline, "the rack order was not saved"
    other.close()
    page.reload()
    expect(page.locator(moved)).to_have_count(1)
    page.wait_for_function("() => document.body.classList.contains('ws-open')")

    turns = 0
    while wait_my_turn_or_end(page):
        draw_if_needed(page)
        if page.locator("#t-result.show").count():
            break
        discard(page, worst_tile(page))
        turns += 1
        assert turns < 40, "the hand should end before the pile runs out twice"
    expect(page.get_by_test_id("result")).to_contain_text("Hand over")
    page.goto(page.url + "sheet/")
    expect(page.get_by_test_id("score-sheet")).to_contain_text("Hand")
    expect(page.locator("tbody tr th").first).to_have_text("1")
    assert page.get_by_test_id("sheet-total").count() == 4


def try_to_open(page: Page) -> bool:
    """Play a fifty-one game at the open page; open with melds as soon as the
    best arrangement of the rack reaches the barrier. True once opened."""
    for _ in range(150):
        if not wait_my_turn_or_end(page):
            if page.get_by_test_id("next-hand").count():
                act(page, "[data-testid=next-hand]")
                continue
            return False  # the game is over
        draw_if_needed(page)
        ids = [i for i, _ in rack(page)]
        need = int(page.get_by_test_id("opening-min").inner_text())
        arr = best_arrangement(ids, okey_kind(page), values="sum", pairs=False)
        melds = list(arr.melds)
        while melds and sum(len(m.tiles) for m in melds) >= len(ids):
            melds.pop()  # keep a tile to discard
        if melds and sum(sum_value(m.plays) for m in melds) >= need:
            for meld in melds:
                for t in meld.tiles:
                    page.click(f"#rack-grid .tile[data-id='{t}']")
                page.click("[data-stage]")
            act(page, "[data-act=open]")
            expect(page.get_by_test_id("message")).to_have_text("")
            expect(page.locator(".meld[data-owner='0']")).to_have_count(len(melds))
            discard(page, worst_tile(page))
            return True
        discard(page, worst_tile(page))
    return False


def test_fifty_one_opening_through_the_page(page: Page, daphne_server: str):
    sign_up(page, daphne_server, "fifty_player")
    for _attempt in range(3):  # deals are fixed per table; a new table deals anew
        create_table(page, daphne_server, "fifty-one", hands="3", clock="0", doubling="0")
        if try_to_open(page):
            break
    else:
        pytest.fail("the player never reached the opening barrier in three games")
    expect(page.locator(".meld[data-owner='0']").first).to_be_visible()
