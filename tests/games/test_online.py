"""Online tables that hold: clocks, dropped players, hidden information,
origin checks and rate limits. Time is injected: no test sleeps for a clock."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client

from games.engine import view_for
from games.engine.rules import RULES
from games.live import actions, consumers, cpu
from games.models import HandAction, Table
from okeysite.asgi import application
from tests.games.conftest import cpu_table, play_out_hand

TILE_ID = re.compile(r'data-id="(\d+)"')


def first_discard(table: Table) -> None:
    state = actions.load_state(table.current_hand)
    actions.do_submit_action(
        table.pk, 0, {"type": "discard", "tile": state.racks[0][0]}, table.version
    )


def play_cpus(table: Table, at):
    """Let the CPUs play (time moving on 2 s a move) until it is seat 0's turn
    again; return the time then."""
    for _ in range(20):
        table.refresh_from_db()
        if actions.load_state(table.current_hand).turn == 0:
            return at
        at += timedelta(seconds=2)
        assert actions.do_play_due(table.pk, at=at)
    raise AssertionError("CPUs did not hand the turn back")


@pytest.mark.django_db
def test_rummy_clock_draws_and_discards_for_the_player_on_expiry(settings):
    """[D8] rummy's 45-second clock: the server draws the top tile and discards it."""
    settings.OKEY_CPU_DELAY_MS = 1000
    table = cpu_table("rummy", clock=45)
    t0 = actions.now()
    first_discard(table)
    play_cpus(table, t0 + timedelta(seconds=5))
    table.refresh_from_db()
    assert table.turn_deadline is not None and table.cpu_due_at is None
    due = table.turn_deadline
    assert actions.do_play_due(table.pk, at=due - timedelta(seconds=1)) is False
    pile_before = actions.load_state(table.current_hand).pile[-1]
    assert actions.do_play_due(table.pk, at=due + timedelta(milliseconds=1)) is True
    last = HandAction.objects.filter(hand__table=table).order_by("-index").first()
    assert last.payload["type"] == "timeout" and last.seat == 0 and last.by_cpu
    state = actions.load_state(table.current_hand)
    assert pile_before in state.discards[0] and pile_before not in state.racks[0]
    # idempotent: the same expiry swept again plays nothing more
    assert actions.do_play_due(table.pk, at=due + timedelta(milliseconds=2)) is False


@pytest.mark.django_db
def test_fifty_one_clock_lets_the_seat_cpu_play_the_turn():
    table = cpu_table("fifty-one", clock=15)
    t0 = actions.now()
    first_discard(table)
    play_cpus(table, t0 + timedelta(seconds=1))
    table.refresh_from_db()
    n = HandAction.objects.filter(hand__table=table).count()
    assert actions.do_play_due(table.pk, at=table.turn_deadline + timedelta(seconds=1))
    last = HandAction.objects.filter(hand__table=table).order_by("-index").first()
    assert HandAction.objects.filter(hand__table=table).count() == n + 1
    assert last.seat == 0 and last.by_cpu and last.payload["type"] in {"draw", "take"}


@pytest.mark.django_db
def test_dropped_player_is_played_by_cpu_after_grace_and_gets_the_seat_back(settings):
    settings.OKEY_AWAY_GRACE_S = 15
    table = cpu_table(present=False)
    seat = table.seats.get(position=0)
    t0 = actions.now()
    actions.do_set_presence(seat.pk, True, at=t0)
    actions.do_set_presence(seat.pk, False, at=t0)  # the browser went away on our turn
    seat.refresh_from_db()
    assert seat.away_since == t0
    assert actions.do_play_due(table.pk, at=t0 + timedelta(seconds=14)) is False
    assert actions.do_play_due(table.pk, at=t0 + timedelta(seconds=16)) is True
    last = HandAction.objects.filter(hand__table=table).order_by("-index").first()
    assert last.seat == 0 and last.by_cpu  # the CPU played the away seat
    # coming back hands the seat back: on our next turn nobody plays for us
    actions.do_set_presence(seat.pk, True, at=t0 + timedelta(seconds=20))
    play_cpus(table, t0 + timedelta(seconds=21))
    table.refresh_from_db()
    assert table.cpu_due_at is None
    assert actions.do_play_due(table.pk, at=t0 + timedelta(hours=1)) is False


