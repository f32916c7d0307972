"""Bot tests against a real server: one daphne process (``manage.py serve``, as the browser
tests' ``daphne_server``) on its own SQLite database, with small stream limits so the
limits can be reached; accounts and tokens are made in that database by ``manage.py shell``
(the test process's ORM is pytest-django's database, not the server's)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.support import servers

ROOT = Path(__file__).resolve().parents[2]

# What the server runs with besides the browser tests' environment (server_env).
STREAM_ENV = {
    "BOT_STREAMS_PER_ACCOUNT": "2",
    "BOT_STREAM_HEARTBEAT_S": "0.5",
    "BOT_STREAM_MAX_BYTES": "200000",
    "API_TOKEN_RATE_LIMIT": "100000",
    "API_IP_RATE_LIMIT": "100000",
}

MAKE_BOT = """
import json
from django.contrib.auth import get_user_model
from accounts.models import Profile
from games.api import tokens
from games.api.bot_stream import do_upgrade_to_bot
out = {}
for name, bot in json.loads(SPEC):
    user = get_user_model().objects.create_user(name, password="pw-" + name + "-long")
    Profile.objects.get_or_create(user=user)
    if bot:
        do_upgrade_to_bot(user)
    _t, secret = tokens.do_create_token(user, "test", ["play", "read"])
    out[name] = secret
print(json.dumps(out))
"""


class BotServer:
    def __init__(self, url: str, env: dict[str, str]) -> None:
        self.url, self.env = url, env

    def accounts(self, *specs: tuple[str, bool]) -> dict[str, str]:
        """Make accounts (name, is_bot) in the server's database; name -> token secret."""
        code = MAKE_BOT.replace("SPEC", repr(json.dumps(list(specs))))
        return json.loads(servers.manage(self.env, "shell", "-c", code).strip().splitlines()[-1])

    def shell(self, code: str) -> str:
        return servers.manage(self.env, "shell", "-c", code)

    def client(self, token: str, *args: str) -> subprocess.Popen:
        """The example bot client as a subprocess (its log on stderr, as text)."""
        return subprocess.Popen(
            [sys.executable, "-m", "games.tools.bot_client", "--server", self.url] + list(args),
            cwd=ROOT,
            env=os.environ | {"OKEY_BOT_TOKEN": token},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )


def start(extra: dict[str, str]):
    tmp = Path(tempfile.mkdtemp(prefix="okey-bots-"))
    env = servers.server_env(tmp) | STREAM_ENV | extra
    servers.prepare(env)
    port = servers.free_port()
    log = tmp / "serve.log"
    proc = servers.serve(env, port, log)
    url = f"http://127.0.0.1:{port}"
    try:
        servers.wait_for_http(f"{url}/", proc=proc, log_path=log)
        yield BotServer(url, env)
    finally:
        servers.stop(proc)


@pytest.fixture(scope="session")
def bot_server():
    """The server the example client plays on."""
    yield from start({})


@pytest.fixture(scope="module")
def limits_server():
    """A server whose streams close after 16 kB (five table lines or so) and whose away
    seats are played by their stand-in after one second."""
    yield from start({"BOT_STREAM_MAX_BYTES": "16000", "OKEY_AWAY_GRACE_S": "1"})
