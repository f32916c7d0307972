"""The rule-set plug-in contract, web side: a rule set nobody wrote a page, view or template
for works everywhere a shipped one does (docs/rule-sets.md).

The throw-away rule sets of ``tests/support/rulesets.py`` (a classic counted down from 4
points, a fifty-one with a fixed 61 barrier and one hand) are defined only there and
registered through the public registry for each test; nothing of the site is edited for
them. Each is driven through the table page, the staging total, the outcome dialog, the
review export and import, a solo game's record and a tournament result.
"""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from games.common import heavy
from games.engine import rulebase
from games.engine.rules import register, unregister
from games.live import actions as table_actions
from games.live import outcome
from games.models import Table
from games.review.models import ImportedRecord
from games.solo.models import SoloResult
from games.tournaments import actions as tournaments
from tests.games.conftest import cpu_table, play_out_hand
from tests.solo.conftest import play_game
from tests.support.rulesets import QuickClassic, quick_classic, sixty_one, throwaway
from tests.tournaments.conftest import in_person, register_names

__all__ = ["quick_classic", "sixty_one", "throwaway"]  # fixtures

pytestmark = pytest.mark.django_db


@pytest.fixture
def ayse(client):
    user = User.objects.create_user("ayse", password="pw-long-enough-1")
    client.force_login(user)
    return user


def _page(client, table: Table) -> str:
    response = client.get(reverse("games:table", args=[table.code]))
    assert response.status_code == 200
    return response.content.decode()


def test_the_table_page_shows_it(client, ayse, throwaway):
    table = cpu_table(throwaway.name, user=ayse)
    page = _page(client, table)
    assert f"<h1>{throwaway.label}" in page
    assert f'data-variant="{throwaway.name}"' in page
    assert 'data-testid="rack"' in page


def test_staging_counts_towards_its_own_barrier(client, ayse, sixty_one):
    table = cpu_table(sixty_one.name, user=ayse, clock=0)
    state = table_actions.load_state(table.current_hand)
    url = reverse("games:staging", args=[table.code])
    data = client.get(url, {"melds": json.dumps([list(state.racks[0][:3])])}).json()
    assert data["need"] == 61
    assert "of 61 needed to open" in data["text"]


def test_staging_at_a_whole_rack_rule_set_counts_nothing(client, ayse, quick_classic):
    table = cpu_table(quick_classic.name, user=ayse)
    state = table_actions.load_state(table.current_hand)
    url = reverse("games:staging", args=[table.code])
    data = client.get(url, {"melds": json.dumps([list(state.racks[0][:3])])}).json()
    assert (data["total"], data["need"], data["text"]) == (0, None, "0 points")


def test_the_outcome_dialog_explains_every_line(client, ayse, throwaway):
    table = play_out_hand(cpu_table(throwaway.name, user=ayse, clock=0))
    hand = table.current_hand
    page = _page(client, table)
    assert 'data-testid="outcome"' in page
    lines = list(hand.score_lines.order_by("id"))
    names = {seat.position: seat.display_name() for seat in table.seats.all()}
    explained = 0
    for line in lines:
        assert f'data-reason="{line.reason}"' in page
        ln = {"reason": line.reason, "detail": line.detail}
        why = outcome.line_detail(ln, names, throwaway.name)
        assert escape(why) in page, why
        explained += bool(why)
    assert explained, "no line of the hand was explained"


def test_review_export_and_import_round_trip(client, ayse, throwaway, monkeypatch):
    monkeypatch.setattr(heavy, "SHARE", 1.0)  # imports are spaced out; not the point here
    monkeypatch.setattr(heavy, "_next_start", 0.0)
    table = play_out_hand(cpu_table(throwaway.name, user=ayse, clock=0))
    hand = table.current_hand
    doc = client.get(f"/review/hand/{hand.pk}/export/").json()
    assert doc["variant"] == throwaway.name and doc["options"] == table.options
    raw = json.dumps(doc).encode()
    response = client.post(
        "/review/import/", {"file": SimpleUploadedFile("hand.json", raw, "application/json")}
    )
    assert response.status_code == 302, response.content.decode()[:500]
    rec = ImportedRecord.objects.get()
    assert rec.data == doc
    assert client.get(response["Location"]).status_code == 200


