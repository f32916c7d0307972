"""Hints that teach, in a real browser: "Show me" marks the meld an add goes to and does it
in one click; an assisted table asks a second tap before a costly discard (the rule set's
cost in words); seventeen's okey has its own face-down control that a double tap cannot
flip twice. Screenshots at phone and desktop size go to /tmp/shots/teach/.

The CPU speed measurement runs on its own server (``speed_server``): the shared e2e server
plays CPUs at 60 ms a step, here they wait as in production (``OKEY_CPU_DELAY_MS`` 300)."""

from __future__ import annotations

import json
import re
import sqlite3
import time
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from games.engine.state import replay_from, state_from_json
from games.engine.testing import make_state
from tests.e2e.test_outcome_e2e import tile_id
from tests.e2e.test_table_e2e import create_table
from tests.e2e.test_table_layout_e2e import put_hand_state
from tests.support import servers
from tests.support.accounts import sign_up
from tests.support.lobby import open_new_table_form
from tests.support.servers import free_port

pytestmark = pytest.mark.e2e

SHOTS = Path("/tmp/shots/teach")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}

# seat 0 has opened; K9 fits only seat 1's run K6 K7 K8, B5 fits seat 2's B2 B3 B4
RACK = "K9 R1 Y3 B5 R8 Y11 B13 R13 K2 Y7"
MELDS = [{"owner": 2, "tiles": "B2 B3 B4"}, {"owner": 1, "tiles": "K6 K7 K8"}]


