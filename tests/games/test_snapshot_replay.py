"""A hand's state rebuilt from its last snapshot plus the actions stored after it
(``realtime.load_state``, ``engine.state.replay_from``) is the state a full replay of
its seed and every action gives, in every rule set: what a process without the
snapshot cache (another server, a restart) plays on from."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import apply, new_hand, replay
from games.engine.refusals import Refusal
from games.engine.rules import RULES
from games.engine.simulate import choose
from games.engine.state import HandState, replay_from
from games.live import actions as table_actions
from games.live import realtime
from games.models import SNAPSHOT_EVERY, Table

VARIANTS = list(RULES)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 10**6), data=st.data())
def test_replay_from_any_saved_state_equals_the_replay_from_the_seed(variant, seed, data):
    rng = random.Random(seed)
    state = new_hand(variant, None, seed, seed % min(RULES[variant].players))
    states = [state]
    while not state.over and len(states) < 400:
        state, _ = apply(state, choose(state, rng))
        states.append(state)
    cut = data.draw(st.integers(0, len(states) - 1), label="snapshot after")
    # the snapshot as the database keeps it: JSON, read back
    saved = HandState.from_json(json.loads(json.dumps(states[cut].to_json())))
    later = [dict(a) for a in state.actions[cut:]]
    rebuilt = replay_from(saved, later)
    assert rebuilt == replay(state.record()) == state
    assert rebuilt.to_json() == state.to_json()


def test_replay_from_names_the_refused_actions_index_in_the_whole_hand():
    rng = random.Random(3)
    state = new_hand("classic", None, 3, 0)
    for _ in range(5):
        state, _ = apply(state, choose(state, rng))
    wrong_seat = (state.turn + 1) % state.n_players
    with pytest.raises(Refusal) as refused:
        replay_from(state, [{"type": "draw", "seat": wrong_seat}])
    assert refused.value.detail["index"] == 5


def _guest_table(variant: str, players: int) -> Table:
    table = table_actions.do_create_table(
        variant=variant,
        options={"players": players} if len(RULES[variant].players) > 1 else {},
        seats=[table_actions.SeatSpec("me")] + [table_actions.SeatSpec("human")] * (players - 1),
        guest_key="g0",
    )
    for i in range(1, players):
        table_actions.do_join_table(table.pk, guest_key=f"g{i}")
    return Table.objects.get(pk=table.pk)


@pytest.mark.django_db
@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    variant=st.sampled_from(VARIANTS),
    seed=st.integers(0, 10**6),
    steps=st.integers(1, 3 * SNAPSHOT_EVERY),
)
@pytest.mark.slow
def test_a_stored_hand_read_without_the_cache_is_its_full_replay(variant, seed, steps):
    rng = random.Random(seed)
    table = _guest_table(variant, rng.choice(sorted(RULES[variant].players)))
    for _ in range(steps):
        realtime._SNAPSHOTS.clear()  # every action starts from the stored snapshot
        hand, state, _game = realtime.snapshot(table)
        if hand.result is not None:
            break
        action = choose(state, rng)
        table = table_actions.do_submit_action(
            table.pk, state.turn, action, table.version, by_cpu=True
        )
        realtime._SNAPSHOTS.clear()
        hand = Table.objects.get(pk=table.pk).current_hand
        full = table_actions.rebuild_hand(hand)
        assert realtime.load_state(hand) == full
        assert len(full.actions) == len(state.actions) + 1
        # the snapshot was written at the deal, every SNAPSHOT_EVERY actions, at the end
        n = len(full.actions)
        every = n if hand.result is not None else n // SNAPSHOT_EVERY * SNAPSHOT_EVERY
        assert len(hand.snapshot["actions"]) == every
