"""Hypothesis properties: random legal play in every variant.

* the 106 tiles are always all accounted for, each exactly once;
* every action ``legal_actions`` offers is accepted, and play never crashes;
* the state machine's shape invariants hold after every action;
* a seat's view never shows another rack's tiles, the pile or the seed;
* garbage actions are refused with a ``Refusal``, never another exception.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Refusal, apply, legal_actions, new_hand, view_for
from games.engine.legal import _closing_tiles, is_penalty_tile, penalty_tiles
from games.engine.rules import RULES
from games.engine.simulate import choose
from games.engine.state import DRAW, OVER, PLAY, HandState
from games.engine.table import is_usable, placements, swap_index

VARIANTS = list(RULES)  # every registered rule set
# hand-level options only (the clock and the assisted table change no rule of a hand)
_NOT_OF_A_HAND = {"clock", "assisted"}


def _option_sets(variant: str) -> list[dict]:
    """The defaults, then each other allowed value of each option on its own."""
    out: list[dict] = [{}]
    for key, (allowed, default) in RULES[variant].options.items():
        if key not in _NOT_OF_A_HAND:
            out += [{key: v} for v in allowed if v != default]
    return out


OPTIONS = {v: _option_sets(v) for v in VARIANTS}
SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _view_ids(node, out):
    if isinstance(node, dict):
        if "id" in node and "t" in node:
            out.add(node["id"])
        for v in node.values():
            _view_ids(v, out)
    elif isinstance(node, list):
        for v in node:
            _view_ids(v, out)
    return out


def _check_invariants(s):
    assert sorted(s.all_tiles()) == list(range(106))
    assert s.phase in (DRAW, PLAY, OVER)
    n = s.n_players
    if s.phase == OVER:
        return
    sizes = [len(r) for r in s.racks]
    on_table = {m.laid_by for m in s.melds}
    dealt = s.rules.rack_size
    if s.rules.whole_rack:
        others = [sizes[x] for x in range(n) if x != s.turn]
        assert all(v == dealt for v in others)
        assert sizes[s.turn] == (dealt + 1 if s.phase == PLAY else dealt)
    else:
        for x in range(n):
            if x != s.turn and x not in on_table:
                assert sizes[x] == dealt
        assert all(v >= 1 for v in sizes)
    if s.taken is not None:
        assert s.phase == PLAY and s.snapshot is not None


def _play(variant, options, seed, max_steps=1500, check=None):
    rng = random.Random(seed)
    s = new_hand(variant, options, f"prop-{seed}", seed % options.get("players", 4))
    states = [s]
    for _ in range(max_steps):
        if s.over:
            break
        acts = legal_actions(s, s.turn)
        assert acts, "the player to move always has a legal action"
        a = choose(s, rng) if rng.random() < 0.7 else rng.choice(acts)
        s2, events = apply(s, a)
        assert isinstance(events, list)
        _check_invariants(s2)
        if check:
            check(s2)
        s = s2
        states.append(s)
    return states


@SETTINGS
@given(
    variant=st.sampled_from(VARIANTS),
    seed=st.integers(0, 10**6),
    pick=st.integers(0, 5),
)
def test_random_legal_play_never_crashes_and_keeps_106_tiles(variant, seed, pick):
    options = OPTIONS[variant][pick % len(OPTIONS[variant])]
    states = _play(variant, options, seed)
    assert states[-1].over, "random biased play finishes the hand"
    res = states[-1].result
    assert sum(res["totals"]) == sum(ln["points"] for ln in states[-1].scores)
    for ln in states[-1].scores:
        assert set(ln) == {"seat", "points", "reason", "detail"}


@SETTINGS
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 10**6))
def test_every_offered_action_is_accepted_and_input_never_mutated(variant, seed):
    rng = random.Random(seed)
    s = new_hand(variant, None, seed, 0)
    for _ in range(400):
        if s.over:
            break
        before = json.dumps(s.to_json(), sort_keys=True)
        rack = s.racks[s.turn]
        assert penalty_tiles(s, rack) == {t for t in rack if is_penalty_tile(s, t)}
        brute = {
            t
            for t in rack
            for m in s.melds
            if placements(t, m, s.okey_kind, s.rules.ace_high)
            or swap_index(t, m, s.okey_kind) is not None
        }
        assert {t for t in rack if is_usable(t, s.melds, s.okey_kind, s.rules.ace_high)} == brute
        acts = legal_actions(s, s.turn)
        for a in rng.sample(acts, min(4, len(acts))):
            apply(s, a)  # must not raise
        assert json.dumps(s.to_json(), sort_keys=True) == before
        s, _ = apply(s, choose(s, rng))


@SETTINGS
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 10**6))
def test_views_never_leak_other_racks_the_pile_or_the_seed(variant, seed):
    secret = f"SECRET-SEED-{seed}-xyzzy"

    def check(s):
        for seat in [None, *range(s.n_players)]:
            v = view_for(s, seat)
            text = json.dumps(v)
            if s.over:
                assert secret in text
                continue
            assert secret not in text
            seen = _view_ids(v, set())
            mine = set(s.racks[seat]) if seat is not None else set()
            for other in range(s.n_players):
                if other != seat:
                    assert not (set(s.racks[other]) & seen)
            assert not (set(s.pile) & seen)
            assert (v["rack"] is None) == (seat is None)
            if seat is not None:
                assert {t["id"] for t in v["rack"]} == mine
                # the view's structural "legal" covers every concrete legal action
                assert {a["type"] for a in legal_actions(s, seat)} <= set(v["legal"])

    rng = random.Random(seed)
    s = new_hand(variant, None, secret, 0)
    check(s)
    for _ in range(400):
        if s.over:
            break
        s, _ = apply(s, choose(s, rng))
        check(s)


_FIELDS = st.fixed_dictionaries(
    {},
    optional={
        "tile": st.one_of(st.integers(-5, 120), st.text(max_size=3), st.none(), st.booleans()),
        "meld": st.one_of(st.integers(-2, 10), st.text(max_size=2)),
        "melds": st.one_of(
            st.lists(st.lists(st.integers(-1, 110), max_size=5), max_size=4), st.integers()
        ),
        "assign": st.one_of(
            st.dictionaries(
                st.text(max_size=3), st.one_of(st.integers(-1, 60), st.text(max_size=3))
            ),
            st.lists(st.integers()),
        ),
        "as": st.one_of(st.integers(-1, 60), st.text(max_size=3)),
        "to": st.one_of(st.integers(-1, 5), st.booleans()),
        "tiles": st.one_of(st.lists(st.integers(-1, 110), max_size=16), st.text(max_size=4)),
        "junk": st.integers(),
    },
)


@settings(max_examples=300, deadline=None)
@given(
    variant=st.sampled_from(VARIANTS),
    kind=st.one_of(
        st.sampled_from(
            ["draw", "take", "discard", "close", "show", "open", "lay", "add", "swap", "undo",
             "flip", "arrange", "timeout"]
        ),
        st.text(max_size=6),
        st.integers(),
        st.none(),
    ),
    seat=st.one_of(st.integers(-1, 5), st.booleans(), st.text(max_size=2), st.none()),
    fields=_FIELDS,
    steps=st.integers(0, 12),
)  # fmt: skip
def test_garbage_actions_are_refused_cleanly(variant, kind, seat, fields, steps):
    s = new_hand(variant, None, "fuzz", 0)
    rng = random.Random(steps)
    for _ in range(steps):
        s, _ = apply(s, choose(s, rng))
    before = s.to_json()
    action = {"type": kind, "seat": seat, **fields}
    try:
        s2, _ = apply(s, action)
    except Refusal as exc:
        assert exc.code and exc.message
    else:
        _check_invariants(s2)
    assert s.to_json() == before


# ------------------------------------------------ closing pre-checks are sound


@st.composite
def winning_racks(draw, ace_high=True):
    """A 14-tile runs-and-groups rack (okeys substituted at random) and its okey kind."""
    from games.engine.tiles import ids_of_kind, make_kind

    okey_kind = draw(st.integers(0, 51))
    used: dict[int, int] = {}
    tiles: list[int] = []
    sizes = draw(
        st.sampled_from([(3, 3, 4, 4), (3, 3, 3, 5), (3, 4, 7), (4, 5, 5), (3, 3, 3, 3, 2)])
    )
    if sizes[-1] == 2:
        sizes = (3, 3, 4, 4)
    for size in sizes:
        for _ in range(50):
            if size <= 4 and draw(st.booleans()):
                n = draw(st.integers(1, 13))
                cols = draw(st.permutations(range(4)))[:size]
                kinds = [make_kind(c, n) for c in cols]
            else:
                top = 14 if ace_high else 13
                start = draw(st.integers(1, top - size + 1))
                c = draw(st.integers(0, 3))
                kinds = [make_kind(c, 1 if p == 14 else p) for p in range(start, start + size)]
            if all(used.get(k, 0) < 2 for k in kinds) and all(
                kinds.count(k) + used.get(k, 0) <= 2 for k in kinds
            ):
                break
        else:
            return None
        for k in kinds:
            tiles.append(ids_of_kind(k)[used.get(k, 0)])
            used[k] = used.get(k, 0) + 1
    # substitute free okeys for random tiles (they stay wild)
    for o in ids_of_kind(okey_kind):
        if o not in tiles and draw(st.booleans()):
            tiles[draw(st.integers(0, len(tiles) - 1))] = o
    return tiles, okey_kind


@settings(max_examples=300, deadline=None)
@given(data=winning_racks(), extra=st.integers(0, 105))
def test_close_enumeration_never_misses_a_winning_choice(data, extra):
    """Whatever tile is added to a winning rack, putting it back down is listed as a close."""
    from games.engine.evaluate import is_winning

    if data is None:
        return
    tiles, okey_kind = data
    if extra in tiles or is_winning(tiles, okey_kind) is None:
        return
    s = new_hand("classic", None, "closing", 0)
    s = HandState.clone(s)
    s.okey_kind = okey_kind
    s.racks = (tuple(tiles) + (extra,), *s.racks[1:])
    assert extra in _closing_tiles(s, 0)


@settings(max_examples=200, deadline=None)
@given(
    kinds=st.lists(st.integers(0, 51), min_size=7, max_size=7, unique=True),
    okey_kind=st.integers(0, 51),
    subs=st.lists(st.integers(0, 13), max_size=2),
    extra=st.integers(0, 105),
)
def test_seven_pairs_close_is_always_found(kinds, okey_kind, subs, extra):
    """Seven pairs (okeys standing in) plus any tile: putting that tile down is a close."""
    from games.engine.scoring import close_ending
    from games.engine.tiles import ids_of_kind

    tiles = [t for k in kinds for t in ids_of_kind(k)]
    free_okeys = [o for o in ids_of_kind(okey_kind) if o not in tiles]
    for i, j in zip(subs, free_okeys, strict=False):
        tiles[i] = j
    if extra in tiles or len(set(tiles)) != 14:
        return
    s = HandState.clone(new_hand("rummy", None, "pairs", 0))
    s.okey_kind = okey_kind
    s.racks = (tuple(tiles) + (extra,), *s.racks[1:])
    assert extra in _closing_tiles(s, 0)
    s2, _ = apply(s, {"type": "close", "seat": 0, "tile": extra})
    okey = extra in ids_of_kind(okey_kind)
    assert s2.result["ending"] == close_ending(True, okey)
