"""The desk's must-not-meet pairs and late-entry round in a real browser: the settings
field, choosing two players to keep apart, the round that cannot part them (not seated,
the pairs named), removing a pair, and registration closed after the late-entry round.

Set ``DESK_SHOTS=/some/dir`` to save the desk at 390x844 and 1366x768."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.support.accounts import sign_up

pytestmark = pytest.mark.e2e

SIZES = {"phone": (390, 844), "desktop": (1366, 768)}
NAMES = ["Ayşe", "Baran", "Cem", "Deniz", "Elif", "Fatma", "Gül", "Hakan"]


def shoot(page: Page, name: str) -> None:
    shots = os.environ.get("DESK_SHOTS")
    if not shots:
        return
    for label, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        page.screenshot(path=str(Path(shots) / f"{name}-{label}.png"), full_page=True)
        page.screenshot(path=str(Path(shots) / f"{name}-{label}-top.png"))
        for part in ("seat-section", "players-section", "apart-section", "settings-form"):
            if page.get_by_test_id(part).is_visible():
                page.get_by_test_id(part).screenshot(
                    path=str(Path(shots) / f"{name}-{label}-{part}.png")
                )
    page.set_viewport_size({"width": 1366, "height": 768})


def keep_apart(page: Page, a: str, b: str) -> None:
    form = page.get_by_test_id("apart-form")
    form.locator("select[name='first']").select_option(label=a)
    form.locator("select[name='second']").select_option(label=b)
    page.get_by_test_id("apart-add").click()
    expect(page.get_by_text(f"{a} and {b} will never sit at the same table.")).to_be_visible()


def test_desk_keeps_pairs_apart_and_closes_late_entry(page: Page, daphne_server: str):
    sign_up(page, daphne_server, "desk_organiser")
    page.goto(f"{daphne_server}/tournaments/new/")
    page.locator("#id_name").fill("Family night")
    page.select_option("#id_mode", "in_person")
    page.locator("#id_late_entry_until").fill("1")
    page.get_by_test_id("tournament-create").click()
    for name in NAMES:
        page.get_by_test_id("entry-form").locator("input[name='name']").fill(name)
        page.get_by_test_id("entry-add").click()
        expect(page.get_by_text(f"{name} is registered.")).to_be_visible()
    keep_apart(page, "Ayşe", "Baran")
    keep_apart(page, "Baran", "Cem")
    keep_apart(page, "Ayşe", "Cem")
    expect(page.get_by_test_id("apart-pair")).to_have_count(3)
    page.locator("details summary").click()  # the settings, with the late-entry round
    expect(page.locator("#id_late_entry_until")).to_have_value("1")
    shoot(page, "desk-pairs")

    # eight players at two tables cannot part three who must all sit apart
    page.get_by_test_id("seat-round").click()
    expect(page.get_by_text("Round not seated: the 2 tables of this round")).to_be_visible()
    expect(page.get_by_test_id("desk-table")).to_have_count(0)
    shoot(page, "desk-impossible")

    page.get_by_test_id("apart-remove").first.click()
    expect(page.get_by_text("The pair may sit together again.")).to_be_visible()
    expect(page.get_by_test_id("apart-pair")).to_have_count(2)
    page.get_by_test_id("seat-round").click()
    expect(page.get_by_text("Round 1 is seated.", exact=True)).to_be_visible()
    expect(page.get_by_test_id("desk-table")).to_have_count(2)
    # late entry was open until round 1: round 2 takes no new players
    expect(page.get_by_test_id("registration-closed")).to_have_text(
        "Registration is closed: late entry was open until round 1. "
        "Change it in the settings to let more players in."
    )
    expect(page.get_by_test_id("entry-form")).to_have_count(0)
    shoot(page, "desk-closed")
