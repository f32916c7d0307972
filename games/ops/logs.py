"""Structured logs: ``LOG_FORMAT=json`` writes one JSON object a line (okeysite/settings.py).

Standard library only (no python-json-logger): the formatter is a few lines, and the
settings load it before any app. Each line has ``time`` (UTC, ISO 8601, milliseconds),
``level``, ``logger`` and ``message``; ``request_id`` when the record was logged while a
request was handled (``games.ops.middleware.request_id``, which also sends it back in
the ``X-Request-ID`` header); ``table_id`` (and any other field in ``EXTRA_FIELDS``) when
the code logged it with ``extra=``; ``exc_info`` with the traceback of an exception.
"""

from __future__ import annotations

import contextvars
import json
import logging
from datetime import UTC, datetime

# The request being handled in this context (asgiref copies the context into the thread
# of a sync view, so a view's records carry it too).
request_id: contextvars.ContextVar[str] = contextvars.ContextVar("okey_request_id", default="")

EXTRA_FIELDS = ("request_id", "table_id", "table", "seat", "user_id", "process")


class RequestIdFilter(logging.Filter):
    """Put the current request's id on every record (an empty string outside a request)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not getattr(record, "request_id", ""):
            record.request_id = request_id.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in EXTRA_FIELDS:
            value = getattr(record, name, None)
            if value not in (None, ""):
                entry[name] = value
        if record.exc_info:
            entry["exc_info"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack_info"] = self.formatStack(record.stack_info)
        return json.dumps(entry, default=str, ensure_ascii=False)