@pytest.mark.django_db
def test_a_table_everyone_left_deals_no_new_hand_until_a_person_is_back(settings):
    """A casual table nobody is at deals no new hand (docs/clock-and-presence.md): the
    game waits for its person, who deals the next hand on coming back."""
    settings.OKEY_AWAY_GRACE_S = 15
    table = cpu_table()  # classic: many hands to a game
    seat = table.seats.get(position=0)
    play_out_hand(table)
    table.refresh_from_db()
    assert table.current_hand.number == 0 and table.cpu_due_at is None  # waits for the player
    t0 = actions.now()
    actions.do_set_presence(seat.pk, False, at=t0, channel=f"test-page-{seat.pk}")  # gone
    seat.refresh_from_db()
    assert seat.away_since == t0
    table.refresh_from_db()
    assert table.cpu_due_at is None
    assert actions.do_play_due(table.pk, at=t0 + timedelta(hours=1)) is False
    assert actions.sweep(at=t0 + timedelta(hours=1)) == 0
    table.refresh_from_db()
    assert table.current_hand.number == 0
    actions.do_set_presence(seat.pk, True, at=t0 + timedelta(hours=2))  # back: "Next hand"
    actions.do_next_hand(table.pk, table.version, at=t0 + timedelta(hours=2))
    table.refresh_from_db()
    assert table.current_hand.number == 1 and table.current_hand.result is None


@pytest.mark.django_db
def test_a_tournament_table_everyone_left_deals_its_next_hand_after_the_grace_period(settings):
    """An organiser's table (a tournament round) must reach its end: with nobody at it
    the sweeper deals the next hand once the grace period is over."""
    settings.OKEY_AWAY_GRACE_S = 15
    player = User.objects.create_user("t-player", password="pw-t-player-123")
    t0 = actions.now()
    table = actions.do_seat_players(
        variant="classic",
        options={},
        seats=[actions.SeatSpec("player", user=player, name="Ayşe")]
        + [actions.SeatSpec("cpu", "medium")] * 3,
        away_since=t0,
        at=t0,
    )
    assert table.organised
    seat = table.seats.get(position=0)
    actions.do_set_presence(seat.pk, True, at=t0, channel="ayse-page")
    play_out_hand(table)
    table.refresh_from_db()
    assert table.current_hand.number == 0 and table.cpu_due_at is None  # waits for her
    actions.do_set_presence(seat.pk, False, at=t0, channel="ayse-page")  # she leaves
    assert actions.do_play_due(table.pk, at=t0 + timedelta(seconds=14)) is False
    assert actions.do_play_due(table.pk, at=t0 + timedelta(seconds=16)) is True
    table.refresh_from_db()
    assert table.current_hand.number == 1 and table.current_hand.result is None


@pytest.mark.django_db
def test_a_finished_hand_waits_while_a_person_is_at_the_table(settings):
    settings.OKEY_AWAY_GRACE_S = 15
    table = cpu_table(present=False)  # classic: many hands to a game
    seat = table.seats.get(position=0)
    play_out_hand(table)
    t0 = actions.now()
    actions.do_set_presence(seat.pk, True, at=t0)
    actions.do_set_presence(seat.pk, False, at=t0)
    actions.do_set_presence(seat.pk, True, at=t0 + timedelta(seconds=5))  # back in time
    assert actions.do_play_due(table.pk, at=t0 + timedelta(hours=1)) is False
    table.refresh_from_db()
    assert table.current_hand.number == 0


@pytest.mark.django_db
def test_two_tabs_count_once_each():
    table = cpu_table(present=False)
    seat = table.seats.get(position=0)
    actions.do_set_presence(seat.pk, True)
    actions.do_set_presence(seat.pk, True)
    actions.do_set_presence(seat.pk, False)
    seat.refresh_from_db()
    assert seat.away_since is None and seat.connections == 1


def _client(name: str) -> Client:
    c = Client()
    assert c.login(username=name, password="pw-" + name + "-123")
    return c


