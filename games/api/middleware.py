"""The guard in front of every path under /api/ (docs/api.md, "Limits" and "CORS").

In order: the per-address rate limit (429), the body's size (413 past
``API_MAX_BODY_BYTES``, 64 KiB by default: read at most that many bytes plus one, whatever
``Content-Length`` says or when it is missing), then the route; and CORS, which is off
unless ``API_CORS_ORIGINS`` names origins: then only those get
``Access-Control-Allow-Origin`` (tokens travel in a header, never in cookies, so no
credentials are allowed). Every other path passes untouched.
"""

from __future__ import annotations

from collections.abc import Callable
from io import BytesIO

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from games.api import throttles
from games.api.errors import ApiError, error_response

PREFIX = "/api/"
DEFAULT_MAX_BODY = 64 * 1024
CORS_METHODS = "GET, POST, OPTIONS"
CORS_HEADERS = "Authorization, Content-Type"
CORS_MAX_AGE = "600"


def max_body() -> int:
    return int(getattr(settings, "API_MAX_BODY_BYTES", DEFAULT_MAX_BODY))


def cors_origin(request: HttpRequest) -> str | None:
    """The request's ``Origin`` when ``API_CORS_ORIGINS`` lists it; None otherwise."""
    allowed = getattr(settings, "API_CORS_ORIGINS", None) or ()
    origin = request.headers.get("Origin", "")
    return origin if origin and origin in allowed else None


def _too_large(limit: int) -> ApiError:
    return ApiError(
        413,
        "body_too_large",
        _("The request body is larger than %(n)s bytes.") % {"n": limit},
    )


def read_body(request: HttpRequest) -> None:
    """Read the body once, at most ``max_body() + 1`` bytes, and leave it where Django
    (and ninja's parser) read it from; ``ApiError`` 413 when it is larger."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    limit = max_body()
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        declared = 0
    if declared > limit:
        raise _too_large(limit)
    data = request.read(limit + 1)
    if len(data) > limit:
        raise _too_large(limit)
    request._body = data  # what ``request.body`` answers from now on
    request._stream = BytesIO(data)


def api_guard(get_response: Callable[[HttpRequest], HttpResponse]):
    def middleware(request: HttpRequest) -> HttpResponse:
        if not request.path.startswith(PREFIX):
            return get_response(request)
        origin = cors_origin(request)
        try:
            throttles.check_ip(request)
            if (
                request.method == "OPTIONS"
                and origin is not None
                and "Access-Control-Request-Method" in request.headers
            ):
                response = HttpResponse(status=204)
                response["Access-Control-Allow-Methods"] = CORS_METHODS
                response["Access-Control-Allow-Headers"] = CORS_HEADERS
                response["Access-Control-Max-Age"] = CORS_MAX_AGE
            else:
                read_body(request)
                response = get_response(request)
        except ApiError as e:
            response = error_response(e)
        if origin is not None:
            response["Access-Control-Allow-Origin"] = origin
            response["Vary"] = "Origin"
        if "Authorization" in request.headers:
            response["Cache-Control"] = "no-store"  # a token's answers are its own
        return response

    return middleware
