"""Playing through the API: a seat sees its own view only, strangers see nothing, moves go
through the table's action (stored once, stale ones refused with the table's code), and
inviting a person or a bot."""

from __future__ import annotations

import pytest

from games.live import actions, cpu
from games.models import HandAction, Table
from tests.api.conftest import Api, api_as
from tests.support.accounts import make_user

pytestmark = pytest.mark.django_db


def open_table(api: Api, **body) -> dict:
    answer = api.post("/api/v1/tables", {"variant": "classic", **body})
    assert answer.status_code == 201, answer.content
    return answer.json()


def my_turn(code: str) -> Table:
    """Let the CPUs play until it is seat 0's turn."""
    for _ in range(200):
        table = Table.objects.get(code=code)
        _hand, state, _game = actions.snapshot(table)
        if state.turn == 0:
            return table
        assert actions.sweep() >= 1
    raise AssertionError("never seat 0's turn")


def test_a_seat_sees_its_own_rack_and_no_other(ayse):
    api = api_as(ayse, ["play"])
    opened = open_table(api)
    assert opened["seat"] == 0 and opened["table"]["seats"][0]["you"]
    seen = api.get(f"/api/v1/tables/{opened['table']['code']}").json()
    view = seen["view"]
    table = Table.objects.get(code=opened["table"]["code"])
    _hand, state, _game = actions.snapshot(table)
    assert sorted(t["id"] for t in view["rack"]) == sorted(state.racks[0])
    assert view["revealed"] is None and view["seat"] == 0
    others = set().union(*(set(state.racks[s]) for s in (1, 2, 3)))
    pile = set(state.pile)
    # no tile id of another rack or of the pile appears anywhere in the answer
    ids = set()

    def walk(value):
        if isinstance(value, dict):
            if isinstance(value.get("id"), int):
                ids.add(value["id"])
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(seen)
    assert not ids & (others | pile) - {t for d in state.discards for t in d}
    assert view["rack_counts"][1] == len(state.racks[1])
    assert state.seed not in str(seen)


def test_a_stranger_gets_404_for_a_table_in_play(ayse):
    opened = open_table(api_as(ayse, ["play"]))
    code = opened["table"]["code"]
    stranger = api_as(make_user("mehmet"), ["play", "read"])
    answer = stranger.get(f"/api/v1/tables/{code}")
    assert answer.status_code == 404
    assert "rack" not in answer.content.decode()
    move = stranger.post(
        f"/api/v1/tables/{code}/actions", {"version": 1, "action": {"type": "draw"}}
    )
    assert move.status_code == 404
    assert Api().get(f"/api/v1/tables/{code}").status_code == 401


def test_a_move_is_stored_once_and_a_replay_or_stale_one_is_409(ayse):
    api = api_as(ayse, ["play"])
    code = open_table(api)["table"]["code"]
    table = my_turn(code)
    _hand, state, _game = actions.snapshot(table)
    move = cpu.choose(state, 0, "easy")
    body = {"version": table.version, "action": move}
    before = HandAction.objects.filter(hand__table=table).count()
    first = api.post(f"/api/v1/tables/{code}/actions", body)
    assert first.status_code == 200, first.content
    assert first.json()["table"]["version"] == table.version + 1
    again = api.post(f"/api/v1/tables/{code}/actions", body)
    assert again.status_code == 409
    assert again.json()["code"] == "duplicate_action"
    assert HandAction.objects.filter(hand__table=table).count() == before + 1
    stale = api.post(f"/api/v1/tables/{code}/actions", {"version": 0, "action": move})
    assert stale.status_code == 409
    assert stale.json()["code"] == "stale_state"
    assert HandAction.objects.filter(hand__table=table).count() == before + 1


def test_a_move_the_engine_refuses_keeps_the_engine_code(ayse):
    api = api_as(ayse, ["play"])
    code = open_table(api)["table"]["code"]
    table = my_turn(code)
    _hand, state, _game = actions.snapshot(table)
    answer = api.post(
        f"/api/v1/tables/{code}/actions",
        {"version": table.version, "action": {"type": "discard", "tile": 999}},
    )
    assert answer.status_code == 400
    assert answer.json()["code"] in ("bad_action", "wrong_phase", "must_draw")
    garbage = api.post(
        f"/api/v1/tables/{code}/actions", {"version": table.version, "action": {"x": []}}
    )
    assert garbage.status_code == 400
    assert garbage.json()["code"] == "bad_action"
    table.refresh_from_db()
    assert Table.objects.get(code=code).version == table.version


