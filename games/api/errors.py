"""The API's one error shape, ``{"code": ..., "message": ...}``, for every 4xx answer.

``code`` is stable (clients branch on it); ``message`` is for people, in the request's
language (``Accept-Language``). A table's refusal keeps the action's own code
(``ActionRefused.code``: ``stale_state``, ``not_your_turn``, ``bad_option`` ...).
"""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from ninja import Schema


class ErrorOut(Schema):
    code: str
    message: str
    # a request that did not validate: where and what (``invalid_request``)
    errors: list[dict[str, Any]] | None = None


class ApiError(Exception):
    """An answer other than success, raised anywhere under a route."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        retry_after: int | None = None,
        errors: list[dict[str, Any]] | None = None,
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, str(message)
        self.retry_after = retry_after
        self.errors = errors


def error_response(exc: ApiError) -> HttpResponse:
    """The JSON answer of ``exc`` (outside ninja too: the guard middleware's answers)."""
    body: dict[str, Any] = {"code": exc.code, "message": exc.message}
    if exc.errors is not None:
        body["errors"] = exc.errors
    response = JsonResponse(body, status=exc.status)
    if exc.retry_after is not None:
        response["Retry-After"] = str(max(1, int(exc.retry_after)))
    return response


def not_found(message: str | None = None) -> ApiError:
    return ApiError(404, "not_found", message or _("There is nothing here."))


def malformed_json(cause: BaseException | None) -> ApiError:
    where = ""
    if isinstance(cause, json.JSONDecodeError):
        where = _(" (line %(line)s, column %(col)s: %(what)s)") % {
            "line": cause.lineno,
            "col": cause.colno,
            "what": cause.msg,
        }
    elif isinstance(cause, UnicodeDecodeError):
        where = _(" (it is not UTF-8)")
    elif isinstance(cause, RecursionError):
        where = _(" (it is nested too deeply)")
    return ApiError(400, "malformed_json", _("The request body is not valid JSON") + where + ".")


def validation_errors(errors: list[dict[str, Any]]) -> ApiError:
    """A body, path or query that did not validate: where (``loc``) and what (``msg``)."""
    shown = [
        {"loc": [str(p) for p in e.get("loc", ())], "msg": str(e.get("msg", ""))}
        for e in errors[:20]
    ]
    first = shown[0] if shown else {"loc": [], "msg": ""}
    return ApiError(
        422,
        "invalid_request",
        _("The request is not valid: %(where)s: %(what)s.")
        % {"where": ".".join(first["loc"]) or "body", "what": first["msg"]},
        errors=shown,
    )


def json_404(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    """Any other path under /api/ (an unknown version such as /api/v2/, a typo)."""
    return error_response(
        ApiError(404, "not_found", _("There is no such API path. This site serves /api/v1/."))
    )