async def _connect(code: str, client: Client | None, origin: bytes = b"http://testserver"):
    headers = [(b"origin", origin)]
    if client is not None:
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    comm = WebsocketCommunicator(application, f"/ws/t/{code}/", headers=headers)
    ok, _ = await comm.connect()
    return comm, ok


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_foreign_origin_is_refused():
    table = await sync_to_async(cpu_table)()
    comm, ok = await _connect(table.code, None, origin=b"http://evil.example")
    assert not ok


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_flood_of_frames_is_rate_limited_and_changes_nothing(monkeypatch):
    monkeypatch.setattr(consumers, "_clock", lambda: 1000.0)  # no refill mid-burst
    await sync_to_async(User.objects.create_user)("dora", password="pw-dora-123")
    client = await sync_to_async(_client)("dora")
    user = await sync_to_async(User.objects.get)(username="dora")
    table = await sync_to_async(actions.do_create_table)(
        variant="classic",
        options={},
        seats=[actions.SeatSpec("me")] + [actions.SeatSpec("cpu")] * 3,
        user=user,
    )
    comm, ok = await _connect(table.code, client)
    assert ok
    await comm.receive_from()
    codes = []
    for _ in range(30):  # at once: fewer than the guard lets one socket queue
        await comm.send_to(json.dumps({"action": "draw", "version": 0}))
    while not await comm.receive_nothing(timeout=0.5):
        codes += re.findall(r'data-code="(\w+)"', await comm.receive_from())
    assert "stale_state" in codes
    assert codes.count("rate_limited") == 1  # only the first refusal of the burst is answered
    assert await sync_to_async(HandAction.objects.count)() == 0
    await comm.disconnect()


VISIBLE_BEFORE_END = re.compile(r'id="t-result" class="t-result show"')


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("variant", list(RULES))
async def test_no_frame_carries_a_tile_the_seat_may_not_see(variant, monkeypatch):
    """Record every frame one player receives over a whole hand: until the hand
    is over, no tile id outside that seat's own view appears, nor the seed. A
    watcher (no seat) who follows that player from the first move is held to the
    spectator's view: no frame of theirs carries a tile outside ``view_for(state,
    None)`` of the version it shows, nor the seed, until the hand is over; then the
    followed seat's finished rack is shown (games/live/follow.py)."""
    # The player answers as fast as the CPUs, faster than any person: the rate
    # limit (which answers only the first refused frame of a burst) is not the
    # subject here, and would leave a frame unanswered.
    monkeypatch.setattr(consumers, "allow_frame", lambda own, shared: True)
    await sync_to_async(User.objects.create_user)("erin", password="pw-erin-123")
    client = await sync_to_async(_client)("erin")
    user = await sync_to_async(User.objects.get)(username="erin")
    table = await sync_to_async(actions.do_create_table)(
        variant=variant,
        options={},
        seats=[actions.SeatSpec("me")] + [actions.SeatSpec("cpu")] * 3,
        user=user,
    )
    # the watcher first: its arrival would send the player a watcher count in between
    watcher, ok = await _connect(table.code, None)
    assert ok
    await watcher.send_to(json.dumps({"action": "follow", "seat": 0}))
    comm, ok = await _connect(table.code, client)
    assert ok
    # the seat was away until its socket opened: the frame telling the table it is back
    # comes with the first one; the lockstep below starts from the latest
    html = await comm.receive_from()
    while not await comm.receive_nothing(timeout=0.3):
        html = await comm.receive_from()

    def allowed_now() -> tuple[set[int], str, bool]:
        t = Table.objects.get(pk=table.pk)
        hand = t.current_hand
        state = actions.load_state(hand)
        ids: set[int] = set()
        v = view_for(state, 0)
        for t_ in v["rack"] or []:
            ids.add(t_["id"])
        for pile in v["discards"]:
            ids |= {x["id"] for x in pile}
        for m in v["melds"]:
            ids |= {x["id"] for x in m["tiles"]}
        ids.add(v["indicator"]["id"])
        if v.get("takeable"):
            ids.add(v["takeable"]["id"])
        return ids, hand.seed, state.over

    def step() -> str | None:
        t = Table.objects.get(pk=table.pk)
        hand = t.current_hand
        if hand.result is not None:
            return "over"
        state = actions.load_state(hand)
        if state.turn != 0:
            actions.sweep()
            return None
        a = cpu.choose(state, 0, "medium")
        frame = {k: v for k, v in a.items() if k != "seat"}
        frame["action"] = frame.pop("type")
        if "melds" in frame:
            frame["melds"] = json.dumps(frame["melds"])
        frame["version"] = t.version
        return json.dumps(frame)

    frames = 0
    for _ in range(3000):
        ids, seed, over = await sync_to_async(allowed_now)()
        if over:
            break
        seen = {int(x) for x in TILE_ID.findall(html)}
        assert seen <= ids, f"frame {frames} leaked {sorted(seen - ids)}"
        assert seed not in html
        frames += 1
        nxt = await sync_to_async(step)()
        if nxt == "over":
            break
        if nxt is not None:
            await comm.send_to(nxt)
        html = await comm.receive_from()
    else:
        pytest.fail("hand did not finish")
    assert frames > 20
    await comm.disconnect()
    seen = await sync_to_async(_spectator_ids_by_version)(table.pk)
    followed = False
    watched = 0
    while not await watcher.receive_nothing(timeout=0.5):
        html = await watcher.receive_from()
        version = VERSION.search(html)
        ids = {int(x) for x in TILE_ID.findall(html)}
        if version is None:  # the header's watcher count alone
            assert not ids and "t-watchers" in html
            continue
        allowed, seed, over, final_rack = seen[int(version.group(1))]
        if over:
            followed = followed or ('data-testid="followed"' in html and set(final_rack) <= ids)
            continue
        assert ids <= allowed, f"watcher frame {watched} leaked {sorted(ids - allowed)}"
        assert seed not in html and 'data-testid="followed"' not in html
        watched += 1
    assert watched > 20 and followed
    await watcher.disconnect()