def test_playing_needs_the_play_scope(ayse):
    code = open_table(api_as(ayse, ["play"]))["table"]["code"]
    reader = api_as(ayse, ["read"])
    assert reader.get(f"/api/v1/tables/{code}").status_code == 200
    answer = reader.post(
        f"/api/v1/tables/{code}/actions", {"version": 1, "action": {"type": "draw"}}
    )
    assert answer.status_code == 403


def test_inviting_a_person_gives_the_table_s_link_and_they_join(ayse):
    api = api_as(ayse, ["play"])
    opened = open_table(api, others=[{"kind": "human"}, {"kind": "cpu"}, {"kind": "cpu"}])
    code = opened["table"]["code"]
    assert opened["table"]["status"] == "waiting" and opened["view"] is None
    invite = api.post(f"/api/v1/tables/{code}/invite", {"kind": "person"})
    assert invite.status_code == 200
    assert invite.json()["url"].endswith(f"/t/{code}/")
    mehmet = api_as(make_user("mehmet", "Mehmet"), ["play"])
    # only the host invites
    assert mehmet.post(f"/api/v1/tables/{code}/invite", {"kind": "person"}).status_code == 404
    joined = mehmet.post(f"/api/v1/tables/{code}/join")
    assert joined.status_code == 200
    assert joined.json()["table"]["status"] == "playing"
    assert joined.json()["seat"] in (1, 2)
    full = api.post(f"/api/v1/tables/{code}/invite", {"kind": "person"})
    assert full.status_code == 409 and full.json()["code"] == "table_full"


def test_inviting_a_bot_seats_cpus_and_starts_the_game(ayse):
    api = api_as(ayse, ["play"])
    code = open_table(api, others=[{"kind": "human"}] * 3)["table"]["code"]
    other_level = api.post(f"/api/v1/tables/{code}/invite", {"kind": "bot", "level": "hard"})
    assert other_level.status_code == 400
    assert other_level.json()["code"] == "level_not_available"
    invited = api.post(f"/api/v1/tables/{code}/invite", {"kind": "bot"})
    assert invited.status_code == 200
    table = invited.json()["table"]
    assert table["status"] == "playing"
    assert [s["cpu"] for s in table["seats"]] == [False, True, True, True]


def test_opening_tables_is_limited_per_account(ayse, settings):
    settings.API_OPEN_TABLE_LIMIT = 2
    api = api_as(ayse, ["play"])
    open_table(api)
    open_table(api)
    answer = api.post("/api/v1/tables", {"variant": "classic"})
    assert answer.status_code == 429
    assert Table.objects.count() == 2


def test_a_program_without_cookies_posts_with_its_token_alone(ayse):
    """No session, no CSRF token: the bearer token is the whole authentication."""
    import json

    from django.test import Client

    from tests.api.conftest import token_for

    _token, secret = token_for(ayse, ["play"])
    client = Client(enforce_csrf_checks=True)
    answer = client.post(
        "/api/v1/tables",
        json.dumps({"variant": "classic"}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {secret}"},
    )
    assert answer.status_code == 201
    assert not answer.cookies


def test_opening_a_table_again_with_the_same_idempotency_key_opens_one(ayse):
    api = api_as(ayse, ["play"])
    once = {"Idempotency-Key": "open-1"}
    first = api.post("/api/v1/tables", {"variant": "classic"}, headers=once)
    again = api.post("/api/v1/tables", {"variant": "classic"}, headers=once)
    assert first.status_code == 201 and again.status_code == 200
    assert again.json()["table"]["code"] == first.json()["table"]["code"]
    assert Table.objects.count() == 1
    other = api.post("/api/v1/tables", {"variant": "classic"}, headers={"Idempotency-Key": "2"})
    assert other.status_code == 201 and Table.objects.count() == 2
    # a refused request keeps no key: the corrected one opens its table
    bad = {"Idempotency-Key": "3"}
    assert api.post("/api/v1/tables", {"variant": "chess"}, headers=bad).status_code == 400
    assert api.post("/api/v1/tables", {"variant": "classic"}, headers=bad).status_code == 201
