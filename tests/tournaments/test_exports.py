"""Exports: standings and results as CSV, and the okey-tournament/1 file that
imports again into the same tournament (round trip)."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from games.common import heavy
from games.tournaments import actions, exchange
from games.tournaments.models import TableResult, Tournament
from tests.tournaments.conftest import (
    CLASSIC_OK,
    enter_all,
    in_person,
    make_user,
    register_names,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_pause_between_imports(monkeypatch):
    """games.common.heavy spaces imports out; these tests import one after another."""
    monkeypatch.setattr(heavy, "SHARE", 1.0)
    monkeypatch.setattr(heavy, "_next_start", 0.0)


NAMES = ["Ayşe", "Baran", "Cem", "Deniz", "Elif", "Fatma", "Gül"]


@pytest.fixture
def played(organiser):
    """Two of three rounds played: a late entry, a drop-out, a no-show, a correction."""
    t = in_person(organiser, published=True)
    entries = register_names(t, organiser, NAMES[:6])
    make_user("gul")
    actions.do_register_entry(t.pk, organiser, username="gul", joins_round=2)
    actions.do_seat_next_round(t.pk, organiser)
    enter_all(t, organiser, 1)
    actions.do_drop_entry(t.pk, organiser, entries[0].pk, 3)
    actions.do_set_no_show(t.pk, organiser, entries[1].pk, 2)
    actions.do_seat_next_round(t.pk, organiser)
    enter_all(t, organiser, 2, [CLASSIC_OK[3], CLASSIC_OK[2]])
    first = TableResult.objects.filter(table__round__number=2).first()
    actions.do_enter_result(t.pk, organiser, first.table_id, CLASSIC_OK[1])
    return t


def rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_standings_csv_matches_the_standings(client, played):
    response = client.get(reverse("tournaments:standings_csv", args=[played.pk]))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    got = rows(response.content.decode())
    expected = actions.standings(played)
    names = {e.pid: e.name for e in played.entries.all()}
    assert [r["player"] for r in got] == [names[r.player] for r in expected]
    assert [int(r["rank"]) for r in got] == list(range(1, 8))
    assert all(r["player"] != "CPU" for r in got)
    assert set(got[0]) == {
        "rank",
        "player",
        "points",
        "game_total",
        "played",
        "decided_by",
        "draw_key",
    }


def test_results_csv_has_every_seat_of_every_result(client, played):
    got = rows(client.get(reverse("tournaments:results_csv", args=[played.pk])).content.decode())
    seats = sum(
        len(r.table.seats) for r in TableResult.objects.filter(table__round__tournament=played)
    )
    assert len(got) == seats
    round2 = [r for r in got if r["round"] == "2" and r["table"] == "1"]
    assert [int(r["score"]) for r in round2] == CLASSIC_OK[1]  # the corrected scores
    assert {r["cpu"] for r in got} <= {"yes", "no"}
    assert all(r["player"] == "CPU" for r in got if r["cpu"] == "yes")


def test_json_export_imports_into_the_same_tournament(client, played, organiser):
    client.force_login(organiser)
    response = client.get(reverse("tournaments:export_json", args=[played.pk]))
    assert response.status_code == 200
    data = json.loads(response.content)
    assert data["format"] == "okey-tournament/1"
    assert [p["name"] for p in data["players"]] == NAMES[:6] + ["gul"]
    assert data["players"][6]["account"] == "gul" and data["players"][6]["joins_round"] == 2
    assert data["players"][0]["dropped_from_round"] == 3
    assert data["players"][1]["no_shows"] == [2]
    assert len(data["rounds"]) == 2

    upload = SimpleUploadedFile("cup.json", response.content, content_type="application/json")
    response = client.post(reverse("tournaments:import"), {"file": upload})
    assert response.status_code == 302
    copy = Tournament.objects.exclude(pk=played.pk).get()
    assert copy.owner == organiser and not copy.published
    assert exchange.export_tournament(copy) == data  # the round trip keeps everything
    assert copy.entries.get(name="gul").user.username == "gul"
    assert [(r.player, r.points) for r in actions.standings(copy)] != []
    names = {e.pid: e.name for e in played.entries.all()}
    copy_names = {e.pid: e.name for e in copy.entries.all()}
    assert [(names[r.player], r.points, r.decided_by) for r in actions.standings(played)] == [
        (copy_names[r.player], r.points, r.decided_by) for r in actions.standings(copy)
    ]
    assert copy.audit.filter(action="imported").exists()
    # the copy goes on like the original: round 3 can be seated from it
    actions.do_seat_next_round(copy.pk, organiser)
    assert copy.round_set.count() == 3


def test_an_import_does_not_link_a_bot_account(played, organiser):
    """Bots play casual tables only: a player whose account has since become a bot keeps
    their name in an imported copy, not a seat of the bot's."""
    from accounts.models import Profile

    data = exchange.export_tournament(played)
    Profile.objects.filter(user__username="gul").update(is_bot=True)
    copy = exchange.do_import_tournament(organiser, data)
    gul = copy.entries.get(name="gul")
    assert gul.user is None


def test_import_refuses_damaged_files_and_creates_nothing(client, played, organiser):
    client.force_login(organiser)
    data = exchange.export_tournament(played)
    before = Tournament.objects.count()

    def post(raw: bytes) -> str:
        upload = SimpleUploadedFile("t.json", raw, content_type="application/json")
        response = client.post(reverse("tournaments:import"), {"file": upload})
        assert response.status_code == 400
        return response.content.decode()

    assert "not valid JSON" in post(b"{nope")
    assert "okey-tournament/1" in post(json.dumps({**data, "format": "okey-tournament/9"}).encode())
    impossible = json.loads(json.dumps(data))
    impossible["rounds"][0]["tables"][0]["scores"] = [11, 4, 0, 2]
    assert "damaged" in post(json.dumps(impossible).encode())
    twice = json.loads(json.dumps(data))
    twice["rounds"][0]["tables"][0]["seats"][1] = twice["rounds"][0]["tables"][0]["seats"][0]
    assert "damaged" in post(json.dumps(twice).encode())
    assert Tournament.objects.count() == before


def test_printable_standings(client, played):
    response = client.get(reverse("tournaments:standings_print", args=[played.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "tn-print" in html and html.count('data-testid="standing-row"') == 7


def test_names_never_become_spreadsheet_formulas(organiser):
    t = in_person(organiser, rounds=1)
    register_names(t, organiser, ["=HYPERLINK(1)", "+Cem", "Deniz", "@Elif"])
    tt = actions.do_seat_next_round(t.pk, organiser).tables.get()
    actions.do_enter_result(t.pk, organiser, tt.pk, [10, 4, 0, 2])
    for text in (exchange.standings_csv(t), exchange.results_csv(t)):
        players = {r["player"] for r in rows(text)}
        assert "'=HYPERLINK(1)" in players and "'+Cem" in players and "'@Elif" in players
        assert "Deniz" in players
    scores = [int(r["score"]) for r in rows(exchange.results_csv(t))]
    assert sorted(scores) == [0, 2, 4, 10]
