"""The signed-in player's profile language wins over the cookie and the browser's.

Django's ``LocaleMiddleware`` runs before authentication and so picks the language from
the language cookie or the browser's Accept-Language header; a player who signed in on
another device (no cookie yet) would get the browser's language around pages, mails and
frames that follow their profile. :class:`ProfileLanguageMiddleware` (after
``AuthenticationMiddleware``) activates the profile's language for the rest of the request.

The language switcher (``accounts.views.set_language``) saves the new choice in the profile
as well as in the cookie, and log-in and the profile form set the cookie from the profile,
so the two agree after any explicit switch. :func:`language_for_scope` makes the same
choice for a websocket (profile, cookie, then the browser's Accept-Language, as
``LocaleMiddleware`` does for a guest's page).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.translation import trans_real

from .models import LANGUAGE_CHOICES

_LANGUAGE_CODES = frozenset(code for code, _name in LANGUAGE_CHOICES)


def profile_language(user: object) -> str | None:
    """The language chosen in ``user``'s profile, or None (a guest, no profile, or a
    code the site does not offer)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    try:
        language = user.profile.language  # type: ignore[attr-defined]
    except (ObjectDoesNotExist, AttributeError):  # no profile row
        return None
    return language if language in _LANGUAGE_CODES else None


class ProfileLanguageMiddleware:
    """Activate the signed-in player's profile language (see the module's docstring)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = profile_language(getattr(request, "user", None))
        if language is not None and language != getattr(request, "LANGUAGE_CODE", None):
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)


def language_for_scope(scope: dict[str, Any]) -> str:
    """The language of a websocket's frames, chosen as a page's is: the signed-in player's
    profile language, else the language cookie, else the first language of the browser's
    Accept-Language the site offers, else the site's default."""
    language = profile_language(scope.get("user"))
    if language is not None:
        return language
    cookie = (scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME, "")
    if cookie in _LANGUAGE_CODES:
        return cookie
    headers = dict(scope.get("headers") or [])
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    for code, _quality in trans_real.parse_accept_lang_header(accept):
        if code == "*":
            break
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE
