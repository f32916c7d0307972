"""Tiles that explain themselves and clicks that do what they show, in every rule set.

One CPU table per rule set (classic, Okey Rummy, fifty-one, seventeen), looked at
on a desktop (1366x768) and a phone (390x844) on the same page:

- every rack tile and the indicator are named in words ("black 6", "okey (red 3)"),
  and no notation ("K6") is shown or read anywhere on the table, its status or hint;
- in the lay-down rule sets, a staged meld shows its running total against the
  opening minimum (games/live/staging.py: "33 of 51 needed to open · 18 more"); the
  meld is found in the dealt rack with the engine's own ``melds.classify`` and
  valued with ``Rules.meld_value`` (games/engine/RULES.md §4-§5);
- the invite card is gone at a table that has started;
- after a CPU's discard, that seat's latest discard carries the "last" mark;
- a double click on the pile sends one draw and shows no error; the drawn tile
  carries the "new" mark until it is moved within the rack;
- "Show me" marks a tile unlike a selection, and its button makes the move in one
  click.

The engine's own play covers the rules; this file covers what a player sees.
Set ``RULESETS_SHOTS=/some/dir`` to save screenshots of each check at both sizes.
"""

from __future__ import annotations

import itertools
import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from games.engine.melds import GROUP, RUN, classify
from games.engine.rules import rules_for
from games.engine.tiles import parse_kind
from tests.e2e.test_table_e2e import create_table, version, wait_my_turn_or_end
from tests.support.accounts import sign_up
from tests.support.waits import wait_version_after

pytestmark = pytest.mark.e2e

VIEWPORTS = [(1366, 768), (390, 844)]
NOTATION = re.compile(r"\b[RYBK]\d{1,2}\b")
_COLOUR = r"(red|yellow|green|blue|black) \d{1,2}"
# games/tilewords.py: the English words a rack tile or the indicator may carry
WORDS = re.compile(rf"^({_COLOUR}|false joker|okey \({_COLOUR}\))$")
LAY_DOWN = {"fifty-one": 51, "seventeen": 17}  # the first opening's minimum (RULES.md §4-§5)
ALL_IDS = "els => els.map(e => e.dataset.id)"


def shot(page: Page, name: str) -> None:
    where = os.environ.get("RULESETS_SHOTS")
    if where:
        Path(where).mkdir(parents=True, exist_ok=True)
        size = page.viewport_size
        page.screenshot(path=str(Path(where) / f"{name}-{size['width']}x{size['height']}.png"))


def no_error(page: Page) -> None:
    expect(page.locator("[data-testid=message] [data-code]")).to_have_count(0)


def shown_and_read(page: Page) -> str:
    """The visible text and every label and title of the table, its status and hint."""
    return page.evaluate(
        """() => {
            const roots = ['.table-page', '[data-testid=status]', '[data-testid=message]']
                .map(s => document.querySelector(s)).filter(Boolean);
            const out = [];
            for (const r of roots) {
                out.push(r.innerText);
                for (const e of [r, ...r.querySelectorAll('[aria-label], [title]')]) {
                    out.push(e.getAttribute('aria-label') || '', e.getAttribute('title') || '');
                }
            }
            out.push(document.querySelector('#t-announce').textContent);
            return out.join(' | ');
        }"""
    )


def mark_changes_look(page: Page, selector: str, mark: str) -> bool:
    """Whether the tile at ``selector`` looks different without its ``mark`` class."""
    return page.locator(selector).evaluate(
        """(e, mark) => {
            const look = () => { const s = getComputedStyle(e);
                return [s.boxShadow, s.outlineStyle, s.outlineColor].join(); };
            const marked = look();
            e.classList.remove(mark);
            const plain = look();
            e.classList.add(mark);
            return marked !== plain;
        }""",
        mark,
    )


def check_words(page: Page, where: str) -> None:
    for w, h in VIEWPORTS:
        page.set_viewport_size({"width": w, "height": h})
        labels = page.locator("#rack-grid .tile").evaluate_all(
            "els => els.map(e => e.getAttribute('aria-label'))"
        )
        assert len(labels) >= 14, labels
        bad = [x for x in labels if not WORDS.match(x or "")]
        assert not bad, (where, w, bad)
        indicator = page.locator("[data-testid=indicator] .tile").get_attribute("aria-label")
        assert WORDS.match(indicator or ""), (where, w, indicator)
        text = shown_and_read(page)
        assert not NOTATION.search(text), (where, w, NOTATION.findall(text))
    page.set_viewport_size({"width": 1366, "height": 768})


