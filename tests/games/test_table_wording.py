"""Wording a player reads at the table: sentences in every language start with a
capital letter, even where the translation puts a tile's name first (Turkish
names the tile before the verb: "mavi 4 taşını atın")."""

from __future__ import annotations

import html as htmllib
import re

import pytest
from django.utils import translation

from games.engine import apply, view_for
from games.engine.game import Game
from games.engine.testing import make_state
from games.engine.tiles import N_TILES, notation
from games.live import outcome, presenter, realtime
from games.review.replay import describe
from games.templatetags.okey_tiles import tile_html
from tests.games.conftest import cpu_table


def hint_parts(html: str) -> tuple[str, str]:
    text = re.search(r'data-testid="hint">([^<]*)<', html).group(1)
    button = re.search(r'data-testid="hint-do">([^<]*)<', html).group(1)
    return htmllib.unescape(text), htmllib.unescape(button)


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["en", "es", "de", "tr"])
def test_the_hint_and_its_button_start_with_a_capital(lang):
    table = cpu_table("classic")
    seat = table.seats.get(position=0)
    rack = presenter.table_context(table, seat)["view"]["rack"]
    hint = {
        "reason": "discard_loose",
        "detail": {"tile": "B4", "leftover": 10},
        "tiles": [rack[0]["id"]],
        "action": {"type": "discard", "tile": rack[0]["id"]},
    }
    with translation.override(lang):
        ctx = presenter.table_context(table, seat, hint=hint)
        html, _ = realtime.live_frame(ctx, None, lang)
    text, button = hint_parts(html)
    assert text[0].isupper(), text
    assert button[0].isupper(), button


def tile_id(t: str) -> int:
    return next(i for i in range(N_TILES) if notation(i) == t)


@pytest.mark.parametrize(
    ("lang", "variant", "expected"),
    [
        ("en", "classic", "Cem discarded yellow 6"),
        ("en", "rummy", "Cem discarded green 6"),  # rummy's fourth colour is green
        ("tr", "classic", "sarı 6"),
    ],
)
def test_the_replay_names_tiles_in_words(lang, variant, expected):
    step = {"type": "discard", "seat": 1, "tile": tile_id("Y6")}
    with translation.override(lang):
        text = describe(step, "Cem", variant)
        opened = describe(
            {"type": "open", "seat": 1, "melds": [[tile_id("R1"), tile_id("R2"), tile_id("R3")]]},
            "Cem",
            variant,
        )
    assert expected in text, text
    assert not re.search(r"\b[RYBK]\d{1,2}\b", text + opened), (text, opened)


def test_the_finishing_rack_marks_the_okey():
    """A run "black 9, okey, black 11, black 12" must not read as "9 8 11 12"."""
    state = make_state(
        "classic",
        racks=["R1 R2 R3 R4 Y5 Y6 Y7 Y8 K9 B8 K11 K12 R13 Y13 K13", None, None, None],
        indicator="B7",  # the okey is blue 8
    )
    state, _ = apply(state, {"type": "close", "seat": 0, "tile": state.racks[0][3]})
    assert state.over
    game = Game("classic", state.options)
    game.record_hand(state)
    with translation.override("en"):
        data = outcome.hand_outcome(
            view_for(state, 0),
            {0: "A", 1: "B", 2: "C", 3: "D"},
            game,
            lambda t: presenter.tile_ctx(t, "classic"),
        )
    shown = [t for group in data["groups"] for t in group]
    assert [t["t"] for t in shown if t.get("okey")] == ["B8"]
    html = tile_html([t for t in shown if t["t"] == "B8"][0])
    assert "is-okey" in html
