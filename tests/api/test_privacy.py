"""What the API shows of players, records and tournaments follows the site's own rules:
a private profile is not found by others; a game's record is its players' and only once
a hand is over, never during a duplicate deal's embargo; unpublished tournaments are
their organisers' and players' (with the tournament scope)."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from games import plugins
from games.live import actions
from games.models import Table
from games.tournaments import actions as tournaments
from tests.api.conftest import Api, api_as
from tests.games.conftest import play_out_hand
from tests.support.accounts import make_user

pytestmark = pytest.mark.django_db


def one_hand_game(user) -> Table:
    seats = [actions.SeatSpec("me")] + [actions.SeatSpec("cpu", "easy")] * 3
    table = actions.do_create_table(
        variant="fifty-one", options={"hands": 1}, seats=seats, user=user
    )
    return play_out_hand(table, level="easy")


def test_a_private_profile_is_found_by_its_owner_only(db):
    private = make_user("deniz", "Deniz")
    assert Api().get("/api/v1/players/deniz").status_code == 404
    assert Api().get("/api/v1/players/deniz/games").status_code == 404
    other = api_as(make_user("ali"), ["read"])
    assert other.get("/api/v1/players/deniz").json()["code"] == "not_found"
    own = api_as(private, ["read"])
    assert own.get("/api/v1/players/deniz").json()["name"] == "Deniz"
    assert own.get("/api/v1/players/deniz/games").status_code == 200


def test_a_public_player_s_private_tables_are_listed_to_that_player_only(db):
    """A private casual table is known by its link alone: a public player's list shows
    others their rated and public games, never the code and players of a private one."""
    sena = make_user("sena", "Sena", public_records=True)
    private = one_hand_game(sena)
    shown = one_hand_game(sena)
    Table.objects.filter(pk=shown.pk).update(public=True)
    seen = Api().get("/api/v1/players/sena/games").json()
    assert [g["code"] for g in seen["items"]] == [shown.code] and seen["total"] == 1
    other = api_as(make_user("ali"), ["read"]).get("/api/v1/players/sena/games").json()
    assert [g["code"] for g in other["items"]] == [shown.code]
    own = api_as(sena, ["read"]).get("/api/v1/players/sena/games").json()
    assert {g["code"] for g in own["items"]} == {private.code, shown.code}


def test_a_fair_play_marked_account_is_not_found(db):
    make_user("cem", public_records=True, fair_play_marked=True)
    assert Api().get("/api/v1/players/cem").status_code == 404


def test_a_record_is_for_the_game_s_players_once_its_hand_is_over(ayse):
    mine = api_as(ayse, ["read"])
    seats = [actions.SeatSpec("me")] + [actions.SeatSpec("cpu")] * 3
    playing = actions.do_create_table(variant="classic", options={}, seats=seats, user=ayse)
    answer = mine.get(f"/api/v1/games/{playing.code}/record")
    assert answer.status_code == 409 and answer.json()["code"] == "in_progress"
    assert mine.get(f"/api/v1/games/{playing.code}/hands/1/record").status_code == 409
    done = one_hand_game(ayse)
    record = mine.get(f"/api/v1/games/{done.code}/hands/1/record").json()
    assert record["hands"][0]["number"] == 1 and record["signature"]
    assert mine.get(f"/api/v1/games/{done.code}/hands/2/record").status_code == 404
    stranger = api_as(make_user("mehmet"), ["read"])
    assert stranger.get(f"/api/v1/games/{done.code}/record").status_code == 404


def test_a_duplicate_deal_under_embargo_is_withheld(ayse, monkeypatch):
    done = one_hand_game(ayse)
    monkeypatch.setattr(plugins, "deal_embargoed", lambda table: table.pk == done.pk)
    mine = api_as(ayse, ["read", "play"])
    answer = mine.get(f"/api/v1/games/{done.code}/record")
    assert answer.status_code == 403 and answer.json()["code"] == "embargoed"
    assert mine.get("/api/v1/players/ayse/games").json()["items"] == []
    # the seat still sees the hand's end as it saw it at the table: its own rack, no seed
    view = mine.get(f"/api/v1/tables/{done.code}").json()["view"]
    assert view["over"] and view["revealed"]["seed"] is None
    finisher = view["result"].get("finisher")
    racks = view["revealed"]["racks"]
    assert all(rack == [] for i, rack in enumerate(racks) if i != finisher)
    assert view["revealed"]["withheld"] is True


def unpublished(owner):
    t = tournaments.do_create_tournament(
        owner,
        name="Club night",
        date=dt.date(2026, 11, 29),
        variant="classic",
        options={"start_points": 10},
        rounds=2,
        mode="in_person",
        seed="club-seed",
    )
    return t


def test_an_unpublished_tournament_needs_the_tournament_scope(ayse):
    t = unpublished(ayse)
    tournaments.do_register_entry(t.pk, ayse, username="ayse")
    assert Api().get(f"/api/v1/tournaments/{t.pk}").status_code == 404
    assert Api().get("/api/v1/tournaments").json() == []
    reader = api_as(ayse, ["read"])
    assert reader.get(f"/api/v1/tournaments/{t.pk}").status_code == 404
    organiser = api_as(ayse, ["tournament"])
    assert organiser.get(f"/api/v1/tournaments/{t.pk}").json()["name"] == "Club night"
    assert [x["id"] for x in organiser.get("/api/v1/tournaments?mine=true").json()] == [t.pk]
    stranger = api_as(make_user("mehmet"), ["tournament"])
    assert stranger.get(f"/api/v1/tournaments/{t.pk}").status_code == 404
    tournaments.do_update_tournament(t.pk, ayse, published=True)
    assert Api().get(f"/api/v1/tournaments/{t.pk}").status_code == 200


def test_a_game_of_fixed_deals_is_sent_with_its_deals_and_imports_whole(ayse):
    # a duplicate round's game (RULES.md D38): two fifty-one deals where the rule set's own
    # game is one hand; the record says so, and its signature covers the field
    from games.review import records

    seats = [actions.SeatSpec("player", user=ayse, name="Ayşe")]
    seats += [actions.SeatSpec("cpu", "easy")] * 3
    table = actions.do_seat_players(variant="fifty-one", options={}, seats=seats, deals=2)
    play_out_hand(table, level="easy")
    actions.do_next_hand(table.pk, table.version)
    table.refresh_from_db()
    play_out_hand(table, level="easy")
    mine = api_as(ayse, ["read"])
    record = mine.get(f"/api/v1/games/{table.code}/record").json()
    assert record["deals"] == 2 and len(record["hands"]) == 2
    loaded = records.load_document(json.dumps(record))
    assert [h.number for h in loaded["hands"]] == [1, 2]
    # any other game's record has no such field
    plain = mine.get(f"/api/v1/games/{one_hand_game(ayse).code}/record").json()
    assert "deals" not in plain
