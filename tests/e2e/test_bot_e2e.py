"""A person in the browser plays a table with a bot seated: the example bot client
(games/tools/bot_client, a subprocess with ``--accept``) streams its seat through the real
server, the host invites it from the waiting table's page, and they play turn about; the
bot is marked (BOT) at the table and on the bots page. Screenshots of the bot screens at
phone and desktop size go to /tmp/shots/G/."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.support import servers
from tests.support.accounts import sign_up
from tests.support.lobby import open_new_table_form
from tests.support.waits import wait_until, ws_open

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
SHOTS = Path("/tmp/shots/G")
SIZES = {"phone": (390, 844), "desktop": (1366, 768)}

MAKE_BOT = """
from django.contrib.auth import get_user_model
from games.api import tokens
from games.api.bot_stream import do_upgrade_to_bot
user = get_user_model().objects.create_user("e2e-robo", password="robo-pass-long-1")
user.profile.display_name = "Robo"
user.profile.save()
do_upgrade_to_bot(user)
print(tokens.do_create_token(user, "bot", ["play"])[1])
"""


def shoot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        page.screenshot(path=str(SHOTS / f"{name}-{size}.png"), full_page=True)
    page.set_viewport_size({"width": 1366, "height": 768})


def bot_discards(env: dict[str, str]) -> int:
    """The bot's own discards (not its stand-in's), read in the server's database."""
    out = servers.manage(
        env,
        "shell",
        "-c",
        "from games.models import HandAction, Seat\n"
        "seat = Seat.objects.filter(user__username='e2e-robo').last()\n"
        "print(HandAction.objects.filter(hand__table=seat.table, seat=seat.position,"
        " by_cpu=False, payload__type='discard').count() if seat else 0)",
    )
    return int(out.strip().splitlines()[-1])


@pytest.fixture
def bot_client(e2e_env, daphne_server):
    token = servers.manage(e2e_env, "shell", "-c", MAKE_BOT).strip().splitlines()[-1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "games.tools.bot_client", "--server", daphne_server] + ["--accept"],
        cwd=ROOT,
        env=os.environ | {"OKEY_BOT_TOKEN": token},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    yield proc
    proc.terminate()
    proc.communicate(timeout=10)


def test_a_person_plays_against_an_invited_bot(page: Page, daphne_server: str, e2e_env, bot_client):
    # the bots page lists the bot, online once its client's stream is open
    def online() -> bool:
        page.goto(f"{daphne_server}/bots/")
        return page.get_by_test_id("bot-online").count() == 1

    wait_until(online, "the bot to be online", timeout=30, interval=0.3)
    expect(page.get_by_test_id("bot-row")).to_contain_text("Robo (BOT)")
    shoot(page, "bots-page")

    sign_up(page, daphne_server, "bot_host")
    page.goto(f"{daphne_server}/accounts/profile/")
    expect(page.get_by_test_id("bot-account")).to_be_visible()
    shoot(page, "profile-bot-section")
    page.get_by_test_id("bot-upgrade-start").click()
    expect(page.get_by_test_id("bot-upgrade-confirm")).to_be_visible()
    shoot(page, "bot-upgrade-confirm")

    page.goto(f"{daphne_server}/")
    open_new_table_form(page)
    page.select_option("#id_variant", "rummy")
    page.select_option("select[name='rummy__players']", "2")
    page.select_option("#id_seat_1", "human")
    page.get_by_test_id("create-submit").click()
    expect(page).to_have_url(re.compile(r"/t/[\w-]+/$"))
    ws_open(page)
    expect(page.get_by_test_id("bot-invite-select")).to_contain_text("Robo (BOT)")
    shoot(page, "table-invite-bot")

    page.get_by_test_id("bot-invite-submit").click()
    ws_open(page)
    expect(page.locator("#rack-grid .tile")).not_to_have_count(0)
    expect(page.locator(".opp")).to_contain_text("Robo (BOT)")
    # turn about: the person's move, then the bot's (through its stream, within its
    # seat's grace: never its stand-in), three times
    start = bot_discards(e2e_env)
    for k in range(1, 4):
        expect(page.get_by_test_id("status")).to_contain_text("Your turn", timeout=15000)
        tiles = page.locator("#rack-grid .tile")
        if tiles.count() < 15:
            page.click(".controls [data-act=draw]")
            expect(tiles).to_have_count(15)
        tiles.first.click()
        page.click("[data-act=discard]")
        wait_until(lambda k=k: bot_discards(e2e_env) >= start + k, "the bot's move", timeout=30)
    expect(page.get_by_test_id("status")).to_contain_text("Your turn", timeout=15000)
    expect(page.locator(".opp .badge.away")).to_have_count(0)
    shoot(page, "table-with-bot")
    assert bot_client.poll() is None  # the client is still playing
