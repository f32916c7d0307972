"""The lessons' scripts: their deals, their CPUs and each step's check (pure engine)."""

from __future__ import annotations

import pytest

from games.engine.actions import apply
from games.engine.racksort import rack_sort
from games.engine.tiles import FALSE_IDS, kind_of, notation
from games.learn import script as lesson

SCRIPT = lesson.CLASSIC


def tile(state, seat: int, text: str) -> int:
    return next(t for t in state.racks[seat] if notation(t) == text)


def play_cpus(state, sc=SCRIPT):
    """Let the scripted CPUs move until it is the learner's turn (or the hand is over)."""
    while not state.over and state.turn != sc.seat:
        move = lesson.cpu_move(sc, state, state.turn)
        state, _ = apply(state, {**move, "seat": state.turn})
    return state


def move(state, sc=SCRIPT, **action):
    state, _ = apply(state, {**action, "seat": sc.seat})
    return state


def step(state, arranged: bool = False, sc=SCRIPT) -> str:
    return lesson.step_of(
        sc,
        discarded=len(state.discards[sc.seat]),
        turn=state.turn,
        phase=state.phase,
        over=state.over,
        arranged=arranged,
    )


def code(state, arranged: bool = False, sc=SCRIPT, **action):
    found = lesson.refusal(sc, state, sc.seat, {**action}, arranged)
    return found[0] if found else None


# the whole-rack lessons (Okey Rummy closes as classic does, RULES.md §3), each with a
# tile of one of the learner's runs after the first draw (a discard the lesson refuses)
WHOLE_RACK = [(lesson.CLASSIC, "Y4"), (lesson.RUMMY, "K6")]
LAY_DOWN = [lesson.FIFTY_ONE, lesson.OKEY_101, lesson.SEVENTEEN]


@pytest.mark.parametrize("sc", [sc for sc, _ in WHOLE_RACK], ids=lambda s: s.slug)
def test_the_deal_gives_the_learner_an_okey_and_a_false_joker(sc):
    state = lesson.dealt(sc)
    rack = state.racks[sc.seat]
    assert any(kind_of(t) == state.okey_kind for t in rack)
    assert any(t in FALSE_IDS for t in rack)
    assert len(rack) == 14 and state.turn == 0  # seat 0 starts [D2]


@pytest.mark.parametrize("sc,kept", WHOLE_RACK, ids=lambda v: getattr(v, "slug", v))
def test_the_lesson_plays_to_the_learners_close_step_by_step(sc, kept):
    state = play_cpus(lesson.dealt(sc), sc)
    assert step(state, sc=sc) == lesson.DRAW
    # step 1: the first discard is of no use: taking it is turned down, drawing is right
    assert notation(state.takeable) == sc.first_discard
    assert code(state, sc=sc, type="take") == "lesson_draw"
    assert code(state, sc=sc, type="draw") is None
    state = move(state, sc, type="draw")
    assert step(state, sc=sc) == lesson.DISCARD
    # step 2: a tile of a run is kept; the lone tile goes
    assert code(state, sc=sc, type="discard", tile=tile(state, 1, kept)) == "lesson_discard"
    okey = next(t for t in state.racks[1] if kind_of(t) == state.okey_kind)
    assert code(state, sc=sc, type="discard", tile=okey) == "lesson_keep_okey"
    assert code(state, sc=sc, type="discard", tile=tile(state, 1, "F")) == "lesson_keep_false"
    lone = tile(state, 1, sc.discards[0])
    assert code(state, sc=sc, type="discard", tile=lone) is None
    state = play_cpus(move(state, sc, type="discard", tile=lone), sc)
    # step 3: the discard completes a run: drawing instead is turned down
    assert step(state, sc=sc) == lesson.TAKE
    assert notation(state.takeable) == sc.take
    assert code(state, sc=sc, type="draw") == "lesson_take"
    state = move(state, sc, type="take")
    # step 4: no discard before the rack shows its runs and groups
    assert step(state, False, sc) == lesson.ARRANGE
    second = tile(state, 1, sc.discards[1])
    assert code(state, False, sc, type="discard", tile=second) == "lesson_arrange"
    slots = rack_sort(state, 1, "runs")
    assert lesson.is_arranged(slots, state.okey_kind)
    assert lesson.okey_in_meld(slots, state.okey_kind)  # the okey fills a run's gap
    # step 5: the okey is kept, the named tile goes
    assert step(state, True, sc) == lesson.OKEY
    assert code(state, True, sc, type="discard", tile=okey) == "lesson_keep_okey"
    taken = state.taken if state.taken is not None else tile(state, 1, sc.take)
    assert code(state, True, sc, type="discard", tile=taken) == "lesson_keep_taken"
    state = play_cpus(move(state, sc, type="discard", tile=second), sc)
    # steps 6 and 7: draw, then finish with the lone tile (a discard is turned down)
    assert step(state, sc=sc) == lesson.DRAW_AGAIN
    state = move(state, sc, type="draw")
    assert step(state, sc=sc) == lesson.CLOSE
    last = tile(state, 1, sc.close)
    assert code(state, sc=sc, type="discard", tile=last) == "lesson_close"
    state = move(state, sc, type="close", tile=last)
    assert state.over and state.result["finisher"] == sc.seat
    assert step(state, sc=sc) == lesson.OVER


@pytest.mark.parametrize("sc", [sc for sc, _ in WHOLE_RACK], ids=lambda s: s.slug)
def test_no_cpu_closes_whatever_the_learner_does(sc):
    """The CPUs only draw and discard: with the learner drawing and throwing the drawn
    tile away, the hand runs until the pile is empty and nobody closes [D4]."""
    state = lesson.dealt(sc)
    for _ in range(400):
        if state.over:
            break
        if state.turn == sc.seat:
            if state.phase == "draw":
                state = move(state, sc, type="draw")
            else:
                state = move(state, sc, type="discard", tile=state.racks[1][-1])
        else:
            state = play_cpus(state, sc)
    assert state.over
    assert state.result.get("finisher") in (None, sc.seat)


