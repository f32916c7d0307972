"""Parse an uploaded JSON file within limits, before any of it is trusted.

Both importers (``games.review.records`` for ``okey-review/1``, ``games.tournaments.exchange``
for ``okey-tournament/1``) read untrusted files. ``json.loads`` recurses once per nested list
or object, so ``[[[[…]]]]`` a hundred thousand deep raises ``RecursionError`` (a server error),
and a file can hold millions of tiny values. :func:`loads_bounded` refuses, in this order:

1. a file over ``max_bytes`` (before decoding);
2. bytes that are not UTF-8 (the exports of this site are UTF-8);
3. nesting deeper than ``max_depth``, found by one scan of the brackets outside strings,
   without recursion and before ``json.loads`` runs (so the parser never recurses deeper
   than the format allows);
4. text that is not JSON, and ``NaN``/``Infinity`` (not JSON, though Python accepts them);
5. more than ``max_values`` values in all, or a string (or an object key) longer than
   ``max_string`` characters, counted by an iterative walk.

Each refusal is a :class:`JSONRefused` with a stable code and the numbers it is about; the
importers turn it into their own translated message.

Then the document is read into the importer's pydantic model of its format (strict: a value of
the wrong type is refused, never converted). :func:`load_object` and :func:`validate` are the
one parse step both importers share: the bounds first, then the model, and any refusal comes
out as the importer's own exception with a code and the message the person sees. A model
refuses in two ways: a validator raises :func:`refusal` with the format's code and message, or
pydantic reports a type or shape error and the importer's ``explain`` names it from where it
is (the first error in the order the model validates, which is the order of its fields).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails, PydanticCustomError

# A JSON string (with its escapes) or one bracket. Strings are matched whole so that the
# brackets inside them are skipped. The quantifier is possessive and an unterminated string
# (even one ending in a lone backslash) runs to the end of the text, so a match that starts
# never fails: nothing is ever scanned twice, so a file of quotes and
# backslashes ('"\\"\\"…') costs linear time, not quadratic (it is not JSON: the parser says so).
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*+(?:"|\\?\Z)|[\[\]{}]', re.S)


@dataclass
class JSONRefused(Exception):
    """``code``: ``too_large``, ``not_utf8``, ``too_deep``, ``bad_json``, ``too_many_values``
    or ``string_too_long``; ``params`` hold the numbers (``size``, ``max``, …)."""

    code: str
    detail: str
    params: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.code}: {self.detail}"


def nesting_depth(text: str, limit: int) -> int:
    """The deepest nesting of lists and objects in ``text``, or the first depth over
    ``limit`` (the scan stops there). Malformed text is left to the parser."""
    depth = deepest = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return deepest
        elif token in "]}":
            depth -= 1
    return deepest


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def loads_bounded(
    raw: bytes | str,
    *,
    max_bytes: int,
    max_depth: int,
    max_values: int,
    max_string: int,
) -> Any:
    """The parsed document, or :class:`JSONRefused` (see the module docstring)."""
    data = raw.encode() if isinstance(raw, str) else bytes(raw)
    if len(data) > max_bytes:
        raise JSONRefused(
            "too_large", "the file is too large", {"size": len(data), "max": max_bytes}
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise JSONRefused("not_utf8", "the file is not UTF-8 text") from None
    depth = nesting_depth(text, max_depth)
    if depth > max_depth:
        raise JSONRefused("too_deep", "the file is nested too deeply", {"max": max_depth})
    try:
        doc = json.loads(text, parse_constant=_no_constants)
    except (ValueError, RecursionError) as exc:
        raise JSONRefused("bad_json", str(exc), {"error": str(exc)}) from None
    _check_values(doc, max_values, max_string)
    return doc


def _check_values(doc: Any, max_values: int, max_string: int) -> None:
    count = 0
    stack = [doc]
    while stack:
        value = stack.pop()
        count += 1
        if count > max_values:
            raise JSONRefused(
                "too_many_values", "the file holds too many values", {"max": max_values}
            )
        if isinstance(value, str):
            if len(value) > max_string:
                raise JSONRefused(
                    "string_too_long", "a text in the file is too long", {"max": max_string}
                )
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, dict):
            for key, item in value.items():
                if len(key) > max_string:
                    raise JSONRefused(
                        "string_too_long", "a text in the file is too long", {"max": max_string}
                    )
                stack.append(item)


def refusal_message(exc: JSONRefused) -> str:
    """The refusal in the visitor's language (the same words for both importers)."""
    from django.utils.translation import gettext as _

    p = exc.params
    if exc.code == "too_large":
        return _("The file is too large (%(size)s bytes; at most %(max)s).") % p
    if exc.code == "not_utf8":
        return _("The file is not UTF-8 text.")
    if exc.code == "too_deep":
        return _("The file nests lists and objects too deeply (at most %(max)s levels).") % p
    if exc.code == "too_many_values":
        return _("The file holds too many values (at most %(max)s).") % p
    if exc.code == "string_too_long":
        return _("A text in the file is too long (at most %(max)s characters).") % p
    return _("This is not valid JSON: %(error)s") % p


# ------------------------------------------------------------------ the shared parse step

M = TypeVar("M", bound=BaseModel)
# The importer's exception from a refusal code and the message for the person.
Refused = Callable[[str, str], Exception]
# A pydantic error (the first one) as the importer's refusal: (code, message).
Explain = Callable[[ErrorDetails], tuple[str, str]]


def load_object(
    raw: bytes | str,
    *,
    max_bytes: int,
    max_depth: int,
    max_values: int,
    max_string: int,
    refused: Refused,
) -> Any:
    """:func:`loads_bounded`, its refusal raised as the importer's exception. A file that is
    not UTF-8 is refused as ``bad_json`` (for the person it is not a JSON file either)."""
    try:
        return loads_bounded(
            raw,
            max_bytes=max_bytes,
            max_depth=max_depth,
            max_values=max_values,
            max_string=max_string,
        )
    except JSONRefused as exc:
        code = "bad_json" if exc.code == "not_utf8" else exc.code
        raise refused(code, refusal_message(exc)) from None


def refusal(code: str, message: str) -> PydanticCustomError:
    """Raise this from a model's validator to refuse the file with ``code`` and ``message``
    (already in the person's language)."""
    return PydanticCustomError(code, "{refusal}", {"refusal": message})


def validate(
    model: type[M],
    data: Any,
    *,
    explain: Explain,
    refused: Refused,
    context: dict[str, Any] | None = None,
) -> M:
    """``data`` read into ``model`` (strict), or the importer's exception for its first error:
    a :func:`refusal` as it was raised, any other error as ``explain`` names it."""
    try:
        return model.model_validate(data, strict=True, context=context)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        ctx = first.get("ctx") or {}
        if "refusal" in ctx:
            raise refused(first["type"], str(ctx["refusal"])) from None
        raise refused(*explain(first)) from None
