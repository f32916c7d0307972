"""Export → import round trip, and tampered imports refused with the reason."""

from __future__ import annotations

import copy
import json

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile

from games.engine import new_hand
from games.engine.rules import RULES
from games.engine.tiles import ids_of_kind, parse_kind
from games.review import records
from games.review.models import ImportedRecord
from games.review.replay import record_for_hand
from tests.review.conftest import cpu_table, play_out_hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def ayse(client):
    user = User.objects.create_user("ayse", password="pw-long-enough-1")
    client.force_login(user)
    return user


@pytest.fixture
def played(ayse):
    return play_out_hand(cpu_table("classic", user=ayse))


def _export(client, hand) -> dict:
    response = client.get(f"/review/hand/{hand.pk}/export/")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert "attachment" in response["Content-Disposition"]
    return json.loads(response.content)


def _upload(client, doc_or_bytes, name="hand.json"):
    raw = doc_or_bytes if isinstance(doc_or_bytes, bytes) else json.dumps(doc_or_bytes).encode()
    return client.post(
        "/review/import/", {"file": SimpleUploadedFile(name, raw, "application/json")}
    )


def test_export_format_uses_notation(client, played):
    hand = played.current_hand
    doc = _export(client, hand)
    assert doc["format"] == "okey-review/1"
    assert doc["variant"] == "classic"
    assert doc["options"] == played.options
    assert [p["seat"] for p in doc["players"]] == [0, 1, 2, 3]
    assert doc["players"][0]["cpu"] is None and doc["players"][1]["cpu"] == "medium"
    (h,) = doc["hands"]
    assert h["seed"] == hand.seed and h["starter"] == hand.starter
    assert len(h["actions"]) == hand.actions.count()
    discard = next(a for a in h["actions"] if a["type"] == "discard")
    parse_kind(discard["tile"])  # notation, e.g. "R7"
    assert isinstance(discard["tile"], str)
    assert h["result"]["ending"] == hand.result["ending"]
    assert h["result"]["totals"] == hand.result["totals"]
    stored = [(ln.seat, ln.points, ln.reason) for ln in hand.score_lines.order_by("id")]
    assert [(ln["seat"], ln["points"], ln["reason"]) for ln in h["result"]["lines"]] == stored


def test_export_import_round_trip(client, played):
    hand = played.current_hand
    doc = _export(client, hand)
    response = _upload(client, doc)
    assert response.status_code == 302
    rec = ImportedRecord.objects.get()
    assert rec.owner.username == "ayse"
    assert rec.data == doc  # re-exported identically
    loaded = records.load_document(json.dumps(doc))
    (imported,) = loaded["hands"]
    assert imported.summary == doc["hands"][0]["result"]
    assert imported.result["totals"] == hand.result["totals"]
    assert len(imported.actions) == len(record_for_hand(hand)["actions"])
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert b'id="replay-data"' in page.content
    assert client.get(f"/review/imported/{rec.pk}/export/").json() == doc


def test_whole_game_export_round_trip(client, ayse):
    table = cpu_table("classic", user=ayse)
    from games.live import actions as table_actions

    table = play_out_hand(table)
    table_actions.do_next_hand(table.pk, table.version)
    table = play_out_hand(table)
    doc = client.get(f"/review/game/{table.code}/export/").json()
    assert [h["number"] for h in doc["hands"]] == [1, 2]
    assert doc["hands"][1]["starter"] == 1
    loaded = records.load_document(json.dumps(doc))
    assert loaded["document"] == doc
    assert _upload(client, doc).status_code == 302
    rec = ImportedRecord.objects.get()
    assert client.get(f"/review/imported/{rec.pk}/hand/2/").status_code == 200
    assert client.get(f"/review/imported/{rec.pk}/hand/3/").status_code == 404


def _refused(client, payload, code):
    before = ImportedRecord.objects.count()
    response = _upload(client, payload)
    assert response.status_code == 400, response.content[:500]
    body = response.content.decode()
    assert f'data-code="{code}"' in body, body[body.find("import-error") - 200 :][:800]
    assert ImportedRecord.objects.count() == before
    return body


def test_tampered_tile_is_refused_with_the_engines_reason(client, played):
    doc = _export(client, played.current_hand)
    bad = copy.deepcopy(doc)
    h = bad["hands"][0]
    state = new_hand("classic", bad["options"], h["seed"], h["starter"])
    # the first discard: replace its tile by a kind its seat does not hold at the deal
    i, ev = next((i, a) for i, a in enumerate(h["actions"]) if a["type"] == "discard")
    held = {t for t in state.racks[ev["seat"]]}
    for colour in "RYBK":
        for number in range(1, 14):
            kind = parse_kind(f"{colour}{number}")
            if not set(ids_of_kind(kind)) & held:
                h["actions"][i]["tile"] = f"{colour}{number}"
                break
        else:
            continue
        break
    body = _refused(client, bad, "tile_not_in_rack")
    assert f"move {i + 1}" in body
    assert "That tile is not in your rack." in body


def test_reordered_actions_are_refused(client, played):
    doc = _export(client, played.current_hand)
    bad = copy.deepcopy(doc)
    acts = bad["hands"][0]["actions"]
    acts[1], acts[2] = acts[2], acts[1]
    body = _refused(client, bad, "must_draw")  # seat 1 discards before drawing
    assert "move 2" in body and "was refused" in body
    turns = copy.deepcopy(doc)
    acts = turns["hands"][0]["actions"]
    acts[0], acts[1] = acts[1], acts[0]  # seat 1 draws before the starter discarded
    body = _refused(client, turns, "not_your_turn")
    assert "It is not your turn." in body


