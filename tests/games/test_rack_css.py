"""The rack's row length is defined once in the engine (games/engine/racksort.py); the table's
stylesheet lays the rack out from one custom property that must say the same number."""

from __future__ import annotations

import re
from pathlib import Path

from games.engine.racksort import RACK_ROW, RACK_SLOTS

CSS = Path(__file__).resolve().parents[2] / "static" / "css" / "table.css"


def test_stylesheet_rack_row_is_the_engines() -> None:
    css = CSS.read_text(encoding="utf-8")
    defined = re.findall(r"--rack-row:\s*(\d+)\s*;", css)
    assert defined == [str(RACK_ROW)]
    assert RACK_SLOTS == 2 * RACK_ROW
    # every full-row column count and slot width reads the property, never its own 16
    assert not re.search(rf"repeat\(\s*{RACK_ROW}\s*,", css)
    assert f"/ {RACK_ROW})" not in css
    assert css.count("var(--rack-row)") >= 5