def shoot(page: Page, name: str, show=None) -> None:
    """The page at phone and desktop size (the viewport it had is put back), with the
    locator ``show`` (if any) scrolled into view at each size."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    was = page.viewport_size
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        if show is not None:
            show.evaluate("e => e.scrollIntoView({block: 'center'})")
        page.screenshot(path=str(SHOTS / f"{name}-{label}.png"))
    if was:
        page.set_viewport_size(was)


def at_table(page: Page, base: str, e2e_env: dict, user: str, variant: str, state) -> str:
    """A new table of ``variant`` for ``user`` and three CPUs, its hand (and options)
    replaced by ``state``; the page reloaded on it."""
    sign_up(page, base, user)
    create_table(page, base, variant, clock="0")
    expect(page.get_by_test_id("status")).to_contain_text("Your turn")  # CPUs wait for us
    code = page.locator(".table-page").get_attribute("data-code")
    put_hand_state(e2e_env, code, state.to_json())
    page.reload()
    page.wait_for_function("() => document.body.classList.contains('ws-open')")
    return code


def opened_state(variant: str, *, assisted: bool, rack: str = RACK, indicator: str = "R10"):
    return make_state(
        variant,
        racks=[rack, None, None, None],
        indicator=indicator,
        melds=MELDS,
        opened=["melds", "melds", "melds", None],
        phase="play",
        options={"clock": 0, "assisted": assisted},
    )


def penalties(e2e_env: dict, code: str) -> list[int]:
    """The discard penalties seat 0 has paid in the current hand: its stored snapshot
    and the actions accepted after it, replayed (the server's database)."""
    db = re.sub(r"^sqlite:///", "", e2e_env["DATABASE_URL"])
    with sqlite3.connect(db) as conn:
        hand_id, snapshot = conn.execute(
            "SELECT h.id, h.state FROM games_hand h JOIN games_table t ON h.table_id = t.id"
            " WHERE t.code = ? ORDER BY h.number DESC LIMIT 1",
            (code,),
        ).fetchone()
        state = state_from_json(snapshot)
        rows = conn.execute(
            'SELECT payload FROM games_handaction WHERE hand_id = ? AND "index" >= ?'
            ' ORDER BY "index"',
            (hand_id, len(state.actions)),
        ).fetchall()
    state = replay_from(state, [json.loads(p) for (p,) in rows])
    return [
        ln["points"] for ln in state.scores if ln["seat"] == 0 and ln["reason"] == "penalty_tile"
    ]


def version(page: Page) -> str:
    return page.locator("#act-version").input_value()


def test_show_me_marks_the_meld_and_does_the_add_in_one_click(
    page: Page, daphne_server: str, e2e_env
):
    at_table(page, daphne_server, e2e_env, "hint_meld", "101", opened_state("101", assisted=False))
    run = page.locator(".meld[data-owner='1']")
    expect(run.locator(".tile")).to_have_count(3)
    page.get_by_test_id("show-me").click()
    hint = page.get_by_test_id("hint")
    expect(hint).to_contain_text("Add black 9 to the marked meld: black 6, black 7, black 8.")
    marked = page.get_by_test_id("hinted-meld")
    expect(marked).to_have_count(1)
    expect(marked).to_have_attribute("data-owner", "1")  # the run, not seat 2's blue one
    do = page.get_by_test_id("hint-do")
    expect(do).to_have_text("Add black 9 to the marked meld")
    shoot(page, "hint-marked-meld")
    do.click()
    expect(run.locator(".tile")).to_have_count(4)
    expect(run.locator(".tile[data-t='K9']")).to_have_count(1)
    expect(page.locator("#rack-grid .tile[data-t='K9']")).to_have_count(0)
    expect(page.locator("[data-testid=message] [data-code]")).to_have_count(0)
    expect(page.get_by_test_id("hinted-meld")).to_have_count(0)  # the hint is spent


def test_a_costly_discard_asks_a_second_tap_at_an_assisted_table(
    page: Page, daphne_server: str, e2e_env
):
    code = at_table(
        page, daphne_server, e2e_env, "costly_discard", "101", opened_state("101", assisted=True)
    )
    k9 = f"#rack-grid .tile[data-id='{tile_id(page, 'K9')}']"
    before = version(page)
    page.click(k9)
    page.click("#t-controls [data-act=discard]")
    cost = page.get_by_test_id("discard-cost")
    expect(cost).to_have_text(
        "Black 9 fits a meld on the table (işlek): discarding it costs you 101 points."
    )
    # nothing was sent: the tile is still held, and still selected for the second tap
    expect(page.locator(k9)).to_have_class(re.compile(r"\bselected\b"))
    assert version(page) == before
    shoot(page, "costly-discard-asks")
    page.get_by_test_id("discard-anyway").click()
    expect(page.locator("#act-version")).not_to_have_value(before)
    expect(page.locator(k9)).to_have_count(0)
    expect(page.locator("[data-testid=message] [data-code]")).to_have_count(0)
    assert penalties(e2e_env, code) == [101]  # [D32] written at once, the discard went through


def test_a_plain_discard_and_a_table_without_assistance_ask_nothing(
    page: Page, daphne_server: str, e2e_env
):
    code = at_table(
        page, daphne_server, e2e_env, "plain_discard", "101", opened_state("101", assisted=False)
    )
    before = version(page)
    page.click(f"#rack-grid .tile[data-id='{tile_id(page, 'K9')}']")
    page.click("#t-controls [data-act=discard]")  # işlek, but nobody asked for help
    expect(page.locator("#act-version")).not_to_have_value(before)
    expect(page.get_by_test_id("discard-cost")).to_have_count(0)
    assert penalties(e2e_env, code) == [101]


def test_the_okey_has_its_own_control_and_a_double_tap_flips_it_once(
    page: Page, daphne_server: str, e2e_env
):
    state = make_state(
        "seventeen",
        racks=["R10 R11 R12 R13 K10 K11 K12 K13 Y11 Y12 Y13 B11 B12 B13 Y5", None, None, None],
        indicator="Y4",  # the okey is Y5
        options={"clock": 0},
    )
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(payload)))
    at_table(page, daphne_server, e2e_env, "okey_flipper", "seventeen", state)
    okey = page.locator(f"#rack-grid .tile[data-id='{tile_id(page, 'Y5')}']")
    okey.dblclick()  # a double tap on the tile selects and unselects it: no flip
    flip = page.get_by_test_id("flip-okey")
    expect(flip).to_have_text("Turn the okey face down")
    shoot(page, "okey-control")
    before = version(page)
    flip.dblclick()  # two quick taps on the control: one flip
    expect(page.locator("#act-version")).not_to_have_value(before)
    expect(flip).to_have_text("Turn the okey face up")
    expect(okey).to_have_class(re.compile(r"\bface-down\b"))
    # a move the page waits on: its answer comes after any answer to a second flip
    page.click(f"#rack-grid .tile[data-id='{tile_id(page, 'R10')}']")
    before = version(page)
    page.click("#t-controls [data-act=discard]")
    expect(page.locator("#act-version")).not_to_have_value(before)
    expect(page.locator("[data-testid=message] [data-code]")).to_have_count(0)
    flips = [f for f in sent if json.loads(f).get("action") == "flip"]
    assert len(flips) == 1, sent
    expect(flip).to_have_text("Turn the okey face up")


