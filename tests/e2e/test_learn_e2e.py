"""Learn by playing in a real browser: from the home page's link to a whole-rack lesson's
end (classic, Okey Rummy), and through a lay-down lesson's opening and adding (fifty-one,
101, seventeen), doing at each step what the lesson panel asks (and once what it does not,
to read its reason), at desktop and phone size, with a screenshot of every step."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from games.learn.script import CLASSIC, FIFTY_ONE, OKEY_101, RUMMY, SEVENTEEN

pytestmark = pytest.mark.e2e
SHOTS = Path(os.environ.get("LEARN_SHOTS", "/tmp/shots/learn"))
SIZES = {"desktop": (1366, 768), "phone": (390, 844)}


def shot(page: Page, size: str, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{size}-{name}.png"))


def at_step(page: Page, step: str) -> None:
    expect(page.get_by_test_id("lesson-step")).to_have_attribute("data-step", step, timeout=30_000)


def select(page: Page, notation: str) -> None:
    page.locator(f"#rack-grid .tile[data-t='{notation}']").first.click()


def press(page: Page, act: str) -> None:
    page.locator(f"#t-controls [data-act='{act}']").click()


# each whole-rack lesson with a tile of one of the learner's runs (a discard it refuses)
WHOLE_RACK = [(CLASSIC, "Y4"), (RUMMY, "K6")]


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("script,kept", WHOLE_RACK, ids=lambda v: getattr(v, "slug", v))
def test_a_whole_rack_lesson_played_by_following_the_panel(
    page: Page, daphne_server, size, script, kept
):
    page.set_viewport_size(dict(zip(("width", "height"), SIZES[size], strict=True)))
    page.goto(f"{daphne_server}/")
    expect(page.get_by_test_id("learn-link")).to_be_visible()
    shot(page, size, f"{script.slug}-0-home")
    page.get_by_test_id("learn-link").click()
    expect(page.get_by_test_id("learn-index")).to_be_visible()
    shot(page, size, f"{script.slug}-0-index")
    page.get_by_test_id(f"learn-start-{script.slug}").click()
    expect(page).to_have_url(re.compile(r"/t/[\w-]+/$"))
    page.wait_for_function("() => document.body.classList.contains('ws-open')")

    at_step(page, "draw")
    expect(page.get_by_test_id("lesson-count")).to_have_text(re.compile("1"))
    shot(page, size, f"{script.slug}-1-draw")
    press(page, "take")  # not the lesson's move: the panel says why
    expect(page.get_by_test_id("lesson-wrong")).to_have_attribute("data-code", "lesson_draw")
    shot(page, size, f"{script.slug}-1-draw-wrong")
    page.get_by_test_id("draw-pile").click()

    at_step(page, "discard")
    expect(page.get_by_test_id("lesson-wrong")).to_have_count(0)
    shot(page, size, f"{script.slug}-2-discard")
    select(page, kept)  # a tile of a run: kept
    press(page, "discard")
    expect(page.get_by_test_id("lesson-wrong")).to_have_attribute("data-code", "lesson_discard")
    select(page, script.discards[0])
    press(page, "discard")

    at_step(page, "take")
    shot(page, size, f"{script.slug}-3-take")
    press(page, "take")

    at_step(page, "arrange")
    shot(page, size, f"{script.slug}-4-arrange")
    page.locator("[data-sort='runs']").click()

    at_step(page, "okey")
    shot(page, size, f"{script.slug}-5-okey")
    select(page, script.discards[1])
    press(page, "discard")

    at_step(page, "draw_again")
    shot(page, size, f"{script.slug}-6-draw-again")
    press(page, "draw")

    at_step(page, "close")
    shot(page, size, f"{script.slug}-7-close")
    select(page, script.close)
    press(page, "close")

    at_step(page, "over")
    expect(page.get_by_test_id("lesson-done")).to_contain_text("You won")
    shot(page, size, f"{script.slug}-8-done")


@pytest.mark.parametrize("size", list(SIZES))
def test_how_to_play_shows_tiles_and_links_to_the_lesson(page: Page, daphne_server, size):
    page.set_viewport_size(dict(zip(("width", "height"), SIZES[size], strict=True)))
    page.goto(f"{daphne_server}/rules/classic")
    article = page.locator(".rules-page")
    expect(article.locator(".tile[data-t='R3']").first).to_be_visible()
    expect(article).not_to_contain_text("(decision")
    expect(article.locator("code", has_text=re.compile(r"^[RYBK]\d"))).to_have_count(0)
    article.locator(".tile-row").first.scroll_into_view_if_needed()
    shot(page, size, "rules-classic")
    page.get_by_test_id("learn-link").click()
    expect(page.get_by_test_id("learn-index")).to_be_visible()


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("script", [FIFTY_ONE, OKEY_101, SEVENTEEN], ids=lambda s: s.slug)
def test_a_lay_down_lesson_through_opening_and_adding(page: Page, daphne_server, size, script):
    page.set_viewport_size(dict(zip(("width", "height"), SIZES[size], strict=True)))
    page.goto(f"{daphne_server}/learn/")
    page.get_by_test_id(f"learn-start-{script.slug}").click()
    expect(page).to_have_url(re.compile(r"/t/[\w-]+/$"))
    page.wait_for_function("() => document.body.classList.contains('ws-open')")

    at_step(page, "draw")
    page.get_by_test_id("draw-pile").click()

    at_step(page, "open")
    shot(page, size, f"{script.slug}-2-open")
    select(page, script.discards[0])
    press(page, "discard")  # not yet: the panel says to open first
    expect(page.get_by_test_id("lesson-wrong")).to_have_attribute("data-code", "lesson_open_first")
    shot(page, size, f"{script.slug}-2-open-wrong")
    # the refusal sent the rack again: nothing is selected any more
    expect(page.locator("#rack-grid .tile.selected")).to_have_count(0)
    for meld in script.opening:
        for t in meld.split():
            select(page, t)
        page.locator("#t-controls [data-stage]").click()
    press(page, "open")

    at_step(page, "discard")
    expect(page.get_by_test_id("melds").locator(".meld")).to_have_count(len(script.opening))
    shot(page, size, f"{script.slug}-3-discard")
    select(page, script.discards[0])
    press(page, "discard")

    at_step(page, "draw_again")
    press(page, "draw")

    at_step(page, "add")
    shot(page, size, f"{script.slug}-5-add")
    select(page, script.add)
    press(page, "place")

    at_step(page, "discard_again")
    select(page, script.discards[1])
    press(page, "discard")

    at_step(page, "done")
    expect(page.get_by_test_id("lesson-done")).to_be_visible()
    shot(page, size, f"{script.slug}-7-done")
