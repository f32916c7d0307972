"""Every request gets an id for its log records (``games.ops.logs``): the one nginx sent in
``X-Request-ID`` (``proxy_set_header X-Request-ID $request_id;``) when it looks like one,
else a new one; it is sent back in the answer's ``X-Request-ID``, so a user's report or an
nginx log line leads to the site's records."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from games.ops.logs import request_id as current_request_id

VALID = re.compile(r"[A-Za-z0-9._-]{8,64}")


def request_id(get_response: Callable[[HttpRequest], HttpResponse]):
    def middleware(request: HttpRequest) -> HttpResponse:
        sent = request.headers.get("X-Request-ID", "")
        rid = sent if VALID.fullmatch(sent) else uuid.uuid4().hex
        request.request_id = rid  # type: ignore[attr-defined]
        # Not reset at the end: Django logs a 4xx or 5xx answer ("django.request") after the
        # middleware has returned, and that record should carry the id too. Each request
        # sets its own, in its own context.
        current_request_id.set(rid)
        response = get_response(request)
        response.headers["X-Request-ID"] = rid
        return response

    return middleware
