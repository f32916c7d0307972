"""An example bot for the site's bot API, written from docs/bots-api.md and the OpenAPI
document only: the standard library for HTTP and JSON, and the engine's own CPU policy
(``games.engine.bots.decide``, pure Python, the one import from the project) to choose.

    OKEY_BOT_TOKEN=... python -m games.tools.bot_client --server http://127.0.0.1:8000

It reads the bot stream (``GET /api/v1/bot/stream``, NDJSON) and, for each table line where
it is its turn, picks one of the line's ``actions`` with the medium policy and posts it with
the line's ``version`` (``POST /api/v1/tables/{code}/actions``); when a hand is over it asks
for the next one. A refusal is logged with its code and the table is read again
(``GET /api/v1/tables/{code}``) before the next move. When the stream ends (the server closed
it, a network error) it reconnects: every line is a table's whole state, so nothing is lost.

Options: ``--accept`` lists the bot among the online bots people can invite (it then plays
every table it is seated at); ``--open VARIANT`` opens a table against CPUs itself (and the
next one when it is over) until ``--games`` games are played; ``--upgrade`` makes the
token's account a bot first (irreversible); ``--illegal-once`` (tests) sends one illegal
move on purpose to show a refusal.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import sys
import time
import urllib.error
import urllib.request
from typing import Any

from games.engine.bots import decide

OVER = ("finished", "abandoned", "aborted")


class Refused(Exception):
    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(f"{status} {body.get('code')}: {body.get('message')}")
        self.status, self.code = status, body.get("code", "")


class Client:
    def __init__(self, server: str, token: str, log: Any = sys.stderr) -> None:
        self.base = server.rstrip("/") + "/api/v1"
        self.token = token
        self.log = log

    def say(self, text: str) -> None:
        print(text, file=self.log, flush=True)

    def request(self, method: str, path: str, body: Any = None, timeout: float = 30) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Authorization", f"Bearer {self.token}")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                return json.loads(resp.read() or b"null")
        except urllib.error.HTTPError as e:
            try:
                answer = json.loads(e.read() or b"{}")
            except ValueError:
                answer = {"code": "http_error", "message": str(e)}
            if e.code == 429:  # rate limited: wait as told, then try again
                time.sleep(float(e.headers.get("Retry-After") or 1))
                return self.request(method, path, body, timeout)
            raise Refused(e.code, answer) from None

    def stream(self, accept: bool) -> Any:
        req = urllib.request.Request(self.base + "/bot/stream" + ("?accept=true" if accept else ""))
        req.add_header("Authorization", f"Bearer {self.token}")
        return urllib.request.urlopen(req, timeout=60)


class Bot:
    def __init__(self, client: Client, args: argparse.Namespace) -> None:
        self.c, self.args = client, args
        self.acted: set[tuple[str, int]] = set()
        self.finished: set[str] = set()
        self.illegal_left = 1 if args.illegal_once else 0
        self.refusals: list[str] = []
        self.last: dict[str, dict[str, Any]] = {}

    def open_table(self) -> None:
        options = json.loads(self.args.options) if self.args.options else {}
        seat = self.c.request("POST", "/tables", {"variant": self.args.open, "options": options})
        self.c.say(f"opened {seat['table']['code']} ({self.args.open})")

    def done(self) -> bool:
        return bool(self.args.games) and len(self.finished) >= self.args.games

    def on_table(self, ev: dict[str, Any]) -> None:
        code, version = ev["table"], ev["version"]
        if ev["status"] in OVER:
            if code not in self.finished:
                self.finished.add(code)
                self.c.say(f"game over at {code}: {ev['status']}")
                if self.args.open and not self.done():
                    self.open_table()
            return
        self.last[code] = ev
        view = ev.get("view")
        if view is None or (code, version) in self.acted:
            return
        if view["over"]:
            self.acted.add((code, version))
            self.post(code, "/next-hand", {"version": version})
            return
        if not ev["clock"]["my_turn"] or not ev["actions"]:
            return
        self.acted.add((code, version))
        if self.illegal_left:
            self.illegal_left -= 1
            # a discard of a tile that is not in the rack: the engine refuses it
            mine = {t["id"] for t in view["rack"]}
            action = {"type": "discard", "tile": next(t for t in range(106) if t not in mine)}
        else:
            action = decide(view, ev["actions"], self.args.level)
        self.post(code, "/actions", {"version": version, "action": action})

    def catch_up(self) -> None:
        """After a reconnect: a table that ended meanwhile sends no line any more (the
        stream follows tables in play), so ask for the ones this bot was playing."""
        for code in [c for c in self.last if c not in self.finished]:
            seat = self.c.request("GET", f"/tables/{code}")
            if seat["table"]["status"] in OVER:
                self.on_table({"table": code, "version": 0, "status": seat["table"]["status"]})

    def post(self, code: str, path: str, body: dict[str, Any]) -> None:
        try:
            self.c.request("POST", f"/tables/{code}{path}", body)
        except Refused as e:
            self.refusals.append(e.code)
            self.c.say(f"refused {code}: {e}")
            # read the table again: if it has not moved, choose again on the same line
            # (a refused move changes nothing, so no new line comes); else the stream's
            # next line brings the new state
            seat = self.c.request("GET", f"/tables/{code}")
            last = self.last.get(code)
            if last is not None and seat["table"]["version"] == last["version"]:
                self.acted.discard((code, last["version"]))
                self.on_table(last)

    def run(self) -> int:
        if self.args.upgrade:
            self.c.request("POST", "/bot/account/upgrade", {})
        if self.args.open:
            self.open_table()
        while not self.done():
            try:
                with self.c.stream(self.args.accept) as lines:
                    for raw in lines:
                        ev = json.loads(raw)
                        if ev["type"] == "hello":
                            self.catch_up()
                        elif ev["type"] == "table":
                            self.on_table(ev)
                        elif ev["type"] == "closed":  # the server's orderly close: reconnect
                            self.c.say(f"stream closed by the server: {ev.get('reason')}")
                            break
                        if self.done():
                            break
            except Refused as e:
                self.c.say(f"stream refused: {e}")
                return 2
            except (OSError, ValueError, http.client.HTTPException) as e:
                self.c.say(f"stream ended ({e}); reconnecting")
                time.sleep(1)
        self.c.say(f"played {len(self.finished)} games; refusals: {self.refusals}")
        return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m games.tools.bot_client", description=__doc__)
    p.add_argument("--server", default="http://127.0.0.1:8000")
    p.add_argument(
        "--token",
        default=os.environ.get("OKEY_BOT_TOKEN"),
        help="a personal access token with scope play (default: $OKEY_BOT_TOKEN, which keeps"
        " it out of the process list)",
    )
    p.add_argument("--level", default="medium", help="the engine policy (default: medium)")
    p.add_argument("--accept", action="store_true", help="accept invitations to tables")
    p.add_argument("--open", metavar="VARIANT", help="open tables against CPUs")
    p.add_argument("--options", help="the opened tables' options, as JSON")
    p.add_argument("--games", type=int, default=0, help="stop after this many games")
    p.add_argument("--upgrade", action="store_true", help="make the account a bot first")
    p.add_argument("--illegal-once", action="store_true", help="tests: one illegal move")
    args = p.parse_args(argv)
    if not args.token:
        p.error("a token is needed: --token=TOKEN or OKEY_BOT_TOKEN")
    try:
        return Bot(Client(args.server, args.token), args).run()
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
