"""Wording a player reads at the table: sentences in every language start with a
capital letter, even where the translation puts a tile's name first (Turkish
names the tile before the verb: "mavi 4 taşını atın")."""

from __future__ import annotations

import html as htmllib
import re

import pytest
from django.utils import translation

from games import presenter
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
        html, _ = presenter.live_frame(ctx, None, lang)
    text, button = hint_parts(html)
    assert text[0].isupper(), text
    assert button[0].isupper(), button
