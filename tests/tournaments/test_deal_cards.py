"""The printable deal cards of an in-person duplicate round (views_cards.py): the
organiser's cards are the engine's deal, nobody else sees them, and the seeds show only
once every table of the round has its result.

Set ``DEAL_CARDS_SHOTS=/some/dir`` to save the page at 390x844 and 1366x768 (the browser
test at the end)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from html import unescape
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from games.engine.state import new_hand
from games.engine.tiles import notation
from games.tilewords import tiles_words
from games.tournaments import actions
from games.tournaments.duplicate import commitment, deal_cards
from games.tournaments.models import Deal, TableResult, Tournament
from tests.support.accounts import sign_up
from tests.tournaments.conftest import in_person, make_user, register_accounts, register_names
from tests.tournaments.deal_cards_seed import NAMES, SEEDS, duplicate_round

ROOT = Path(__file__).resolve().parents[2]


def url(rnd, number: int | None = None) -> str:
    return reverse("tournaments:deal_cards", args=[rnd.tournament_id, number or rnd.number])


def seat_words(html: str) -> list[str]:
    return [unescape(w) for w in re.findall(r'data-testid="seat-words">([^<]*)<', html)]


@pytest.mark.django_db
def test_the_organiser_gets_a_card_per_seat_table_and_deal(client, organiser):
    rnd = duplicate_round(organiser)
    client.force_login(organiser)
    response = client.get(url(rnd))
    assert response.status_code == 200
    html = response.content.decode()
    # 2 tables x 2 deals, 4 seat cards and a pile card each
    assert html.count('data-testid="deal-sheet"') == 4
    assert html.count('data-testid="seat-card"') == 16
    assert html.count('data-testid="pile-card"') == 4
    sheets = re.findall(r'data-table="(\d)" data-deal="(\d)"', html)
    assert sheets == [("1", "1"), ("1", "2"), ("2", "1"), ("2", "2")]
    # every seat's card holds that seat's rack of the server's deal, sorted, in words
    expected = []
    for deal_number, seed in enumerate(SEEDS, start=1):
        starter = deal_number - 1  # [D2]: deal 2 starts at the second seat
        state = new_hand("classic", {"players": 4}, seed, starter)
        expected.append(
            [
                tiles_words(sorted((notation(t) for t in rack), key=_order), "classic")
                for rack in state.racks
            ]
        )
    words = seat_words(html)
    assert words == expected[0] + expected[1] + expected[0] + expected[1]
    # names at their seats, the CPU in table 2's empty seat, the starter marked
    for name in NAMES:
        assert unescape(html).count(f"<b>{name}</b>") == 2  # one card per deal
    assert html.count("Seat 4: <b>CPU</b>") == 2
    assert html.count('class="dc-starts"') == 4
    # 15 tiles for the starter, 14 for the others; the pile 48 tiles, top first
    assert html.count("15 tiles") == 4 and html.count("14 tiles") == 12
    first = new_hand("classic", {"players": 4}, SEEDS[0], 0)
    pile_card = html.split('data-testid="pile-card"')[1]
    pile = re.findall(r'data-t="([^"]+)"', pile_card.split("</section>")[0])
    assert pile[0] == notation(first.indicator)  # the indicator, then the pile
    assert pile[1:] == [notation(t) for t in reversed(first.pile)]


def _order(t: str) -> tuple[int, int]:
    return (4, 0) if t == "F" else ("RYBK".index(t[0]), int(t[1:]))


@pytest.mark.django_db
def test_commitments_now_seeds_only_when_every_table_has_its_result(client, organiser):
    rnd = duplicate_round(organiser)
    client.force_login(organiser)
    html = client.get(url(rnd)).content.decode()
    for seed in SEEDS:
        assert commitment(seed) in html
        assert seed not in html
    assert 'data-testid="deal-seed"' not in html
    tables = list(rnd.tables.order_by("number"))
    TableResult.objects.create(table=tables[0], scores=[10, 4, 0, 2])
    html = client.get(url(rnd)).content.decode()
    assert not any(seed in html for seed in SEEDS)  # one table still plays
    TableResult.objects.create(table=tables[1], scores=[7, 6, 1, -1])
    html = client.get(url(rnd)).content.decode()
    assert html.count('data-testid="deal-seed"') == 2
    for seed in SEEDS:
        assert f'data-testid="deal-seed">{seed}</code>' in html
        assert commitment(seed) in html
    # the verify page recomputes deal 2 from its seed: four players, starter seat 1
    assert "players=4&amp;starter=1" in html


@pytest.mark.django_db
def test_nobody_but_an_organiser_sees_the_cards(client, organiser, stranger):
    rnd = duplicate_round(organiser)
    t = rnd.tournament
    player = register_accounts(t, organiser, ["cardplayer"])[0]
    Tournament.objects.filter(pk=t.pk).update(published=True)
    assert client.get(url(rnd)).status_code == 404  # anonymous
    for user in (stranger, player.user):
        client.force_login(user)
        assert client.get(url(rnd)).status_code == 404
    helper = make_user("helper")
    actions.do_add_organiser(t.pk, organiser, "helper")
    client.force_login(helper)
    assert client.get(url(rnd)).status_code == 200


@pytest.mark.django_db
def test_no_cards_outside_an_in_person_duplicate_round(client, organiser):
    rnd = duplicate_round(organiser)
    t = rnd.tournament
    client.force_login(organiser)
    assert client.get(url(rnd, 2)).status_code == 404  # no such round
    Tournament.objects.filter(pk=t.pk).update(mode=Tournament.Mode.ONLINE)
    assert client.get(url(rnd)).status_code == 404  # online: the server deals, nobody else
    Tournament.objects.filter(pk=t.pk).update(
        mode=Tournament.Mode.IN_PERSON, format=Tournament.Format.STANDARD
    )
    assert client.get(url(rnd)).status_code == 404
    Tournament.objects.filter(pk=t.pk).update(format=Tournament.Format.DUPLICATE)
    Deal.objects.filter(round=rnd).delete()
    assert client.get(url(rnd)).status_code == 404  # a round without deals


@pytest.mark.django_db
def test_a_101_round_deals_its_own_rack_size(client, organiser):
    rnd = duplicate_round(organiser, variant="101", options={})
    client.force_login(organiser)
    html = client.get(url(rnd)).content.decode()
    assert html.count("22 tiles") == 4 and html.count("21 tiles") == 12
    cards = deal_cards("101", {"players": 4}, SEEDS[0], 0)
    assert seat_words(html)[0] == tiles_words(list(cards[0].sorted_rack), "101")
    assert f"{len(cards[0].pile)} tiles face down" in html


@pytest.mark.django_db
def test_a_round_seated_at_the_desk_has_its_cards(client, organiser):
    # the desk's own path: a duplicate tournament seated by the actions, not rows of ours
    t = in_person(organiser, format="duplicate", deals_per_round=3)
    register_names(t, organiser, NAMES)
    rnd = actions.do_seat_next_round(t.pk, organiser)
    client.force_login(organiser)
    html = client.get(url(rnd)).content.decode()
    deals = list(rnd.deals.order_by("number"))
    tables = rnd.tables.count()
    assert len(deals) == 3 and tables == 2
    assert html.count('data-testid="deal-sheet"') == 3 * tables
    assert html.count('data-testid="seat-card"') == 3 * tables * 4
    for d in deals:
        assert d.commitment in html and d.seed not in html
    first_words = seat_words(html)[:4]  # table 1, deal 1
    cards = deal_cards("classic", actions.table_options(t, 4), deals[0].seed, 0)
    assert first_words == [tiles_words(list(c.sorted_rack), "classic") for c in cards]


# ------------------------------------------------------------------ in the browser

SIZES = {"phone": (390, 844), "desktop": (1366, 768)}


def shell(env: dict[str, str], code: str) -> str:
    """Run ``code`` in ``manage.py shell`` on the e2e server's database; its output."""
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.e2e
def test_deal_cards_in_the_browser(page: Page, daphne_server: str, e2e_env: dict[str, str]):
    sign_up(page, daphne_server, "dealcards_orga")
    out = shell(
        e2e_env,
        "from tests.tournaments.deal_cards_seed import seed; seed('dealcards_orga')",
    )
    pk = int(out.split()[-1])
    page.goto(f"{daphne_server}/tournaments/{pk}/rounds/1/deal-cards/")
    expect(page.get_by_test_id("deal-sheet")).to_have_count(4)
    expect(page.get_by_test_id("seat-card")).to_have_count(16)
    expect(page.get_by_test_id("deal-commitment").first).to_have_text(commitment(SEEDS[0]))
    shots = os.environ.get("DEAL_CARDS_SHOTS")
    for label, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        # nothing wider than the screen: the page never scrolls sideways
        assert page.evaluate("document.documentElement.scrollWidth") <= w
        if shots:
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(Path(shots) / f"deal-cards-{label}.png"))
            page.screenshot(path=str(Path(shots) / f"deal-cards-{label}-full.png"), full_page=True)
            for part in ("seat-card", "pile-card"):
                page.get_by_test_id(part).first.screenshot(
                    path=str(Path(shots) / f"deal-cards-{label}-{part}.png")
                )
            page.emulate_media(media="print")
            page.screenshot(path=str(Path(shots) / f"deal-cards-{label}-print.png"))
            page.emulate_media(media="screen")
    page.emulate_media(media="print")
    expect(page.locator(".site-header")).to_be_hidden()
    expect(page.get_by_role("button", name="Print")).to_be_hidden()
