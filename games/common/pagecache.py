"""Rendered fragments of the heavy pages, kept per change and language.

A heavy page (a hand's review, a tournament's standings and rounds, its who-met-whom
matrix, the lobby's lists) is rendered in two parts: the page around it (the site's
header with the visitor's name, the CSRF token of each form, the flash messages,
anything about the visitor) is rendered for every request, and the expensive inner
fragment is rendered once per *key* and kept in the ``pages`` cache
(``okeysite/settings.py``: local memory, one per process).

A key names everything the fragment shows: the thing it shows and the version of it
(a finished hand never changes; a tournament's version is read from its rows, see
``games.tournaments.views``), the viewer's part in it (a review's seat, a tournament
player's own row), and the active language. A change makes a new key, so the next
request renders afresh at once: nothing is invalidated by a timer, and the cache may
stay per process when several processes serve the site (with Redis too), because a key
read from the database is the same in each of them. The timeout only lets entries
nobody asks for leave the memory.

Fragments are rendered **without the request** (``render_to_string`` with no request:
no context processors), so a fragment can hold no CSRF token, no session and no
visitor's name unless its key says whose it is; what differs between visitors is
passed in the context and named in the key.

``OKEY_PAGE_CACHE = False`` (settings) renders every fragment afresh (the same HTML,
slower): the benchmark's "without the cache" runs and a check when a page looks stale.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

ALIAS = "pages"
TTL_S = 3600  # memory only: a key's fragment never goes stale (see the module's docstring)


def enabled() -> bool:
    return bool(getattr(settings, "OKEY_PAGE_CACHE", True))


def key(name: str, parts: Any) -> str:
    """The cache key of fragment ``name`` for ``parts`` in the active language."""
    raw = repr((name, get_language() or "", parts))
    return f"pc:{name}:" + hashlib.blake2b(raw.encode(), digest_size=16).hexdigest()


def fragment(name: str, parts: Any, build: Callable[[], str]) -> SafeString:
    """The fragment ``name`` for ``parts`` (hashable data naming everything it shows):
    kept, or ``build()`` now and kept. ``build`` renders it without the request."""
    if not enabled():
        return mark_safe(build())
    store = caches[ALIAS]
    k = key(name, parts)
    html = store.get(k)
    if html is None:
        html = build()
        store.set(k, html, TTL_S)
    return mark_safe(html)


def render(template_name: str, context: dict[str, Any]) -> str:
    """A fragment's HTML: the template rendered without the request (no context
    processors: no CSRF token, no user, no messages can enter it)."""
    return render_to_string(template_name, context)


def digest(value: Any) -> str:
    """A short fingerprint of data a fragment is rendered from (for a key)."""
    return hashlib.blake2b(repr(value).encode(), digest_size=16).hexdigest()
