"""Hard CPU: reads what the next player took, and decides early
between pairs and melds.

rules.md §1: a winning rack splits into runs and groups or into seven pairs, never
a mix, and an okey may fill a pair [D3]; classic scores a seven-pairs close double
(§2, [D5]); fifty-one opens with five pairs and no barrier (§4). Taking a discard is
public (§1 "Information": the discards are seen by everyone).

Racks are built with ``make_state``; each test checks behaviour that a bot
without the heuristic does not show (the medium level, or the same situation
without the public fact, is the control).
"""

from __future__ import annotations

from games.engine import legal_actions, view_for
from games.engine.bots import choose_action
from games.engine.bots.core import Context, collected, plan_route
from games.engine.testing import make_state
from games.engine.tiles import kind_of, notation

# seat 0 to discard: four melds and three loose tiles (R8, R10, B12); every
# discard of a loose tile leaves two loose tiles, and R8 R10 may still become a
# run, so B12 is the natural discard.
RACK = "R1 R2 R3 B5 B6 B7 K9 K10 K11 Y4 Y5 Y6 R8 R10 B12"
NEXT = "R12 Y12 K7 K7 B3 B3 Y9 Y9 R5 R5 K5 Y1 Y13 B1"


def _state(variant: str = "classic", took: list[str] | None = None, rack: str = RACK):
    return make_state(variant, [rack, NEXT, None, None], indicator="K1", took=took)


def _discard(state, level: str = "hard") -> str:
    action = choose_action(state, 0, level)
    assert action["type"] == "discard"
    return notation(action["tile"])


def _ctx(state, seat: int = 0) -> Context:
    return Context(view_for(state, seat), legal_actions(state, seat))


def test_control_without_a_public_take_the_loose_twelve_goes():
    assert _discard(_state()) == "B12"
    assert _discard(_state(took=["", "", "", ""])) == "B12"


def test_hard_does_not_feed_the_group_the_next_player_collects():
    """The next player took R12 and Y12 (public: both were face up): B12 would
    complete their group of 12s, so hard throws another loose tile."""
    state = _state(took=["", "R12 Y12", "", ""])
    assert _discard(state) in ("R8", "R10")
    assert _discard(state, "medium") == "B12"  # medium does not read the log


def test_hard_does_not_feed_a_run_the_next_player_collects():
    """The next player took B10 and B11: B12 extends that run."""
    state = make_state(
        "classic",
        [RACK, "B10 B11 K7 K7 B3 B3 Y9 Y9 R5 R5 K5 Y1 Y13 B1", None, None],
        indicator="K1",
        took=["", "B10 B11", "", ""],
    )
    assert _discard(state) != "B12"


def test_what_another_seat_took_does_not_matter():
    """Only the next player can take this discard."""
    state = make_state(
        "classic",
        [RACK, NEXT, "R12 Y12", None],
        indicator="K1",
        took=["", "", "R12 Y12", ""],
    )
    assert _discard(state) == "B12"


def test_a_taken_kind_thrown_away_since_no_longer_counts():
    state = make_state(
        "classic",
        [RACK, NEXT.replace("Y12", "K8"), None, None],
        indicator="K1",
        discards=["", "Y12", "", ""],
        took=["", "R12", "", ""],
    )
    ctx = _ctx(state)
    wants = collected(ctx, 1)
    assert wants.get(kind_of(next(t for t in state.racks[0] if notation(t) == "B12")), 0) == 1.0
    assert set(wants) and all(w <= 1.0 for w in wants.values())


def test_feeding_is_accepted_when_it_closes():
    """Finishing comes first: the close puts B12 down even though it feeds."""
    rack = "R1 R2 R3 B5 B6 B7 K9 K10 K11 Y4 Y5 Y6 Y7 Y8 B12"
    state = _state(took=["", "R12 Y12", "", ""], rack=rack)
    action = choose_action(state, 0, "hard")
    assert action["type"] == "close" and notation(action["tile"]) == "B12"


