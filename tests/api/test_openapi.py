"""The OpenAPI document validates (openapi-spec-validator), and every documented route,
called with valid data, answers a documented status with a body that validates against
the documented schema (jsonschema). A route added without a call here fails the last
test: every route is exercised."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from django.utils import timezone
from openapi_spec_validator import validate

from games.live import actions, cpu
from games.models import Table
from games.ratings.models import Rating
from games.tournaments import actions as tournaments
from tests.api.conftest import Api, api_as
from tests.games.conftest import play_out_hand
from tests.support.accounts import make_user

pytestmark = pytest.mark.django_db

OPENAPI = "/api/v1/openapi.json"


def spec() -> dict[str, Any]:
    response = Api().get(OPENAPI)
    assert response.status_code == 200
    return response.json()


def test_the_document_is_valid_openapi():
    doc = spec()
    validate(doc)
    assert doc["info"]["version"] == "1"
    assert doc["components"]["securitySchemes"] == {"Token": {"type": "http", "scheme": "bearer"}}


def check(doc: dict, method: str, template: str, response) -> None:
    """The answer's status is documented for the operation and its body validates."""
    op = doc["paths"][template][method]
    status = str(response.status_code)
    assert status in op["responses"], (method, template, status, response.content[:300])
    content = op["responses"][status].get("content")
    if content is None:
        return
    schema = {**content["application/json"]["schema"], "components": doc["components"]}
    jsonschema.validate(response.json(), schema)


def cpu_table(user, variant="classic", **options) -> Table:
    seats = [actions.SeatSpec("me")] + [actions.SeatSpec("cpu", "easy")] * 3
    return actions.do_create_table(variant=variant, options=options, seats=seats, user=user)


def until_turn(table: Table, seat: int) -> Table:
    """Sweep the CPUs until it is ``seat``'s turn."""
    for _ in range(200):
        table.refresh_from_db()
        _hand, state, _game = actions.snapshot(table)
        if state.turn == seat:
            return table
        assert actions.sweep() >= 1
    raise AssertionError("never my turn")


@pytest.fixture
def world():
    ayse = make_user("ayse", "Ayşe", public_records=True)
    mehmet = make_user("mehmet", "Mehmet")
    Rating.objects.create(
        user=ayse, variant="classic", mu=26.0, sigma=6.0, games=4, updated_at=timezone.now()
    )
    # a finished one-hand game of Ayşe's
    finished = play_out_hand(cpu_table(ayse, "fifty-one", hands=1), level="easy")
    assert finished.status == Table.Status.FINISHED
    # a public table in play (the lobby lists it)
    actions.do_create_table(
        variant="classic",
        options={},
        seats=[actions.SeatSpec("me")] + [actions.SeatSpec("cpu")] * 3,
        user=mehmet,
        public=True,
    )
    # a classic table at Ayşe's turn, and one whose first hand is over
    playing = until_turn(cpu_table(ayse), 0)
    between = play_out_hand(cpu_table(ayse), level="easy")
    # waiting tables: Mehmet's with a free seat for Ayşe to take, Ayşe's to invite to
    mehmets = actions.do_create_table(
        variant="classic",
        options={},
        seats=[actions.SeatSpec("me"), actions.SeatSpec("human")] + [actions.SeatSpec("cpu")] * 2,
        user=mehmet,
    )
    waiting = [
        actions.do_create_table(
            variant="classic",
            options={},
            seats=[actions.SeatSpec("me"), actions.SeatSpec("human")]
            + [actions.SeatSpec("cpu")] * 2,
            user=ayse,
        )
        for _ in range(2)
    ]
    # a published in-person tournament with a round's result in
    t = tournaments.do_create_tournament(
        ayse,
        name="Club night",
        date=dt.date(2026, 11, 29),
        variant="classic",
        options={"start_points": 10},
        rounds=2,
        mode="in_person",
        seed="club-seed",
    )
    for name in ("Ali", "Banu", "Cem", "Deniz"):
        tournaments.do_register_entry(t.pk, ayse, name=name)
    tournaments.do_update_tournament(t.pk, ayse, published=True)
    rnd = tournaments.do_seat_next_round(t.pk, ayse)
    tournaments.do_enter_result(t.pk, ayse, rnd.tables.get().pk, [10, 4, 0, 2])
    return {
        "api": api_as(ayse),
        "finished": finished,
        "playing": playing,
        "between": between,
        "mehmets": mehmets,
        "waiting": waiting,
        "tournament": t,
    }


