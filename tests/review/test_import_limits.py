"""Review imports within limits: every list and text of ``okey-review/1`` is bounded by what a
real game can hold, malformed files get a clear reason and change nothing, and viewing an
import reads the replay stored at import instead of replaying the file."""

from __future__ import annotations

import contextlib
import copy
import json
import random

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile

from games.common import heavy
from games.engine import Refusal, new_hand
from games.engine.options import validate_options
from games.engine.rules import RULES
from games.review import records, replay
from games.review.models import ImportedHand, ImportedRecord
from tests.review.conftest import cpu_table, play_out_hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def ayse(client):
    user = User.objects.create_user("ayse", password="pw-long-enough-1")
    client.force_login(user)
    return user


@pytest.fixture
def doc(client, ayse) -> dict:
    table = play_out_hand(cpu_table("classic", user=ayse))
    response = client.get(f"/review/hand/{table.current_hand.pk}/export/")
    data = json.loads(response.content)
    data.pop("signature")  # edits below would not match it
    return data


def _upload(client, payload):
    raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    return client.post(
        "/review/import/", {"file": SimpleUploadedFile("f.json", raw, "application/json")}
    )


def _refused(client, payload, code: str) -> str:
    before = (ImportedRecord.objects.count(), ImportedHand.objects.count())
    response = _upload(client, payload)
    assert response.status_code == 400, response.content[:300]
    body = response.content.decode()
    assert f'data-code="{code}"' in body, body[body.find("import-error") - 100 :][:600]
    assert (ImportedRecord.objects.count(), ImportedHand.objects.count()) == before
    return body


def test_deeply_nested_json_is_refused_not_a_server_error(client, ayse):
    body = _refused(client, b"[" * 200_000 + b"]" * 200_000, "too_deep")
    assert "too deeply" in body and str(records.MAX_DEPTH) in body
    # deep inside an otherwise well-formed file: one level more than the format has
    nested = {
        "format": "okey-review/1",
        "variant": "classic",
        "hands": [{"actions": [[[[["x"]]]]]}],
    }
    _refused(client, nested, "too_deep")


def test_brackets_inside_texts_do_not_count_as_nesting(client, doc):
    doc["players"][0]["name"] = "[[[[[[[[{{{{{{{{"
    assert _upload(client, doc).status_code == 302


def test_malformed_files_get_a_reason(client, ayse):
    _refused(client, b"\xff\xfe\x00garbage", "bad_json")
    body = _refused(client, b'{"format": "okey-review/1", "hands": [NaN]}', "bad_json")
    assert "not valid JSON" in body
    _refused(client, b'{"format": "okey-review/1",', "bad_json")


@pytest.mark.parametrize("variant", list(RULES))
def test_every_rule_set_bounds_its_games(variant):
    """Each registered rule set says how many hands a game of its default options can
    have, so that its games can be imported."""
    options = validate_options(variant, {})
    assert records.max_hands(variant, options) >= 1


def test_a_rack_holds_what_the_rule_set_deals():
    """An arrangement is the whole rack: at most one more tile than the rule set deals."""
    for variant, rules in RULES.items():
        state = new_hand(variant, None, "limits", 0)
        most = rules.rack_size + 1
        records.event_to_action({"seat": 0, "type": "arrange", "tiles": ["R1"] * most}, state)
        tiles = ["R1"] * (most + 1)
        with pytest.raises(Refusal, match=f"at most {most} tiles"):
            records.event_to_action({"seat": 0, "type": "arrange", "tiles": tiles}, state)


def test_a_game_has_at_most_the_hands_its_rules_allow(client, doc):
    # seventeen is seven rounds (RULES.md §5)
    assert records.max_hands("seventeen", {"players": 4, "rounds": 7}) == 7
    assert records.max_hands("fifty-one", {"players": 4, "hands": 3}) == 3
    # classic from 10 points: at most 7 decisive hands [D5], each with 4 drawn ones allowed
    assert records.max_hands("classic", {"players": 4, "start_points": 10}) == 35
    many = copy.deepcopy(doc)
    assert many["options"]["start_points"] == 20
    most = records.max_hands("classic", many["options"])
    many["hands"] = [doc["hands"][0]] * (most + 1)
    body = _refused(client, many, "too_large")
    assert f"at most {most}" in body


def test_a_hand_has_at_most_the_moves_the_tiles_allow(client, doc):
    most = records.max_moves(4, 14)
    assert most == 4 * 2 * (48 + 1) + 2 * 106 + 4
    # the pile left after the deal bounds the draws: 101 deals 21 tiles (RULES.md §6)
    assert records.max_moves(4, 21) == 4 * 2 * (20 + 1) + 2 * 106 + 4
    long = copy.deepcopy(doc)
    long["hands"][0]["actions"] = [{"seat": 0, "type": "draw"}] * (most + 1)
    body = _refused(client, long, "too_large")
    assert f"at most {most}" in body


def test_free_actions_are_limited_as_at_a_table(client, doc):
    from games.engine.actions import FREE_ACTION_LIMIT

    first = doc["hands"][0]["actions"][0]
    flips = [{"seat": 1, "type": "arrange", "tiles": []}] * (FREE_ACTION_LIMIT + 1)
    bad = copy.deepcopy(doc)
    bad["hands"][0]["actions"] = [first, *flips, *doc["hands"][0]["actions"][1:]]
    body = _refused(client, bad, "too_large")
    assert f"more than {FREE_ACTION_LIMIT} flips or arrangements" in body


