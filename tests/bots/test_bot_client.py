"""The example bot client (games/tools/bot_client), started as a subprocess, plays whole
games through the real server's bot stream in every rule set against CPUs."""

from __future__ import annotations

import pytest

from games.engine.rules import RULES

pytestmark = pytest.mark.e2e

GAME_TIMEOUT = 600


@pytest.mark.parametrize("variant", list(RULES))
def test_the_example_bot_plays_a_whole_game_in_every_rule_set(bot_server, variant):
    name = f"bot-{variant}"
    token = bot_server.accounts((name, True))[name]
    proc = bot_server.client(token, "--open", variant, "--games", "1")
    out, _err = proc.communicate(timeout=GAME_TIMEOUT)
    assert proc.returncode == 0, out
    assert "played 1 games" in out, out
    # the game was finished at the table, and the bot played its own turns (not its stand-in)
    report = bot_server.shell(
        "from games.models import HandAction, Seat\n"
        f"seat = Seat.objects.get(user__username={name!r})\n"
        "own = HandAction.objects.filter(hand__table=seat.table, seat=seat.position,"
        " by_cpu=False, payload__type='discard').count()\n"
        "print(seat.table.status, own)"
    )
    status, own = report.strip().splitlines()[-1].split()
    assert status == "finished"
    assert int(own) > 0
