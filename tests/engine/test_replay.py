"""Replay and JSON (de)serialisation: replay(actions) == live state; damaged JSON refused."""

from __future__ import annotations

import contextlib
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    HandState,
    Refusal,
    action_from_json,
    apply,
    new_hand,
    replay,
    state_from_json,
)
from games.engine.rules import RULES
from games.engine.simulate import choose, play_hand

VARIANTS = list(RULES)  # every registered rule set


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 10**6), cut=st.integers(0, 400))
def test_replay_of_the_actions_equals_the_live_state(variant, seed, cut):
    rng = random.Random(seed)
    s = new_hand(variant, None, seed, seed % 4)
    for _ in range(cut):
        if s.over:
            break
        s, _ = apply(s, choose(s, rng))
    record = json.loads(json.dumps(s.record()))
    again = replay(record)
    assert again == s
    assert again.to_json() == s.to_json()
    # and through the state JSON
    loaded = HandState.from_json(json.dumps(s.to_json()))
    assert loaded == s
    assert state_from_json(s.to_json(), verify=True) == s


@pytest.mark.parametrize("variant", VARIANTS)
def test_finished_hand_round_trips(variant):
    s = play_hand(variant, None, "rt")
    assert s.over
    assert replay(s.record()) == s
    assert HandState.from_json(s.to_json()) == s


def _saved():
    return play_hand("fifty-one", None, "tamper", max_actions=60).to_json()


def _code(data, **kw) -> str:
    with pytest.raises(Refusal) as exc:
        state_from_json(data, **kw)
    assert isinstance(exc.value, ValueError)
    return exc.value.code


def test_truncated_json_is_refused():
    text = json.dumps(_saved())
    assert _code(text[: len(text) // 2]) == "bad_json"
    assert _code("") == "bad_json"


def test_wrong_format_version_is_refused():
    d = _saved()
    d["format"] = 2
    assert _code(d) == "bad_format"
    assert _code([1, 2]) == "bad_state"


@pytest.mark.parametrize(
    "tamper",
    [
        lambda d: d.pop("racks"),
        lambda d: d.__setitem__("racks", "R1"),
        lambda d: d["racks"][0].append(d["racks"][1][0]),  # a duplicated tile
        lambda d: d["racks"][0].pop(),  # a missing tile
        lambda d: d["racks"][0].__setitem__(0, 999),
        lambda d: d.__setitem__("turn", 7),
        lambda d: d.__setitem__("phase", "dance"),
        lambda d: d.__setitem__("variant", "poker"),
        lambda d: d["options"].__setitem__("players", 3),
        lambda d: d.__setitem__("scores", [{"seat": 9, "points": 1, "reason": "x"}]),
        lambda d: d.__setitem__("opened", ["yes", None, None, None]),
        lambda d: d.__setitem__("undone", "no"),
        lambda d: d.__setitem__("seed", 1.5),
        # a damaged action (the views read every action's type and seat)
        lambda d: d["actions"][-1].__setitem__("type", []),
        lambda d: d["actions"][-1].__setitem__("seat", "3"),
        lambda d: d["actions"].append({"type": "dance", "seat": 0}),
    ],
)
def test_tampered_state_is_refused(tamper):
    d = _saved()
    tamper(d)
    assert _code(d) in ("bad_state", "bad_variant")


def test_tampered_meld_is_refused():
    s = play_hand("fifty-one", None, "m1")
    d = s.to_json()
    assert d["melds"], "this seed lays melds"
    d["melds"][0]["kind"] = "pair"
    assert _code(d) == "bad_state"


def test_verify_catches_a_swap_between_racks():
    d = _saved()
    a, b = d["racks"][0][0], d["racks"][1][0]
    d["racks"][0][0], d["racks"][1][0] = b, a
    state_from_json(d)  # structurally fine
    assert _code(d, verify=True) == "bad_state"


def test_replay_with_an_illegal_action_names_its_index():
    s = play_hand("rummy", None, "idx", max_actions=5)
    rec = s.record()
    rec["actions"].append({"type": "discard", "seat": (s.turn + 1) % 4, "tile": 0})
    with pytest.raises(Refusal) as exc:
        replay(rec)
    assert exc.value.code == "not_your_turn" and exc.value.detail["index"] == 5


@pytest.mark.parametrize(
    "rec",
    [
        "{",
        {"format": 1},
        {"format": 1, "variant": "classic", "seed": 1, "starter": 0, "actions": "x"},
        {"format": 1, "variant": "classic", "seed": 1.5, "starter": 0, "actions": []},
        {"format": 1, "variant": "classic", "seed": 1, "starter": 9, "actions": []},
        {"format": 1, "variant": "nope", "seed": 1, "starter": 0, "actions": []},
        {"format": 0, "variant": "classic", "seed": 1, "starter": 0, "actions": []},
    ],
)
def test_bad_records_are_refused(rec):
    with pytest.raises(Refusal):
        replay(rec)


def test_action_json_round_trip_and_errors():
    a = action_from_json('{"type": "discard", "seat": 1, "tile": 5}')
    assert a == {"type": "discard", "seat": 1, "tile": 5}
    for bad in ('{"type": "discard"', '{"type": "discard", "seat": 1}', "[]", '"x"'):
        with pytest.raises(Refusal) as exc:
            action_from_json(bad)
        assert exc.value.code in ("bad_json", "bad_action")


_SAVED: dict[bool, str] = {}


def _saved_once(over: bool = False):
    if over not in _SAVED:
        s = play_hand("seventeen", None, "mutate", max_actions=2000 if over else 80)
        _SAVED[over] = json.dumps(s.to_json())
    return json.loads(_SAVED[over])


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*prefix, i))


_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 200),
    st.text(max_size=4),
    st.lists(st.integers(-1, 110), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_any_mutation_of_a_saved_state_loads_or_is_refused(data):
    d = _saved_once(data.draw(st.booleans()))
    paths = list(_paths(d))[1:]
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths))
        parent = d
        try:
            for key in path[:-1]:
                parent = parent[key]
            if data.draw(st.booleans()) and isinstance(parent, dict):
                parent.pop(path[-1], None)
            else:
                parent[path[-1]] = data.draw(_VALUES)
        except (KeyError, IndexError, TypeError):
            continue
    try:
        state = state_from_json(d)
    except Refusal as exc:
        assert exc.code in ("bad_state", "bad_format", "bad_json", "bad_variant")
    else:
        assert sorted(state.all_tiles()) == list(range(106))
        from games.engine import legal_actions, timeout_action, view_for

        for seat in (None, 0, 1, 2, 3):
            json.dumps(view_for(state, seat))
        for a in legal_actions(state, state.turn)[:20] + [timeout_action(state)]:
            if a is None:
                continue
            with contextlib.suppress(Refusal):
                apply(state, a)


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_any_mutation_of_a_record_replays_or_is_refused(data):
    rec = json.loads(
        json.dumps(play_hand("fifty-one", None, "rec-mutate", max_actions=60).record())
    )
    paths = list(_paths(rec))[1:]
    for _ in range(data.draw(st.integers(1, 2))):
        path = data.draw(st.sampled_from(paths))
        parent = rec
        try:
            for key in path[:-1]:
                parent = parent[key]
            parent[path[-1]] = data.draw(_VALUES)
        except (KeyError, IndexError, TypeError):
            continue
    try:
        state = replay(rec)
    except Refusal as exc:
        assert exc.code
    else:
        assert sorted(state.all_tiles()) == list(range(106))
