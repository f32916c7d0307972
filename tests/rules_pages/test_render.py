"""The rules pages: the tiny Markdown renderer, page loading, and the pages' content."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.engine.rules import RULES
from games.rules_pages import render
from games.rules_pages.render import LANGUAGES, SLUGS, load_page, render_markdown

PAGES = Path(render.__file__).resolve().parent
# Every registered rule set (games/engine/rulesets/) has its page: name -> slug.
VARIANTS = {name: rules.rules_page for name, rules in RULES.items()}
DECISION = re.compile(r"\bD(\d{1,2})\b")

# --------------------------------------------------------------------------- rules.md


# The product's reading of the rules lives in the repository (games/engine/RULES.md).
RULES_MD_PATH = Path(render.__file__).resolve().parents[1] / "engine" / "RULES.md"
RULES_MD = RULES_MD_PATH.read_text(encoding="utf-8")


def _section(variant: str) -> str:
    """The section of rules.md for a rule set: its heading is "## n. `name` ..."."""
    heading = re.search(rf"^## \d+\. `{re.escape(variant)}`", RULES_MD, re.M)
    assert heading, f"RULES.md has no section for {variant}"
    start = heading.start()
    nxt = RULES_MD.find("\n## ", start + 1)
    return RULES_MD[start : nxt if nxt != -1 else len(RULES_MD)]


def _decisions(text: str) -> set[int]:
    return {int(n) for n in re.findall(r"\[D(\d{1,2})\b", text)}


# --------------------------------------------------------------------------- renderer


def test_headings() -> None:
    out = render_markdown("# One\n## Two\n### Three\n#### Four")
    assert "<h1>One</h1>" in out
    assert "<h2>Two</h2>" in out
    assert "<h3>Three</h3>" in out
    assert "<h4>" not in out
    assert "<p>#### Four</p>" in out


def test_paragraphs_join_lines_and_split_on_blank_lines() -> None:
    out = render_markdown("first line\nsecond line\n\nthird")
    assert out == "<p>first line second line</p>\n<p>third</p>\n"


def test_unordered_list_with_continuation() -> None:
    out = render_markdown("Intro:\n- one\n- two\n  continued\n\nafter")
    assert "<p>Intro:</p>" in out
    assert "<ul>\n<li>one</li>\n<li>two continued</li>\n</ul>" in out
    assert "<p>after</p>" in out


def test_indented_line_continues_the_item_even_if_it_looks_like_a_list() -> None:
    out = render_markdown("- after 13 comes\n  1. Then more\n  - and more\n- next")
    assert out == "<ul>\n<li>after 13 comes 1. Then more - and more</li>\n<li>next</li>\n</ul>\n"


def test_list_ends_at_a_paragraph_line() -> None:
    out = render_markdown("- one\nplain")
    assert out == "<ul>\n<li>one</li>\n</ul>\n<p>plain</p>\n"


def test_ordered_list() -> None:
    out = render_markdown("1. draw\n2. discard\n")
    assert out == "<ol>\n<li>draw</li>\n<li>discard</li>\n</ol>\n"


def test_table() -> None:
    out = render_markdown("| close | points |\n|---|:---:|\n| **okey** | 6 |\n| pairs |\n")
    assert "<table>" in out and "</table>" in out
    assert "<thead>\n<tr>\n<th>close</th>\n<th>points</th>\n</tr>\n</thead>" in out
    assert "<tr><td><strong>okey</strong></td><td>6</td></tr>" in out
    assert "<tr><td>pairs</td><td></td></tr>" in out  # short rows are padded


def test_table_pipe_inside_code_and_escaped_pipe() -> None:
    out = render_markdown("| a | b |\n|---|---|\n| `x|y` | 1 \\| 2 |")
    assert "<td><code>x|y</code></td><td>1 | 2</td>" in out


def test_a_line_with_a_pipe_is_not_a_table_without_a_separator() -> None:
    assert render_markdown("a | b\nc") == "<p>a | b c</p>\n"


def test_inline_bold_italic_code_link() -> None:
    out = render_markdown("**bold** and *italic*, `R3 R4 R5` and [Rummy](rummy).")
    assert out == (
        "<p><strong>bold</strong> and <em>italic</em>, <code>R3 R4 R5</code> and "
        '<a href="rummy">Rummy</a>.</p>\n'
    )


def test_markup_inside_code_is_literal() -> None:
    out = render_markdown("`**not bold** [x](y)`")
    assert out == "<p><code>**not bold** [x](y)</code></p>\n"


def test_lone_asterisks_stay_text() -> None:
    assert render_markdown("3 * 4 * 5") == "<p>3 * 4 * 5</p>\n"


def test_script_in_text_becomes_text() -> None:
    out = render_markdown("Hi <script>alert('x')</script> & <b>bye</b>")
    assert "<script>" not in out and "<b>" not in out
    assert "&lt;script&gt;alert('x')&lt;/script&gt; &amp; &lt;b&gt;bye&lt;/b&gt;" in out


@pytest.mark.parametrize(
    "source",
    [
        "# <img src=x onerror=alert(1)>",
        "- <iframe>",
        "1. <svg onload=alert(1)>",
        "| <a> | b |\n|---|---|\n| <script> | c |",
        "`<script>`",
        "**<script>**",
        "[<script>](classic)",
    ],
)
def test_no_raw_html_in_any_construct(source: str) -> None:
    out = render_markdown(source)
    for tag in ("<img", "<iframe", "<svg", "<script", "<a>"):
        assert tag not in out


@pytest.mark.parametrize(
    "target",
    ["javascript:alert", "JavaScript:alert", "data:text/html,x", "vbscript:x", "//evil.example"],
)
def test_unsafe_link_targets_are_dropped(target: str) -> None:
    out = render_markdown(f"[click]({target})")
    assert "href" not in out
    assert "click" in out


@pytest.mark.parametrize(
    "source", ["[click](javascript&#58;alert(1))", "[click](<javascript:alert(1)>)"]
)
def test_unsafe_targets_are_judged_after_decoding(source: str) -> None:
    # CommonMark decodes entities and <...> in a link target: the check sees the decoded one.
    assert render_markdown(source) == "<p>click</p>\n"


def test_images_and_autolinks_are_not_rendered() -> None:
    out = render_markdown("![x](https://example.org/a.png) <https://example.org>")
    assert "<img" not in out
    assert "&lt;https://example.org&gt;" in out


def test_entities_are_shown_as_written() -> None:
    assert render_markdown("&lt;b&gt; &#60;") == "<p>&amp;lt;b&amp;gt; &amp;#60;</p>\n"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("> quote", "<p>&gt; quote</p>\n"),
        ("    indented", "<p>indented</p>\n"),
        ("---", "<p>---</p>\n"),
        ("Title\n---", "<p>Title ---</p>\n"),
        ("[x]\n\n[x]: https://example.org", "<p>[x]</p>\n<p>[x]: https://example.org</p>\n"),
    ],
)
def test_constructs_outside_the_subset_are_text(source: str, expected: str) -> None:
    assert render_markdown(source) == expected


def test_link_target_is_attribute_escaped() -> None:
    out = render_markdown('[x](https://example.org/?a=1&b="2")')
    assert 'href="https://example.org/?a=1&amp;b=&quot;2&quot;"' in out


def test_nul_characters_cannot_forge_placeholders() -> None:
    out = render_markdown("a \x000\x00 `c`")
    assert out == "<p>a 0 <code>c</code></p>\n"


def test_empty_document() -> None:
    assert render_markdown("") == ""
    assert render_markdown("\n\n") == ""


# --------------------------------------------------------------------------- load_page


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("slug", SLUGS)
def test_every_page_exists_with_a_title(lang: str, slug: str) -> None:
    path = PAGES / lang / f"{slug}.md"
    assert path.is_file(), path
    first = path.read_text(encoding="utf-8").split("\n", 1)[0]
    assert re.match(r"^# \S", first), first
    title, html = load_page(lang, slug)
    assert title and title == first[2:].strip()
    assert html.startswith("<")
    assert "<h1>" not in html  # the title is returned apart from the body
    assert "<h2>" in html


def test_fallback_to_english(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "en").mkdir()
    (tmp_path / "en" / "rummy.md").write_text("# Rummy\n\nEnglish text.\n", encoding="utf-8")
    (tmp_path / "de").mkdir()
    monkeypatch.setattr(render, "PAGES_DIR", tmp_path)
    assert load_page("de", "rummy") == ("Rummy", "<p>English text.</p>\n")
    assert load_page("fr", "rummy") == ("Rummy", "<p>English text.</p>\n")
    with pytest.raises(KeyError):
        load_page("en", "classic")  # a valid slug whose file is missing everywhere


def test_unknown_language_falls_back_to_english() -> None:
    assert load_page("xx", "classic") == load_page("en", "classic")


def test_language_variants_normalise() -> None:
    assert load_page("es-ES", "rummy") == load_page("es", "rummy")
    assert load_page("TR", "index") == load_page("tr", "index")
    assert load_page("de_AT", "seventeen") == load_page("de", "seventeen")


@pytest.mark.parametrize(
    "slug",
    [
        "nope",
        "",
        "Classic",
        "classic.md",
        "../classic",
        "../../pyproject",
        "en/classic",
        "/etc/passwd",
        "..",
        "index\x00",
        "classic ",
        None,
        3,
    ],
)
def test_unknown_slugs_are_refused(slug: object) -> None:
    with pytest.raises(KeyError):
        load_page("en", slug)  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", ["..", "../en", "../../etc", "/etc", "en/../..", "\x00", None])
def test_traversal_in_language_cannot_escape(lang: object) -> None:
    # A strange language is never used in a path: it falls back to English.
    assert load_page(lang, "classic") == load_page("en", "classic")  # type: ignore[arg-type]


def test_page_paths_stay_inside_the_package() -> None:
    for lang in LANGUAGES:
        for slug in SLUGS:
            path = render.page_path(lang, slug).resolve()
            assert PAGES in path.parents


def test_split_title_requires_a_title_line() -> None:
    with pytest.raises(ValueError):
        render.split_title("## Not a title\n")
    assert render.split_title("# **Okey** `x`\nbody") == ("Okey x", "body")


# --------------------------------------------------------------------------- content


def _text(lang: str, slug: str) -> str:
    return (PAGES / lang / f"{slug}.md").read_text(encoding="utf-8")


def _cited(text: str) -> set[int]:
    return {int(n) for n in DECISION.findall(text)}


def test_every_rule_set_has_a_page_slug() -> None:
    assert ("index", *VARIANTS.values()) == SLUGS
    assert len(set(SLUGS)) == len(SLUGS)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_each_variant_page_cites_its_decisions(lang: str, variant: str) -> None:
    expected = _decisions(_section(variant))
    assert expected, f"rules.md has no decision for {variant}"
    cited = _cited(_text(lang, VARIANTS[variant]))
    assert cited & expected, f"{lang}/{variant} cites none of {sorted(expected)}"
    # We go further than "at least one": every decision of the variant's section is cited.
    assert expected <= cited, f"{lang}/{variant} misses {sorted(expected - cited)}"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_decisions_cited_exist(lang: str, variant: str) -> None:
    cited = _cited(_text(lang, VARIANTS[variant]))
    assert cited, f"{lang}/{variant} cites no decision"
    assert cited <= _decisions(RULES_MD), f"{lang}/{variant}: no such decision in RULES.md"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("slug", SLUGS)
def test_page_structure_renders_as_written(lang: str, slug: str) -> None:
    """Every list item, heading and table row of the source shows up once in the HTML."""
    lines = _text(lang, slug).splitlines()[1:]
    _, html = load_page(lang, slug)
    items = sum(1 for line in lines if re.match(r"^(- |\d+\. )", line))
    assert html.count("<li>") == items
    for level in (2, 3):
        heads = sum(1 for line in lines if line.startswith("#" * level + " "))
        assert html.count(f"<h{level}>") == heads
    rows = sum(1 for line in lines if line.startswith("|") and not re.match(r"^\|[-:| ]+\|$", line))
    assert html.count("<tr>") == rows
    assert "**" not in html and "`" not in html, "unbalanced inline markup"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_index_links_every_variant(lang: str) -> None:
    _, html = load_page(lang, "index")
    for slug in VARIANTS.values():
        assert f'<a href="{slug}">' in html


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("slug", SLUGS)
def test_pages_use_only_the_subset(lang: str, slug: str) -> None:
    text = _text(lang, slug)
    assert "```" not in text
    assert "<" not in text, "no raw HTML in pages"
    assert text.count("\n# ") == 0, "only the first line is a level-1 heading"
    assert all(len(line) <= 100 for line in text.splitlines()), "wrap lines at 100"


# Key numbers: each must be on the English page (and, where rules.md is present, in rules.md).
KEY_NUMBERS: dict[str, list[str]] = {
    "classic": ["20 points", "10, 20 or 30", "| 2 |", "| 4 |", "| 8 |", "| 1 |", "48", "106"],
    "rummy": [
        "| short | 4 | 5 | 8 |",
        "| standard | 8 | 10 | 15 |",
        "| long | 16 | 20 | 30 |",
        "| runs and groups | 3 |",
        "| seven pairs | 6 |",
        "| okey close | 6 |",
        "30 seconds unless the\ntable chose 15, 45 or 60",
        "76 tiles with\ntwo players, 62 with three and 48 with four",
    ],
    "fifty-one": [
        "**51**",
        "68",
        "69 or more",
        "+70",
        "+180",
        "100 + 10 × the number",
        "costs you 100",
        "| from the hand | −500 | Σ × 5 | +500 |",
        "| −1000 | Σ × 10 | +1000 |",
        "| pile exhausted (draw) | nobody | Σ × 5 | +500 |",
        "500 (or 1000",
        "at least five pairs",
        "30 seconds by default; 15, 30, 60 seconds or off",
        "1 or 3 hands",
    ],
    "seventeen": [
        "**17**",
        "at least 26",
        "| red | 400 | −40 |",
        "| black | 500 | −50 |",
        "| yellow | 600 | −60 |",
        "| blue | 800 | −80 |",
        "| three 13s | 17 |",
        "| four 13s | 18 (decision D16)",
        "6 + 4 = 10",
        "`B4 B5 B6` = 5",
        "10 per tile",
        "base × 4",
        "100 × the pair factor",
        "× 2; two: × 4",
        "seven rounds",
    ],
}

# The same facts as they are written in rules.md.
RULES_FACTS: dict[str, list[str]] = {
    "classic": ["20 points (table option: 10, 20 or 30)", "2 normal, 4 okey close, 4 seven pairs",
                "8 seven pairs with okey", "Each other player loses 1", "48 tiles with 4"],
    "rummy": ["8 with 4 players, 10 with 3", "15 with 2", "Short: 4/5/8; long: 16/20/30",
              "3 for runs and groups, 6 for seven pairs", "45-second", "62 with 3, 76 with 2"],
    "fifty-one": ["at least 51", "69 or more", "+70", "+180", "100 + 10 × the number",
                  "costs the discarder 100", "| from the hand | −500 | Σ × 5 | +500 |",
                  "| −1000 | Σ × 10 | +1000 |", "| pile exhausted (draw) | nobody | Σ × 5 | +500 |",
                  "costs 500, or 1000", "At least five pairs", "30 s by default; 15, 30, 60 or off",
                  "1 or 3 hands"],
    "seventeen": ["starts at 17", "= 26", "red 400, black 500, yellow 600, blue 800",
                  "−40/−50/−60/−80", "three 13s = 17", "four\n  13s = 18", "6 + 4 = 10",
                  "4-5-6 = 5", "10 per tile", "base × 4", "100 × pair factor",
                  "one: ×2,\n  two: ×4", "seven rounds"],
}  # fmt: skip


def test_key_numbers_are_of_registered_rule_sets() -> None:
    assert set(KEY_NUMBERS) == set(RULES_FACTS) and set(KEY_NUMBERS) <= set(VARIANTS)


@pytest.mark.parametrize("variant", KEY_NUMBERS)
def test_key_numbers_on_english_pages(variant: str) -> None:
    text = _text("en", VARIANTS[variant])
    flat = re.sub(r"\s+", " ", text)
    for fact in KEY_NUMBERS[variant]:
        assert fact in text or re.sub(r"\s+", " ", fact) in flat, f"{variant}: {fact!r}"


@pytest.mark.parametrize("variant", RULES_FACTS)
def test_key_numbers_match_rules_md(variant: str) -> None:
    flat = re.sub(r"\s+", " ", RULES_MD)
    for fact in RULES_FACTS[variant]:
        assert re.sub(r"\s+", " ", fact) in flat, f"rules.md no longer says {fact!r}"


ALL_NUMBERS = re.compile(r"(?<!\w)(?<!\d[.,])[−-]?\d+(?=(?:s|er)?(?!\w))(?![.,]\d)")


@pytest.mark.parametrize("lang", ["es", "de", "tr"])
@pytest.mark.parametrize("slug", SLUGS)
def test_translations_keep_the_numbers(lang: str, slug: str) -> None:
    """Each translation carries the same numbers as the English page (as a multiset).

    A number glued to a word is not counted ("15th"), except the plurals "13s" / "13er";
    decimals ("1.5", "1,5") are left out as their notation differs by language.
    """

    def numbers(text: str) -> list[str]:
        text = re.sub(r"`[^`]*`", " ", text)  # notation examples are checked separately
        return sorted(n.replace("-", "−") for n in ALL_NUMBERS.findall(text))

    assert numbers(_text(lang, slug)) == numbers(_text("en", slug))


@pytest.mark.parametrize("lang", ["es", "de", "tr"])
@pytest.mark.parametrize("slug", SLUGS)
def test_translations_keep_the_notation_examples(lang: str, slug: str) -> None:
    def codes(text: str) -> list[str]:
        return sorted(re.findall(r"`[^`]*`", text))

    assert codes(_text(lang, slug)) == codes(_text("en", slug))
