"""The benchmarks' scripted players (games/tools/site/players.py) and the load benchmark end to end.

The players read a live frame by its ids and data-* markers, never by its words: what the
page offers, the rack, a refusal's code, the outcome. So they play every rule set and every
language of the site alike. The end-to-end runs are not timed tests: they check that the
bench drives real websocket players against a real ``manage.py serve`` process and that
every action is accepted. The figures themselves are in docs/benchmarks.md.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import subprocess
import sys

import pytest

from games.engine import apply, new_hand, view_for
from games.engine.rules import RULES
from games.live import actions as table_actions
from games.models import Table
from games.tools.site.players import (
    GAME_OVER,
    HAND_OVER,
    NO_RESULT,
    VARIANTS,
    PlayConfig,
    Player,
    Stats,
    TableRun,
    choose,
    parse_frame,
    percentile,
)
from games.tools.site.servers import TableSpec, create_tables
from tests.support.servers import ROOT

VERSION = '<input type="hidden" id="act-version" name="version" value="{}" hx-swap-oob="true">'
CONTROLS = (
    '<section id="t-controls" class="controls my-turn" hx-swap-oob="true"><div class="buttons">'
    '<button type="button" class="button" data-act="draw" disabled aria-keyshortcuts="D">D</button>'
    '<button type="button" class="button" data-act="take" disabled>T</button>'
    '<button type="button" class="button button-primary" data-act="discard" data-needs="1" '
    ' aria-keyshortcuts="X Delete">X</button></div></section>'
)


def rack(*ids: int) -> str:
    tiles = "".join(f'<span class="tile" data-id="{i}"></span>' for i in ids)
    return f'<section id="t-rack" class="rack-wrap" hx-swap-oob="true">{tiles}</section>'


def test_frame_parsing():
    html = (
        '<div class="t-title" id="t-title" hx-swap-oob="true"><p data-testid="status">Sıra sende'
        '</p></div><div class="center" id="center" hx-swap-oob="true"><button data-act="draw" '
        'class="pile"><span class="tile" data-id="99"></span></button></div>'
        + rack(7, 12)
        + CONTROLS
        + '<div id="t-msg" class="t-msg show" role="alert" hx-swap-oob="true" '
        'data-testid="message"><span data-code="not_your_turn">No.</span></div>'
        + VERSION.format(42)
    )
    f = parse_frame(html)
    assert f.version == 42
    assert f.offered == {"discard"}  # draw and take are disabled; the pile is not the controls
    assert f.rack == [7, 12]
    assert f.error == "not_your_turn"
    assert f.result is None  # no result fragment in this frame
    assert choose(f.offered, f.rack, set()) == {"action": "discard", "tile": 7}
    assert choose(f.offered, f.rack, {7}) == {"action": "discard", "tile": 12}
    assert choose(f.offered, f.rack, {7, 12}) is None


def test_a_frame_without_controls_or_rack_keeps_what_the_player_knew():
    first = parse_frame(rack(3) + CONTROLS + VERSION.format(7)).merged(None)
    later = parse_frame(
        '<div class="center" id="center" hx-swap-oob="true"><span class="tile" data-id="50">'
        "</span></div>" + VERSION.format(8)
    )
    assert later.offered is None and later.rack is None and later.result is None
    f = later.merged(first)
    assert (f.version, f.offered, f.rack, f.result) == (8, {"discard"}, [3], NO_RESULT)


def test_the_outcome_says_whether_a_next_hand_follows():
    section = '<section id="t-result" class="t-result show" hx-swap-oob="true">{}</section>'
    dialog = '<dialog class="outcome" data-testid="outcome"><section>…</section>{}</dialog>'
    next_hand = '<button type="button" data-act="next_hand" data-testid="next-hand">N</button>'
    sheet = '<a class="button" href="/t/x/sheet/" data-testid="sheet-link">S</a>'
    assert parse_frame(section.format(dialog.format(next_hand))).result == HAND_OVER
    assert parse_frame(section.format(dialog.format(sheet))).result == GAME_OVER
    assert parse_frame(section.format("")).result == NO_RESULT


def test_percentile_nearest_rank():
    xs = [float(x) for x in range(1, 101)]
    assert percentile(xs, 50) == 50.0
    assert percentile(xs, 99) == 99.0
    assert percentile(xs, 100) == 100.0
    assert percentile([], 99) == 0.0


# ------------------------------------------------------------------ every rule set


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_players_moves_end_a_hand_of_every_rule_set(variant):
    """Drawn from the engine's per-seat view as the page shows it (its legal actions, the
    rack): drawing when offered, else discarding the first tile not tried this turn, ends
    every hand (the pile runs out, RULES.md §1 [D4]), a tile sent back to the rack
    (seventeen's penalised discard) included."""
    for seed in range(4):
        state = new_hand(variant, None, f"players-{seed}", seed % 4)
        tried: dict[int, set[int]] = {s: set() for s in range(state.n_players)}
        for _ in range(1000):
            if state.over:
                break
            seat = state.turn
            view = view_for(state, seat)
            move = choose(view["legal"], [t["id"] for t in view["rack"]], tried[seat])
            assert move is not None, (variant, seed, view["legal"])
            if move["action"] == "draw":
                tried[seat].clear()
                state, _ = apply(state, {"type": "draw", "seat": seat})
            else:
                tried[seat].add(move["tile"])
                state, _ = apply(state, {"type": "discard", "seat": seat, "tile": move["tile"]})
        assert state.over, (variant, seed)


def test_the_benchmarks_offer_every_four_seat_rule_set_of_the_registry():
    from games.management.commands import floodbench, heavybench, loadbench

    four_seat = {name for name, r in RULES.items() if 4 in r.players}
    for command in (loadbench, floodbench, heavybench):
        parser = command.Command().create_parser("manage.py", command.__name__)
        (variant,) = [a for a in parser._actions if "--variant" in a.option_strings]
        assert set(variant.choices) == four_seat, command.__name__


# ------------------------------------------------------------------ languages

LANGUAGES = ("en", "es", "de", "tr")


async def first_frame(spec: TableSpec, position: int, lang: str) -> str:
    """The first frame a seat's socket is sent when its player asks for ``lang`` (the
    player's own cookie and Accept-Language headers)."""
    from channels.testing import WebsocketCommunicator

    from okeysite.asgi import application

    run = TableRun(spec, Stats(), hands=1)
    player = Player(run, position, "", "", PlayConfig(language=lang), asyncio.Event())
    headers = [(b"origin", b"http://testserver")]
    headers += [(k.lower().encode(), v.encode()) for k, v in player.headers().items()]
    comm = WebsocketCommunicator(application, f"/ws/t/{spec.code}/", headers=headers)
    ok, _ = await comm.connect()
    assert ok
    html = await comm.receive_from()
    await comm.disconnect()
    return html


def play_out(spec: TableSpec) -> None:
    """The players' moves (draw, else discard the first tile) until the hand is over."""
    for _ in range(200):
        table = Table.objects.get(pk=spec.table_id)
        state = table_actions.load_state(table.current_hand)
        if state.over:
            return
        seat = state.turn
        move = choose(view_for(state, seat)["legal"], list(state.racks[seat]), set())
        action = {
            "type": move["action"],
            "seat": seat,
            **({"tile": move["tile"]} if "tile" in move else {}),
        }
        table_actions.do_submit_action(table.pk, seat, action, table.version)
    raise AssertionError("the hand did not end")


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_player_reads_the_same_frame_in_every_language():
    """The real table pages in en, es, de and tr: the same turn, rack and outcome."""
    from asgiref.sync import sync_to_async

    (spec,) = await sync_to_async(create_tables)(1, "classic")
    starter = await sync_to_async(
        lambda: table_actions.load_state(Table.objects.get(pk=spec.table_id).current_hand).turn
    )()
    html = {lang: await first_frame(spec, starter, lang) for lang in LANGUAGES}
    assert len(set(html.values())) == len(LANGUAGES)  # four languages, four pages
    frames = {lang: parse_frame(h) for lang, h in html.items()}
    assert "discard" in frames["en"].offered and len(frames["en"].rack) == 15
    for lang, f in frames.items():
        assert f == frames["en"], lang
        assert choose(f.offered, f.rack, set()) == {"action": "discard", "tile": f.rack[0]}
    waiting = parse_frame(await first_frame(spec, (starter + 1) % 4, "tr"))
    assert {"draw", "discard"}.isdisjoint(waiting.offered)

    await sync_to_async(play_out)(spec)
    ends = {lang: parse_frame(await first_frame(spec, 0, lang)) for lang in LANGUAGES}
    assert ends["en"].result == HAND_OVER  # a classic game goes on after a drawn hand
    assert all(f == ends["en"] for f in ends.values()), ends


class _Socket:
    def __init__(self) -> None:
        self.sent: list[dict] = []

    async def send(self, text: str) -> None:
        self.sent.append(json.loads(text))


def test_a_discard_sent_back_to_the_rack_is_followed_by_the_next_tile():
    """Seventeen sends a penalised discard back to the rack and the turn goes on (RULES.md §5,
    "Penalties"):
    the version moves, the rack and the offer stay; the player discards another tile.

    The player runs in an event loop of its own thread: a Playwright test earlier in the run
    leaves its sync loop marked as running in this one."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        sent = pool.submit(asyncio.run, _discard_sent_back()).result(timeout=30)
    assert sent == [("discard", 5, 3), ("discard", 9, 4), ("discard", 11, 4)]


async def _discard_sent_back() -> list[tuple]:
    go = asyncio.Event()
    go.set()
    run = TableRun(TableSpec(1, "code", ["k"] * 4), Stats(), hands=1)
    player = Player(run, 0, "ws://127.0.0.1:1/", "http://127.0.0.1:1", PlayConfig(), go)
    player.ws = _Socket()
    player.on_frame(parse_frame(rack(5, 9, 11) + CONTROLS + VERSION.format(3)), 0.0)
    await player.task
    player.on_frame(parse_frame(VERSION.format(4)), 0.1)  # accepted, returned
    await player.task
    player.on_frame(  # refused: the next tile again
        parse_frame(
            '<div id="t-msg" hx-swap-oob="true"><span data-code="tile_not_in_rack">…</span></div>'
            + VERSION.format(4)
        ),
        0.2,
    )
    await player.task
    return [(m["action"], m.get("tile"), m["version"]) for m in player.ws.sent]


# ------------------------------------------------------------------ end to end


def loadbench(*args: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["DJANGO_SETTINGS_MODULE"] = "okeysite.settings"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "loadbench", *args, "--json"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


@pytest.mark.slow
@pytest.mark.servers  # loadbench starts its own ``manage.py serve`` processes
def test_two_tables_play_two_hands_alike_in_english_and_in_turkish():
    """Two tables, two whole hands each (the seats' seeds are fixed): every action is
    accepted and measured, and players whose pages are in Turkish have the same actions
    accepted as in English, the next hand started included."""
    tiny = ("--tables", "2", "--hands", "2", "--seconds", "60", "--think", "0")
    english, turkish = loadbench(*tiny), loadbench(*tiny, "--language", "tr")
    assert turkish["config"]["language"] == "tr"
    for r in (english, turkish):
        assert r["sockets"] == 8
        assert r["finished"] and r["tables_done"] == 2 and r["hands_completed"] == 4, r
        assert r["errors"] == 0, r
        assert r["latency_ms"]["count"] == r["actions"] and r["latency_ms"]["p99"] > 0
        assert r["servers"] and r["servers"][0]["peak_rss_mb"] > 0
        assert r["config"]["database_url"] == "sqlite3"  # never the project's database
    assert turkish["actions"] == english["actions"] > 0
    assert turkish["sent"] == english["sent"] and turkish["sent"]["next_hand"] == 2