def calls(w: dict) -> list[tuple[str, str, str, Any, int]]:
    """(method, documented path, concrete path, body, expected status) of every route."""
    playing = w["playing"]
    _hand, state, _game = actions.snapshot(playing)
    move = cpu.choose(state, 0, "easy")
    finished, between, t = w["finished"], w["between"], w["tournament"]
    return [
        ("get", "/api/v1/rulesets", "/api/v1/rulesets", None, 200),
        ("get", "/api/v1/rulesets/{name}", "/api/v1/rulesets/fifty-one", None, 200),
        ("get", "/api/v1/me", "/api/v1/me", None, 200),
        ("get", "/api/v1/players/{username}", "/api/v1/players/ayse", None, 200),
        ("get", "/api/v1/players/{username}/games", "/api/v1/players/ayse/games", None, 200),
        (
            "get",
            "/api/v1/games/{code}/record",
            f"/api/v1/games/{finished.code}/record",
            None,
            200,
        ),
        (
            "get",
            "/api/v1/games/{code}/hands/{number}/record",
            f"/api/v1/games/{finished.code}/hands/1/record",
            None,
            200,
        ),
        ("get", "/api/v1/tables/live", "/api/v1/tables/live", None, 200),
        (
            "post",
            "/api/v1/tables",
            "/api/v1/tables",
            {"variant": "rummy", "options": {"players": 2}, "others": [{"kind": "cpu"}]},
            201,
        ),
        ("get", "/api/v1/tables/{code}", f"/api/v1/tables/{playing.code}", None, 200),
        (
            "post",
            "/api/v1/tables/{code}/actions",
            f"/api/v1/tables/{playing.code}/actions",
            {"version": playing.version, "action": move},
            200,
        ),
        (
            "post",
            "/api/v1/tables/{code}/next-hand",
            f"/api/v1/tables/{between.code}/next-hand",
            {"version": between.version},
            200,
        ),
        (
            "post",
            "/api/v1/tables/{code}/join",
            f"/api/v1/tables/{w['mehmets'].code}/join",
            None,
            200,
        ),
        (
            "post",
            "/api/v1/tables/{code}/invite",
            f"/api/v1/tables/{w['waiting'][0].code}/invite",
            {"kind": "person"},
            200,
        ),
        ("get", "/api/v1/tournaments", "/api/v1/tournaments", None, 200),
        (
            "get",
            "/api/v1/tournaments/{tournament_id}",
            f"/api/v1/tournaments/{t.pk}",
            None,
            200,
        ),
    ]


def literal(path: str) -> str:
    """What a test calling ``path`` must spell out: its text after the last parameter
    ("/invite-bot" of "/tables/{code}/invite-bot"), else before the first one."""
    path = path.removeprefix("/api/v1")
    return path.rsplit("}", 1)[-1] or path.split("{")[0]


def test_every_documented_route_answers_as_documented(world):
    doc = spec()
    api = world["api"]
    done = set()
    for method, template, path, body, status in calls(world):
        response = api.get(path) if method == "get" else api.post(path, body)
        assert response.status_code == status, (path, response.content[:400])
        check(doc, method, template, response)
        done.add((method, template))
    documented = {(m, p) for p, ops in doc["paths"].items() for m in ops}
    assert done <= documented
    # a route another part of the site adds to the API (the bots' stream) is called by
    # its own tests: each route not called here is named by a test file elsewhere
    others = [
        path.read_text()
        for path in Path(__file__).resolve().parents[1].rglob("test_*.py")
        if path.resolve() != Path(__file__).resolve()
    ]
    untested = [
        (m, p)
        for m, p in sorted(documented - done)
        if not any(literal(p) in text for text in others)
    ]
    assert untested == []


def test_the_answers_say_what_the_routes_promise(world):
    api = world["api"]
    rulesets = api.get("/api/v1/rulesets").json()
    classic = next(r for r in rulesets if r["name"] == "classic")
    start = next(o for o in classic["options"] if o["name"] == "start_points")
    assert start == {"name": "start_points", "allowed": [10, 20, 30], "default": 20}
    player = api.get("/api/v1/players/ayse").json()
    assert player["name"] == "Ayşe"
    assert player["ratings"][0]["variant"] == "classic"
    assert player["ratings"][0]["rating"] == round(60 * 26.0)
    games = api.get("/api/v1/players/ayse/games").json()
    assert [g["code"] for g in games["items"]] == [world["finished"].code]
    record = api.get(f"/api/v1/games/{world['finished'].code}/record").json()
    assert record["format"] == "okey-review/1" and len(record["hands"]) == 1
    live = api.get("/api/v1/tables/live").json()
    assert [row["players"][0]["name"] for row in live] == ["Mehmet"]
    standings = api.get(f"/api/v1/tournaments/{world['tournament'].pk}").json()
    seats = standings["results"][0]["tables"][0]["seats"]
    assert [s["score"] for s in seats] == [10, 4, 0, 2]
    # the seat that scored 10 leads (placing points 4/2/1/0)
    assert standings["standings"][0]["name"] == seats[0]["name"]
    assert standings["standings"][0]["points"] == "4"


def test_the_document_and_the_docs_are_served_from_this_site():
    """Swagger UI is rendered with the site's own static files: nothing from a CDN."""
    response = Api().get("/api/docs")
    assert response.status_code == 200
    html = response.content.decode()
    assert "swagger-ui-bundle.js" in html
    assert "cdn" not in html.lower() and "https://" not in html
    assert json.loads(Api().get(OPENAPI).content)["openapi"].startswith("3.")
