"""The turn clock and the stand-in in real browsers (docs/clock-and-presence.md).

These tests run their own server (``clock_server``): the shared e2e server keeps the
tables' real clocks (30 s), which no test should wait for. Here every turn clock runs
``CLOCK_S`` seconds (``OKEY_TURN_CLOCK_S``), a dropped player's stand-in plays after
``GRACE_S`` and CPUs move quickly. Screenshots go to /tmp/shots/clock/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support import servers
from tests.support.accounts import sign_up
from tests.support.lobby import open_new_table_form
from tests.support.servers import free_port
from tests.support.waits import ws_open

pytestmark = pytest.mark.e2e

CLOCK_S = 8
GRACE_S = 1
SHOTS = Path("/tmp/shots/clock")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}


@pytest.fixture(scope="module")
def clock_server(tmp_path_factory):
    """A server as ``daphne_server`` starts one (its own migrated SQLite database), with
    short turn clocks and away grace."""
    tmp = tmp_path_factory.mktemp("clock-server")
    env = servers.server_env(tmp)
    env.update(
        {
            "OKEY_TURN_CLOCK_S": str(CLOCK_S),
            "OKEY_AWAY_GRACE_S": str(GRACE_S),
            "OKEY_CPU_DELAY_MS": "20",
            "E2E_TMP_DIR": str(tmp),
        }
    )
    servers.prepare(env)
    port = free_port()
    log_path = tmp / "daphne.log"
    proc = servers.serve(env, port, log_path)
    try:
        servers.wait_for_http(f"http://127.0.0.1:{port}/", proc=proc, log_path=log_path)
        yield f"http://127.0.0.1:{port}"
    finally:
        servers.stop(proc)


def shoot(page: Page, name: str) -> None:
    """The page at phone and desktop size (the viewport it had is put back)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    was = page.viewport_size
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        page.screenshot(path=str(SHOTS / f"{name}-{label}.png"))
    if was:
        page.set_viewport_size(was)


def test_two_people_play_on_a_clock_and_a_timed_out_player_is_told_what_was_played(
    browser: Browser, clock_server: str
):
    host_ctx, guest_ctx = browser.new_context(), browser.new_context()
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    sign_up(host, clock_server, "clock_host")
    host.goto(f"{clock_server}/")
    open_new_table_form(host)
    host.select_option("#id_variant", "rummy")
    host.select_option("select[name='rummy__players']", "2")
    # the form offers the clock, 30 s first
    expect(host.locator("select[name='rummy__clock']")).to_have_value("30")
    host.select_option("#id_seat_1", "human")
    host.get_by_test_id("create-submit").click()
    expect(host).to_have_url(re.compile(r"/t/[\w-]+/$"))
    link = host.locator(".invite-link").input_value()
    ws_open(host)
    guest.goto(link)
    guest.get_by_role("button", name="Take a seat").click()
    ws_open(guest)
    expect(host.locator("#rack-grid .tile")).to_have_count(15)  # the host starts

    # the countdown: by the host's own controls, and on the host's seat box for the guest
    mine = host.get_by_test_id("my-clock")
    expect(mine).to_be_visible()
    expect(mine.locator("b")).to_have_text(re.compile(r"^[1-9]\d*s$"))
    on_seat = guest.get_by_test_id("seat-clock-0")
    expect(on_seat).to_be_visible()
    expect(on_seat.locator("b")).to_have_text(re.compile(r"^\d+s$"))
    expect(guest.get_by_test_id("my-clock")).to_have_count(0)
    shoot(host, "countdown-host")
    shoot(guest, "countdown-guest")

    # the host lets the clock run out: the server draws and discards for them [D8]
    notice = host.get_by_test_id("timeout-notice")
    expect(notice).to_contain_text(
        re.compile(r"Time's up: \w+ \d+ was discarded for you\."), timeout=(CLOCK_S + 10) * 1000
    )
    expect(guest.get_by_test_id("status")).to_contain_text("Your turn")
    expect(guest.get_by_test_id("my-clock")).to_be_visible()
    expect(host.get_by_test_id("seat-clock-1")).to_be_visible()
    shoot(host, "timed-out-host")
    # the notice outlives the guest's move (a frame of its own)
    guest.click(".controls [data-act=draw]")
    expect(guest.locator("#rack-grid .tile")).to_have_count(15)
    guest.locator("#rack-grid .tile").first.click()
    guest.click("[data-act=discard]")
    expect(host.get_by_test_id("status")).to_contain_text("Your turn")
    expect(notice).to_contain_text("was discarded for you")
    # the host's clock runs out a second time: the stand-in plays on for them, and the
    # guest sees who plays that seat
    expect(notice).to_contain_text("2 turns in a row", timeout=(CLOCK_S + 10) * 1000)
    expect(guest.get_by_test_id("stand-in-0")).to_have_text("CPU playing for Clock_Host")
    shoot(host, "stand-in-host")
    shoot(guest, "stand-in-guest")
    # "I'm back": the seat is the host's again, for everyone
    host.get_by_test_id("im-back").click()
    expect(notice).to_be_hidden()
    expect(guest.get_by_test_id("stand-in-0")).to_have_count(0)
    host_ctx.close()
    guest_ctx.close()


