"""Logs: LOG_FORMAT=json writes one JSON object a line (time, level, logger, message, and
the request id or table id where there is one); every request gets an id, sent back in
X-Request-ID."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys

import pytest
from django.test import Client

from games.ops.logs import JsonFormatter, RequestIdFilter
from tests.support.servers import ROOT

LOG = """
import logging
logging.getLogger("games.live.sweeper").warning("sweeper step %s failed", 3, extra={"table_id": 17})
try:
    1 / 0
except ZeroDivisionError:
    logging.getLogger("games.live.consumers").exception("handling a frame failed")
"""


def run_shell(log_format: str) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(DJANGO_SETTINGS_MODULE="okeysite.settings", LOG_FORMAT=log_format)
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", LOG],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stderr.splitlines()


def test_log_format_json_writes_one_object_a_line():
    lines = run_shell("json")
    records = [json.loads(line) for line in lines]  # every line is JSON
    warning, error = records
    assert warning["level"] == "WARNING" and warning["logger"] == "games.live.sweeper"
    assert warning["message"] == "sweeper step 3 failed" and warning["table_id"] == 17
    assert warning["time"].endswith("+00:00") and "T" in warning["time"]
    assert "request_id" not in warning  # logged outside a request
    assert error["level"] == "ERROR" and "ZeroDivisionError" in error["exc_info"]


def test_the_default_format_is_text():
    lines = run_shell("")
    assert lines[0] == "sweeper step 3 failed"
    with pytest.raises(json.JSONDecodeError):
        json.loads(lines[0])


@pytest.mark.django_db
def test_a_requests_records_carry_its_id():
    seen: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(self.format(record))

    handler = Keep()
    handler.addFilter(RequestIdFilter())
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("django.request")
    logger.addHandler(handler)
    try:
        given = Client().get("/no-such-page/", headers={"X-Request-ID": "nginx-0123456789abcdef"})
        made = Client().get("/no-such-page/", headers={"X-Request-ID": "bad id!"})
    finally:
        logger.removeHandler(handler)
    assert given.status_code == made.status_code == 404
    assert given["X-Request-ID"] == "nginx-0123456789abcdef"
    assert made["X-Request-ID"] != "bad id!" and len(made["X-Request-ID"]) == 32
    ids = [json.loads(line)["request_id"] for line in seen]
    assert ids == [given["X-Request-ID"], made["X-Request-ID"]]


@pytest.mark.django_db
def test_the_records_of_refused_requests_carry_no_secret():
    """What a request logs (a refused token, a wrong password, a signed-in page that is not
    found, every record from DEBUG up) holds its path and id, never a token, a password or
    a session id."""
    from games.api import tokens
    from tests.support.accounts import make_user

    seen: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(self.format(record))

    handler = Keep(logging.DEBUG)
    handler.addFilter(RequestIdFilter())
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        user = make_user("ayla")
        token, secret = tokens.do_create_token(user, "test", ["read"])
        tokens.do_revoke_token(user, token.pk)
        revoked = Client().get("/api/v1/me", headers={"Authorization": f"Bearer {secret}"})
        unknown = "x" * 43
        guessed = Client().get("/api/v1/me", headers={"Authorization": f"Bearer {unknown}"})
        wrong = "not-the-password-123"
        login = Client().post("/accounts/login/", {"username": "ayla", "password": wrong})
        browser = Client()
        browser.force_login(user)
        missing = browser.get("/no-such-page/?next=1")
    finally:
        root.removeHandler(handler)
        root.setLevel(level)
    assert revoked.status_code == guessed.status_code == 401
    assert login.status_code == 200 and missing.status_code == 404
    session = browser.cookies["sessionid"].value
    text = "\n".join(seen)
    assert "Unauthorized: /api/v1/me" in text and "Not Found: /no-such-page/" in text
    for secret_text in (secret, unknown, wrong, session):
        assert secret_text not in text