def test_arranged_needs_two_melds_side_by_side():
    state = lesson.dealt(SCRIPT)
    ok = state.okey_kind
    ids = {notation(t): t for t in state.racks[1]}
    run = [ids["Y4"], ids["Y5"], ids["Y6"]]
    apart = [ids["Y4"], None, ids["Y5"], ids["Y6"]]
    assert not lesson.is_arranged(run + [None] * 3, ok)
    assert not lesson.is_arranged(apart + [None] + run[:0], ok)
    okey = next(t for t in state.racks[1] if kind_of(t) == ok)
    two = run + [None, ids["K6"], ids["K7"], okey, ids["K9"]]
    assert lesson.is_arranged(two, ok) and lesson.okey_in_meld(two, ok)
    # a row's end parts tiles: a run split over the two rows is no run
    split = [None] * 14 + run[:2] + run[2:] + [None, ids["K6"], ids["K7"], okey, ids["K9"]]
    assert not lesson.is_arranged(split, ok)


def test_a_seed_that_is_no_lessons_has_no_script():
    assert lesson.script_for_seed("seed-0") is None
    assert lesson.script_for_seed(None) is None
    assert lesson.script_for_seed(SCRIPT.seed) is SCRIPT


@pytest.mark.parametrize("sc", LAY_DOWN, ids=lambda s: s.slug)
def test_a_lay_down_lesson_opens_then_adds_to_a_meld(sc):
    state = lesson.dealt(sc)

    def cpus(state):
        while not state.over and state.turn != sc.seat:
            state, _ = apply(state, {**lesson.cpu_move(sc, state, state.turn), "seat": state.turn})
        return state

    def own(text):
        return next(t for t in state.racks[sc.seat] if notation(t) == text)

    def at():
        return lesson.state_step(sc, state, sc.seat)

    def says(**action):
        found = lesson.refusal(sc, state, sc.seat, action, False)
        return found[0] if found else None

    state = cpus(state)
    assert at() == lesson.DRAW and says(type="take") == "lesson_draw"
    state, _ = apply(state, {"type": "draw", "seat": sc.seat})
    assert at() == lesson.OPEN
    assert says(type="discard", tile=own(sc.discards[0])) == "lesson_open_first"
    melds = [[own(t) for t in meld.split()] for meld in sc.opening]
    # the opening minimum is the engine's: one meld alone is refused by it
    assert says(type="open", melds=melds[:1]) is None
    state, _ = apply(state, {"type": "open", "melds": melds, "seat": sc.seat})
    assert at() == lesson.DISCARD
    other = next(t for t in state.racks[sc.seat] if notation(t) != sc.discards[0])
    assert says(type="discard", tile=other) == "lesson_discard_this"
    state, _ = apply(state, {"type": "discard", "tile": own(sc.discards[0]), "seat": sc.seat})
    state = cpus(state)
    assert at() == lesson.DRAW_AGAIN
    state, _ = apply(state, {"type": "draw", "seat": sc.seat})
    assert at() == lesson.ADD
    assert says(type="discard", tile=own(sc.discards[1])) == "lesson_add_first"
    meld = next(m.id for m in state.melds if classify_with(m, own(sc.add), state))
    state, _ = apply(state, {"type": "add", "tile": own(sc.add), "meld": meld, "seat": sc.seat})
    assert at() == lesson.DISCARD_AGAIN
    state, _ = apply(state, {"type": "discard", "tile": own(sc.discards[1]), "seat": sc.seat})
    assert at() == lesson.DONE and not state.over


@pytest.mark.parametrize("sc", LAY_DOWN, ids=lambda s: s.slug)
def test_no_cpu_opens_or_finishes_in_a_lay_down_lesson(sc):
    """Whatever the learner does (here: never open, discard a tile the rules do not
    penalise), the CPUs only draw and discard: nobody opens and the pile runs out [D4]."""
    from games.engine.legal import is_penalty_tile

    state = lesson.dealt(sc)
    for _ in range(400):
        if state.over:
            break
        if state.turn != sc.seat:
            state = play_cpus(state, sc)
        elif state.phase == "draw":
            state = move(state, sc, type="draw")
        else:
            rack = state.racks[sc.seat]
            free = next(t for t in reversed(rack) if not is_penalty_tile(state, t))
            state = move(state, sc, type="discard", tile=free)
    assert state.over
    assert all(opened is None for opened in state.opened)
    assert state.result.get("finisher") is None


def classify_with(meld, tile, state) -> bool:
    from games.engine.melds import classify

    shape = classify([*meld.tiles, tile], state.okey_kind)
    return shape is not None


def test_the_seed_search_finds_the_stored_deals():
    """``python -m games.learn.seeds`` gives back each script's seed and tiles."""
    from games.learn import seeds

    scripts = (
        (lesson.CLASSIC, seeds.classic),
        (lesson.RUMMY, seeds.rummy),
        (lesson.FIFTY_ONE, seeds.fifty_one),
        (lesson.OKEY_101, seeds.okey101),
        (lesson.SEVENTEEN, seeds.seventeen),
    )
    for sc, search in scripts:
        number = int(sc.seed.rsplit(":", 1)[1])
        found = search(number)
        assert found is not None and found.startswith(f"seed={sc.seed} ")
        assert f"first_discard={sc.first_discard}" in found
        assert f"discards=({sc.discards[0]}, {sc.discards[1]})" in found
