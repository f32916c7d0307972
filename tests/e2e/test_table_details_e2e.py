"""Details a demanding player notices at the table, in a real browser: the staged
meld's remove button is readable (WCAG AA contrast against what lies under it), and
the score sheet on a phone does not make the whole page scroll sideways."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from games.engine.testing import make_state
from tests.e2e.test_outcome_e2e import table_with_state, tile_id
from tests.e2e.test_table_e2e import create_table

pytestmark = pytest.mark.e2e

# The WCAG contrast ratio of an element's text colour against the first ancestor
# (or itself) with an opaque background.
CONTRAST = """el => {
  const rgb = s => s.match(/[\\d.]+/g).map(Number);
  const lum = c => {
    const [r, g, b] = c.slice(0, 3).map(v => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const fg = rgb(getComputedStyle(el).color);
  let node = el, bg = null;
  while (node) {
    const c = rgb(getComputedStyle(node).backgroundColor);
    if (c.length < 4 || c[3] === 1) { bg = c; break; }
    node = node.parentElement;
  }
  bg = bg || [255, 255, 255];
  const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


def test_the_staged_melds_remove_button_is_readable(page: Page, daphne_server: str, e2e_env):
    state = make_state(
        "fifty-one",
        racks=["R10 R11 R12 R13 K10 K11 K12 K13 Y11 Y12 Y13 B11 B12 B13 B5", None, None, None],
        indicator="Y4",
        options={"clock": 0},
    )
    table_with_state(page, daphne_server, e2e_env, "stager_contrast", "fifty-one", state)
    for t in ("Y11", "Y12", "Y13"):
        page.click(f"#rack-grid .tile[data-id='{tile_id(page, t)}']")
    page.click("[data-stage]")
    remove = page.get_by_role("button", name="Remove this staged meld")
    expect(remove).to_be_visible()
    ratio = remove.evaluate(CONTRAST)
    assert ratio >= 4.5, ratio
    remove.click()
    expect(page.locator("#staging .staged")).to_have_count(0)


def test_the_score_sheet_fits_a_phone_without_sideways_scrolling(
    page: Page, daphne_server: str, e2e_env
):
    state = make_state(
        "rummy",
        racks=["R1 R2 R3 R4 Y5 Y6 Y7 Y8 K9 K10 K11 K12 R13 Y13 K13", None, None, None],
        indicator="Y4",
    )
    code = table_with_state(page, daphne_server, e2e_env, "sheet_on_a_phone", "rummy", state)
    page.click(f"#rack-grid .tile[data-id='{tile_id(page, 'R4')}']")
    page.click("#t-controls [data-act=close]")
    expect(page.get_by_test_id("outcome")).to_be_visible()
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{daphne_server}/t/{code}/sheet/")
    expect(page.get_by_test_id("score-sheet")).to_be_visible()
    wide = page.evaluate(
        "() => document.scrollingElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert wide <= 0, wide


def test_what_an_opening_needs_is_on_a_phones_screen(page: Page, daphne_server: str, e2e_env):
    """Turkish chips are longer: the row of chips scrolls sideways on a phone, and what
    an opening must reach comes before the deal commitment's long hash."""
    page.context.add_cookies([{"name": "django_language", "value": "tr", "url": daphne_server}])
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{daphne_server}/accounts/signup/")
    page.fill("#id_username", "acilis")
    page.fill("#id_display_name", "Açılış")
    page.fill("#id_password1", "green-felt-2024!")
    page.fill("#id_password2", "green-felt-2024!")
    page.locator("main button[type=submit]").click()
    expect(page.get_by_test_id("nav-user")).to_have_text("Açılış")
    create_table(page, daphne_server, "fifty-one", clock="0")
    chip = page.get_by_test_id("opening-min").locator("xpath=..")
    expect(chip).to_contain_text("Açmak için")
    box = chip.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box


def test_a_melds_owner_label_covers_none_of_its_tiles(page: Page, daphne_server: str, e2e_env):
    state = make_state(
        "fifty-one",
        racks=["R10 R11 R12 R13 K10 K11 K12 K13 Y11 Y12 Y13 B11 B12 B13 B5", None, None, None],
        indicator="Y4",
        melds=[{"owner": 1, "tiles": "R5 R6 R7 R8"}, {"owner": 2, "tiles": "K3 Y3 B3"}],
        opened=[None, "melds", "melds", None],
        options={"clock": 0},
    )
    table_with_state(page, daphne_server, e2e_env, "meld_reader", "fifty-one", state)
    for w, h in ((390, 844), (1366, 768)):
        page.set_viewport_size({"width": w, "height": h})
        overlaps = page.eval_on_selector_all(
            "#t-felt .meld",
            """melds => melds.flatMap(m => {
                const label = m.querySelector('.meld-owner').getBoundingClientRect();
                return [...m.querySelectorAll('.tile')].map(t => t.getBoundingClientRect())
                  .filter(t => t.bottom > label.top && t.top < label.bottom
                            && t.right > label.left && t.left < label.right)
                  .map(t => Math.round(t.bottom - label.top));
            })""",
        )
        assert overlaps == [], (w, overlaps)


def test_a_side_seats_badge_does_not_cut_its_name_short(page: Page, daphne_server: str, e2e_env):
    state = make_state(
        "fifty-one",
        racks=["R10 R11 R12 R13 K10 K11 K12 K13 Y11 Y12 Y13 B11 B12 B13 B5", None, None, None],
        indicator="Y4",
        melds=[{"owner": 1, "tiles": "R5 R6 R7 R8"}, {"owner": 3, "tiles": "K3 Y3 B3"}],
        opened=[None, "melds", None, "melds"],
        options={"clock": 0},
    )
    page.set_viewport_size({"width": 1366, "height": 768})
    table_with_state(page, daphne_server, e2e_env, "side_reader", "fifty-one", state)
    for side in (".opp-left", ".opp-right"):
        name = page.locator(f"#t-felt {side} .opp-name")
        expect(name).to_be_visible()
        cut = name.evaluate("el => el.scrollWidth - el.clientWidth")
        assert cut <= 0, (side, cut)


def test_staging_a_meld_keeps_the_rack_on_a_sideways_phone(page: Page, daphne_server: str, e2e_env):
    state = make_state(
        "fifty-one",
        racks=["R10 R11 R12 R13 K10 K11 K12 K13 Y11 Y12 Y13 B11 B12 B13 B5", None, None, None],
        indicator="Y4",
        options={"clock": 0},
    )
    page.set_viewport_size({"width": 844, "height": 390})
    table_with_state(page, daphne_server, e2e_env, "sideways_stager", "fifty-one", state)
    for t in ("Y11", "Y12", "Y13"):
        page.click(f"#rack-grid .tile[data-id='{tile_id(page, t)}']")
    page.click("[data-stage]")
    expect(page.get_by_test_id("staging-total")).to_be_visible()
    bottom = page.locator("#rack-grid").bounding_box()
    assert bottom["y"] + bottom["height"] <= 390, bottom
    scroll = page.evaluate("() => document.scrollingElement.scrollHeight - innerHeight")
    assert scroll <= 0, scroll


def test_buttons_that_need_a_selection_say_so_until_they_have_one(
    page: Page, daphne_server: str, e2e_env
):
    """ "Discard selected" with nothing selected looks unavailable (aria-disabled) and, when
    clicked anyway, says what to do; one selected tile makes it available."""
    state = make_state(
        "fifty-one",
        racks=["R10 R11 R12 R13 K10 K11 K12 K13 Y11 Y12 Y13 B11 B12 B13 B5", None, None, None],
        indicator="Y4",
        options={"clock": 0},
    )
    table_with_state(page, daphne_server, e2e_env, "wanting_buttons", "fifty-one", state)
    discard = page.locator("#t-controls [data-act=discard]")
    stage = page.locator("#t-controls [data-stage]")
    opening = page.locator("#t-controls [data-melds='1']")
    for button in (discard, stage, opening):
        expect(button).to_have_attribute("aria-disabled", "true")
    discard.click(force=True)  # a person can still click it
    expect(page.locator("#t-msg")).to_contain_text("Select one tile first")
    page.click(f"#rack-grid .tile[data-id='{tile_id(page, 'B5')}']")
    expect(discard).not_to_have_attribute("aria-disabled", "true")
    expect(opening).not_to_have_attribute("aria-disabled", "true")  # one tile is a meld to try
    expect(stage).to_have_attribute("aria-disabled", "true")  # a meld needs two or more
    page.click(f"#rack-grid .tile[data-id='{tile_id(page, 'B5')}']")  # unselect
    for t in ("Y11", "Y12", "Y13"):
        page.click(f"#rack-grid .tile[data-id='{tile_id(page, t)}']")
    expect(discard).to_have_attribute("aria-disabled", "true")
    expect(stage).not_to_have_attribute("aria-disabled", "true")
    stage.click()
    expect(opening).not_to_have_attribute("aria-disabled", "true")  # a staged meld to open with
