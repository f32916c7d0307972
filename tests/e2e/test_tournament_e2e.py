"""An online tournament in a real browser, from creation to the final ranking: eight
players with accounts, three rounds of one-hand Fifty-one, driven by the organiser.

How the seats get played: the players never open their tables, so each seat is "away"
from the start; with the tournament's arrival time set to "at once" the seat's CPU plays
for its player (the tables' away rule), and the sweeper of the e2e server plays every
move. Before round 3 one player drops out, so round 3 seats seven players and one CPU
fill seat (never in the standings). The organiser watches the public page in a second
tab: its standings change over the websocket, without a reload; a player's own copy of
the page (a phone-sized browser of their own) gets each round's "your table" link live."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.support.accounts import sign_up

pytestmark = pytest.mark.e2e

PLAYERS = [f"tp{i}" for i in range(1, 9)]
ROUND_TIMEOUT_MS = 100_000


def log_out(page: Page) -> None:
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_test_id("nav-user")).to_have_count(0)


def wait_round_done(watch: Page, round_no: int, tables: int) -> None:
    watch.wait_for_function(
        """([n, k]) => document.querySelectorAll(
            `[data-testid=round][data-round="${n}"] [data-testid=round-table][data-done="1"]`
        ).length === k""",
        arg=[round_no, tables],
        timeout=ROUND_TIMEOUT_MS,
    )


def played_counts(watch: Page) -> list[int]:
    cells = watch.locator("[data-testid=standing-row] td:nth-child(5)").all_inner_texts()
    return [int(c) for c in cells]


def test_eight_player_three_round_online_tournament(page: Page, daphne_server: str):
    started = time.monotonic()
    base = daphne_server
    for name in PLAYERS:
        sign_up(page, base, name)
        log_out(page)
    sign_up(page, base, "tournament_organiser")

    # create: one-hand Fifty-one without a turn clock, CPUs play for absent players at once
    page.goto(f"{base}/")
    page.get_by_test_id("nav-tournaments").click()
    page.get_by_test_id("tournament-new").click()
    page.locator("#id_name").fill("Friday online cup")
    page.select_option("#id_variant", "fifty-one")
    page.select_option("select[name='fifty-one__hands']", "1")
    page.select_option("select[name='fifty-one__clock']", "0")
    page.locator("#id_rounds").fill("3")
    page.select_option("#id_mode", "online")
    page.select_option("#id_arrival_s", "0")
    page.locator("#id_published").check()
    page.get_by_test_id("tournament-create").click()
    expect(page).to_have_url(re.compile(r"/tournaments/\d+/desk/$"))
    desk_url = page.url

    # register the eight players by username
    form = page.get_by_test_id("entry-form")
    for name in PLAYERS:
        form.locator("input[name=username]").fill(name)
        form.get_by_test_id("entry-add").click()
        expect(page.locator(f"[data-testid=entry-row][data-name='{name.title()}']")).to_have_count(
            1
        )
    expect(page.get_by_test_id("entry-row")).to_have_count(8)

    # the public page, open in a second tab for the whole tournament (never reloaded)
    watch = page.context.new_page()
    watch.goto(desk_url.replace("/desk/", "/"))
    watch.wait_for_function("() => document.body.dataset.live === 'open'")
    expect(watch.get_by_test_id("live")).to_be_visible()
    expect(watch.get_by_test_id("standing-row")).to_have_count(8)
    assert played_counts(watch) == [0] * 8

    # a player follows the same page in their own browser: "your table" arrives live
    player = page.context.browser.new_context(
        locale="en-US", viewport={"width": 360, "height": 740}
    )
    mine = player.new_page()
    mine.goto(f"{base}/accounts/login/")
    mine.get_by_label("Username").fill("tp1")
    mine.get_by_label("Password").fill("green-felt-2024!")
    mine.locator("main").get_by_role("button", name="Log in").click()
    expect(mine.get_by_test_id("nav-user")).to_have_text("Tp1")
    mine.goto(watch.url)
    mine.wait_for_function("() => document.body.dataset.live === 'open'")
    expect(mine.get_by_test_id("my-table")).to_contain_text("not seated")

    for round_no in (1, 2, 3):
        page.goto(desk_url)
        if round_no == 3:  # a drop-out: round 3 seats 7 players and one CPU seat
            page.locator(
                "[data-testid=entry-row][data-name='Tp8'] [data-testid=entry-drop]"
            ).click()
            expect(page.locator("[data-testid=entry-row][data-name='Tp8']")).to_contain_text(
                "dropped from round 3"
            )
        page.get_by_test_id("seat-round").click()
        expect(page.locator(".messages")).to_contain_text(f"Round {round_no} is seated.")
        expect(page.locator(f"[data-testid=desk-table][data-round='{round_no}']")).to_have_count(2)
        # the watching tab learns of the new round at once, then of each finished game
        expect(watch.get_by_test_id("tournament-status")).to_contain_text(f"round {round_no} of 3")
        expect(mine.get_by_test_id("my-table")).to_contain_text(f"Round {round_no}: table")
        expect(mine.get_by_test_id("my-table-link")).to_have_attribute(
            "href", re.compile(r"^/t/[\w-]+/$")
        )
        if round_no == 3:  # an older round opened now keeps its tables through the pushes
            watch.locator("[data-testid=round][data-round='1'] > summary").click()
            expect(watch.locator("[data-round='1'] [data-testid=round-table]")).to_have_count(2)
        wait_round_done(watch, round_no, 2)
        expected = [round_no] * 8 if round_no < 3 else [3] * 7 + [2]
        expect(watch.locator("[data-testid=standing-row]")).to_have_count(8)
        watch.wait_for_function(
            """(want) => {
                const cells = [...document.querySelectorAll(
                    '[data-testid=standing-row] td:nth-child(5)')].map(c => +c.textContent);
                return cells.sort().join() === want.sort().join();
            }""",
            arg=expected,
            timeout=10_000,
        )

    # the final ranking: 8 people (the CPU seat never ranks), tie-breaks shown
    expect(watch.get_by_test_id("standings")).to_contain_text("Final ranking")
    expect(watch.get_by_test_id("tournament-status")).to_have_attribute("data-status", "finished")
    rows = watch.get_by_test_id("standing-row")
    expect(rows).to_have_count(8)
    ranks = [int(r) for r in rows.evaluate_all("els => els.map(e => e.dataset.rank)")]
    assert ranks == list(range(1, 9))
    names = rows.evaluate_all("els => els.map(e => e.dataset.player)")
    assert sorted(names) == sorted(n.title() for n in PLAYERS)
    assert "CPU" not in " ".join(names)
    decided = watch.get_by_test_id("decided-by").all_inner_texts()
    assert decided[-1].strip() == "" and all(d.strip() for d in decided[:-1])
    # round 1 stayed open as the reader left it, its tables loaded again after each push;
    # round 2, never opened by the reader, came without its tables: they load when opened
    expect(watch.locator("[data-testid=round][data-round='1']")).to_have_attribute("open", "")
    expect(watch.locator("[data-round='1'] [data-testid=round-table]")).to_have_count(2)
    expect(watch.locator("[data-round='2'] [data-testid=round-table]")).to_have_count(0)
    watch.locator("[data-testid=round][data-round='2'] > summary").click()
    expect(watch.locator("[data-testid=round-table][data-done='1']")).to_have_count(6)

    # the desk agrees, and the results are there to download
    page.goto(desk_url)
    expect(page.get_by_test_id("finished-note")).to_be_visible()
    with page.expect_download() as download:
        page.get_by_role("link", name="Standings (CSV)").click()
    lines = Path(download.value.path()).read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("rank,player,points") and len(lines) == 9
    player.close()
    assert time.monotonic() - started < 150
