"""The open hand database in the browser, at phone (390x844) and desktop (1366x768) size:
a player switches on sharing in their profile, the footer leads to /hands/, the month
built by ``manage.py build_hand_month`` on the server is listed with its counts, size and
SHA-256, fits the screen, and its download has that SHA-256 and imports on the review's
import page. Screenshots go to ``HANDDB_SHOTS`` (default /tmp/shots/handdb)."""

from __future__ import annotations

import gzip
import hashlib
import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.support.accounts import sign_up
from tests.support.servers import manage

pytestmark = pytest.mark.e2e

SHOTS = Path(os.environ.get("HANDDB_SHOTS", "/tmp/shots/handdb"))


def test_the_downloads_page_lists_a_built_month_and_its_file(
    page: Page, daphne_server: str, e2e_env: dict[str, str], tmp_path: Path
):
    said: list[str] = []
    page.on("console", lambda m: said.append(m.text))
    page.on("pageerror", lambda e: said.append(str(e)))
    sign_up(page, daphne_server, "hdb_selin")
    page.goto(f"{daphne_server}/accounts/profile/")
    page.get_by_label(re.compile("share my casual games", re.I)).check()
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_label(re.compile("share my casual games", re.I))).to_be_checked()
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in ((390, 844), (1366, 768)):
        page.set_viewport_size({"width": width, "height": height})
        page.get_by_label(re.compile("share my casual games", re.I)).scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"profile-{width}x{height}.png"))

    out = manage(
        e2e_env, "shell", "-c", "from tests.handdb.seed_e2e import seed; print('MONTH', seed())"
    )
    month = re.search(r"MONTH (\d{4}-\d{2})", out).group(1)
    built = manage(e2e_env, "build_hand_month", month)
    assert "2 games, 2 hands" in built
    sha = re.search(r"sha256 ([0-9a-f]{64})", built).group(1)

    for width, height in ((390, 844), (1366, 768)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{daphne_server}/")
        page.get_by_test_id("footer-handdb").click()
        expect(page).to_have_url(re.compile(r"/hands/$"))
        card = page.locator(f'[data-testid="handdb-month"][data-month="{month}"]')
        expect(card.get_by_test_id("handdb-games")).to_have_text("2")
        expect(card.get_by_test_id("handdb-hands")).to_have_text("2")
        expect(card.get_by_test_id("handdb-sha256")).to_have_text(sha)
        expect(page.get_by_test_id("handdb-share-off")).to_have_count(0)  # she shares
        page.screenshot(path=str(SHOTS / f"downloads-{width}x{height}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= width

    with page.expect_download() as info:
        card.get_by_test_id("handdb-download").click()
    download = info.value
    assert download.suggested_filename == f"okey-hands-{month}.jsonl.gz"
    path = tmp_path / download.suggested_filename
    download.save_as(path)
    data = path.read_bytes()
    assert hashlib.sha256(data).hexdigest() == sha
    assert int(card.get_by_test_id("handdb-size").get_attribute("data-bytes")) == len(data)

    # a line of the file is a game the review's import page replays
    first = gzip.decompress(data).splitlines()[0]
    game = tmp_path / "game.json"
    game.write_bytes(first)
    page.goto(f"{daphne_server}/review/import/")
    page.set_input_files("input[type=file]", str(game))
    page.get_by_test_id("import-form").locator("button[type=submit]").click()
    expect(page.locator("main")).to_contain_text("Ayla Kaya")
    page.screenshot(path=str(SHOTS / "imported-line-1366x768.png"))
    assert not [s for s in said if "autocomplete" not in s]
