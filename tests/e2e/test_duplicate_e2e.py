"""A duplicate online round in a real browser (docs/duplicate.md, RULES.md D38): five
players at two tables (CPU seats fill both to four), two deals of Classic shared by both
tables, compared seat by seat with matchpoints.

How it is played: the players never open their tables except one, so each seat is away
from the start and, the arrival time being "at once", its CPU plays (the e2e server's
sweeper plays every move). One player ("the sitter") opens their table and stays: with no
turn clock their table waits for them, while the other table finishes. Meanwhile the
round's deals are embargoed: a player of the finished table sees their last hand's result
but no other rack and no seed, the organiser cannot watch either table, and the
tournament page shows neither table's scores. The sitter leaves; their seat's CPU takes
over after the away grace, the round completes, and the page shows the standings and the
deal-by-deal breakdown live; the finished hand's racks and seed are shown at last."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support.accounts import PASSWORD, sign_up

pytestmark = pytest.mark.e2e

PLAYERS = [f"dup{i}" for i in range(1, 6)]
SHOTS = Path("/tmp/shots/dupA")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}
ROUND_TIMEOUT_MS = 150_000


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def browser_as(browser: Browser, base: str, username: str, viewport: dict) -> Page:
    """A page of a new browser context (its own session), logged in as ``username``."""
    context = browser.new_context(locale="en-US", viewport=viewport)
    page = context.new_page()
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.locator("main").get_by_role("button", name="Log in").click()
    expect(page.get_by_test_id("nav-user")).to_have_text(username.title())
    return page


def table_names(watch: Page) -> list[list[str]]:
    """The player names at each table of round 1 (CPU seats left out), in table order."""
    return watch.locator("[data-round='1'] [data-testid=round-table]").evaluate_all(
        """cards => cards.map(c => [...c.querySelectorAll('li:not(.cpu) .tn-name')]
            .map(n => n.textContent.trim()))"""
    )


def test_a_duplicate_round_with_the_deals_embargoed_until_both_tables_played(
    page: Page, daphne_server: str
):
    base = daphne_server
    page.set_viewport_size(DESKTOP)
    for name in PLAYERS:
        sign_up(page, base, name)
        page.get_by_role("button", name="Log out").click()
    sign_up(page, base, "dup_organiser")

    # the settings form offers the duplicate options once the format is chosen
    page.goto(f"{base}/tournaments/new/")
    expect(page.locator("#id_deals_per_round")).to_be_hidden()
    page.locator("#id_name").fill("Duplicate night")
    page.select_option("#id_variant", "classic")
    page.select_option("select[name='classic__start_points']", "10")
    page.select_option("select[name='classic__clock']", "0")
    page.select_option("select[name='classic__cpu_speed']", "fast")
    page.locator("#id_rounds").fill("1")
    page.select_option("#id_mode", "online")
    page.select_option("#id_format", "duplicate")
    expect(page.locator("#id_deals_per_round")).to_be_visible()
    expect(page.locator("#id_scoring")).to_be_hidden()
    page.select_option("#id_duplicate_scoring", "matchpoints")
    page.locator("#id_deals_per_round").fill("2")
    page.select_option("#id_arrival_s", "0")
    page.locator("#id_published").check()
    shot(page, "settings-desktop")
    page.set_viewport_size(PHONE)
    page.locator("#id_format").scroll_into_view_if_needed()
    shot(page, "settings-phone")
    page.set_viewport_size(DESKTOP)
    page.get_by_test_id("tournament-create").click()
    expect(page).to_have_url(re.compile(r"/tournaments/\d+/desk/$"))
    desk_url = page.url
    form = page.get_by_test_id("entry-form")
    for name in PLAYERS:
        form.locator("input[name=username]").fill(name)
        form.get_by_test_id("entry-add").click()
        expect(page.locator(f"[data-testid=entry-row][data-name='{name.title()}']")).to_have_count(
            1
        )

    watch = page.context.new_page()
    watch.goto(desk_url.replace("/desk/", "/"))
    watch.wait_for_function("() => document.body.dataset.live === 'open'")
    expect(watch.get_by_test_id("duplicate-badge")).to_be_visible()

    page.goto(desk_url)
    page.get_by_test_id("seat-round").click()
    expect(page.locator(".messages")).to_contain_text("Round 1 is seated.")
    expect(page.locator("[data-testid=desk-table][data-round='1']")).to_have_count(2)
    expect(watch.locator("[data-round='1'] [data-testid=round-table]")).to_have_count(2)
    # the deals' commitments are public at once, the seeds are not
    expect(watch.get_by_test_id("deal-commitment")).to_have_count(2)
    expect(watch.get_by_test_id("deal-seed")).to_have_count(0)
    sitting, finishing = table_names(watch)
    assert len(sitting) + len(finishing) == 5

    # the sitter opens their table: it waits for them while the other table plays on
    sitter = browser_as(page.context.browser, base, sitting[0].lower(), DESKTOP)
    sitter.goto(watch.url)
    sitter.get_by_test_id("my-table-link").click()
    expect(sitter).to_have_url(re.compile(r"/t/[\w-]+/$"))
    sitter_table = sitter.url
    watch.wait_for_function(
        """() => document.querySelector(
            "[data-round='1'] [data-testid=round-table]:nth-child(2)")?.dataset.done === '1'""",
        timeout=ROUND_TIMEOUT_MS,
    )
    # a finished table of a round still being played shows no score
    finished = watch.locator("[data-round='1'] [data-testid=round-table]").nth(1)
    expect(finished.get_by_test_id("result-concealed")).to_be_visible()
    expect(finished.locator(".tn-score")).to_have_count(0)
    expect(watch.locator("[data-round='1'] .tn-watch")).to_have_count(0)

    # a player of the finished table: their last hand's result, but no other rack or seed
    player = browser_as(page.context.browser, base, finishing[0].lower(), PHONE)
    player.goto(watch.url)
    player.get_by_test_id("my-table-link").click()
    expect(player.get_by_test_id("racks-withheld")).to_be_attached()
    expect(player.get_by_test_id("revealed-seed")).to_have_count(0)
    expect(player.get_by_test_id("review-hand")).to_have_count(0)
    finished_table = player.url
    expect(player.locator("#outcome-dialog")).to_be_visible()  # it opens by itself
    expect(player.get_by_test_id("racks-withheld")).to_be_visible()
    player.get_by_test_id("racks-withheld").scroll_into_view_if_needed()
    shot(player, "table-withheld-phone")
    player.set_viewport_size(DESKTOP)
    player.get_by_test_id("racks-withheld").scroll_into_view_if_needed()
    shot(player, "table-withheld-desktop")

    # nobody watches the round's tables meanwhile, not even the organiser
    for url in (sitter_table, finished_table):
        response = page.goto(url)
        assert response is not None and response.status == 403
        expect(page.get_by_test_id("not-watchable")).to_be_visible()
    page.set_viewport_size(PHONE)
    shot(page, "not-watchable-phone")
    page.set_viewport_size(DESKTOP)
    shot(page, "not-watchable-desktop")
    shot(watch, "round-in-play-desktop")

    # the sitter leaves: their CPU finishes the table, the round is complete
    sitter.goto(watch.url)
    expect(watch.get_by_test_id("deal-breakdown")).to_be_visible(timeout=ROUND_TIMEOUT_MS)
    expect(watch.get_by_test_id("tournament-status")).to_have_attribute("data-status", "finished")
    rows = watch.get_by_test_id("standing-row")
    expect(rows).to_have_count(5)
    names = rows.evaluate_all("els => els.map(e => e.dataset.player)")
    assert sorted(names) == sorted(n.title() for n in PLAYERS)  # the CPU seats never rank
    # two deals, four seats; at each seat a holder at both tables
    expect(watch.get_by_test_id("deal-line")).to_have_count(8)
    expect(watch.locator("[data-testid=deal-line] [data-testid=deal-holder]")).to_have_count(16)
    expect(watch.get_by_test_id("deal-seed")).to_have_count(2)
    points = watch.get_by_test_id("standing-points").all_inner_texts()
    # matchpoints: each seat of each deal shares 2 points between its two holders
    cells = watch.locator("[data-testid=deal-holder] .tn-pts").all_inner_texts()
    assert sum(int(c.strip("()")) for c in cells) == 8 * 2
    assert all(re.fullmatch(r"\d+", p) for p in points)
    shot(watch, "standings-desktop")
    watch.set_viewport_size(PHONE)
    watch.get_by_test_id("deal-breakdown").scroll_into_view_if_needed()
    shot(watch, "standings-phone")

    # every complete round has its deal-by-deal page too
    response = page.goto(watch.url + "rounds/1/deals/")
    assert response is not None and response.status == 200
    expect(page.get_by_test_id("deal-line")).to_have_count(8)
    shot(page, "deals-page-desktop")
    page.set_viewport_size(PHONE)
    shot(page, "deals-page-phone")

    # the finished hand's racks and seed are shown at last
    player.goto(finished_table)
    expect(player.locator("#outcome-dialog")).to_be_visible()
    expect(player.get_by_test_id("revealed-seed")).to_have_count(1)
    expect(player.get_by_test_id("racks-withheld")).to_have_count(0)
    expect(player.get_by_test_id("review-hand")).to_have_count(1)
    sitter.context.close()
    player.context.close()


def test_an_in_person_duplicate_tables_result_is_typed_deal_by_deal(page: Page, daphne_server: str):
    base = daphne_server
    page.set_viewport_size(DESKTOP)
    sign_up(page, base, "dup_club")
    page.goto(f"{base}/tournaments/new/")
    page.locator("#id_name").fill("Club duplicate")
    page.select_option("#id_variant", "classic")
    page.select_option("select[name='classic__start_points']", "10")
    page.locator("#id_rounds").fill("1")
    page.select_option("#id_mode", "in_person")
    page.select_option("#id_format", "duplicate")
    page.locator("#id_deals_per_round").fill("2")
    page.get_by_test_id("tournament-create").click()
    expect(page).to_have_url(re.compile(r"/tournaments/\d+/desk/$"))
    form = page.get_by_test_id("entry-form")
    for name in ("Ada", "Berk", "Can", "Defne", "Ece"):
        form.locator("input[name=name]").fill(name)
        form.get_by_test_id("entry-add").click()
        expect(page.locator(f"[data-testid=entry-row][data-name='{name}']")).to_have_count(1)
    page.get_by_test_id("seat-round").click()
    expect(page.get_by_test_id("deal-cards-link")).to_have_count(1)
    shot(page, "desk-desktop")
    page.locator("[data-testid=desk-table][data-table='1'] [data-testid=enter-result]").click()
    expect(page.get_by_test_id("deal-result-card")).to_be_visible()
    expect(page.locator("[data-testid=result-form] fieldset")).to_have_count(2)
    # a hand total no deal can reach is refused with its field marked, nothing is saved
    for deal, line in ((1, ["4", "-2", "-2", "0"]), (2, ["-4", "8", "99999", "-2"])):
        for seat, value in enumerate(line):
            page.get_by_test_id(f"deal-{deal}-score-{seat}").fill(value)
    page.get_by_test_id("result-save").click()
    expect(page.locator("[data-testid=deal-2] [data-code=out_of_range]")).to_be_visible()
    expect(page.get_by_test_id("deal-1-score-0")).to_have_value("4")
    page.set_viewport_size(PHONE)
    shot(page, "deal-result-form-phone")
    page.set_viewport_size(DESKTOP)
    shot(page, "deal-result-form-desktop")
    page.get_by_test_id("deal-2-score-2").fill("-2")
    page.get_by_test_id("result-save").click()
    expect(page.locator(".messages")).to_contain_text("Result of round 1, table 1 saved.")
    row = page.locator("[data-testid=desk-table][data-table='1']")
    expect(row.locator(".tn-seatlist b")).to_have_text(["10", "16", "6", "8"])
