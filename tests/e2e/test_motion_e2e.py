"""Motion and sound at the table, in a real browser (static/js/motion.js, sound.js).

At a table with three CPUs: your discard flies from the rack to the discard spot, the
tile you draw flies into the rack, the CPUs' draws and discards move on their side,
and with reduced motion asked for nothing moves (the sounds still play). What
sounded is seen by wrapping ``window.okeySound.output`` (the page's one place that
makes a sound), never by listening. The sound files are served; the mute switch
silences them and survives a reload; the clock's last five seconds show a warning
and tick (the page's time is set with Playwright's clock, so nothing waits for the
clock to run down).

Set ``MOTION_SHOTS=/some/dir`` to save screenshots of the table with the mute switch
and the clock's warning at 390x844 and 1366x768.
"""

from __future__ import annotations

import os
import re
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_table_e2e import (
    act,
    create_table,
    discard,
    draw_if_needed,
    wait_my_turn_or_end,
    worst_tile,
)
from tests.support.accounts import sign_up

pytestmark = pytest.mark.e2e

URGENT = re.compile(r"\burgent\b")
SOUNDS = ("draw", "discard", "turn", "tick", "end")

# Records, after each frame, the tiles whose flight motion.js started (its animations
# carry the id "okey-motion"), and every sound the page made.
RECORD = """() => {
  window.flights = []; window.sounds = [];
  const seen = new WeakSet();
  document.addEventListener("htmx:wsAfterMessage", () => {
    document.getAnimations().filter(a => a.id === "okey-motion" && !seen.has(a)).forEach(a => {
      seen.add(a);
      const el = a.effect.target;
      window.flights.push({id: el.dataset.id || null, back: el.classList.contains("motion-back")});
    });
  });
  const output = window.okeySound.output;
  window.okeySound.output = (name) => { window.sounds.push(name); return output(name); };
}"""


def shot(page: Page, name: str) -> None:
    where = os.environ.get("MOTION_SHOTS")
    if where:
        Path(where).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(where) / f"{name}.png"))


def flights(page: Page) -> list[dict]:
    return page.evaluate("() => window.flights")


def sounds(page: Page) -> list[str]:
    return page.evaluate("() => window.sounds")


def forget(page: Page) -> None:
    page.evaluate("() => { window.flights.length = 0; window.sounds.length = 0; }")


def test_tiles_fly_where_they_went_unless_less_motion_is_asked(page: Page, daphne_server: str):
    sign_up(page, daphne_server, "motion_player")
    create_table(page, daphne_server, "classic")  # the starter holds 15: discard first
    page.evaluate(RECORD)

    gone = worst_tile(page)
    discard(page, gone)
    expect(page.locator(f"#my-discards .tile[data-id='{gone}']")).to_have_count(1)
    assert {"id": str(gone), "back": False} in flights(page)
    assert "discard" in sounds(page)

    # the CPUs draw (a tile back flies to their box) and discard (from their box)
    assert wait_my_turn_or_end(page)
    cpu = [f for f in flights(page) if f not in ({"id": str(gone), "back": False},)]
    assert any(f["back"] for f in cpu), cpu
    assert any(not f["back"] for f in cpu), cpu
    assert "turn" in sounds(page)

    forget(page)
    draw_if_needed(page)
    drawn = page.locator("#rack-grid .tile.drawn").get_attribute("data-id")
    assert {"id": drawn, "back": False} in flights(page)
    assert sounds(page) == ["draw"]

    # less motion: nothing flies, and the sounds still tell what happened
    page.emulate_media(reduced_motion="reduce")
    page.wait_for_function("() => !document.getAnimations().some(a => a.id === 'okey-motion')")
    forget(page)
    discard(page, worst_tile(page))
    assert wait_my_turn_or_end(page)
    draw_if_needed(page)
    expect(page.locator("#rack-grid .tile.drawn")).to_have_count(1)
    assert flights(page) == []
    assert page.evaluate("() => document.getAnimations().length") == 0
    assert {"discard", "turn", "draw"} <= set(sounds(page))


def test_the_sounds_are_served_and_the_mute_switch_is_remembered(page: Page, daphne_server: str):
    sign_up(page, daphne_server, "motion_muter")
    create_table(page, daphne_server, "classic")
    toggle = page.get_by_role("button", name="Mute sounds")
    for name in SOUNDS:
        url = toggle.get_attribute(f"data-sound-{name}")
        response = page.request.get(f"{daphne_server}{url}")
        assert response.status == 200, url
        assert response.headers["content-type"].startswith("audio/"), response.headers
        assert 0 < len(response.body()) < 30_000

    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    # the first click unlocks audio: every file decodes (a broken file would not)
    page.wait_for_function(f"() => window.okeySound.loaded().length === {len(SOUNDS)}")
    page.reload()
    page.wait_for_function("() => document.body.classList.contains('ws-open')")
    toggle = page.get_by_role("button", name="Mute sounds")
    expect(toggle).to_have_attribute("aria-pressed", "true")

    # muted: a discard and the CPUs' moves make no sound
    page.evaluate(RECORD)
    discard(page, worst_tile(page))
    assert wait_my_turn_or_end(page)
    assert sounds(page) == []
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    act(page, ".controls [data-act=draw]")
    assert sounds(page) == ["draw"]

    # the switch is each player's own: muted again, then another player in this browser
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    page.set_viewport_size({"width": 1366, "height": 768})  # the header's log-out button
    page.get_by_role("button", name="Log out").click()
    sign_up(page, daphne_server, "motion_other")
    create_table(page, daphne_server, "classic")
    expect(page.get_by_role("button", name="Mute sounds")).to_have_attribute(
        "aria-pressed", "false"
    )


def test_the_clock_s_last_five_seconds_are_seen_and_heard(page: Page, daphne_server: str):
    sign_up(page, daphne_server, "motion_clock")
    create_table(page, daphne_server, "fifty-one", clock="15")
    expect(page.get_by_test_id("status")).to_contain_text("Your turn")
    page.evaluate(RECORD)
    clock = page.get_by_test_id("clock")
    deadline = datetime.fromisoformat(clock.get_attribute("data-deadline"))
    expect(clock).not_to_have_class(URGENT)

    page.clock.set_fixed_time(deadline - timedelta(seconds=4))
    expect(clock).to_have_class(URGENT)
    expect(clock).to_contain_text("4s")
    page.wait_for_function("() => window.sounds.includes('tick')")
    page.clock.set_fixed_time(deadline - timedelta(seconds=3))
    expect(clock).to_contain_text("3s")
    page.wait_for_function("() => window.sounds.filter(s => s === 'tick').length === 2")

    page.get_by_role("button", name="Mute sounds").click()
    for w, h in [(390, 844), (1366, 768)]:
        page.set_viewport_size({"width": w, "height": h})
        expect(clock).to_be_in_viewport(ratio=1)
        expect(page.get_by_role("button", name="Mute sounds")).to_be_in_viewport()
        shot(page, f"clock-warning-muted-{w}x{h}")
