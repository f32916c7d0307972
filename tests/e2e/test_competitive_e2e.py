"""Competitive play in the browser: at a rated table (four accounts met by quick match)
"Show me" is not there and a forged ask is refused; a player who leaves before the game
counts aborts it, unrated, and every seat is told; a player who leaves a rated game later
forfeits: their CPU finishes it and the outcome says they were placed last.

Set ``COMPETITIVE_SHOTS=/some/dir`` to save screenshots at 390x844 and 1366x768."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from games.engine.rules import RULES
from tests.support.accounts import sign_up
from tests.support.servers import ROOT
from tests.support.waits import ws_open

pytestmark = pytest.mark.e2e

VARIANT = next(iter(RULES))
TABLE_URL = re.compile(r"/t/([\w-]+)/$")
SIZES = ((390, 844), (1366, 768))


def shot(page: Page, name: str) -> None:
    where = os.environ.get("COMPETITIVE_SHOTS")
    if where:
        page.screenshot(path=str(Path(where) / f"{name}.png"))


def server_shell(e2e_env: dict[str, str], script: str) -> str:
    """Run ``script`` in the e2e server's own environment (its database); its output."""
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", script],
        cwd=ROOT,
        env=e2e_env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_a_rated_quick_match_gives_no_engine_help_and_an_early_leave_aborts_it(
    browser: Browser, daphne_server: str, e2e_env: dict[str, str]
):
    pages, code = [], None
    for i in range(4):
        page = browser.new_context().new_page()
        sign_up(page, daphne_server, f"comp_{i}")
        page.goto(f"{daphne_server}/")
        page.get_by_test_id(f"play-now-{VARIANT}").click()
        expect(page).to_have_url(TABLE_URL)
        ws_open(page)
        if i < 3:  # before sitting down at a rated table, the leavers' rule is shown
            expect(page.get_by_test_id("rated-rules")).to_contain_text("placed last")
        seen = TABLE_URL.search(page.url).group(1)
        assert code in (None, seen)
        code = seen
        pages.append(page)
    for page in pages:  # the fourth player started the game
        expect(page.locator("#rack-grid .tile").first).to_be_visible()
        expect(page.get_by_test_id("rated-mark")).to_have_text("Rated")
        expect(page.get_by_test_id("rules-line")).to_have_text("No engine help")
        expect(page.get_by_test_id("show-me")).to_have_count(0)
    mover = next(p for p in pages if p.locator("#t-controls.my-turn").count())
    expect(mover.locator("#t-controls [data-act=discard]")).to_be_visible()
    expect(mover.get_by_test_id("show-me")).to_have_count(0)  # not even on one's turn
    # a forged ask over the socket: refused, with the reason, and no hint
    mover.evaluate("() => window.okeyTable.send({action: 'hint'})")
    expect(mover.locator("#t-msg [data-code=no_engine_help]")).to_contain_text(
        "No engine help in competitive play"
    )
    expect(mover.get_by_test_id("hint")).to_have_count(0)
    for width, height in SIZES:
        mover.set_viewport_size({"width": width, "height": height})
        expect(mover.get_by_test_id("rules-line")).to_be_in_viewport()
        shot(mover, f"rated-no-help-{width}x{height}")

    # one who has not moved yet leaves: the game is aborted, unrated, and everyone is told
    leaver = next(p for p in pages if p is not mover)
    leaver.get_by_test_id("leave-game").locator("summary").click()
    expect(leaver.get_by_test_id("leave-game")).to_contain_text("aborted and not rated")
    shot(leaver, "leave-confirm")
    leaver.get_by_test_id("leave-game-confirm").click()
    for page in pages:
        expect(page.get_by_test_id("status")).to_contain_text("Game aborted")
        expect(page.get_by_test_id("leave-game")).to_have_count(0)
    out = server_shell(
        e2e_env,
        "from games.ratings.models import RatingChange\n"
        f"print('RATED', RatingChange.objects.filter(table__code='{code}').count())",
    )
    assert "RATED 0" in out
    for page in pages:
        page.context.close()


# A rated fifty-one game of three hands for four accounts, its first hand played on the
# server's own database (tests/ratings/conftest.py: each person's moves chosen by the
# medium CPU); the players count as at the table.
FIRST_HAND = """
from games.live import actions as table_actions
from games.models import Table
from tests.ratings.conftest import make_users, play_to_end
users = make_users("lv_ana", "lv_ben", "lv_cem", "lv_dia")
for u in users:
    u.set_password("green-felt-2024!")
    u.save()
seats = [table_actions.SeatSpec("me")] + [table_actions.SeatSpec("human")] * 3
t = table_actions.do_create_table(variant="fifty-one", options={"hands": 3}, seats=seats,
                          user=users[0], rated=True)
for u in users[1:]:
    table_actions.do_join_table(t.pk, user=u)
t.seats.update(away_since=None)
play_to_end(t, stop_after_hand=True, live=True)
print("CODE", t.code)
"""