@pytest.mark.parametrize("variant", ["classic", "fifty-one"])
def test_a_double_tap_on_an_okey_never_flips_it_and_only_seventeen_has_the_control(
    page: Page, daphne_server: str, e2e_env, variant: str
):
    state = make_state(
        variant,
        racks=["R10 R11 R12 R13 K10 K11 K12 K13 Y11 Y12 Y13 B11 B12 B13 Y5", None, None, None],
        indicator="Y4",
        options={"clock": 0},
    )
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(payload)))
    at_table(page, daphne_server, e2e_env, f"okey_tapper_{variant}", variant, state)
    page.locator(f"#rack-grid .tile[data-id='{tile_id(page, 'Y5')}']").dblclick()
    page.click(f"#rack-grid .tile[data-id='{tile_id(page, 'R10')}']")
    before = version(page)
    page.click("#t-controls [data-act=discard]")
    expect(page.locator("#act-version")).not_to_have_value(before)
    expect(page.get_by_test_id("flip-okey")).to_have_count(0)
    assert not any(json.loads(f).get("action") == "flip" for f in sent), sent


# ------------------------------------------------------------------------ CPU speed

PROD_CPU_DELAY_MS = "300"  # okeysite/settings.py's default


@pytest.fixture(scope="module")
def speed_server(tmp_path_factory):
    """A server as ``daphne_server`` starts one, CPUs waiting as in production."""
    tmp = tmp_path_factory.mktemp("speed-server")
    env = servers.server_env(tmp)
    env.update({"OKEY_CPU_DELAY_MS": PROD_CPU_DELAY_MS, "E2E_TMP_DIR": str(tmp)})
    servers.prepare(env)
    port = free_port()
    log_path = tmp / "daphne.log"
    proc = servers.serve(env, port, log_path)
    try:
        servers.wait_for_http(f"http://127.0.0.1:{port}/", proc=proc, log_path=log_path)
        yield f"http://127.0.0.1:{port}"
    finally:
        servers.stop(proc)


def your_turn(page: Page) -> None:
    expect(page.get_by_test_id("status")).to_contain_text("Your turn", timeout=20_000)


def seconds_per_cpu_turn(page: Page, rounds: int) -> list[float]:
    """Plays ``rounds`` of our turns (draw, discard the drawn tile's neighbour); after each
    discard, the time until our turn comes back is three CPU turns, frames and flights
    included (condition waits, no sleeps). One value per round, per CPU turn."""
    out = []
    for _ in range(rounds):
        your_turn(page)
        if page.locator("#t-controls [data-act=draw]:not([disabled])").count():
            n = page.locator("#rack-grid .tile").count()
            page.click("#t-controls [data-act=draw]")
            expect(page.locator("#rack-grid .tile")).to_have_count(n + 1)
        page.locator("#rack-grid .tile").first.click()
        start = time.monotonic()
        page.click("#t-controls [data-act=discard]")
        expect(page.get_by_test_id("status")).not_to_contain_text("Your turn")
        your_turn(page)
        out.append((time.monotonic() - start) / 3)
    return out


@pytest.mark.parametrize("speed", ["normal", "fast"])
def test_cpu_speed_sets_the_pace_of_a_cpu_turn(page: Page, speed_server: str, speed: str):
    sign_up(page, speed_server, f"pace_{speed}")
    page.goto(f"{speed_server}/")
    open_new_table_form(page)
    page.select_option("#id_variant", "classic")
    choice = page.locator("select[name='classic__cpu_speed']")
    expect(choice.locator("option")).to_have_text(["normal", "fast"])
    expect(choice).to_have_value("normal")  # the default
    shoot(page, "new-table-cpu-speed", show=choice)
    create_table(page, speed_server, "classic", cpu_speed=speed)
    expect(page.locator(".table-page")).to_have_attribute("data-cpu-speed", speed)
    turns = seconds_per_cpu_turn(page, rounds=4)
    per_turn = sorted(turns)[len(turns) // 2]  # the median round
    print(f"\nCPU speed {speed}: {per_turn:.2f} s per CPU turn (rounds: {turns})")
    if speed == "normal":
        assert 0.55 <= per_turn <= 1.2, turns  # about 0.8 s
    else:
        assert per_turn <= 0.55, turns  # about 0.3 s
