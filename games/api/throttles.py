"""The API's rate limits (docs/api.md, "Limits"), counted in Django's cache as the
log-in limits are (``accounts.throttle``: fixed windows, shared between processes through
Redis when ``REDIS_URL`` is set).

- per client address, every request under /api/: ``API_IP_RATE_LIMIT`` (300) per
  ``API_IP_RATE_WINDOW`` seconds (60), checked first by the guard middleware;
- per token: ``API_TOKEN_RATE_LIMIT`` (120) per ``API_TOKEN_RATE_WINDOW`` seconds (60);
- failed token lookups per address (an unknown or revoked secret): after
  ``API_AUTH_FAIL_LIMIT`` (10) within ``API_AUTH_FAIL_WINDOW`` seconds (600) every request
  of that address carrying a token is refused before any lookup, so guessing secrets
  costs one window per ten guesses (and a secret has 256 random bits anyway).

A refused request is not counted and answers 429 with ``Retry-After`` (the window: the
longest it may have to wait).
"""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.translation import gettext as _

from accounts import throttle
from games.api.errors import ApiError

PER_IP = throttle.Limit("api-ip", "API_IP_RATE_LIMIT", "API_IP_RATE_WINDOW", 300, 60)
PER_TOKEN = throttle.Limit("api-token", "API_TOKEN_RATE_LIMIT", "API_TOKEN_RATE_WINDOW", 120, 60)
AUTH_FAILURES = throttle.Limit(
    "api-auth-fail", "API_AUTH_FAIL_LIMIT", "API_AUTH_FAIL_WINDOW", 10, 600
)


def _limited(limit: throttle.Limit, key: str) -> ApiError:
    return ApiError(
        429,
        "rate_limited",
        _("Too many requests: at most %(n)s in %(s)s seconds. Try again later.")
        % {"n": limit.limit, "s": limit.window},
        retry_after=limit.window,
    )


def check_ip(request: HttpRequest) -> None:
    """Count this request against its address; ``ApiError`` 429 past the limit."""
    ip = throttle.client_ip(request)
    if throttle.at_limit(PER_IP, ip):
        raise _limited(PER_IP, ip)
    throttle.hit(PER_IP, ip)


def check_token(token_id: int) -> None:
    key = f"t:{token_id}"
    if throttle.at_limit(PER_TOKEN, key):
        raise _limited(PER_TOKEN, key)
    throttle.hit(PER_TOKEN, key)


def check_auth_failures(request: HttpRequest) -> None:
    """Refuse every token from an address that failed too often (before the lookup)."""
    if throttle.at_limit(AUTH_FAILURES, throttle.client_ip(request)):
        raise ApiError(
            429,
            "too_many_failures",
            _("Too many unknown tokens from your address. Try again later."),
            retry_after=AUTH_FAILURES.window,
        )


def record_auth_failure(request: HttpRequest) -> None:
    throttle.hit(AUTH_FAILURES, throttle.client_ip(request))
