"""Provably fair deals: the table shows SHA-256(seed) during the hand, reveals the seed after
it, and /verify/ recomputes the deal from the seed exactly as the engine dealt it."""

from __future__ import annotations

import hashlib
import html as htmllib
import re

import pytest
from django.urls import reverse

from games.engine import new_hand
from games.engine.rules import RULES
from games.engine.tiles import deal, kind_notation, notation
from games.live import actions
from games.models import Hand
from tests.solo.conftest import play_hand, solo_table

pytestmark = pytest.mark.django_db


def text_of(page: str, testid: str) -> str:
    m = re.search(rf'data-testid="{testid}"[^>]*>(.*?)</', page, re.S)
    assert m, testid
    return htmllib.unescape(m.group(1)).strip()


def test_commitment_during_the_hand_matches_the_seed_revealed_after_it(client):
    client.get("/")
    table = solo_table(guest_key=client.session.session_key)
    hand = table.current_hand
    page = client.get(reverse("games:table", args=[table.code])).content.decode()
    shown = re.search(r'data-commitment="([0-9a-f]{64})"', page).group(1)
    assert shown == hand.seed_commitment == Hand.commit_to(hand.seed)
    assert f"{shown[:10]}…" in page and hand.seed not in page  # the seed stays secret

    play_hand(table)
    page = client.get(reverse("games:table", args=[table.code])).content.decode()
    revealed = text_of(page, "revealed-seed")
    assert revealed == hand.seed
    assert hashlib.sha256(revealed.encode()).hexdigest() == shown
    assert f"?seed={revealed}&amp;players=4&amp;starter={hand.starter}" in page  # verify link


def test_verify_page_reproduces_the_deal_of_a_played_hand(client):
    table = solo_table()
    hand = table.current_hand
    dealt = new_hand(table.variant, table.options, hand.seed, hand.starter)
    page = client.get(
        reverse("solo:verify"),
        {
            "seed": hand.seed,
            "players": 4,
            "starter": hand.starter,
            "commitment": hand.seed_commitment,
        },
    ).content.decode()
    assert text_of(page, "verify-sha256") == hand.seed_commitment
    assert "It matches the commitment" in page
    for seat in range(4):
        rack = text_of(page, f"verify-rack-{seat}").split()
        assert rack == [notation(t) for t in dealt.racks[seat]]
    assert text_of(page, "verify-indicator") == notation(dealt.indicator)
    assert text_of(page, "verify-okey") == kind_notation(dealt.okey_kind)
    assert text_of(page, "verify-pile").split() == [notation(t) for t in reversed(dealt.pile)]
    assert len(text_of(page, f"verify-rack-{hand.starter}").split()) == 15


@pytest.mark.parametrize("players,starter", [(4, 0), (4, 3), (3, 1), (2, 1)])
def test_verify_matches_the_engine_deal(client, players, starter):
    seed = "0f3a9c2b7d1e4f5a6b7c8d9e0f1a2b3c"
    d = deal(seed, players, starter)
    page = client.get(
        reverse("solo:verify"), {"seed": seed, "players": players, "starter": starter}
    ).content.decode()
    for seat in range(players):
        assert text_of(page, f"verify-rack-{seat}").split() == [notation(t) for t in d.racks[seat]]
    assert text_of(page, "verify-pile").split() == [notation(t) for t in reversed(d.pile)]
    assert text_of(page, "verify-sha256") == hashlib.sha256(seed.encode()).hexdigest()
    assert 'data-testid="verify-match"' not in page  # no commitment entered


@pytest.mark.parametrize("variant", list(RULES))
def test_verify_deals_as_the_rule_set_deals(client, variant):
    """The verify link of a table names its rule set, and the page deals that rule set's
    rack size (14 and 15 tiles; 21 and 22 in 101, RULES.md §6), as the engine did."""
    client.get("/")
    table = solo_table(variant=variant, guest_key=client.session.session_key)
    hand = table.current_hand
    page = client.get(reverse("games:table", args=[table.code])).content.decode()
    assert f"&amp;variant={variant}" in page  # the deal commitment's link
    play_hand(table)
    page = client.get(reverse("games:table", args=[table.code])).content.decode()
    assert f"&amp;starter={hand.starter}&amp;variant={variant}&amp;" in page  # after the hand
    dealt = new_hand(table.variant, table.options, hand.seed, hand.starter)
    page = client.get(
        reverse("solo:verify"),
        {"seed": hand.seed, "players": 4, "starter": hand.starter, "variant": variant},
    ).content.decode()
    for seat in range(4):
        rack = text_of(page, f"verify-rack-{seat}").split()
        assert rack == [notation(t) for t in dealt.racks[seat]]
    size = RULES[variant].rack_size
    assert len(text_of(page, f"verify-rack-{hand.starter}").split()) == size + 1
    assert f'<option value="{variant}" selected>' in page


def test_verify_says_when_the_commitment_does_not_match(client):
    page = client.get(
        reverse("solo:verify"), {"seed": "abc", "commitment": "0" * 64}
    ).content.decode()
    assert "does not match" in page


def test_verify_page_without_a_seed_explains_the_procedure(client):
    page = client.get(reverse("solo:verify")).content.decode()
    assert "SHA-256" in page and "Fisher" in page and 'data-testid="verify-result"' not in page


@pytest.mark.parametrize("params", [{"players": 5}, {"starter": 4}, {"players": 2, "starter": 2}])
def test_verify_refuses_bad_tables(client, params):
    r = client.get(reverse("solo:verify"), {"seed": "abc", **params})
    page = r.content.decode()
    assert r.status_code == 200 and "message-error" in page
    assert 'data-testid="verify-result"' not in page


def test_verify_reads_junk_numbers_as_the_default_table(client):
    page = client.get(reverse("solo:verify"), {"seed": "abc", "players": "x"}).content.decode()
    assert text_of(page, "verify-rack-0").split() == [notation(t) for t in deal("abc").racks[0]]


def test_result_page_links_verify_only_for_finished_hands(client):
    table = solo_table()
    play_hand(table)
    table.refresh_from_db()
    actions.do_next_hand(table.pk, table.version)
    first, second = table.hands.order_by("number")
    page = client.get(reverse("solo:result", args=[table.code])).content.decode()
    assert f"?seed={first.seed}&amp;players=4&amp;starter={first.starter}" in page
    assert second.seed not in page  # the hand in play keeps its seed secret