def find_meld(page: Page, variant: str) -> tuple[list[int], int] | None:
    """Three rack tiles that form a run or a group, and their value, as the server
    values a staged meld of three (games/live/staging.py: ``melds.classify``, then
    ``Rules.meld_value``)."""
    rules = rules_for(variant)
    okey = parse_kind(page.get_by_test_id("okey").get_attribute("data-t"))
    ids = [int(i) for i in page.locator("#rack-grid .tile").evaluate_all(ALL_IDS)]
    for three in itertools.combinations(ids, 3):
        shape = classify(list(three), okey, ace_high=rules.ace_high, allow=(RUN, GROUP))
        if shape is not None:
            return list(three), rules.meld_value(shape.kind, shape.plays)
    return None


def stage(page: Page, ids: list[int], expected: str, name: str) -> None:
    for i in ids:
        page.click(f"#rack-grid .tile[data-id='{i}']")
    page.click("[data-stage]")
    total = page.get_by_test_id("staging-total")
    for w, h in VIEWPORTS:
        page.set_viewport_size({"width": w, "height": h})
        expect(total).to_have_text(expected)
        expect(total).to_be_in_viewport()
        shot(page, name)
    page.set_viewport_size({"width": 1366, "height": 768})
    # unstage (the turn goes on as dealt) by the button's name, in the page's language
    page.locator("#staging .staged").get_by_role("button", name="Remove this staged meld").click()
    expect(page.locator("#staging .staged")).to_have_count(0)
    expect(page.get_by_test_id("staging-total")).to_have_count(0)


def check_staging(page: Page, variant: str) -> bool:
    """Stage a meld of the rack and read its total against the opening minimum shown
    at the table. True when the rack held a run or group to stage; otherwise three
    tiles that are not a meld are staged, which count nothing."""
    need = int(page.get_by_test_id("opening-min").inner_text())
    found = find_meld(page, variant)
    if found is None:
        ids = [int(i) for i in page.locator("#rack-grid .tile").evaluate_all(ALL_IDS)][:3]
        stage(
            page,
            ids,
            f"0 of {need} needed to open · {need} more · a group is not a run, group or pair",
            f"staging-none-{variant}",
        )
        return False
    ids, points = found
    expected = f"{points} of {need} needed to open"
    if points < need:
        expected += f" · {need - points} more"
    stage(page, ids, expected, f"staging-{variant}")
    return True


def discard_last_tile(page: Page) -> None:
    before = version(page)
    page.locator("#rack-grid .tile").last.click()
    page.click("#t-controls [data-act=discard]")
    wait_version_after(page, before)


def to_my_draw(page: Page) -> None:
    assert wait_my_turn_or_end(page)
    while not page.locator("#t-controls [data-act=draw]:not([disabled])").count():
        discard_last_tile(page)
        assert wait_my_turn_or_end(page)


def drag_to_empty_slot(page: Page, tile_id: str) -> None:
    src = page.locator(f"#rack-grid .tile[data-id='{tile_id}']").bounding_box()
    dst = page.locator("#rack-grid .slot:not(:has(.tile))").last.bounding_box()
    page.mouse.move(src["x"] + src["width"] / 2, src["y"] + src["height"] / 2)
    page.mouse.down()
    page.mouse.move(dst["x"] + 5, dst["y"] + 5, steps=8)
    page.mouse.move(dst["x"] + dst["width"] / 2, dst["y"] + dst["height"] / 2, steps=8)
    page.mouse.up()


