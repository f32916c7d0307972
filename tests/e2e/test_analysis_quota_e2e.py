"""The expert's queue is full, in a real browser: the analysis card of another seat says
so (translated text, "Try again") and nothing is queued; once the queue has room, "Try
again" starts it. The queue is filled by writing running analyses into the server's
database (``analysis.QUEUE_LIMIT`` of them, of seats no player has).

``QUOTA_SHOTS=dir`` saves screenshots at 390x844 and 1366x768."""

from __future__ import annotations

import json
import os
import re
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from games.review.analysis import QUEUE_LIMIT
from tests.e2e.test_review_teach_e2e import hand_document
from tests.support.accounts import sign_up

pytestmark = pytest.mark.e2e
FAKE_SEATS = range(10, 10 + QUEUE_LIMIT)


def shot(page: Page, name: str) -> None:
    where = os.environ.get("QUOTA_SHOTS")
    if where:
        Path(where).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(where) / f"{name}.png"))


def server_db(e2e_env: dict[str, str]) -> sqlite3.Connection:
    return sqlite3.connect(re.sub(r"^sqlite:///", "", e2e_env["DATABASE_URL"]))


def fill_queue(e2e_env: dict[str, str]) -> None:
    """Running analyses, just updated: the queue is full."""
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
    with server_db(e2e_env) as db:
        (imported,) = db.execute("SELECT MAX(id) FROM review_importedhand").fetchone()
        db.executemany(
            "INSERT INTO review_handanalysis (imported_id, seat, status, done, total, data,"
            " error, created, updated) VALUES (?, ?, 'running', 0, 0, '{}', '', ?, ?)",
            [(imported, seat, now, now) for seat in FAKE_SEATS],
        )


def drain_queue(e2e_env: dict[str, str]) -> None:
    with server_db(e2e_env) as db:
        db.execute("DELETE FROM review_handanalysis WHERE seat >= 10")


def test_a_full_queue_starts_nothing_and_says_so(page: Page, daphne_server: str, e2e_env, tmp_path):
    sign_up(page, daphne_server, "quota_learner")
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(hand_document("quota-1")))
    page.goto(f"{daphne_server}/review/import/")
    page.set_input_files("input[type=file]", str(path))
    page.get_by_test_id("import-form").locator("button[type=submit]").click()
    card = page.get_by_test_id("analysis")
    expect(card).to_have_attribute("data-seat", "0")
    fill_queue(e2e_env)
    card.locator("select[name=seat]").select_option("1")  # another seat: a new analysis
    refused = page.get_by_test_id("analysis-refused")
    expect(refused).to_have_text(
        "The expert is busy with other analyses; try again in a few minutes."
    )
    expect(card).to_have_attribute("data-status", "refused")
    with server_db(e2e_env) as db:  # nothing was queued for seat 1
        assert (
            db.execute("SELECT COUNT(*) FROM review_handanalysis WHERE seat = 1").fetchone()[0] == 0
        )
    for width, height in ((390, 844), (1366, 768)):
        page.set_viewport_size({"width": width, "height": height})
        card.evaluate("e => e.scrollIntoView({block: 'center'})")
        expect(page.get_by_test_id("analysis-retry")).to_be_in_viewport()
        shot(page, f"analysis-queue-full-{width}x{height}")
    drain_queue(e2e_env)
    page.get_by_test_id("analysis-retry").click()
    expect(page.get_by_test_id("analysis-refused")).to_have_count(0)
    expect(page.get_by_test_id("analysis")).to_have_attribute("data-seat", "1")
    expect(page.get_by_test_id("accuracy")).to_be_visible(timeout=60_000)
