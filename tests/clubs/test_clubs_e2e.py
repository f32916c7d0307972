"""Clubs in a real browser: an organiser creates a club, invites members (who accept),
makes two seasons and counts three finished tournaments with their weights through the
forms; the club and season pages then show the rankings and fit a phone's width (only
the tables scroll). A player invited to a club sees the invitation on their profile and
accepts it on the club's page.

Set ``CLUB_SHOTS=/some/dir`` to save screenshots of the club, season, invitation and
profile pages at 390x844 and 1366x768."""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.support.accounts import log_in, sign_up

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
SIZES = {"phone": (390, 844), "desktop": (1366, 768)}


def seed(env: dict[str, str], owner: str, today: dt.date) -> None:
    shell(env, f"from tests.clubs.seed_e2e import seed; seed({owner!r}, {today.isoformat()!r})")


def shell(env: dict[str, str], code: str) -> None:
    """Run ``code`` in ``manage.py shell`` on the e2e server's database."""
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr


WIDER_THAN_PAGE = """() => {
  const root = document.documentElement;
  if (root.scrollWidth <= root.clientWidth) return [];
  const wide = [...document.querySelectorAll("body *")]
    .filter((el) => el.getBoundingClientRect().right > root.clientWidth + 0.5)
    .filter((el) => !el.closest(".cl-scroll") || el.classList.contains("cl-scroll"))
    .map((el) => el.tagName + "." + el.className);
  return ["scrollWidth " + root.scrollWidth, ...wide];
}"""


def wider_than_page(page: Page) -> list[str]:
    """The elements that make the page scroll sideways (a table's own scroller aside),
    once the page has settled at its new size (the menu folds from a resize listener)."""
    with contextlib.suppress(PlaywrightTimeout):  # reported below, with the culprits
        page.wait_for_function(f"() => ({WIDER_THAN_PAGE})().length === 0", timeout=5000)
    return page.evaluate(WIDER_THAN_PAGE)


def shoot(page: Page, name: str) -> None:
    shots = os.environ.get("CLUB_SHOTS")
    for label, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        assert wider_than_page(page) == [], f"{name} at {w}x{h}"
        if shots:
            page.screenshot(path=str(Path(shots) / f"{name}-{label}.png"), full_page=True)


def test_an_organiser_builds_a_club_season_and_its_ranking(
    page: Page, daphne_server: str, e2e_env: dict[str, str]
):
    # The server ranks on its own today: every date here is counted back from it, so the
    # example ranks alike on any day.
    today = timezone.localdate()
    sign_up(page, daphne_server, "clubhost")
    seed(e2e_env, "clubhost", today)
    page.get_by_test_id("nav-clubs").click()
    page.get_by_test_id("club-new").click()
    page.get_by_label("Club name").fill("Moda Okey Kulübü")
    page.get_by_test_id("club-create").click()
    expect(page.get_by_test_id("club-name")).to_have_text("Moda Okey Kulübü")
    club_url = page.url

    for username in ("ayla", "bora", "cem", "deniz"):
        page.get_by_label("Username").fill(username)
        page.get_by_test_id("member-add").click()
        expect(page.locator(".messages")).to_contain_text("If a player called")
    expect(page.get_by_test_id("members")).to_contain_text("No members yet.")
    slug = club_url.rstrip("/").rsplit("/", 1)[1]
    shell(
        e2e_env,
        f"from tests.clubs.seed_e2e import accept_invitations; accept_invitations({slug!r})",
    )
    page.reload()
    expect(page.get_by_test_id("members").locator("li")).to_have_count(4)

    def day(days: int) -> str:
        return (today + dt.timedelta(days=days)).isoformat()

    for name, start, end, tournaments in [
        ("Last season", day(-800), day(-600), [("Winter open", "1")]),
        ("This season", day(-300), day(60), [("Spring cup", "2"), ("November night", "1")]),
    ]:
        page.goto(club_url)
        page.get_by_test_id("season-new").click()
        page.get_by_label("Season name").fill(name)
        page.get_by_label("First day").fill(start)
        page.get_by_label("Last day").fill(end)
        page.get_by_test_id("season-create").click()
        expect(page.get_by_test_id("season-name")).to_have_text(name)
        for tournament, weight in tournaments:
            form = page.get_by_test_id("attach-form")
            form.get_by_label("Finished tournament").select_option(
                label=page.locator("#id_tournament option", has_text=tournament).inner_text()
            )
            form.get_by_label("Weight").fill(weight)
            page.get_by_test_id("attach").click()
            expect(page.get_by_test_id("season-tournaments")).to_contain_text(tournament)
    expect(page.get_by_test_id("season-tournament")).to_have_count(2)
    expect(page.get_by_test_id("season-ranking").get_by_test_id("ranking-row")).to_have_count(5)
    shoot(page, "season-organiser")

    page.goto(club_url)
    expect(page.get_by_test_id("club-ranking").get_by_test_id("ranking-row")).to_have_count(5)
    # the worked example of docs/clubs.md, all seasons
    expect(page.get_by_test_id("club-ranking").get_by_test_id("ranking-row").first).to_contain_text(
        "833.3"
    )
    shoot(page, "club-organiser")

    # as the public sees them
    page.context.clear_cookies()
    page.goto(club_url)
    expect(page.get_by_test_id("organiser-tools")).to_have_count(0)
    shoot(page, "club")
    page.get_by_test_id("current-season").get_by_role("link", name="season page").click()
    expect(page.get_by_test_id("season-name")).to_have_text("This season")
    shoot(page, "season")
    page.get_by_test_id("season-ranking").get_by_role("link", name="Ayla Kaya").click()
    expect(page.get_by_test_id("history-row")).to_have_count(3)
    shoot(page, "player")
    # On a phone the nine-column history is one card per tournament, each figure beside
    # its column's name: nothing to scroll sideways, even inside the table.
    page.set_viewport_size({"width": 390, "height": 844})
    history = page.get_by_test_id("history")
    assert history.evaluate("t => t.parentElement.scrollWidth <= t.parentElement.clientWidth")
    contribution = page.get_by_test_id("history-row").first.locator("td").nth(8)
    assert (
        contribution.evaluate("td => getComputedStyle(td, '::before').content") == '"Contribution"'
    )
    page.set_viewport_size({"width": 1366, "height": 768})
    assert history.locator("thead").is_visible()