def test_a_cpu_table_whose_person_left_deals_no_new_hand_and_says_what_happened(
    browser: Browser, clock_server: str
):
    ctx = browser.new_context()
    page = ctx.new_page()
    sign_up(page, clock_server, "away_player")
    page.goto(f"{clock_server}/")
    open_new_table_form(page)
    page.select_option("#id_variant", "rummy")
    page.select_option("select[name='rummy__players']", "2")
    page.select_option("#id_seat_1", "cpu:easy")
    page.get_by_test_id("create-submit").click()
    expect(page).to_have_url(re.compile(r"/t/[\w-]+/$"))
    table_url = page.url
    ws_open(page)
    expect(page.get_by_test_id("clock")).to_have_count(0)  # one person: no clock
    # the player leaves the table's page; a watcher (another browser) keeps an eye on it
    page.goto(f"{clock_server}/")
    watcher_ctx = browser.new_context()
    watcher = watcher_ctx.new_page()
    watcher.goto(table_url)
    ws_open(watcher)
    expect(watcher.get_by_test_id("stand-in-0")).to_contain_text("CPU playing for Away_Player")
    shoot(watcher, "stand-in-watcher")
    # the stand-in and the CPU play the hand out; then nothing more is dealt
    expect(watcher.get_by_test_id("result")).to_have_class(re.compile(r"\bshow\b"), timeout=180_000)
    hand_title = watcher.locator("#t-title h1").inner_text()
    watcher.wait_for_timeout((GRACE_S + 3) * 1000)  # a deal would have come by now
    expect(watcher.get_by_test_id("result")).to_have_class(re.compile(r"\bshow\b"))
    expect(watcher.locator("#t-title h1")).to_have_text(hand_title)
    # the player comes back: "While you were away" says what the stand-in did
    page.goto(table_url)
    ws_open(page)
    # the hand's outcome opens first (games/_outcome.html); closed, the summary is there
    page.get_by_test_id("result").get_by_role("button", name="Close").click()
    summary = page.get_by_test_id("away-summary")
    expect(summary).to_be_visible()
    expect(summary).to_contain_text(re.compile(r"Your stand-in played \d+ turns?\."))
    expect(summary).to_contain_text(re.compile(r"Hand 1 ended"))
    shoot(page, "away-summary")
    page.get_by_test_id("away-dismiss").click()
    expect(summary).to_be_hidden()
    page.reload()
    ws_open(page)
    expect(page.get_by_test_id("away-summary")).to_be_hidden()  # dismissed in this tab
    watcher_ctx.close()
    ctx.close()
