"""Who calls: ``Authorization: Bearer <token>`` (docs/api.md, "Tokens and scopes").

``Token(scope)`` guards a route that needs a token with that scope (any of several);
``Anyone()`` a public route, which answers anyone and, with a valid token, knows its
user too (a player's own private profile). Either way a token that is sent is checked:
an unknown or revoked one is refused (401), never taken for no token at all.

Both return the ``Caller`` that the routes read as ``request.auth``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja.security import HttpBearer

from games.api import throttles, tokens
from games.api.errors import ApiError
from games.api.models import ApiToken


@dataclass(frozen=True)
class Caller:
    token: ApiToken | None  # None: no token was sent (a public route)

    @property
    def user(self) -> Any:
        return self.token.user if self.token is not None else None

    def allows(self, scope: str) -> bool:
        return self.token is not None and self.token.allows(scope)


def _caller(request: HttpRequest, secret: str) -> Caller:
    throttles.check_auth_failures(request)
    token = tokens.find(secret.strip())
    if token is None:
        throttles.record_auth_failure(request)
        raise ApiError(401, "invalid_token", _("This token is not known."))
    if token.revoked_at is not None:
        throttles.record_auth_failure(request)
        raise ApiError(401, "token_revoked", _("This token was revoked by its owner."))
    if not token.user.is_active:
        raise ApiError(401, "invalid_token", _("This token's account is closed."))
    throttles.check_token(token.pk)
    tokens.do_touch(token)
    return Caller(token)


class Token(HttpBearer):
    """A route for token holders whose token has one of ``scopes``."""

    def __init__(self, *scopes: str) -> None:
        super().__init__()
        self.scopes = scopes

    def __call__(self, request: HttpRequest) -> Caller | None:
        header = request.headers.get(self.header, "")
        if not header:
            raise ApiError(
                401,
                "missing_token",
                _("This route needs a token: send Authorization: Bearer <token>."),
            )
        kind, _sep, secret = header.partition(" ")
        if kind.lower() != "bearer" or not secret.strip():
            raise ApiError(
                401, "missing_token", _("Send the token as Authorization: Bearer <token>.")
            )
        return self.authenticate(request, secret)

    def authenticate(self, request: HttpRequest, token: str) -> Caller | None:
        caller = _caller(request, token)
        if not any(caller.allows(s) for s in self.scopes):
            raise ApiError(
                403,
                "insufficient_scope",
                _("This token's scopes do not allow this: it needs %(scopes)s.")
                % {"scopes": " or ".join(self.scopes)},
            )
        return caller


class Anyone(Token):
    """A public route: anyone, and a token's user when a valid token is sent. Its
    OpenAPI security is "none or Token" (``PUBLIC``), so it names no scheme of its own."""

    def __init__(self) -> None:
        super().__init__()
        del self.openapi_security_schema

    def __call__(self, request: HttpRequest) -> Caller | None:
        if not request.headers.get(self.header, ""):
            return Caller(None)
        return super().__call__(request)

    def authenticate(self, request: HttpRequest, token: str) -> Caller | None:
        return _caller(request, token)


# A public route's OpenAPI security: no token, or the Token scheme.
PUBLIC = {"security": [{}, {"Token": []}]}