@pytest.mark.parametrize("variant", ["classic", "rummy", "fifty-one", "seventeen"])
def test_tiles_explain_themselves_and_clicks_do_what_they_show(
    page: Page, daphne_server: str, variant: str
):
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(payload)))
    page.set_viewport_size({"width": 1366, "height": 768})
    sign_up(page, daphne_server, f"rules_{variant.replace('-', '_')}")
    create_table(page, daphne_server, variant, **({"clock": "0"} if variant == "fifty-one" else {}))
    assert wait_my_turn_or_end(page)  # we start: 15 tiles, no draw
    expect(page.locator("#t-invite")).to_be_hidden()  # a CPU table starts at once
    expect(page.locator(".invite")).to_have_count(0)
    check_words(page, "dealt")
    staged_a_meld = False
    if variant in LAY_DOWN:
        expect(page.get_by_test_id("opening-min")).to_have_text(str(LAY_DOWN[variant]))
        staged_a_meld = check_staging(page, variant)

    # our discard; the CPUs play on; each seat's latest discard is marked
    to_my_draw(page)
    # (a CPU may have taken the discard before its own: that seat's pile is then empty;
    # the seat before us has just discarded, and we have not taken it)
    expect(page.locator("#opp-3 .discard-pile .tile")).not_to_have_count(0)
    for seat in (1, 2, 3):
        pile = page.locator(f"#opp-{seat} .discard-pile .tile")
        if not pile.count():
            continue
        expect(pile.last).to_have_class(re.compile(r"\blast\b"))
        expect(page.locator(f"#opp-{seat} .discard-pile .tile.last")).to_have_count(1)
        assert mark_changes_look(page, f"#opp-{seat} .discard-pile .tile.last", "last")
    check_words(page, "our draw")

    # a double click on the pile: one draw sent, no error; the drawn tile is marked
    draws_before = len([f for f in sent if '"draw"' in f])
    count = page.locator("#rack-grid .tile").count()
    before = version(page)
    page.get_by_test_id("draw-pile").dblclick()
    wait_version_after(page, before)
    expect(page.locator("#rack-grid .tile")).to_have_count(count + 1)
    no_error(page)
    draws = [f for f in sent if '"draw"' in f][draws_before:]
    assert len(draws) == 1, draws
    drawn = page.locator("#rack-grid .tile.drawn")
    expect(drawn).to_have_count(1)
    for w, h in VIEWPORTS:
        page.set_viewport_size({"width": w, "height": h})
        expect(drawn.locator(".drawn-mark")).to_be_visible()
        expect(drawn.locator(".drawn-mark")).to_have_text("new")
        shot(page, f"drawn-{variant}")
    page.set_viewport_size({"width": 1366, "height": 768})
    assert mark_changes_look(page, "#rack-grid .tile.drawn", "drawn")
    drawn_id = drawn.get_attribute("data-id")
    drag_to_empty_slot(page, drawn_id)
    expect(page.locator("#rack-grid .tile.drawn")).to_have_count(0)
    expect(page.locator(f"#rack-grid .tile[data-id='{drawn_id}'] .drawn-mark")).to_have_count(0)

    if variant in LAY_DOWN and not staged_a_meld:  # one tile more to find a meld in
        check_staging(page, variant)

    # "Show me": its mark is not a selection's, and its button makes the move
    page.get_by_test_id("show-me").click()
    hint = page.get_by_test_id("hint")
    expect(hint).to_be_visible()
    hinted = page.locator("#rack-grid .tile.hinted")
    expect(hinted.first).to_be_visible()
    other = page.locator("#rack-grid .tile:not(.hinted)").first
    other.click()
    style = (
        "e => { const s = getComputedStyle(e);"
        " return [s.outlineStyle, s.boxShadow, s.transform].join(); }"
    )
    for w, h in VIEWPORTS:
        page.set_viewport_size({"width": w, "height": h})
        assert hinted.first.evaluate(style) != other.evaluate(style), (variant, w)
        assert "selected" not in (hinted.first.get_attribute("class") or "")
        text = shown_and_read(page)
        assert not NOTATION.search(text), (variant, w, NOTATION.findall(text))
        shot(page, f"hint-{variant}")
    page.set_viewport_size({"width": 1366, "height": 768})
    other.click()  # unselect: the hint's button needs no selection
    expect(page.locator("#rack-grid .tile.selected")).to_have_count(0)
    button = page.get_by_test_id("hint-do")
    expect(button).to_be_visible()
    hinted_ids = hinted.evaluate_all("els => els.map(e => e.dataset.id)")
    before = version(page)
    button.click()
    wait_version_after(page, before)
    no_error(page)
    # the hinted tiles left the rack: discarded, or laid down in melds
    for i in hinted_ids:
        expect(page.locator(f"#rack-grid .tile[data-id='{i}']")).to_have_count(0)
