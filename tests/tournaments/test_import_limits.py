"""Tournament imports within limits (players, rounds, tables, texts, nesting), refused with
the reason and nothing created; the import writes in a few queries; the who-met-whom matrix
renders a bounded block of cells however many players there are."""

from __future__ import annotations

import contextlib
import copy
import json
import random

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from games.common import heavy
from games.tournaments import actions, exchange
from games.tournaments.models import Entry, Tournament, TournamentTable
from games.tournaments.views import MATRIX_BLOCK
from tests.support.accounts import make_user
from tests.tournaments.conftest import CLASSIC_OK, in_person

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_pause_between_imports(monkeypatch):
    """games.common.heavy spaces imports out; these tests import one after another."""
    monkeypatch.setattr(heavy, "SHARE", 1.0)
    monkeypatch.setattr(heavy, "_next_start", 0.0)


def big_file(organiser, players: int, rounds: int = 1, results: bool = True) -> dict:
    """A file of ``players`` players (a multiple of four) at four-seat tables."""
    base = exchange.export_tournament(in_person(organiser, rounds=max(rounds, 1)))
    Tournament.objects.all().delete()
    base["players"] = [
        {
            "index": i,
            "name": f"Player {i}",
            "account": None,
            "joins_round": 1,
            "dropped_from_round": None,
            "no_shows": [],
        }
        for i in range(players)
    ]
    base["rounds"] = [
        {
            "number": r,
            "tables": [
                {
                    "number": k + 1,
                    "seats": [4 * k + j for j in range(4)],
                    "scores": CLASSIC_OK[k % 4] if results else None,
                    "source": "entered",
                }
                for k in range(players // 4)
            ],
        }
        for r in range(1, rounds + 1)
    ]
    return base


def post(client, payload) -> tuple[int, str]:
    raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    upload = SimpleUploadedFile("t.json", raw, content_type="application/json")
    response = client.post(reverse("tournaments:import"), {"file": upload})
    return response.status_code, response.content.decode()


def refused(client, payload, *words: str) -> str:
    before = (Tournament.objects.count(), Entry.objects.count())
    status, body = post(client, payload)
    assert status == 400, body[:300]
    for word in words:
        assert word in body, body[body.find("import-error") - 50 :][:400]
    assert (Tournament.objects.count(), Entry.objects.count()) == before
    return body


def test_deeply_nested_json_is_refused_with_a_reason(client, organiser):
    client.force_login(organiser)
    refused(client, b"[" * 100_000 + b"]" * 100_000, "too deeply")
    doc = big_file(organiser, 8)
    doc["rounds"][0]["tables"][0]["seats"] = [[[[0]]], 1, 2, 3]
    refused(client, doc, "too deeply")


def test_malformed_files_are_refused_with_a_reason(client, organiser):
    client.force_login(organiser)
    refused(client, b"\xff\xfe garbage", "not valid JSON")
    refused(client, b'{"format": "okey-tournament/1", "rounds": [Infinity]}', "not valid JSON")
    refused(client, b'{"format": "okey-tournament/1", "players": 7}', "damaged")


def test_more_players_than_a_tournament_can_have_are_refused(client, organiser):
    client.force_login(organiser)
    doc = big_file(organiser, exchange.MAX_PLAYERS + 4, results=False)
    refused(client, doc, "damaged", f"at most {exchange.MAX_PLAYERS}")


def test_texts_longer_than_the_site_keeps_are_refused(client, organiser):
    client.force_login(organiser)
    doc = big_file(organiser, 4)
    long_name = copy.deepcopy(doc)
    long_name["players"][2]["name"] = "N" * 61
    refused(client, long_name, "longer than 60")
    long_title = copy.deepcopy(doc)
    long_title["tournament"]["name"] = "T" * 121
    refused(client, long_title, "longer than 120")
    long_text = copy.deepcopy(doc)
    long_text["players"][0]["account"] = "a" * (exchange.MAX_STRING + 1)
    refused(client, long_text, "too long")


def test_imported_names_follow_the_rules_of_names_typed_at_the_desk(client, organiser):
    """A file cannot bring in what the desk refuses: a bidi override or a CPU lookalike."""
    client.force_login(organiser)
    doc = big_file(organiser, 4)
    bidi = copy.deepcopy(doc)
    bidi["players"][1]["name"] = "Ay\u202ese"
    refused(client, bidi, "damaged", "player 1")
    cpu = copy.deepcopy(doc)
    cpu["players"][3]["name"] = "Mehmet (CPU)"
    refused(client, cpu, "damaged", "player 3")


def test_tables_without_players_or_more_tables_than_players_are_refused(client, organiser):
    client.force_login(organiser)
    doc = big_file(organiser, 4, results=False)
    empty = copy.deepcopy(doc)
    empty["rounds"][0]["tables"].append({"number": 2, "seats": [None] * 4, "scores": None})
    refused(client, empty, "nobody sits")
    many = copy.deepcopy(doc)
    many["rounds"][0]["tables"] = [
        {"number": k + 1, "seats": [k if k < 4 else None, None], "scores": None} for k in range(5)
    ]
    refused(client, many, "more tables than players")


def test_no_shows_are_rounds_of_the_tournament(client, organiser):
    client.force_login(organiser)
    doc = big_file(organiser, 4, rounds=1)
    doc["players"][0]["no_shows"] = [1] * 31
    refused(client, doc, "no_shows")


def test_an_import_is_a_few_queries_whatever_the_number_of_players(
    client, organiser, django_assert_max_num_queries
):
    doc = big_file(organiser, 200, rounds=3)
    with django_assert_max_num_queries(40):
        t = exchange.do_import_tournament(organiser, exchange.load(json.dumps(doc)))
    assert t.entries.count() == 200
    assert TournamentTable.objects.filter(round__tournament=t).count() == 150
    assert exchange.export_tournament(t)["rounds"] == doc["rounds"]
    assert t.status == Tournament.Status.FINISHED  # every round of three has its results


def test_accounts_are_linked_by_username_once(client, organiser):
    make_user("Gul")
    doc = big_file(organiser, 4)
    doc["players"][1]["account"] = "gul"
    doc["players"][2]["account"] = "GUL"  # the same account twice: the second is a name only
    t = exchange.do_import_tournament(organiser, exchange.load(json.dumps(doc)))
    linked = [e.user.username if e.user else None for e in t.entries.order_by("id")]
    assert linked == [None, "Gul", None, None]


def test_an_import_waits_for_another_heavy_request_then_says_busy(client, organiser, monkeypatch):
    client.force_login(organiser)
    doc = big_file(organiser, 4)
    monkeypatch.setattr(heavy, "WAIT_S", 0)
    assert heavy.GATE.acquire(timeout=1)
    try:
        status, body = post(client, doc)
    finally:
        heavy.GATE.release()
    assert status == 503 and "busy" in body
    assert not Tournament.objects.exists()
    assert post(client, doc)[0] == 302


def test_the_matrix_shows_a_bounded_block_of_a_big_tournament(
    client, organiser, django_assert_max_num_queries
):
    t = exchange.do_import_tournament(
        organiser, exchange.load(json.dumps(big_file(organiser, 200)))
    )
    t.published = True
    t.save(update_fields=["published"])
    with django_assert_max_num_queries(12):
        response = client.get(reverse("tournaments:matrix", args=[t.pk]))
    assert response.status_code == 200
    rows = response.context["rows"]
    assert len(rows) == MATRIX_BLOCK and all(len(r["cells"]) == MATRIX_BLOCK for r in rows)
    html = response.content.decode()
    assert 'data-testid="matrix-nav"' in html and "?rows=2&amp;cols=1" in html
    # player 1 (index 0) met players 2-4 at table 1 of round 1
    assert rows[0]["cells"][:4] == [None, 1, 1, 1] and rows[0]["cells"][4] == 0
    assert [text for _cls, text in rows[0]["tds"][:5]] == ["·", "1", "1", "1", ""]
    last = client.get(reverse("tournaments:matrix", args=[t.pk]), {"rows": 9, "cols": 9})
    rows = last.context["rows"]
    assert [r["number"] for r in rows] == list(range(193, 201))  # the last 8 players
    assert rows[-1]["cells"][-4:] == [1, 1, 1, None]
    assert [cls for cls, _text in rows[-1]["tds"][-4:]] == ["met", "met", "met", "self"]
    html = last.content.decode()
    assert "?rows=8&amp;cols=9" in html and 'data-testid="matrix-down"' not in html
    # out-of-range pages show the nearest block
    assert client.get(reverse("tournaments:matrix", args=[t.pk]), {"rows": 99}).status_code == 200


def test_a_small_tournament_has_the_whole_matrix_without_navigation(client, organiser):
    t = exchange.do_import_tournament(organiser, exchange.load(json.dumps(big_file(organiser, 8))))
    client.force_login(organiser)
    response = client.get(reverse("tournaments:matrix", args=[t.pk]))
    assert len(response.context["rows"]) == 8
    assert 'data-testid="matrix-nav"' not in response.content.decode()
    assert actions.past_rounds(t)


def test_settings_and_scores_of_the_wrong_type_are_refused(client, organiser):
    client.force_login(organiser)
    doc = big_file(organiser, 4)
    options = copy.deepcopy(doc)
    options["tournament"]["options"] = ["start_points", 10]
    refused(client, options, "table options must be an object")
    scores = copy.deepcopy(doc)
    scores["rounds"][0]["tables"][0]["scores"] = 7
    refused(client, scores, "scores must be a list")


def test_numbers_and_lists_are_read_strictly(client, organiser):
    """The file's model is strict: true is not the number 1, 0 is not an empty list."""
    client.force_login(organiser)
    doc = big_file(organiser, 4)
    numbered = copy.deepcopy(doc)
    numbered["rounds"][0]["number"] = True
    refused(client, numbered, "damaged", "round 1 is missing or out of order")
    no_shows = copy.deepcopy(doc)
    no_shows["players"][0]["no_shows"] = 0
    refused(client, no_shows, "damaged", "no_shows must be a list")
    dated = copy.deepcopy(doc)
    dated["tournament"]["date"] = 20261203
    refused(client, dated, "damaged", "the date is not a date")


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value[:3]):
            yield from _paths(item, (*path, i))


def test_any_damaged_file_is_refused_with_a_reason_or_imported(organiser):
    """Seeded random damage (values swapped for others of any type, keys removed or added):
    the import answers TournamentError or imports, never anything else."""
    rng = random.Random(20261201)
    base = big_file(organiser, 8, rounds=2)
    values = [None, True, 0, -1, 7, 2**40, 1.5, "", "x", [], {}, [1], {"a": 1}, [[]]]
    for _ in range(300):
        doc = copy.deepcopy(base)
        for _change in range(rng.randint(1, 3)):
            path = rng.choice(list(_paths(doc))[1:])
            parent = doc
            for key in path[:-1]:
                parent = parent[key]
            if rng.random() < 0.8:
                parent[path[-1]] = copy.deepcopy(rng.choice(values))
            else:
                del parent[path[-1]]
        with contextlib.suppress(actions.TournamentError):
            exchange.do_import_tournament(organiser, exchange.load(json.dumps(doc)))