def test_a_player_list_longer_than_the_seats_is_refused_before_any_replay(client, doc, monkeypatch):
    def no_replay(*args, **kwargs):
        raise AssertionError("replayed a file whose player list is over the limit")

    monkeypatch.setattr(records, "apply", no_replay)
    big = copy.deepcopy(doc)
    big["players"] = [{"seat": 0, "name": "x", "cpu": None}] * 5_000
    _refused(client, big, "bad_record")


def test_values_of_the_wrong_type_are_refused_by_the_format(client, doc):
    """The file's model is strict: a starter given as text or a context that is not an object
    is damaged, whatever Python would make of it."""
    for key, value in (("starter", "0"), ("starter", False), ("context", []), ("seed", 1.5)):
        bad = copy.deepcopy(doc)
        bad["hands"][0][key] = value
        body = _refused(client, bad, "bad_record")
        assert "Hand 1: the seed, the starter or the context is damaged." in body


def test_texts_longer_than_the_format_allows_are_refused(client, doc):
    long_name = copy.deepcopy(doc)
    long_name["players"][1]["name"] = "B" * (records.MAX_NAME + 1)
    body = _refused(client, long_name, "too_large")
    assert str(records.MAX_NAME) in body
    long_seed = copy.deepcopy(doc)
    long_seed["hands"][0]["seed"] = "s" * (records.MAX_STRING + 1)
    _refused(client, long_seed, "string_too_long")
    long_key = copy.deepcopy(doc)
    long_key["k" * (records.MAX_STRING + 1)] = 1
    _refused(client, long_key, "string_too_long")


def test_an_action_with_more_tiles_than_a_rack_is_refused(client, doc):
    bad = copy.deepcopy(doc)
    bad["hands"][0]["actions"].insert(0, {"seat": 0, "type": "arrange", "tiles": ["R1"] * 16})
    body = _refused(client, bad, "bad_action")
    assert "move 1" in body


def test_too_many_values_are_refused(client, ayse, monkeypatch):
    monkeypatch.setattr(records, "MAX_VALUES", 1000)
    _refused(client, {"format": "okey-review/1", "pad": [0] * 1000}, "too_many_values")


def test_viewing_an_import_reads_the_stored_replay(client, doc, monkeypatch):
    response = _upload(client, doc)
    assert response.status_code == 302
    rec = ImportedRecord.objects.get()
    (hand,) = rec.hands.all()
    assert hand.replay_data == replay.compute_replay(hand.engine_record)

    def no_replay(*args, **kwargs):
        raise AssertionError("the view replayed the file")

    monkeypatch.setattr(records, "load_document", no_replay)
    monkeypatch.setattr(replay, "apply", no_replay)
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert b'id="replay-data"' in page.content
    steps = len(doc["hands"][0]["actions"])
    assert page.content.decode().count('data-step="') >= steps
    assert client.get(f"/review/imported/{rec.pk}/hand/1/commentary/").status_code == 200


def test_an_import_stored_before_replays_were_kept_is_replayed_once(client, doc):
    assert _upload(client, doc).status_code == 302
    rec = ImportedRecord.objects.get()
    rec.hands.all().delete()
    assert client.get(f"/review/imported/{rec.pk}/hand/1/").status_code == 200
    assert rec.hands.count() == 1


def test_an_import_waits_for_another_heavy_request_then_says_busy(client, doc, monkeypatch):
    monkeypatch.setattr(heavy, "WAIT_S", 0)
    assert heavy.GATE.acquire(timeout=1)
    try:
        response = _upload(client, doc)
    finally:
        heavy.GATE.release()
    assert response.status_code == 503
    assert "busy" in response.content.decode()
    assert not ImportedRecord.objects.exists()
    assert _upload(client, doc).status_code == 302  # free again


@pytest.mark.parametrize(
    "raw",
    [
        b'"' + b'\\"' * 500_000,  # one unterminated string of escaped quotes
        b'"\\' * 500_000,  # quotes and lone backslashes
        b'"' * 1_000_000,
    ],
    ids=["escaped-quotes", "quote-backslash", "quotes"],
)
def test_quotes_and_backslashes_are_scanned_once(client, ayse, raw):
    """The depth scan never rescans text (a quadratic scan of these 1 MB files would take
    hours): each is refused as not JSON."""
    assert len(raw) <= records.MAX_BYTES
    _refused(client, raw, "bad_json")


def test_the_depth_scan_skips_brackets_inside_strings():
    from games.common.jsonsafe import nesting_depth

    assert nesting_depth('["]"]', 7) == 1
    assert nesting_depth('["\\"[", [[]]]', 7) == 3
    assert nesting_depth('{"a": [1, {"b": "}}}"}]}', 9) == 3
    assert nesting_depth("[" * 100, 7) == 8  # stops at the first level over the limit


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value[:3]):
            yield from _paths(item, (*path, i))


def test_any_damaged_file_is_refused_with_a_reason_or_imported(doc):
    """Seeded random damage (values swapped for others of any type, keys removed): the
    import answers ImportRefused or loads, never anything else."""
    rng = random.Random(20261201)
    values = [None, True, 0, -1, 3, 2**40, 1.5, "", "R7", "x", [], {}, [1], {"a": 1}, [[]]]
    for _ in range(300):
        damaged = copy.deepcopy(doc)
        for _change in range(rng.randint(1, 3)):
            path = rng.choice(list(_paths(damaged))[1:])
            parent = damaged
            for key in path[:-1]:
                parent = parent[key]
            if rng.random() < 0.8:
                parent[path[-1]] = copy.deepcopy(rng.choice(values))
            else:
                del parent[path[-1]]
        with contextlib.suppress(records.ImportRefused):
            records.load_document(json.dumps(damaged))
