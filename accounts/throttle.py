"""Per IP + username failed-login limit, kept in Django's cache.

After ``LOGIN_THROTTLE_LIMIT`` failures (default 5) within ``LOGIN_THROTTLE_WINDOW``
seconds (default 300) of the first one, further attempts for that IP and username are
refused (even with the right password) until the window ends. A successful login clears
the count.
"""

import hashlib

from django.conf import settings
from django.core.cache import cache


def _limit() -> int:
    return getattr(settings, "LOGIN_THROTTLE_LIMIT", 5)


def _window() -> int:
    return getattr(settings, "LOGIN_THROTTLE_WINDOW", 300)


def client_ip(request) -> str:
    # REMOTE_ADDR only: X-Forwarded-For is client-controlled unless a trusted proxy
    # rewrites it (put such a proxy's middleware in front if one is ever used).
    return (request.META.get("REMOTE_ADDR") or "unknown") if request is not None else "none"


def _key(request, username: str) -> str:
    raw = f"{client_ip(request)}|{(username or '').strip().lower()}"
    return "login-fail:" + hashlib.sha256(raw.encode()).hexdigest()


def failures(request, username: str) -> int:
    return cache.get(_key(request, username), 0)


def is_blocked(request, username: str) -> bool:
    return failures(request, username) >= _limit()


def record_failure(request, username: str) -> int:
    key = _key(request, username)
    # add() only sets when absent, so the window runs from the first failure.
    cache.add(key, 0, timeout=_window())
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=_window())
        return 1


def reset(request, username: str) -> None:
    cache.delete(_key(request, username))
