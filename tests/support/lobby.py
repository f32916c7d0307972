"""The home page in a browser (e2e tests): its new-table form is folded behind "More options"
(a ``<details id="new-table">``, docs/first-ten-minutes.md); a test that fills it opens it
first."""

from __future__ import annotations

from typing import Any


def open_new_table_form(page: Any) -> None:
    """Open the home page's folded new-table form (a no-op when it is open already) and wait
    until its first field shows."""
    from playwright.sync_api import expect

    fold = page.locator("details#new-table:not([open]) > summary")
    if fold.count():
        fold.click()
    expect(page.locator("#id_variant")).to_be_visible()
