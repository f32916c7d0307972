"""The Insights page in the browser, at phone (390x844) and desktop (1366x768) size: the
player reaches it from their profile, sees their hands, the result-against-par chart and
the figure cards, changes the filters, and the page fits the screen with no console
message (the chart is an SVG with no inline style). Another player finds no page until
the player shows their records publicly.

The server's database gets a player's finished fifty-one hands over four months through
Insights' own receiver (``do_record_hand``, fed hands the engine played to their end) and
their pars through the review's ``par_ready`` signal. Screenshots go to
``INSIGHTS_SHOTS`` (default /tmp/shots/insights)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.support.accounts import PASSWORD, log_in, sign_up
from tests.support.servers import ROOT

pytestmark = pytest.mark.e2e

SHOTS = Path(os.environ.get("INSIGHTS_SHOTS", "/tmp/shots/insights"))

HANDS = """
from datetime import UTC, datetime
from games.engine.simulate import play_hand
from games.insights.actions import do_record_hand
from games.models import Hand, Seat, Table
from games.review.models import HandPar
from games.signals import par_ready
from tests.support.accounts import make_user

user = make_user("ins_ana", "Ana")
table = Table.objects.create(variant="fifty-one", status="finished")
Seat.objects.create(table=table, position=0, user=user)
for pos in (1, 2, 3):
    Seat.objects.create(table=table, position=pos, is_cpu=True, cpu_level="hard")
table = Table.objects.prefetch_related("seats").get(pk=table.pk)
n = 0
for month in (2, 3, 4, 5):
    for i in range(5):
        state = play_hand("fifty-one", None, f"ins-e2e-{month}-{i}", i % 4)
        hand = Hand.objects.create(
            table=table, number=n, seed=str(state.seed), seed_commitment="-", starter=i % 4,
            snapshot=state.to_json(), result=state.result,
            finished_at=datetime(2026, month, 3 + i, 20, tzinfo=UTC),
        )
        do_record_hand(table, hand, state)
        total = state.hand_totals()[0]
        row, _ = HandPar.objects.update_or_create(
            hand=hand, seat=0,
            defaults={"status": "done", "par": total + (60 if month % 2 else -40)},
        )
        par_ready.send(sender=HandPar, hand_id=hand.pk, seat=0, par=row.as_dict())
        n += 1
print("HANDS", n)
"""


def test_insights_page_at_phone_and_desktop_size(browser: Browser, daphne_server: str, e2e_env):
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", HANDS],
        cwd=ROOT,
        env=e2e_env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    hands = int(re.search(r"HANDS (\d+)", done.stdout).group(1))
    SHOTS.mkdir(parents=True, exist_ok=True)

    # another player finds nothing while Ana's records are private
    other = browser.new_context().new_page()
    sign_up(other, daphne_server, "ins_ben")
    answer = other.goto(f"{daphne_server}/players/ins_ana/insights/fifty-one/")
    assert answer.status == 404

    ctx = browser.new_context()
    page = ctx.new_page()
    said: list[str] = []
    page.on("console", lambda m: said.append(m.text))
    page.on("pageerror", lambda e: said.append(str(e)))
    log_in(page, daphne_server, "ins_ana", PASSWORD)
    for width, height in ((390, 844), (1366, 768)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{daphne_server}/accounts/profile/")
        page.get_by_test_id("my-insights").click()
        expect(page).to_have_url(re.compile(r"/players/ins_ana/insights/fifty-one/$"))
        expect(page.get_by_test_id("insights-title")).to_have_text("Insights of Ana")
        expect(page.get_by_test_id("insights-privacy")).to_contain_text("Only you")
        expect(page.get_by_test_id("insights-summary")).to_contain_text(f"{hands} hands")
        chart = page.get_by_test_id("insights-chart")
        expect(chart).to_be_visible()
        expect(chart.get_by_test_id("insights-bar")).to_have_count(4)  # four months
        # the months alternate: par + 60 is 60 better (lower wins), par - 40 is 40 worse
        values = [
            float(v)
            for v in chart.get_by_test_id("insights-bar").evaluate_all(
                "bars => bars.map(b => b.dataset.value)"
            )
        ]
        assert values == [-40.0, 60.0, -40.0, 60.0]
        for card in ("insights-wins", "insights-opening", "insights-okeys", "insights-penalties"):
            expect(page.get_by_test_id(card)).to_be_visible()
        page.screenshot(path=str(SHOTS / f"insights-{width}x{height}.png"), full_page=True)
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= width

        # the filters: rated games only (all of Ana's are casual), then the CPU level
        page.get_by_label("Games").select_option("rated")
        page.get_by_test_id("insights-apply").click()
        expect(page.get_by_test_id("insights-empty")).to_be_visible()
        page.get_by_label("Games").select_option("casual")
        page.get_by_label("Opponents").select_option("hard")
        page.get_by_test_id("insights-apply").click()
        expect(page).to_have_url(re.compile(r"rated=casual.*cpu=hard"))
        expect(page.get_by_test_id("insights-summary")).to_contain_text(f"{hands} hands")
        page.screenshot(path=str(SHOTS / f"insights-filtered-{width}x{height}.png"))
    assert not [s for s in said if "autocomplete" not in s]
    ctx.close()

    # public once Ana shows her records
    page = browser.new_context().new_page()
    log_in(page, daphne_server, "ins_ana", PASSWORD)
    page.goto(f"{daphne_server}/accounts/profile/")
    page.get_by_label(re.compile("public boards")).check()
    page.get_by_test_id("profile-form").locator("button[type=submit]").click()
    other.goto(f"{daphne_server}/players/ins_ana/")
    other.get_by_test_id("player-insights").click()
    expect(other.get_by_test_id("insights-summary")).to_contain_text(f"{hands} hands")
    expect(other.get_by_test_id("insights-privacy")).to_be_empty()
