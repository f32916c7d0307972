"""The API object (django-ninja): version 1, its routers, and every error in one shape
(``games.api.errors``). Mounted at /api/v1/ by ``games.api.urls``; its OpenAPI document is
/api/v1/openapi.json, rendered by Swagger UI at /api/docs (files served by this site,
nothing from a CDN). docs/api.md says why django-ninja and lists the routes."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, Throttled, ValidationError

from games.api import bot_stream
from games.api.errors import (
    ApiError,
    error_response,
    malformed_json,
    not_found,
    validation_errors,
)
from games.api.routers import players, records, rulesets, tables, tournaments

DESCRIPTION = """The Okey site's HTTP API: rule sets, players and ratings, finished games in
the okey-review/1 format, live tables, tournaments, and playing at your own seat.

Authenticate with a personal access token made on your profile page:
`Authorization: Bearer <token>`. Scopes: **read** (your games and hands), **play** (open
tables, invite, see your seat and move), **tournament** (the tournaments you organise or
play in). Public routes need no token.

Every error answers `{"code": ..., "message": ...}`; 429 answers carry `Retry-After`."""


class OkeyApi(NinjaAPI):
    """ninja's API, with its OpenAPI document made once per process: the routes are all
    registered at import, and making it costs about 80 ms (docs/api.md, "Measured")."""

    def get_openapi_schema(self, *, path_prefix=None, path_params=None):  # noqa: ANN001, ANN201
        key = path_prefix if path_prefix is not None else self.get_root_path(path_params or {})
        cache = self.__dict__.setdefault("_okey_schemas", {})
        if key not in cache:
            cache[key] = super().get_openapi_schema(path_prefix=key)
        return cache[key]


api = OkeyApi(
    title="Okey API",
    version="1",
    description=DESCRIPTION,
    urls_namespace="api-v1",
    docs_url="/docs",
    openapi_url="/openapi.json",
)

for module in (rulesets, players, records, tables, tournaments):
    api.add_router("/", module.router)
api.add_router("/", bot_stream.router)  # bot accounts and their stream (docs/bots-api.md)


@api.exception_handler(ApiError)
def on_api_error(request: HttpRequest, exc: ApiError) -> HttpResponse:
    return error_response(exc)


@api.exception_handler(ValidationError)
def on_invalid(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    return error_response(validation_errors(exc.errors))


@api.exception_handler(Http404)
def on_404(request: HttpRequest, exc: Http404) -> HttpResponse:
    return error_response(not_found())


@api.exception_handler(HttpError)
def on_http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    """ninja's own refusals: a body it could not parse (400), no token (401), 429."""
    if isinstance(exc, AuthenticationError):
        return error_response(ApiError(401, "missing_token", _("This route needs a token.")))
    if isinstance(exc, Throttled):
        return error_response(
            ApiError(429, "rate_limited", _("Too many requests."), retry_after=exc.wait or 60)
        )
    if exc.status_code == 400:
        return error_response(malformed_json(exc.__cause__))
    return error_response(ApiError(exc.status_code, "error", str(exc)))