def test_a_solo_game_records_its_result(client, ayse, throwaway):
    response = client.post(
        reverse("solo:start"), {"variant": throwaway.name, "level": "easy", "mode": "practice"}
    )
    assert response.status_code == 302
    table = Table.objects.get(kind=Table.Kind.SOLO)
    assert table.variant == throwaway.name
    table = play_game(table)
    assert table.status == Table.Status.FINISHED
    row = SoloResult.objects.get(table=table)
    game = table_actions.game_for(table)
    assert (row.variant, row.user, row.total) == (throwaway.name, ayse, game.totals()[0])
    result = client.get(reverse("solo:result", args=[table.code]))
    assert result.status_code == 200 and throwaway.label in result.content.decode()


# a result each rule set accepts, and one it refuses with the reason's code
RESULTS = {
    "quick-classic": ([4, 1, 1, -2], [5, 2, 2, -2], "above_start"),
    "sixty-one": ([-500, 100, 50, 200], [-500, 101, 50, 200], "not_multiple"),
}


def test_a_tournament_result_is_checked_by_its_rules(client, ayse, throwaway):
    t = in_person(ayse, variant=throwaway.name, options={})
    register_names(t, ayse, ["Ada", "Bora", "Can", "Deniz"])
    rnd = tournaments.do_seat_next_round(t.pk, ayse)
    tt = rnd.tables.get()
    good, bad, code = RESULTS[throwaway.name]
    with pytest.raises(tournaments.ResultRefused) as refused:
        tournaments.do_enter_result(t.pk, ayse, tt.pk, bad)
    assert code in {p.code for p in refused.value.problems}
    tournaments.do_enter_result(t.pk, ayse, tt.pk, good)
    rows = tournaments.standings(t)
    assert len(rows) == 4 and all(r.played == 1 for r in rows)
    form = client.get(reverse("tournaments:result", args=[t.pk, tt.pk]))
    assert form.status_code == 200
    cards = client.get(reverse("tournaments:cards", args=[t.pk, 1]))
    assert cards.status_code == 200


def test_every_shared_explanation_has_its_words_in_english_as_its_msgid():
    """The engine's explanation msgids (``rulebase.WHY_*``) and the web layer's table of
    their words (``outcome.WHY``) hold the same texts: none falls back untranslated."""
    msgids = {v for k, v in vars(rulebase).items() if k.startswith("WHY_")}
    assert msgids == set(outcome.WHY)
    with translation.override("en"):
        for msgid, text in outcome.WHY.items():
            params = dict.fromkeys(re.findall(r"%\((\w+)\)s", msgid), 1)
            assert str(text % params) == msgid % params


class _OwnWords(QuickClassic):
    """A rule set that explains a line in words of its own (a msgid the shared table
    lacks, marked with ``gettext_noop`` in its module)."""

    name = "own-words"

    def line_why(self, reason, d):
        if reason == "indicator_shown":
            return [rulebase.why(rulebase.gettext_noop("shown at %(n)s points"), n=d["left"])]
        return super().line_why(reason, d)


def test_a_rule_sets_own_explanation_is_said_through_gettext():
    rules = register(_OwnWords())
    try:
        line = {"reason": "indicator_shown", "detail": {"left": 3}}
        with translation.override("en"):
            assert outcome.line_detail(line, {}, rules.name) == "shown at 3 points"
        closed = {"reason": "close", "detail": {"closer": 1}}  # the shared words still
        assert outcome.line_detail(closed, {1: "Cem"}, rules.name) == "by Cem"
    finally:
        unregister(rules.name)
