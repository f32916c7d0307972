"""A rule set's own score reasons (``Rules.reason_labels``) read in words on every
page that lists score lines: the score sheet of a table and the replay of a hand.
101's okey discard (+101 to the discarder, RULES.md §6 [D32] [D37]) is one."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import translation

from games.engine.tiles import kind_of
from games.live import actions
from games.live.actions import base as actions_base
from tests.review.conftest import cpu_table, play_out_hand

pytestmark = pytest.mark.django_db

# a 101 deal in which seat 0 starts (22 tiles, discards first) holding an okey
SEED = "okey-discard-2"


@pytest.fixture
def ayse(client):
    user = User.objects.create_user("ayse", password="pw-long-enough-1")
    client.force_login(user)
    return user


@pytest.fixture
def okey_discarded(ayse, monkeypatch):
    """A finished 101 hand of ayse's (seat 0) in which her first move discarded an okey."""
    monkeypatch.setattr(actions_base, "seed_source", lambda table, number: SEED)
    table = cpu_table("101", user=ayse, hands=1)
    state = actions.load_state(table.current_hand)
    okeys = [t for t in state.racks[0] if kind_of(t) == state.okey_kind]
    assert state.turn == 0 and state.phase == "play" and okeys
    actions.do_submit_action(table.pk, 0, {"type": "discard", "tile": okeys[0]}, table.version)
    table = play_out_hand(table)
    hand = table.current_hand
    assert hand.score_lines.filter(seat=0, reason="okey_discarded", points=101).exists()
    return table, hand


def test_101_pages_name_an_okey_discard_in_words(client, okey_discarded):
    table, hand = okey_discarded
    with translation.override("en"):
        sheet = client.get(reverse("games:sheet", args=[table.code])).content.decode()
        replay = client.get(reverse("review:hand", args=[hand.pk])).content.decode()
    # the sheet's cell of seat 0, and the replay's table of the hand's result
    assert '<b>101</b> <span class="muted">Discarded an okey</span>' in sheet
    assert "<tr><td>ayse</td><td>101</td><td>Discarded an okey</td></tr>" in replay
    for page in (sheet, replay):
        assert "okey discarded" not in page  # the code in words, not its label


def test_a_replays_result_table_adds_up_to_the_hands_totals(client, okey_discarded):
    """Its lines are every line of the hand, the ones written during play included."""
    _table, hand = okey_discarded
    ctx = client.get(reverse("review:hand", args=[hand.pk])).context
    names = [s["name"] for s in ctx["seats"]]
    for seat, total in enumerate(hand.result["totals"]):
        lines = [x["points"] for x in ctx["result_lines"] if x["name"] == names[seat]]
        assert sum(lines) == total, (seat, lines, total)
    assert sorted(x["points"] for x in ctx["result_lines"]) == sorted(
        line.points for line in hand.score_lines.all()
    )


def test_every_score_list_asks_for_the_reasons_of_its_rule_set():
    """Each call of ``messages.reason_label`` in the web app passes the variant (else a
    rule set's own reasons read as their codes)."""
    root = Path(__file__).resolve().parents[2]
    calls = []
    for path in (root / "games").rglob("*.py"):
        if "engine" in path.parts or "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("reason_label"):
                n = len(node.args) + len(node.keywords)
                calls.append((path.relative_to(root).as_posix(), node.lineno, n))
    assert calls, "the score lists name their reasons with reason_label"
    assert [c for c in calls if c[2] < 2] == []