def test_collected_reads_groups_runs_and_pairs():
    state = _state(took=["", "R12 Y12", "", ""])
    wants = collected(_ctx(state), 1)
    k = {w: kind_of(t) for t in state.racks[0] for w in [notation(t)]}
    assert wants[k["B12"]] == 2.0  # completes the group of two taken 12s
    assert wants[k["R10"]] == 0.5  # two away from R12 in a red run
    assert k["R8"] not in wants
    # ace high: 12-13-1 is a run, so R1 is near the taken R12 (classic)
    assert wants[k["R1"]] == 0.5


# ------------------------------------------------------------ pairs or melds

# the same 15 tiles (4 pairs, a blue run in the making) after two histories:
# the last tile is the one drawn this turn, the first 14 what the seat kept.
DREW_B4 = "B7 B7 B5 B5 R8 R8 B1 B1 K3 Y12 Y6 Y3 R3 B6 B4"  # kept: pairs were ahead
DREW_B7 = "B7 B5 B5 R8 R8 B1 B1 K3 Y12 B4 Y6 Y3 R3 B6 B7"  # kept: melds were ahead


def _classic(rack: str, **kw):
    return make_state(
        "classic", [rack, None, None, None], indicator="K12", discards=["K5", "", "", ""], **kw
    )


def test_route_is_kept_unless_the_other_becomes_clearly_better():
    """Pairs only slightly behind the melds now: a seat that was collecting pairs
    keeps collecting them (throws a single), one that was building melds keeps
    building them (breaks a pair)."""
    on_pairs, on_melds = _classic(DREW_B4), _classic(DREW_B7)
    assert sorted(on_pairs.racks[0]) == sorted(on_melds.racks[0])
    assert plan_route(_ctx(on_pairs)) == "pairs"
    assert plan_route(_ctx(on_melds)) == "melds"
    kept_pairs = _discard(on_pairs)
    assert DREW_B4.split().count(kept_pairs) == 1  # a single: every pair kept
    broke = _discard(on_melds)
    assert DREW_B7.split().count(broke) == 2  # a pair broken for the run


def test_rack_rich_in_pairs_takes_the_tile_that_pairs_a_single():
    """Five pairs: the pairs route; the previous discard B3 makes a sixth pair."""
    state = make_state(
        "classic",
        ["R2 R2 B10 B10 B1 B1 Y11 Y11 Y12 Y12 R1 B3 K3 R12", None, None, None],
        indicator="K12",
        takeable="B3",
        phase="draw",
    )
    assert plan_route(_ctx(state)) == "pairs"
    assert choose_action(state, 0, "hard")["type"] == "take"


def test_rack_only_slightly_better_for_pairs_stays_on_melds():
    """Four pairs: not clearly better than melds, so a tile that only makes
    another pair is not worth revealing with a take (a pure min-leftover reading
    would take it)."""
    state = make_state(
        "classic",
        ["R2 B10 B1 Y11 R2 B10 B1 Y11 Y12 B12 R1 B3 R3 R12", None, None, None],
        indicator="K12",
        takeable="R3",
        phase="draw",
    )
    assert plan_route(_ctx(state)) == "melds"
    assert choose_action(state, 0, "hard")["type"] == "draw"


def test_rack_rich_in_melds_plays_melds():
    state = _classic("R1 R2 R3 R4 B5 B6 B7 K9 K10 K11 Y4 Y5 Y6 R8 R8")
    assert plan_route(_ctx(state)) == "melds"


def test_fifty_one_plans_a_pairs_opening_when_the_barrier_is_far():
    """Four pairs and no runs or groups worth opening: hard goes for the pairs
    opening (five pairs, no barrier) and throws a single, the one whose twin is
    already gone first (it can no longer pair)."""
    rack = "R2 R2 B3 B3 K4 K4 Y6 Y6 R9 B11 K13 Y1 R5 B8 Y9"
    state = make_state(
        "fifty-one",
        [rack, None, None, None],
        indicator="K10",
        discards=["", "", "", "B11"],
        takeable=None,
        phase="play",
    )
    ctx = _ctx(state)
    assert plan_route(ctx) == "pairs"
    assert _discard(state) == "B11"
    # with a strong runs-and-groups hand the usual opening plan stays
    melds = "R9 R10 R11 R12 B11 Y11 K11 R2 R2 B3 B3 K4 K4 Y6 Y6"
    strong = make_state("fifty-one", [melds, None, None, None], indicator="K10", phase="play")
    assert plan_route(_ctx(strong)) is None
