"""A bot stream is authorised again at every heartbeat (``limits_server``: 0.5 s): revoking
its token, or closing its account, ends a stream that is already open, and its seat goes
away as when the bot hangs up; opening it again is refused (401)."""

from __future__ import annotations

import json
import time
import urllib.error

import pytest

from tests.bots.test_stream_limits import open_stream, post, seats_of
from tests.support.waits import wait_until

pytestmark = pytest.mark.e2e


def read_until_closed(stream, within: float = 30.0) -> dict:
    """The stream's lines up to the server's ``closed`` line, which must come within
    ``within`` seconds (heartbeats keep coming while the stream stays open)."""
    deadline = time.monotonic() + within
    for raw in iter(stream.readline, b""):
        event = json.loads(raw)
        if event["type"] == "closed":
            return event
        assert time.monotonic() < deadline, "the stream stayed open"
    raise AssertionError("the stream ended without a closed line")


@pytest.mark.parametrize(
    "name, change",
    [
        (
            "revoked",
            "from django.utils import timezone\n"
            "from games.api.models import ApiToken\n"
            "ApiToken.objects.filter(user__username='revoked').update(revoked_at=timezone.now())",
        ),
        (
            "closed",
            "from django.contrib.auth import get_user_model\n"
            "get_user_model().objects.filter(username='closed').update(is_active=False)",
        ),
    ],
)
def test_an_open_stream_ends_when_its_token_is_revoked_or_its_account_closed(
    limits_server, name, change
):
    token = limits_server.accounts((name, True))[name]
    post(limits_server, token, "/tables", {"variant": "classic", "options": {}})
    stream = open_stream(limits_server, token)
    assert json.loads(stream.readline())["type"] == "hello"
    assert json.loads(stream.readline())["type"] == "table"
    limits_server.shell(change)
    assert read_until_closed(stream) == {"type": "closed", "reason": "token_revoked"}
    stream.close()
    wait_until(
        lambda: seats_of(limits_server, name)[0][:2] == (0, True),
        "the seat to be away once its stream ended",
        timeout=30,
        interval=0.3,
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        open_stream(limits_server, token)
    assert refused.value.code == 401