# The rest of the game: the leaver's seat is played by its CPU (swept), the others' moves
# are chosen for them; then each seat's placing in the rating update.
REST = """
from games.models import Table
from games.ratings.models import RatingChange
from tests.ratings.conftest import play_to_end
t = Table.objects.get(code="{code}")
leaver = t.seats.get(user__username="lv_ben")
assert leaver.forfeited_at is not None
t.seats.exclude(pk=leaver.pk).update(away_since=None)
play_to_end(t, away=frozenset({{leaver.position}}), live=True)
for c in RatingChange.objects.filter(table=t):
    print("PLACE", c.user.username, c.place)
"""


def test_a_rated_game_left_midway_is_finished_by_the_cpu_and_the_leaver_placed_last(
    browser: Browser, daphne_server: str, e2e_env: dict[str, str]
):
    code = re.search(r"CODE (\S+)", server_shell(e2e_env, FIRST_HAND)).group(1)
    page = browser.new_context().new_page()
    page.goto(f"{daphne_server}/accounts/login/")
    page.get_by_label("Username").fill("lv_ben")
    page.get_by_label("Password").fill("green-felt-2024!")
    page.locator("main").get_by_role("button", name="Log in").click()
    page.goto(f"{daphne_server}/t/{code}/")
    ws_open(page)
    page.get_by_test_id("outcome-close").click()  # the first hand's result, read
    leave = page.get_by_test_id("leave-game")
    leave.locator("summary").click()
    expect(leave).to_contain_text("placed last")
    page.get_by_test_id("leave-game-confirm").click()
    expect(page.get_by_test_id("left-note")).to_contain_text("your CPU plays your seat")
    expect(page.get_by_test_id("leave-game")).to_have_count(0)

    places = dict(re.findall(r"PLACE (\S+) (\d)", server_shell(e2e_env, REST.format(code=code))))
    assert places["lv_ben"] == "4" and len(places) == 4

    page.add_init_script(
        "window.okeyFrames = 0;"
        "document.addEventListener('htmx:wsAfterMessage', () => { window.okeyFrames += 1; });"
    )
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{daphne_server}/t/{code}/")
        page.wait_for_function("() => window.okeyFrames > 0")
        left = page.get_by_test_id("outcome").get_by_test_id("outcome-leavers")
        expect(left).to_contain_text("left the game: placed last")
        expect(page.get_by_test_id("leave-game")).to_have_count(0)  # the game is over
        left.scroll_into_view_if_needed()
        shot(page, f"leaver-outcome-{width}x{height}")
    page.context.close()


# A tournament's table (seated by the organiser: games/tournaments/actions.py opens it
# with do_seat_players, competitive) for two accounts.
TOURNAMENT_TABLE = """
from games.live import actions as table_actions
from tests.ratings.conftest import make_users
users = make_users("tt_ana", "tt_ben")
for u in users:
    u.set_password("green-felt-2024!")
    u.save()
t = table_actions.do_seat_players(
    variant="rummy", options={"players": 2},
    seats=[table_actions.SeatSpec("player", user=u, name=u.username) for u in users],
    competitive=True,
)
print("CODE", t.code, "TURN", table_actions.load_state(t.current_hand).turn)
"""


def test_a_tournament_table_gives_no_engine_help(
    browser: Browser, daphne_server: str, e2e_env: dict[str, str]
):
    out = server_shell(e2e_env, TOURNAMENT_TABLE)
    code, turn = re.search(r"CODE (\S+) TURN (\d)", out).groups()
    page = browser.new_context().new_page()
    page.goto(f"{daphne_server}/accounts/login/")
    page.get_by_label("Username").fill(("tt_ana", "tt_ben")[int(turn)])
    page.get_by_label("Password").fill("green-felt-2024!")
    page.locator("main").get_by_role("button", name="Log in").click()
    page.goto(f"{daphne_server}/t/{code}/")
    ws_open(page)
    expect(page.get_by_test_id("rated-mark")).to_have_text("Tournament")
    expect(page.get_by_test_id("rules-line")).to_have_text("No engine help")
    expect(page.locator("#t-controls.my-turn")).to_have_count(1)
    expect(page.get_by_test_id("show-me")).to_have_count(0)
    page.evaluate("() => window.okeyTable.send({action: 'hint'})")
    expect(page.locator("#t-msg [data-code=no_engine_help]")).to_be_visible()
    expect(page.get_by_test_id("hint")).to_have_count(0)
    page.context.close()
