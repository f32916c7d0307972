"""Rate limits for log-in, sign-up and password-reset requests, counted in Django's cache.

Each limit is a fixed window: the count starts with the first event and the cache drops it
``window`` seconds later; while the count is at the limit, the action is refused (and the
refusal itself is not counted, so a refused request changes nothing).

- Log-in, per IP + username: ``LOGIN_THROTTLE_LIMIT`` failures (default 5) within
  ``LOGIN_THROTTLE_WINDOW`` seconds (300) block that username from that IP, even with the
  right password. A successful log-in clears this count.
- Log-in, per IP across usernames: ``LOGIN_IP_THROTTLE_LIMIT`` failures (20) within
  ``LOGIN_IP_THROTTLE_WINDOW`` seconds (900) block every log-in from that IP (guessing one
  password against many usernames). A success does not clear it: one working account
  must not reset the count for the others.
- Sign-up, per IP: ``SIGNUP_THROTTLE_LIMIT`` accounts (5) per ``SIGNUP_THROTTLE_WINDOW``
  seconds (3600).
- Quick match's "Play now", per account: ``QUICK_MATCH_PRESS_LIMIT`` presses (10) per
  ``QUICK_MATCH_PRESS_WINDOW`` seconds (60) (games/matchmaking/views.py).
- Club invitations, per account: ``CLUB_INVITE_LIMIT`` (20) per ``CLUB_INVITE_WINDOW``
  seconds (3600), counted whether or not the name belongs to an account
  (games/clubs/views.py).
- Password-reset requests, per IP: ``PASSWORD_RESET_THROTTLE_LIMIT`` (5) per
  ``PASSWORD_RESET_THROTTLE_WINDOW`` seconds (3600), counted whether or not the address
  belongs to an account (so the refusal says nothing about the address).

Why not django-axes: it covers log-in only (sign-up and reset would still need this
module), needs its own authentication backend, middleware and database tables, and writes
a row per attempt; these counters are a few cache keys, shared between processes through the
Redis cache when ``REDIS_URL`` is set (the local-memory cache counts per process).

The client's IP is ``REMOTE_ADDR`` unless ``TRUSTED_PROXIES`` (the number of reverse
proxies in front of the site, default 0) says otherwise; see :func:`client_ip`. IPv6
addresses count per /64 network, the block one subscriber usually holds.
"""

from __future__ import annotations

import hashlib
import ipaddress
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache


@dataclass(frozen=True)
class Limit:
    """One rate limit: its cache key prefix and the settings (with defaults) it reads."""

    prefix: str
    limit_setting: str
    window_setting: str
    default_limit: int
    default_window: int

    @property
    def limit(self) -> int:
        return int(getattr(settings, self.limit_setting, self.default_limit))

    @property
    def window(self) -> int:
        return int(getattr(settings, self.window_setting, self.default_window))


LOGIN_USER = Limit("login-fail", "LOGIN_THROTTLE_LIMIT", "LOGIN_THROTTLE_WINDOW", 5, 300)
LOGIN_IP = Limit("login-fail-ip", "LOGIN_IP_THROTTLE_LIMIT", "LOGIN_IP_THROTTLE_WINDOW", 20, 900)
SIGNUP_IP = Limit("signup-ip", "SIGNUP_THROTTLE_LIMIT", "SIGNUP_THROTTLE_WINDOW", 5, 3600)
RESET_IP = Limit(
    "reset-ip", "PASSWORD_RESET_THROTTLE_LIMIT", "PASSWORD_RESET_THROTTLE_WINDOW", 5, 3600
)
QUICK_PRESS = Limit("quick-press", "QUICK_MATCH_PRESS_LIMIT", "QUICK_MATCH_PRESS_WINDOW", 10, 60)
CLUB_INVITE = Limit("club-invite", "CLUB_INVITE_LIMIT", "CLUB_INVITE_WINDOW", 20, 3600)


