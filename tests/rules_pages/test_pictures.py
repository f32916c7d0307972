"""The public "How to play" pages: tile notation drawn as the table's tiles, decision tags
left out (RULES.md and the pages' sources keep them)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from games.rules_pages import pictures
from games.rules_pages.render import LANGUAGES, SLUGS, load_page, render_markdown

NOTATION = re.compile(r"<code>(?:[RYBK](?:1[0-3]|[1-9])|F)(?: [^<]*)?</code>")
DECISION = re.compile(r"\bD\d{1,2}\b")


def brackets(t: str) -> str:
    return f"[{t}]"


def test_tile_notation_in_a_code_span_becomes_tiles():
    out = render_markdown("a run `R3 R4 R5`, a joker `F` and `12 13 1`", tile=brackets)
    assert '<span class="tile-row">[R3][R4][R5]</span>' in out
    assert '<span class="tile-row">[F]</span>' in out
    assert "<code>12 13 1</code>" in out  # numbers alone are no tiles


def test_a_colour_letter_or_other_code_stays_code():
    out = render_markdown("red (`R`), `R14`, `R3 x`", tile=brackets)
    assert "<code>R</code>" in out and "<code>R14</code>" in out and "<code>R3 x</code>" in out


@pytest.mark.parametrize(
    "tag",
    [
        "(decision D5)",
        "(decision\nD5)",
        "(decisions D1 and D2)",
        "(decisión D5)",
        "(decisiones D1 y D2)",
        "(Entscheidung D5)",
        "(Entscheidungen D1 und D2)",
        "(karar D5)",
        "(karar D1 ve D2)",
    ],
)
def test_decision_tags_are_left_out_of_the_public_page(tag):
    out = render_markdown(f"The rule holds {tag}. Next.", tile=brackets)
    assert out == "<p>The rule holds. Next.</p>\n"
    # the source rendering (no tile painter) keeps them
    assert "D5" in render_markdown(f"x {tag}") or "D1" in render_markdown(f"x {tag}")


def test_tiles_stay_escaped_text_outside_code_spans():
    out = render_markdown("<b>R3</b> `R3`", tile=brackets)
    assert "&lt;b&gt;R3&lt;/b&gt;" in out and "[R3]" in out


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("slug", SLUGS)
def test_every_public_page_has_no_notation_and_no_decision_tag(lang, slug):
    _title, html = load_page(lang, slug, tile=pictures.tile_for(slug))
    assert not NOTATION.search(html), NOTATION.search(html).group(0)
    assert not DECISION.search(re.sub(r"<[^>]+>", " ", html))
    _title, source = load_page(lang, slug)
    assert DECISION.search(source)  # the source still cites RULES.md's decisions


@pytest.mark.django_db
def test_the_classic_page_shows_tile_pictures_in_its_colours(client):
    with translation.override("en"):
        page = client.get(reverse("games:rules_page", args=["classic"])).content.decode()
    assert 'class="tile c-r small" data-t="R3"' in page
    assert 'aria-label="red 3"' in page
    assert "(decision" not in page
    assert reverse("learn:index") in page


def test_okey_rummy_draws_its_yellow_tiles_green():
    assert "rummy" in pictures.tile_for("rummy")("Y10")
    assert "rummy" not in pictures.tile_for("classic")("Y10")
