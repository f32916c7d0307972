"""The review that teaches, in a real browser: an imported classic hand (seat 0 plays
badly on purpose: it breaks its own melds) is analysed in the background (a progress
indicator, then the accuracy, the classes and the evaluation graph); a graph point jumps to
its move; retry mode stops before a mistake with the other racks face down, takes a tile
picked from the rack, only then shows the expert's choice and why, and goes on to the next
mistake. ``REVIEW_SHOTS=dir`` saves screenshots at 390x844 and 1366x768."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from games.engine import analysis as an
from games.engine import apply, new_hand
from games.engine.actions import legal_actions
from games.engine.bots import choose_action
from games.engine.view import view_for
from games.review import records
from tests.support.accounts import sign_up

pytestmark = pytest.mark.e2e
SHOTS = os.environ.get("REVIEW_SHOTS")


def careless(state, seat: int) -> dict:
    """Seat 0's move: always draw, and discard the tile whose loss leaves the most tiles
    outside melds (by the analysis's own rack measure)."""
    legal = legal_actions(state, seat)
    draws = [a for a in legal if a["type"] == "draw"]
    if draws:
        return draws[0]
    options = an.rack_evaluator(view_for(state, seat), legal)
    discards = [o for o in options if o.action["type"] == "discard"]
    return discards[-1].action if discards else options[0].action


def hand_document(seed: str) -> dict:
    state = new_hand("classic", {}, seed, 0)
    while not state.over:
        seat = state.turn
        action = careless(state, seat) if seat == 0 else choose_action(state, seat, "hard")
        state, _events = apply(state, action)
    record = state.record()
    players = [{"seat": 0, "name": "learner", "cpu": None}] + [
        {"seat": s, "name": f"CPU {s}", "cpu": "hard"} for s in (1, 2, 3)
    ]
    return records.document("classic", {}, players, [records.hand_export(record, 1)])


def shot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def no_horizontal_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_retry_my_mistakes(page: Page, daphne_server: str, tmp_path: Path):
    refused: list[str] = []  # the site's CSP: nothing of the analysis may be refused
    page.on("console", lambda m: refused.append(m.text) if "Content Security" in m.text else None)
    sign_up(page, daphne_server, "learner")
    doc = hand_document("teach-1")
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(doc))
    page.goto(f"{daphne_server}/review/import/")
    page.set_input_files("input[type=file]", str(path))
    page.get_by_test_id("import-form").locator("button[type=submit]").click()
    expect(page.get_by_test_id("accuracy")).to_be_visible(timeout=60_000)
    analysis = page.get_by_test_id("analysis")
    expect(analysis).to_have_attribute("data-status", "done")
    mistakes = page.locator(
        ".rv-decisions li[data-class=mistake], .rv-decisions li[data-class=blunder]"
    )
    assert mistakes.count() >= 2
    first = int(mistakes.first.get_attribute("data-step"))

    # a point of the graph jumps to its move
    page.get_by_test_id(f"graph-point-{first}").click()
    expect(page.get_by_test_id("rv-step")).to_have_text(str(first))
    page.set_viewport_size({"width": 1366, "height": 768})
    shot(page, "analysis-1366")
    no_horizontal_scroll(page)

    page.get_by_test_id("retry-start").click()
    retry = page.get_by_test_id("retry")
    expect(retry).to_be_visible()
    # the position before the first mistake, as the learner saw it
    expect(page.get_by_test_id("rv-step")).to_have_text(str(first - 1))
    for s in (1, 2, 3):
        rack = page.get_by_test_id(f"rv-rack-{s}")
        assert rack.locator(".tile").count() == rack.locator(".tile.face-down").count() > 0
    expect(page.get_by_test_id("rv-timeline")).to_be_hidden()
    reveal = page.get_by_test_id("retry-reveal")
    expect(reveal).to_be_hidden()  # nothing is told before the pick
    expect(page.get_by_test_id("retry-next")).to_be_hidden()
    shot(page, "retry-ask-1366")
    no_horizontal_scroll(page)

    # pick a tile of the rack: only then the expert's choice and why
    pickable = page.locator("[data-testid=rv-rack-0] .tile.rv-pickable")
    assert pickable.count() > 0
    pickable.first.click()
    expect(reveal).to_be_visible()
    expect(reveal.locator("[data-retry-best]")).not_to_have_text("")
    why = reveal.locator("[data-retry-why]").inner_text()
    assert " " in why and "_" not in why  # the reason in words, not a code
    expect(page.locator("[data-testid=rv-rack-0] .tile.rv-picked")).to_have_count(1)
    expect(page.locator("[data-testid=rv-rack-0] .tile.rv-pickable")).to_have_count(0)
    expect(page.get_by_test_id("retry-next")).to_be_visible()
    shot(page, "retry-reveal-1366")

    # the next mistake
    second = int(mistakes.nth(1).get_attribute("data-step"))
    page.get_by_test_id("retry-next").click()
    expect(page.get_by_test_id("rv-step")).to_have_text(str(second - 1))
    expect(reveal).to_be_hidden()

    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "retry-ask-390")
    no_horizontal_scroll(page)
    page.locator("[data-testid=rv-rack-0] .tile.rv-pickable").last.click()
    expect(reveal).to_be_visible()
    shot(page, "retry-reveal-390")
    no_horizontal_scroll(page)

    page.get_by_test_id("retry-stop").click()
    expect(retry).to_be_hidden()
    expect(page.get_by_test_id("rv-timeline")).to_be_visible()
    shot(page, "analysis-390")
    no_horizontal_scroll(page)
    assert refused == []
