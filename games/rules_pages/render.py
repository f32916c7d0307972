"""A tiny, safe Markdown renderer for the "How to play" pages.

Pure Python (standard library and the engine's registry of rule sets, no Django). It
understands exactly the subset described in ``README.md`` beside this file:

- headings ``#``, ``##``, ``###``;
- paragraphs (consecutive non-blank lines);
- ``-`` lists and ``1.`` lists (an indented line continues the item above it, even when it
  starts like a list item: there are no nested lists);
- pipe tables (a header row, a ``|---|---|`` separator row, then body rows);
- inline ``**bold**``, ``*italic*``, ```code``` and ``[links](target)``.

Every piece of text is HTML-escaped: raw HTML in a page is shown as text, never passed through.
Link targets are kept only when they are relative, ``#anchors``, ``http(s):`` or ``mailto:``;
any other target (``javascript:`` and the like) renders the link text alone.

Public API:

- ``render_markdown(text) -> str``: the HTML of a whole document.
- ``load_page(lang, slug) -> (title, html)``: one page of this package. ``title`` is the plain
  text of the first line (``# Title``); ``html`` is the rest of the page rendered. A language
  without that file falls back to English; an unknown slug raises ``KeyError``.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

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

_HEADING = re.compile(r"^(#{1,3})\s+(.*?)\s*$")
_UL_ITEM = re.compile(r"^ ?-\s+(.*)$")
_OL_ITEM = re.compile(r"^ ?\d{1,9}\.\s+(.*)$")
_TABLE_SEP_CELL = re.compile(r"^\s*:?-{1,}:?\s*$")
_CONTINUATION = re.compile(r"^(\s{2,}|\t)\S")

_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)
_LINK = re.compile(r"\[([^\[\]]+)\]\(\s*([^()\s]+)\s*\)")
_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*", re.S)
_ITALIC = re.compile(r"(?<![*\w])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![*\w])", re.S)
_PLACEHOLDER = re.compile("\x00(\\d+)\x00")
_SAFE_SCHEMES = ("http:", "https:", "mailto:")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


# --------------------------------------------------------------------------- inline


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


def _render_inline(text: str) -> str:
    """Render one run of inline text (already stripped of the block syntax)."""
    text = text.replace("\x00", "")
    stash: list[str] = []

    def keep(fragment: str) -> str:
        stash.append(fragment)
        return f"\x00{len(stash) - 1}\x00"

    def code(m: re.Match[str]) -> str:
        content = m.group(2)
        return keep(f"<code>{html.escape(content, quote=False)}</code>")

    text = _CODE_SPAN.sub(code, text)

    def link(m: re.Match[str]) -> str:
        label = _format(m.group(1))
        target = _safe_target(m.group(2))
        if target is None:
            return keep(label)
        return keep(f'<a href="{html.escape(target, quote=True)}">{label}</a>')

    text = _LINK.sub(link, text)
    text = _format(text)
    while _PLACEHOLDER.search(text):
        text = _PLACEHOLDER.sub(lambda m: stash[int(m.group(1))], text)
    return text


def _format(text: str) -> str:
    """Escape text (placeholders excepted) and apply bold and italic."""
    parts = _PLACEHOLDER.split(text)
    out = []
    for i, part in enumerate(parts):
        # split() with one group alternates: text, index, text, index, ...
        out.append(f"\x00{part}\x00" if i % 2 else html.escape(part, quote=False))
    escaped = "".join(out)
    escaped = _BOLD.sub(r"<strong>\1</strong>", escaped)
    escaped = _ITALIC.sub(r"<em>\1</em>", escaped)
    return escaped


# --------------------------------------------------------------------------- blocks


def _split_row(line: str) -> list[str]:
    """Cells of a pipe-table row; ``\\|`` is a literal pipe, pipes inside code spans too."""
    row = line.strip()
    if row.startswith("|"):
        row = row[1:]
    if row.endswith("|") and not row.endswith("\\|"):
        row = row[:-1]
    cells: list[str] = []
    current: list[str] = []
    in_code = False
    i = 0
    while i < len(row):
        ch = row[i]
        if ch == "\\" and i + 1 < len(row) and row[i + 1] == "|":
            current.append("|")
            i += 2
            continue
        if ch == "`":
            in_code = not in_code
        if ch == "|" and not in_code:
            cells.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
        i += 1
    cells.append("".join(current).strip())
    return cells


def _is_table_start(lines: list[str], i: int) -> bool:
    if i + 1 >= len(lines) or "|" not in lines[i]:
        return False
    sep = lines[i + 1].strip()
    if "|" not in sep or "-" not in sep:
        return False
    return all(_TABLE_SEP_CELL.match(cell) for cell in _split_row(sep))


def _starts_block(lines: list[str], i: int) -> bool:
    line = lines[i]
    return bool(
        _HEADING.match(line)
        or _UL_ITEM.match(line)
        or _OL_ITEM.match(line)
        or _is_table_start(lines, i)
    )


def _render_table(lines: list[str], i: int) -> tuple[str, int]:
    header = _split_row(lines[i])
    width = len(header)
    i += 2
    body: list[list[str]] = []
    while i < len(lines) and lines[i].strip() and "|" in lines[i]:
        cells = _split_row(lines[i])
        cells = (cells + [""] * width)[:width]
        body.append(cells)
        i += 1
    out = ["<table>", "<thead>", "<tr>"]
    out += [f"<th>{_render_inline(cell)}</th>" for cell in header]
    out += ["</tr>", "</thead>"]
    if body:
        out.append("<tbody>")
        for cells in body:
            out.append("<tr>" + "".join(f"<td>{_render_inline(c)}</td>" for c in cells) + "</tr>")
        out.append("</tbody>")
    out.append("</table>")
    return "\n".join(out), i


def _render_list(lines: list[str], i: int, ordered: bool) -> tuple[str, int]:
    pattern = _OL_ITEM if ordered else _UL_ITEM
    items: list[list[str]] = []
    while i < len(lines):
        line = lines[i]
        m = pattern.match(line)
        if m:
            items.append([m.group(1).strip()])
        elif items and _CONTINUATION.match(line):
            # No nested lists: an indented line always continues the item above.
            items[-1].append(line.strip())
        else:
            break
        i += 1
    tag = "ol" if ordered else "ul"
    body = "\n".join(f"<li>{_render_inline(' '.join(parts))}</li>" for parts in items)
    return f"<{tag}>\n{body}\n</{tag}>", i


def render_markdown(text: str) -> str:
    """Render the supported Markdown subset to HTML (all text escaped)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    blocks: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        heading = _HEADING.match(line)
        if heading:
            level = len(heading.group(1))
            blocks.append(f"<h{level}>{_render_inline(heading.group(2))}</h{level}>")
            i += 1
            continue
        if _is_table_start(lines, i):
            block, i = _render_table(lines, i)
            blocks.append(block)
            continue
        if _UL_ITEM.match(line):
            block, i = _render_list(lines, i, ordered=False)
            blocks.append(block)
            continue
        if _OL_ITEM.match(line):
            block, i = _render_list(lines, i, ordered=True)
            blocks.append(block)
            continue
        para = [line.strip()]
        i += 1
        while i < len(lines) and lines[i].strip() and not _starts_block(lines, i):
            para.append(lines[i].strip())
            i += 1
        blocks.append(f"<p>{_render_inline(' '.join(para))}</p>")
    return "\n".join(blocks) + ("\n" if blocks else "")


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


def _plain_inline(text: str) -> str:
    """Inline markup stripped: the text a reader sees."""
    text = _LINK.sub(r"\1", text)
    text = _CODE_SPAN.sub(r"\2", text)
    text = re.sub(r"\*\*(.+?)\*\*", r"\1", text)
    text = re.sub(r"\*(.+?)\*", r"\1", text)
    return text.strip()


def split_title(text: str) -> tuple[str, str]:
    """(plain title, remaining Markdown) from a page whose first line is ``# Title``."""
    text = text.lstrip("\ufeff")
    first, _, rest = text.partition("\n")
    m = _HEADING.match(first)
    if not m or len(m.group(1)) != 1:
        raise ValueError("a rules page must start with a '# Title' line")
    return _plain_inline(m.group(2)), rest


def load_page(lang: str, slug: str) -> tuple[str, str]:
    """(title, html) of one page; English when ``lang`` has no such file.

    ``title`` is plain text (escape it when you put it in HTML); ``html`` is the body below the
    title, already escaped and safe to insert.
    """
    path = page_path(lang, slug)
    title, body = split_title(path.read_text(encoding="utf-8"))
    return title, render_markdown(body)
