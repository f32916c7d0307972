"""Personal access tokens: made, revoked and looked up (docs/api.md, "Tokens").

The secret is 32 random bytes (``secrets.token_urlsafe``: 43 characters) and is returned
once, by ``do_create_token``; the database keeps its SHA-256 (``ApiToken.digest``), so a
copy of the database lets nobody call the API as its players. A lookup hashes what the
client sent and finds the row by that digest (a unique index): no secret is compared.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games.api.models import SCOPES, ApiToken

# Tokens one account may hold at once (revoked ones do not count).
MAX_ACTIVE = 20
# The longest string looked up as a token: anything longer is refused without hashing.
MAX_SECRET = 100
# ``last_used_at`` is written at most this often per token (not on every request).
TOUCH_EVERY = timedelta(minutes=1)


class TokenRefused(Exception):
    """A token action refused: stable code and human message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def now() -> datetime:
    return timezone.now()


def digest_of(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def do_create_token(user: Any, name: str, scopes: list[str]) -> tuple[ApiToken, str]:
    """A new token of ``user`` with these scopes; returns it and its secret (shown once)."""
    scopes = sorted(set(scopes))
    if not scopes or any(s not in SCOPES for s in scopes):
        raise TokenRefused("bad_scope", "choose one or more of: " + ", ".join(SCOPES))
    name = (name or "").strip()[:60]
    if not name:
        raise TokenRefused("bad_name", "a token needs a name")
    with transaction.atomic():
        # the account's row orders two creations at once, so the cap holds
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        if ApiToken.objects.filter(user=user, revoked_at__isnull=True).count() >= MAX_ACTIVE:
            raise TokenRefused("too_many_tokens", f"at most {MAX_ACTIVE} tokens at once")
        secret = secrets.token_urlsafe(32)
        token = ApiToken.objects.create(
            user=user,
            name=name,
            prefix=secret[:8],
            digest=digest_of(secret),
            scopes=scopes,
            created_at=now(),
        )
    return token, secret


def do_revoke_token(user: Any, token_id: int) -> ApiToken:
    """Revoke one of ``user``'s tokens (once: revoking it again changes nothing)."""
    with transaction.atomic():
        token = ApiToken.objects.select_for_update().filter(pk=token_id, user=user).first()
        if token is None:
            raise TokenRefused("no_such_token", "there is no such token")
        if token.revoked_at is None:
            token.revoked_at = now()
            token.save(update_fields=["revoked_at"])
        return token


def find(secret: str) -> ApiToken | None:
    """The token whose secret this is (revoked or not), with its user; None if unknown."""
    if not secret or len(secret) > MAX_SECRET:
        return None
    return ApiToken.objects.select_related("user").filter(digest=digest_of(secret)).first()


def do_touch(token: ApiToken) -> None:
    """Note that the token was used now (at most once per ``TOUCH_EVERY``)."""
    at = now()
    if token.last_used_at is None or at - token.last_used_at >= TOUCH_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=at)
        token.last_used_at = at


def active_tokens(user: Any) -> list[ApiToken]:
    return list(ApiToken.objects.filter(user=user, revoked_at__isnull=True))