def client_ip(request) -> str:
    """The address a request comes from, as the throttles count it.

    ``REMOTE_ADDR`` by default: ``X-Forwarded-For`` is written by the client unless a proxy
    we trust rewrites it. With ``TRUSTED_PROXIES = n`` (n reverse proxies, each appending
    the address it was reached from, e.g. nginx's ``$proxy_add_x_forwarded_for``), the
    client is the n-th address from the right of ``X-Forwarded-For``; what lies further
    left was sent by the client and is ignored.
    """
    if request is None:
        return "none"
    address = request.META.get("REMOTE_ADDR") or ""
    hops = int(getattr(settings, "TRUSTED_PROXIES", 0) or 0)
    if hops > 0:
        forwarded = [
            part.strip()
            for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
            if part.strip()
        ]
        if forwarded:
            # Fewer entries than proxies: every entry was written by a proxy we trust.
            address = forwarded[-hops] if len(forwarded) >= hops else forwarded[0]
    return _bucket(address)


def _bucket(address: str) -> str:
    try:
        ip = ipaddress.ip_address(address.strip().strip("[]"))
    except ValueError:
        return address or "unknown"
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def _cache_key(limit: Limit, *parts: str) -> str:
    raw = "|".join(parts)
    return f"{limit.prefix}:" + hashlib.sha256(raw.encode()).hexdigest()


def count(limit: Limit, *parts: str) -> int:
    return cache.get(_cache_key(limit, *parts), 0)


def at_limit(limit: Limit, *parts: str) -> bool:
    return count(limit, *parts) >= limit.limit


def hit(limit: Limit, *parts: str) -> int:
    """Count one event; returns the count in the current window."""
    key = _cache_key(limit, *parts)
    # add() only sets when absent, so the window runs from the first event.
    cache.add(key, 0, timeout=limit.window)
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=limit.window)
        return 1


def clear(limit: Limit, *parts: str) -> None:
    cache.delete(_cache_key(limit, *parts))


# Log-in -----------------------------------------------------------------------------


def _user_parts(request, username: str) -> tuple[str, str]:
    return client_ip(request), (username or "").strip().lower()


def _key(request, username: str) -> str:
    """The cache key of the IP + username count."""
    return _cache_key(LOGIN_USER, *_user_parts(request, username))


def failures(request, username: str) -> int:
    """Failed log-ins for this IP + username in the current window."""
    return count(LOGIN_USER, *_user_parts(request, username))


def ip_failures(request) -> int:
    """Failed log-ins from this IP, any username, in the current window."""
    return count(LOGIN_IP, client_ip(request))


def is_blocked(request, username: str) -> bool:
    """True when a log-in for ``username`` from this request's IP must be refused."""
    return at_limit(LOGIN_USER, *_user_parts(request, username)) or at_limit(
        LOGIN_IP, client_ip(request)
    )


def record_failure(request, username: str) -> int:
    """Count a failed log-in (per IP + username and per IP); returns the first count."""
    hit(LOGIN_IP, client_ip(request))
    return hit(LOGIN_USER, *_user_parts(request, username))


def reset(request, username: str) -> None:
    """A successful log-in clears its IP + username count (not the IP's)."""
    clear(LOGIN_USER, *_user_parts(request, username))


# Sign-up and password reset ------------------------------------------------------------


def signup_blocked(request) -> bool:
    return at_limit(SIGNUP_IP, client_ip(request))


def record_signup(request) -> int:
    return hit(SIGNUP_IP, client_ip(request))


def reset_blocked(request) -> bool:
    return at_limit(RESET_IP, client_ip(request))


def record_reset(request) -> int:
    return hit(RESET_IP, client_ip(request))


# Per account ----------------------------------------------------------------------------


def account_blocked(limit: Limit, user) -> bool:
    """Is ``user`` at ``limit`` (quick-match presses, club invitations)?"""
    return at_limit(limit, f"u:{user.pk}")


def record_account(limit: Limit, user) -> int:
    return hit(limit, f"u:{user.pk}")
