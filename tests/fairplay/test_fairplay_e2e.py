"""The staff fair-play page in a real browser: the listed player, pair and pair always
together, marking an account with a reason; fits a phone's width (only the tables scroll).
Screenshots at 390x844 and 1366x768 go to ``FAIRPLAY_SHOTS`` (a directory) when set."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.support.accounts import sign_up

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
SIZES = {"phone": (390, 844), "desktop": (1366, 768)}
WIDER_THAN_PAGE = """() => {
  const root = document.documentElement;
  if (root.scrollWidth <= root.clientWidth) return [];
  return [...document.querySelectorAll("body *")]
    .filter((el) => el.getBoundingClientRect().right > root.clientWidth + 0.5)
    .filter((el) => !el.closest(".fp-scroll") || el.classList.contains("fp-scroll"))
    .map((el) => el.tagName + "." + el.className);
}"""


def shell(env: dict[str, str], code: str) -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr


def shoot(page: Page, name: str) -> None:
    shots = os.environ.get("FAIRPLAY_SHOTS")
    for label, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        with contextlib.suppress(PlaywrightTimeout):  # reported below, with the culprits
            page.wait_for_function(f"() => ({WIDER_THAN_PAGE})().length === 0", timeout=5000)
        assert page.evaluate(WIDER_THAN_PAGE) == [], f"{name} at {w}x{h}"
        if shots:
            page.screenshot(path=str(Path(shots) / f"{name}-{label}.png"), full_page=True)


def test_staff_see_the_figures_and_mark_an_account(
    page: Page, daphne_server: str, e2e_env: dict[str, str]
):
    sign_up(page, daphne_server, "warden")
    page.goto(f"{daphne_server}/staff/fair-play/")
    expect(page.get_by_role("heading", name="Page not found")).to_be_visible()
    shell(e2e_env, "from tests.fairplay.seed_e2e import seed; seed('warden')")

    page.goto(f"{daphne_server}/staff/fair-play/")
    players = page.get_by_test_id("fp-player")
    expect(players).to_have_count(1)
    expect(players.first).to_contain_text("Ace Engine")
    expect(players.first).to_contain_text("100.0 %")
    expect(page.get_by_test_id("fp-feed")).to_have_count(1)
    expect(page.get_by_test_id("fp-feed").first).to_contain_text("Pelin")
    expect(page.get_by_test_id("fp-pair")).to_have_count(1)
    shoot(page, "fairplay-page")

    form = page.get_by_test_id("fp-mark-form")
    form.get_by_label("Username").fill("ace")
    form.get_by_label("Reason").fill("every move the expert's over 300 decisions")
    form.get_by_role("button", name="Mark", exact=True).click()
    expect(page.get_by_role("status")).to_contain_text("ace is marked")
    expect(page.get_by_test_id("fp-marked")).to_contain_text("Ace Engine")
    expect(page.get_by_test_id("fp-player").first).to_contain_text("marked")
    expect(page.get_by_test_id("fp-log")).to_contain_text("every move the expert")
    shoot(page, "fairplay-marked")
