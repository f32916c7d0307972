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


def test_an_illegal_move_is_refused_with_the_engines_code_and_the_bot_plays_on(bot_server):
    token = bot_server.accounts(("bot-illegal", True))["bot-illegal"]
    proc = bot_server.client(token, "--open", "classic", "--games", "1", "--illegal-once")
    out, _err = proc.communicate(timeout=GAME_TIMEOUT)
    assert proc.returncode == 0, out
    # the API answered the engine's refusal code (a draw first, or a tile not in the
    # rack, whichever the turn's phase says), and the game was still played to its end
    refused = [line for line in out.splitlines() if line.startswith("refused ")]
    assert len(refused) == 1, out
    assert any(code in refused[0] for code in ("must_draw", "tile_not_in_rack")), out
    assert "played 1 games; refusals: ['" in out, out
