"""The safe Markdown of the "How to play" pages, rendered by markdown-it-py.

Pure Python (markdown-it-py and the engine's registry of rule sets, no Django). The parser is
markdown-it's CommonMark preset with GFM pipe tables, cut down to the subset described in
``README.md`` beside this file so that the pages render exactly as they are written:

- headings ``#``, ``##``, ``###`` (a deeper heading is an ordinary line);
- paragraphs (consecutive non-blank lines, joined by a space);
- ``-`` lists and ``1.`` lists; an indented line continues the item above it, even when it
  starts like a list item (there are no nested lists), and an unindented line ends the list;
- pipe tables (a header row, a ``|---|---|`` separator row, then body rows); a pipe inside a
  code span stays in its cell, ``\\|`` is a literal pipe;
- inline ``**bold**``, ``*italic*``, ```code``` and ``[links](target)``.

Safety: raw HTML is off (``html=False``: it is escaped and shown as text), and so are images,
autolinks, entities, block quotes, code blocks, rules and link reference definitions: they
render as the text they are written with. A link target is kept only when it is relative, an
``#anchor``, ``http(s):`` or ``mailto:``; any other target (``javascript:``, ``data:``, a
protocol-relative ``//host``) renders the link text alone. NUL characters are dropped.

Public API:

- ``render_markdown(text) -> str``: the HTML of a whole document.
- ``load_page(lang, slug) -> (title, html)``: one page of this package. ``title`` is the plain
  text of the first line (``# Title``); ``html`` is the rest of the page rendered. A language
  without that file falls back to English; an unknown slug raises ``KeyError``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml as escape_html
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from games.engine.rules import RULES

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "SLUGS",
    "load_page",
    "page_path",
    "render_markdown",
]

PAGES_DIR = Path(__file__).resolve().parent
LANGUAGES: tuple[str, ...] = ("en", "es", "de", "tr")
DEFAULT_LANGUAGE = "en"
# The overview, then each registered rule set's page (``Rules.rules_page``), in menu order.
SLUGS: tuple[str, ...] = ("index", *(rules.rules_page for rules in RULES.values()))

_TITLE = re.compile(r"^#\s+(.*?)\s*$")
_SAFE_SCHEMES = ("http:", "https:", "mailto:")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
# A pipe inside a code span of a table row is hidden from the table's cell splitting behind
# this private-use character, then put back in the rendered text (see ``_protect_pipes``).
_PIPE = "\ue000"
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")

# Constructs outside the subset: each renders as the plain text it is written with.
_OFF_BLOCK = ["code", "fence", "blockquote", "hr", "reference", "html_block", "lheading"]
_OFF_INLINE = ["escape", "image", "autolink", "html_inline", "entity"]


def _safe_target(target: str) -> str | None:
    """The link target if it is harmless, else None."""
    cleaned = "".join(ch for ch in target if ch.isprintable() and not ch.isspace())
    if not cleaned:
        return None
    if _SCHEME.match(cleaned):
        return cleaned if cleaned.lower().startswith(_SAFE_SCHEMES) else None
    if cleaned.startswith("//"):
        return None  # protocol-relative: another site
    return cleaned


# --------------------------------------------------------------------------- parser rules

_BlockRule = Callable[[StateBlock, int, int, bool], bool]


def _guard(md: MarkdownIt, name: str, allowed: Callable[[StateBlock, int], bool]) -> None:
    """Let the block rule ``name`` match only where ``allowed(state, line)`` holds."""
    rule = next(r for r in md.block.ruler.__rules__ if r.name == name)
    original: _BlockRule = rule.fn

    def guarded(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        return allowed(state, start) and original(state, start, end, silent)

    md.block.ruler.at(name, guarded, {"alt": list(rule.alt)})


def _heading_up_to_h3(state: StateBlock, line: int) -> bool:
    text = state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]]
    return len(text) - len(text.lstrip("#")) <= 3


def _top_level(state: StateBlock, line: int) -> bool:
    """Lists only outside a list: an indented ``1.`` or ``-`` continues the item's text."""
    return state.level == 0