def test_wrong_format_version_is_refused(client, played):
    doc = _export(client, played.current_hand)
    body = _refused(client, {**doc, "format": "okey-review/2"}, "bad_format")
    assert "okey-review/1" in body


def test_truncated_files_are_refused(client, played):
    doc = _export(client, played.current_hand)
    raw = json.dumps(doc).encode()
    _refused(client, raw[: len(raw) // 2], "bad_json")
    short = copy.deepcopy(doc)
    short["hands"][0]["actions"] = short["hands"][0]["actions"][:-3]
    short["hands"][0]["result"] = None
    _refused(client, short, "incomplete")


def test_edited_result_is_refused(client, played):
    doc = _export(client, played.current_hand)
    bad = copy.deepcopy(doc)
    bad["hands"][0]["result"]["totals"][0] += 5
    _refused(client, bad, "result_mismatch")


def test_changed_seed_is_refused(client, played):
    doc = _export(client, played.current_hand)
    bad = copy.deepcopy(doc)
    bad["hands"][0]["seed"] = "another-seed"
    response = _upload(client, bad)
    assert response.status_code == 400
    assert not ImportedRecord.objects.exists()


def test_oversize_and_non_object_files_are_refused(client, ayse):
    _refused(client, b" " * (records.MAX_BYTES + 1), "too_large")
    _refused(client, b"[1, 2, 3]", "bad_json")
    _refused(client, {"format": "okey-review/1", "variant": "chess", "hands": []}, "bad_variant")


def test_import_needs_a_file(client, ayse):
    response = client.post("/review/import/", {})
    assert response.status_code == 400
    assert b'data-code="no_file"' in response.content


def test_imports_are_private_to_their_importer(client, played):
    doc = _export(client, played.current_hand)
    _upload(client, doc)
    rec = ImportedRecord.objects.get()
    client.logout()
    other = User.objects.create_user("mehmet", password="pw-long-enough-2")
    client.force_login(other)
    assert client.get(f"/review/imported/{rec.pk}/hand/1/").status_code == 404
    assert client.get(f"/review/imported/{rec.pk}/export/").status_code == 404


def test_events_use_notation_for_every_tile_field():
    action = {
        "type": "open",
        "seat": 2,
        "melds": [[10, 12, 14], [105, 20, 22]],
        "assign": {"105": 9},
    }
    ev = records.action_to_events(action)
    assert ev == {
        "seat": 2,
        "type": "open",
        "melds": [["R6", "R7", "R8"], ["F", "R11", "R12"]],
        "assign": [["F", "R10"]],
    }
    add = records.action_to_events({"type": "add", "seat": 1, "tile": 0, "meld": 3, "as": 5})
    assert add == {"seat": 1, "type": "add", "tile": "R1", "meld": 3, "as": "R6"}
    assert records.action_to_events({"type": "draw", "seat": 0}) == {"seat": 0, "type": "draw"}


def test_changed_tile_that_is_still_legal_is_caught_by_the_replay(client, played):
    """Swap a discard for another tile the seat holds: every move may stay legal, but the
    hand no longer ends as the file says (or a later move is refused)."""
    doc = _export(client, played.current_hand)
    h = doc["hands"][0]
    state = new_hand("classic", doc["options"], h["seed"], h["starter"])
    from games.engine import apply
    from games.engine.tiles import notation
    from games.review.records import event_to_action

    for i, ev in enumerate(h["actions"]):
        if ev["type"] == "discard" and i > 4:
            others = sorted({notation(t) for t in state.racks[ev["seat"]]} - {ev["tile"]})
            bad = copy.deepcopy(doc)
            bad["hands"][0]["actions"][i]["tile"] = others[0]
            break
        state, _ = apply(state, event_to_action(ev, state))
    response = _upload(client, bad)
    assert response.status_code == 400
    assert (
        b'data-code="signature_mismatch"' in response.content or b"was refused" in response.content
    )
    assert not ImportedRecord.objects.exists()
    # without the signature such a file is accepted (every move is legal) but shown unsigned
    del bad["signature"]
    response = _upload(client, bad)
    if response.status_code == 302:
        page = client.get(response["Location"]).content.decode()
        assert "Not signed by this site" in page
        rec = ImportedRecord.objects.get()
        assert "signature" not in client.get(f"/review/imported/{rec.pk}/export/").json()


def test_signed_exports_import_as_unchanged(client, played):
    doc = _export(client, played.current_hand)
    assert doc["signature"] == records.sign(doc)["signature"]
    response = _upload(client, doc)
    page = client.get(response["Location"]).content.decode()
    assert "Exported from this site and unchanged" in page
    renamed = copy.deepcopy(doc)
    renamed["players"][1]["name"] = "Somebody else"
    _refused(client, renamed, "signature_mismatch")


@pytest.mark.parametrize("variant", list(RULES))
def test_round_trip_of_simulated_hands_in_every_variant(variant):
    """Opens, lays, adds, swaps, okey assignments and flips all survive the notation."""
    from games.engine.simulate import play_hand

    for seed in range(6):
        state = play_hand(variant, None, f"exchange-{seed}")
        players = [{"seat": s, "name": f"P{s}", "cpu": None} for s in range(state.n_players)]
        doc = records.sign(
            records.document(
                variant, state.options, players, [records.hand_export(state.record(), 1)]
            )
        )
        loaded = records.load_document(json.dumps(doc))
        assert loaded["signed"] and loaded["document"] == doc
        (hand,) = loaded["hands"]
        assert hand.summary == records.result_summary(state)
        assert len(hand.actions) == len(state.actions)
