"""Equal fragment keys mean equal HTML.

A live frame leaves out every fragment of ``templates/games/table.html`` whose key
(``realtime.fragment_keys``) is the one the connection was last sent, and a leaf
that several seats share is rendered once per key (``realtime.live_frame``). So a
key that misses something its fragment shows leaves a stale fragment on a screen.
The property: over random hand states reached by random legal play, in every rule
set and with random options, racks arranged, players away, hints shown and clocks
running, two renders of a fragment with equal keys give equal HTML (for the same
table; per connection for a fragment that is not shared between seats).
"""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import apply, legal_actions
from games.engine.bots.hint import hint
from games.engine.options import validate_options
from games.engine.racksort import RACK_SLOTS
from games.engine.refusals import Refusal
from games.engine.rules import RULES
from games.engine.simulate import choose
from games.live import actions, presenter, realtime
from games.models import Seat, Table

pytestmark = pytest.mark.django_db

TEMPLATE = Path(__file__).resolve().parents[2] / "templates" / "games" / "table.html"
# Partials that are not leaves of a live frame, and why.
NOT_LEAVES = {
    "status": "the page's header: made of title, info, scores and standings",
    "felt": "the page's felt: made of the opponents, center, mine and phrases",
    "phrases": "the bubble slots and the picker: rendered with the page, never re-sent",
    "phrase_bubble": "a quick phrase, sent as it is said (games/phrases.py), not diffed",
    "phrase_note": "the picker's note, sent to the sayer alone (games/phrases.py)",
    "watchers": "the watcher count, sent alone when it changes (games/watch/actions.py)",
    "lesson": "a lesson's panel (games/learn), at a lesson's table only: keyed and checked"
    " over the lesson's own play by tests/learn/test_lesson_keys.py",
}
T0 = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)


def partials() -> set[str]:
    return set(re.findall(r"{% partialdef (\w+) %}", TEMPLATE.read_text(encoding="utf-8")))


def leaf_partial(name: str) -> str:
    return "opponent" if name.startswith("opp-") else name


def random_options(variant: str, rng: random.Random) -> dict[str, Any]:
    """Options of the rule set, each drawn from its allowed values (the first valid
    combination drawn; its defaults if none is)."""
    for _attempt in range(20):
        drawn = {k: rng.choice(allowed) for k, (allowed, _d) in RULES[variant].options.items()}
        try:
            return validate_options(variant, drawn)
        except Refusal:
            continue
    return validate_options(variant, {})


def random_order(rack: tuple[int, ...], rng: random.Random) -> list[int | None] | None:
    """A rack order a player could have saved (gaps, some tiles left out), or none."""
    if rng.random() < 0.3:
        return None
    slots: list[int | None] = [None] * RACK_SLOTS
    free = rng.sample(range(RACK_SLOTS), len(rack))
    for tile, i in zip(rack, free, strict=False):
        if rng.random() < 0.85:
            slots[i] = tile
    return slots


class Renders:
    """Every fragment rendered so far, by the claim its key makes."""

    def __init__(self) -> None:
        self.seen: dict[tuple[Any, ...], str] = {}
        self.names: set[str] = set()

    def check(self, ctx: dict[str, Any], viewer: int | None) -> None:
        for name, key in realtime.fragment_keys(ctx).items():
            html = realtime.render_leaf(name, ctx)
            self.names.add(leaf_partial(name))
            # a shared leaf is reused for every seat; the others per connection
            who = None if name in realtime.SHARED_LEAVES else viewer
            claim = (ctx["table"].pk, name, who, key)
            if claim in self.seen:
                assert self.seen[claim] == html, f"{name}: equal keys, different HTML ({key!r})"
            else:
                self.seen[claim] = html


def render_every_seat(
    table: Table, seats: list[Seat], hint_for: dict[int, dict], renders: Renders
) -> None:
    for viewer in [*seats, None]:
        position = viewer.position if viewer is not None else None
        with translation.override("en"):
            ctx = presenter.table_context(
                table, viewer, seats=seats, hint=hint_for.get(position) if viewer else None
            )
            renders.check(ctx, position)


def play_and_render(variant: str, seed: int, prefix: int, window: int, renders: Renders) -> None:
    rng = random.Random(seed)
    options = random_options(variant, rng)
    n = options["players"]
    table = actions.do_create_table(
        variant=variant,
        options=options,
        seats=[actions.SeatSpec("me")] + [actions.SeatSpec("cpu")] * (n - 1),
        guest_key="guest-1",
    )
    table.refresh_from_db()
    seats = list(table.seats.select_related("user__profile", "table"))
    hand, state, _game = realtime.snapshot(table)
    assert hand is not None and state is not None
    game_over_at_end = rng.random() < 0.5
    version = table.version
    step = 0
    while step < prefix + window:
        if not state.over:
            acts = legal_actions(state, state.turn)
            # mostly biased play (so hands end), sometimes any legal action (flips, undos)
            action = rng.choice(acts) if rng.random() < 0.25 else choose(state, rng)
            state, _events = apply(state, {**action, "seat": state.turn})
            version += 1
        elif step < prefix:
            step = prefix  # the hand is over: what follows are changes without a move
        step += 1
        if step <= prefix:
            continue
        # what can change between two frames without a move: who is away, a rack
        # arranged, a clock, a hint asked for
        for s in seats:
            if rng.random() < 0.2:
                s.away_since = None if s.away_since else T0
            if rng.random() < 0.3:
                s.rack_order = random_order(state.racks[s.position], rng)
        table.turn_deadline = rng.choice([None, T0, T0.replace(minute=1)])
        hints = {}
        if not state.over and rng.random() < 0.3:
            hints[state.turn] = hint(state, state.turn)
        game = realtime.game_for(table)
        table.status = Table.Status.PLAYING
        if state.over:
            game.record_hand(state)
            if game_over_at_end and game.is_over():
                table.status = Table.Status.FINISHED
        table.version = version
        realtime.remember(table, (hand, state, game))
        render_every_seat(table, seats, hints, renders)


@pytest.mark.parametrize("variant", list(RULES))
@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 2**32 - 1),
    prefix=st.integers(0, 300),
    window=st.integers(2, 8),
)
def test_equal_fragment_keys_render_equal_html(variant: str, seed: int, prefix: int, window: int):
    play_and_render(variant, seed, prefix, window, Renders())


def test_every_live_fragment_of_the_table_page_is_keyed_and_checked():
    """Each partial of table.html is a leaf of the live frame (with a key, rendered by
    the property above) or one of the few that are not, for a stated reason."""
    assert set(NOT_LEAVES) <= partials()
    leaves = partials() - set(NOT_LEAVES)
    renders = Renders()
    for variant in RULES:
        play_and_render(variant, seed=7, prefix=3, window=2, renders=renders)
    assert renders.names == leaves
    # and the template's out-of-band fragments are exactly the diffed leaves and the
    # phrase fragments
    text = TEMPLATE.read_text(encoding="utf-8")
    oob = {
        name
        for name, body in re.findall(r"{% partialdef (\w+) %}(.*?){% endpartialdef %}", text, re.S)
        if "hx-swap-oob" in body
    }
    alone = {"phrase_bubble", "phrase_note", "watchers", "standings", "lesson"}
    assert oob - alone == leaves - {"standings"}