VERSION = re.compile(r'id="act-version" name="version" value="(\d+)"')


def _spectator_ids_by_version(table_id: int) -> dict[int, tuple[set[int], str, bool, list[int]]]:
    """For each table version of the current hand: the tile ids a spectator's view of it
    shows, the seed, whether the hand is over and seat 0's rack (replayed move by move)."""
    from games.engine import apply, new_hand

    table = Table.objects.get(pk=table_id)
    hand = table.current_hand
    final = actions.load_state(hand)
    state = new_hand(
        table.variant, final.options, hand.seed, hand.starter, context=hand.state.get("context")
    )
    first = table.version - len(final.actions)
    out = {}
    for i in range(len(final.actions) + 1):
        if i:
            state, _ = apply(state, final.actions[i - 1])
        v = view_for(state, None)
        ids = {x["id"] for pile in v["discards"] for x in pile}
        ids |= {x["id"] for m in v["melds"] for x in m["tiles"]}
        ids.add(v["indicator"]["id"])
        if v.get("takeable"):
            ids.add(v["takeable"]["id"])
        out[first + i] = (ids, hand.seed, state.over, list(state.racks[0]))
    return out


@pytest.mark.django_db
def test_d8_opening_time_out_discards_the_rightmost_tile_of_the_players_own_rack(settings):
    """[D8] rummy: when the starter's opening turn times out, the rightmost tile goes,
    as the player arranged their rack (not the dealt order)."""
    settings.OKEY_CPU_DELAY_MS = 1000
    table = cpu_table("rummy", clock=45)
    seat = table.seats.get(position=0)
    rack = list(actions.load_state(table.current_hand).racks[0])
    mine = rack[3]  # put this tile rightmost, alone on the second row
    seat.rack_order = [t for t in rack if t != mine] + [None] * (31 - len(rack) + 1) + [mine]
    seat.rack_order = seat.rack_order[:31] + [mine]
    seat.save()
    table.refresh_from_db()
    assert actions.do_play_due(table.pk, at=table.turn_deadline + timedelta(seconds=1))
    state = actions.load_state(table.current_hand)
    assert state.discards[0][-1] == mine
    assert actions.rebuild_hand(table.current_hand).to_json() == table.current_hand.state
