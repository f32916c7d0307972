"""The signed-in player's profile language wins over the cookie and the browser's.

Django's ``LocaleMiddleware`` runs before authentication and so picks the language from
the language cookie or the browser's Accept-Language header; a player who signed in on
another device (no cookie yet) would get the browser's language around pages, mails and
frames that follow their profile. :class:`ProfileLanguageMiddleware` (after
``AuthenticationMiddleware``) activates the profile's language for the rest of the request.

The language switcher (``accounts.views.set_language``) saves the new choice in the profile
as well as in the cookie, and log-in and the profile form set the cookie from the profile,
so the two agree after any explicit switch; the table's websocket reads the same profile
language first (``games.consumers.scope_language``).
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import ObjectDoesNotExist
from django.http import HttpRequest, HttpResponse
from django.utils import translation

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