def test_an_invited_player_sees_the_invitation_and_accepts_it(
    page: Page, daphne_server: str, e2e_env: dict[str, str]
):
    sign_up(page, daphne_server, "invhost")
    shell(e2e_env, "from tests.clubs.seed_e2e import player; player('selin', 'Selin Aras')")
    page.get_by_test_id("nav-clubs").click()
    page.get_by_test_id("club-new").click()
    page.get_by_label("Club name").fill("Kadıköy Okey Evi")
    page.get_by_test_id("club-create").click()
    club_url = page.url
    for name in ("selin", "no-such-player"):  # the same answer for both
        page.get_by_label("Username").fill(name)
        page.get_by_test_id("member-add").click()
        expect(page.locator(".messages")).to_contain_text(
            f"If a player called “{name}” exists and is not in the club yet, "
            "they have been invited."
        )
    expect(page.get_by_test_id("members")).not_to_contain_text("Selin")

    log_in(page, daphne_server, "selin")
    page.get_by_test_id("nav-clubs").click()
    expect(page.get_by_test_id("list-invitations")).to_contain_text("Kadıköy Okey Evi")
    shoot(page, "clubs-list-invitation")
    page.goto(f"{daphne_server}/accounts/profile/")
    invitations = page.get_by_test_id("profile-invitations")
    expect(invitations.get_by_test_id("invitation-row")).to_have_count(1)
    expect(invitations).to_contain_text("Kadıköy Okey Evi")
    expect(invitations).to_contain_text("invited by Invhost")
    shoot(page, "profile-invitation")
    page.goto(f"{daphne_server}/clubs/invitations/")
    expect(page.get_by_test_id("invitation-row")).to_have_count(1)
    shoot(page, "invitations")
    page.get_by_test_id("invitation-row").get_by_role("link", name="Kadıköy Okey Evi").click()
    expect(page.get_by_test_id("invitation")).to_be_visible()
    shoot(page, "club-invitation")
    page.get_by_test_id("invitation").get_by_test_id("invitation-accept").click()
    expect(page).to_have_url(club_url)
    expect(page.locator(".messages")).to_contain_text("Welcome to Kadıköy Okey Evi.")
    expect(page.get_by_test_id("invitation")).to_have_count(0)
    expect(page.get_by_test_id("members")).to_contain_text("Selin Aras")
    expect(page.get_by_test_id("club-leave")).to_be_visible()
    shoot(page, "club-member")
    page.goto(f"{daphne_server}/accounts/profile/")
    expect(page.get_by_test_id("profile-invitations")).to_have_count(0)
