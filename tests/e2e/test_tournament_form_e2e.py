"""The tournament settings form in a real browser: it offers only what applies to the
chosen rule set. Three-player tables (instead of CPU fill seats) are offered exactly for
the rule sets played by three (3 in the rules object's ``players``), read from the
registry, so a new rule set is covered without an edit here; each rule set's own table
options show, the others' hide.

Set ``TOURNAMENT_FORM_SHOTS=/some/dir`` to save screenshots of the form at 390x844 and
1366x768 for each rule set."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from games.engine.rules import RULES
from tests.support.accounts import sign_up

pytestmark = pytest.mark.e2e

SIZES = {"phone": (390, 844), "desktop": (1366, 768)}


def test_settings_form_offers_three_player_tables_only_for_rule_sets_played_by_three(
    page: Page, daphne_server: str
):
    sign_up(page, daphne_server, "form_organiser")
    page.goto(f"{daphne_server}/tournaments/new/")
    three = page.locator("[data-three-players-only]")
    shots = os.environ.get("TOURNAMENT_FORM_SHOTS")
    offered = []
    for name, rules in RULES.items():
        page.select_option("#id_variant", name)
        expect(page.locator(f".variant-options[data-variant='{name}']")).to_be_visible()
        expect(page.locator(".variant-options:visible")).to_have_count(1)
        if 3 in rules.players:
            expect(three).to_be_visible()
            offered.append(name)
        else:
            expect(three).to_be_hidden()
        if shots:
            for label, (w, h) in SIZES.items():
                page.set_viewport_size({"width": w, "height": h})
                page.screenshot(path=str(Path(shots) / f"{name}-{label}.png"), full_page=True)
    # the registry holds at least one rule set played by three (Okey Rummy, RULES.md §3)
    assert offered

    # chosen and saved: the tournament's desk says its tables seat three where needed
    page.locator("#id_name").fill("Three at a table")
    page.select_option("#id_variant", offered[0])
    page.select_option("#id_mode", "in_person")
    three.locator("input").check()
    page.get_by_test_id("tournament-create").click()
    expect(
        page.get_by_text("Tables seat four, or three where the numbers need it.")
    ).to_be_visible()