def _unindented_line(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Ends a list item's paragraph at a line indented by less than two columns.

    CommonMark would take such a line as a lazy continuation of the item; in the pages it is
    the paragraph after the list. Used only as a paragraph terminator (``silent``).
    """
    return silent and state.sCount[start] < min(state.blkIndent, 2)


def _drop_unsafe_links(state: StateCore) -> None:
    """Unwrap every link whose target is not ``_safe_target``: its text stays, as text."""
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        kept: list[Token] = []
        unwrap = False
        for token in block.children:
            if token.type == "link_open":
                target = _safe_target(str(token.attrGet("href") or ""))
                unwrap = target is None
                if unwrap:
                    continue
                token.attrSet("href", target)
            elif token.type == "link_close" and unwrap:
                unwrap = False
                continue
            kept.append(token)
        block.children = kept


def _restore_pipes(state: StateCore) -> None:
    for block in state.tokens:
        for token in block.children or ():
            if _PIPE in token.content:
                token.content = token.content.replace(_PIPE, "|")


def _protect_pipes(text: str) -> str:
    """Hide the pipes of code spans on table rows (GFM would split a cell there)."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.lstrip().startswith("|") and "`" in line:
            lines[i] = _CODE_SPAN.sub(lambda m: m.group(0).replace("|", _PIPE), line)
    return "\n".join(lines)


# --------------------------------------------------------------------------- renderer rules

_RenderRule = Callable[[Any, Sequence[Token], int, Any, Any], str]


def _fixed(html: str) -> _RenderRule:
    return lambda renderer, tokens, idx, options, env: html


def _row_open(renderer: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    # Header cells one a line, a body row on one line (as the pages have always been served).
    return "<tr>" if tokens[idx + 1].type == "td_open" else "<tr>\n"


# The public page's pictures (``render_markdown(..., tile=...)``): a code span that holds tile
# notation only (``R3 R4 R5``, ``F``) is drawn as those tiles, and the decision tags
# ("(decision D5)", which RULES.md keeps) are left out. A lone colour letter (``R``) is no
# tile: it stays a code span.
_TILE = r"(?:[RYBK](?:1[0-3]|[1-9])|F)"
_TILES = re.compile(rf"{_TILE}(?: {_TILE})*")
_DECISION_WORDS = r"(?:decisions?|decisión|decisiones|Entscheidung(?:en)?|karar)"
_DECISION_TAG = re.compile(
    rf"\s*\({_DECISION_WORDS}\s+D\d{{1,2}}(?:\s+(?:and|y|und|ve)\s+D\d{{1,2}})?\)"
)


def _tiles_rule(tile: Callable[[str], str]) -> _RenderRule:
    def code_inline(
        renderer: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any
    ) -> str:
        content = tokens[idx].content
        if _TILES.fullmatch(content):
            pictures = "".join(tile(t) for t in content.split(" "))
            return f'<span class="tile-row">{pictures}</span>'
        return f"<code>{escape_html(content)}</code>"

    return code_inline


def _build() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False})
    md.enable("table")
    md.disable(_OFF_BLOCK + _OFF_INLINE)
    _guard(md, "heading", _heading_up_to_h3)
    _guard(md, "list", _top_level)
    md.block.ruler.before("paragraph", "unindented_line", _unindented_line, {"alt": ["paragraph"]})
    md.core.ruler.after("inline", "drop_unsafe_links", _drop_unsafe_links)
    md.core.ruler.after("drop_unsafe_links", "restore_pipes", _restore_pipes)
    # Every link is parsed and kept as written; _drop_unsafe_links judges its target.
    md.validateLink = lambda url: True
    md.normalizeLink = lambda url: url
    renderer_rules: dict[str, _RenderRule] = {
        "softbreak": _fixed(" "),
        "hardbreak": _fixed(" "),
        "tr_open": _row_open,
        "th_open": _fixed("<th>"),  # no alignment styles (the CSP refuses inline styles)
        "td_open": _fixed("<td>"),
        "td_close": _fixed("</td>"),
    }
    for name, rule in renderer_rules.items():
        md.add_render_rule(name, rule)
    return md


_MD = _build()


_PICTURED: dict[Callable[[str], str], MarkdownIt] = {}


def render_markdown(text: str, *, tile: Callable[[str], str] | None = None) -> str:
    """Render the supported Markdown subset to HTML (all text escaped).

    ``tile`` (the public page's): the HTML of one tile from its notation (``"R7"``, ``"F"``);
    with it, tile notation in code spans is drawn as tiles and the decision tags are left
    out."""
    text = _protect_pipes(text.replace("\x00", "").replace(_PIPE, ""))
    if tile is None:
        return _MD.render(text)
    md = _PICTURED.get(tile)
    if md is None:
        md = _PICTURED[tile] = _build()
        md.add_render_rule("code_inline", _tiles_rule(tile))
    return md.render(_DECISION_TAG.sub("", text))


def _plain_inline(text: str) -> str:
    """Inline markup stripped: the text a reader sees."""
    tokens = _MD.parseInline(text.replace("\x00", ""))[0].children or []
    return "".join(
        " " if t.type in ("softbreak", "hardbreak") else t.content
        for t in tokens
        if t.type in ("text", "code_inline", "softbreak", "hardbreak")
    ).strip()


# --------------------------------------------------------------------------- pages


def _normalise_language(lang: object) -> str:
    """``"es"``, ``"ES"``, ``"es-ES"``, ``"es_MX"`` -> ``"es"``; anything unknown -> English."""
    if not isinstance(lang, str):
        return DEFAULT_LANGUAGE
    code = lang.strip().lower().replace("_", "-").split("-", 1)[0]
    return code if code in LANGUAGES else DEFAULT_LANGUAGE


def page_path(lang: str, slug: str) -> Path:
    """The file of one page, with the English fallback; ``KeyError`` for an unknown slug.

    Both parts are checked against fixed lists before any path is built, so no input can
    reach a file outside this package.
    """
    if not isinstance(slug, str) or slug not in SLUGS:
        raise KeyError(slug)
    code = _normalise_language(lang)
    path = PAGES_DIR / code / f"{slug}.md"
    if not path.is_file():
        path = PAGES_DIR / DEFAULT_LANGUAGE / f"{slug}.md"
    if not path.is_file():
        raise KeyError(slug)
    return path


def split_title(text: str) -> tuple[str, str]:
    """(plain title, remaining Markdown) from a page whose first line is ``# Title``."""
    text = text.lstrip("\ufeff")
    first, _, rest = text.partition("\n")
    m = _TITLE.match(first)
    if not m:
        raise ValueError("a rules page must start with a '# Title' line")
    return _plain_inline(m.group(1)), rest


def load_page(lang: str, slug: str, *, tile: Callable[[str], str] | None = None) -> tuple[str, str]:
    """(title, html) of one page; English when ``lang`` has no such file.

    ``title`` is plain text (escape it when you put it in HTML); ``html`` is the body below the
    title, already escaped and safe to insert. ``tile``: as for ``render_markdown`` (the
    public page draws tiles and leaves the decision tags out).
    """
    path = page_path(lang, slug)
    title, body = split_title(path.read_text(encoding="utf-8"))
    return title, render_markdown(body, tile=tile)
