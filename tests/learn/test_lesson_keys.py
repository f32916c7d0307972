"""The lesson panel is a keyed leaf of the live frame (games/live/realtime.py): over the
lesson's play, with right and wrong moves and rack orders, equal keys render equal HTML,
the learner always has it and nobody else does."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.engine.actions import apply
from games.engine.racksort import rack_sort
from games.engine.tiles import notation
from games.learn import actions as learn_actions
from games.learn import script as lesson
from games.live import presenter, realtime
from games.live.actions import ActionRefused

pytestmark = pytest.mark.django_db
SCRIPT = lesson.CLASSIC


def learner_moves(state):
    """The learner's right move now, and a wrong one (or None)."""
    n = len(state.discards[SCRIPT.seat])
    rack = state.racks[SCRIPT.seat]
    if state.phase == "draw":
        return ({"type": "take"} if n == 1 else {"type": "draw"}), (
            {"type": "draw"} if n == 1 else {"type": "take"}
        )
    if n < 2:
        want = next(t for t in rack if notation(t) == SCRIPT.discards[n])
        other = next(t for t in rack if notation(t) != SCRIPT.discards[n])
        return {"type": "discard", "tile": want}, {"type": "discard", "tile": other}
    close = next(t for t in rack if notation(t) == SCRIPT.close)
    return {"type": "close", "tile": close}, {"type": "discard", "tile": close}


def test_equal_lesson_keys_render_equal_html():
    table = learn_actions.do_start_lesson("classic", guest_key="g")
    seats = list(table.seats.select_related("user__profile", "table"))
    learner = next(s for s in seats if s.position == SCRIPT.seat)
    hand, state, game = realtime.snapshot(table)
    seen: dict[tuple, str] = {}
    steps = set()

    def check(error=None):
        for viewer in [*seats, None]:
            with translation.override("en"):
                ctx = presenter.table_context(table, viewer, seats=seats, error=error)
            keys = realtime.fragment_keys(ctx)
            if viewer is not learner:
                assert "lesson" not in keys  # the CPUs' seats and watchers have no panel
                continue
            html = realtime.render_leaf("lesson", ctx)
            steps.add(keys["lesson"][1])
            if keys["lesson"] in seen:
                assert seen[keys["lesson"]] == html
            seen[keys["lesson"]] = html

    for _ in range(80):
        if state.over:
            break
        if state.turn == SCRIPT.seat:
            right, wrong = learner_moves(state)
            if state.phase == "play" and len(state.discards[SCRIPT.seat]) == 1:
                learner.rack_order = []
                check()  # before arranging: the arrange step
                learner.rack_order = rack_sort(state, SCRIPT.seat, "runs")
            found = lesson.refusal(SCRIPT, state, SCRIPT.seat, wrong, True)
            if found is not None:
                refused = ActionRefused(found[0], found[1])
                check({"code": refused.code, "message": refused.message})
            action = right
        else:
            action = lesson.cpu_move(SCRIPT, state, state.turn)
        state, _ = apply(state, {**action, "seat": state.turn})
        table.version += 1
        realtime.remember(table, (hand, state, game))
        check()
    assert state.over
    assert steps >= {*lesson.STEPS, lesson.WAIT, lesson.OVER}
