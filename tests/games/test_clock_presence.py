"""The turn clock, time-outs, the stand-in and presence (docs/clock-and-presence.md).

Time is injected (services take ``at=``): no test sleeps for a clock. The seats' pages
are opened and closed through ``actions.do_set_presence`` as the consumer does."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.engine.tiles import notation
from games.forms import CreateTableForm
from games.live import actions, presenter, realtime
from games.models import HandAction, Seat, Table
from games.solo.views import SOLO_OPTIONS
from games.tilewords import tile_words
from tests.games.conftest import cpu_table, page_open, play_out_hand

pytestmark = pytest.mark.django_db

ME, FRIEND = actions.SeatSpec("me"), actions.SeatSpec("human")
CPU = actions.SeatSpec("cpu", "medium")


def two_people(variant: str = "rummy", present: bool = True, **options) -> Table:
    """A two-seat table of two guests ("g-a" at seat 0, "g-b" at seat 1), their pages open."""
    table = actions.do_create_table(
        variant=variant, options={"players": 2, **options}, seats=[ME, FRIEND], guest_key="g-a"
    )
    actions.do_join_table(table.pk, guest_key="g-b")
    if present:
        page_open(table)
    table.refresh_from_db()
    return table


def seat(table: Table, position: int) -> Seat:
    return Seat.objects.get(table=table, position=position)


def state_of(table: Table):
    table.refresh_from_db()
    return actions.load_state(table.current_hand)


def time_out(table: Table) -> int:
    """Let the clock of the seat to move run out; the seat that timed out."""
    table.refresh_from_db()
    mover = state_of(table).turn
    assert table.turn_deadline is not None
    assert actions.do_play_due(table.pk, at=table.turn_deadline + timedelta(milliseconds=1))
    return mover


def play_own_turn(table: Table, at=None) -> None:
    """The seat to move draws and discards the tile drawn (its own moves)."""
    state = state_of(table)
    mover = state.turn
    if state.phase == "draw":
        actions.do_submit_action(table.pk, mover, {"type": "draw"}, table.version, at=at)
        state = state_of(table)
    tile = state.drawn if state.drawn in state.racks[mover] else state.racks[mover][-1]
    actions.do_submit_action(
        table.pk, mover, {"type": "discard", "tile": tile}, table.version, at=at
    )


def context_for(table: Table, position: int) -> dict:
    table = Table.objects.get(pk=table.pk)
    seats = list(table.seats.all())
    return presenter.table_context(table, seats[position], seats=seats)


# ------------------------------------------------------------------ the default clock


def test_two_people_get_a_30_second_clock_by_default():
    table = two_people()
    assert table.options["clock"] == 30
    assert table.turn_deadline is not None
    deadline = table.turn_deadline - table.hands.get().started_at
    assert timedelta(seconds=29) < deadline <= timedelta(seconds=31)


@pytest.mark.parametrize("clock", [15, 60])
def test_a_table_of_people_may_choose_15_or_60_seconds(clock):
    assert two_people(clock=clock).options["clock"] == clock


def test_no_clock_only_as_a_casual_tables_explicit_choice():
    assert two_people(clock=0).options["clock"] == 0
    ayse = User.objects.create_user("ayse", password="pw-ayse-123")
    rated = actions.do_create_table(
        variant="rummy",
        options={"players": 2, "clock": 0},
        seats=[ME, FRIEND],
        user=ayse,
        rated=True,
    )
    assert rated.rated and rated.options["clock"] == 30  # a rated table is always timed
    quick = actions.do_create_table(
        variant="rummy",
        options={"players": 2, "clock": 60},
        seats=[ME, FRIEND],
        user=ayse,
        rated=True,
        quick_match=True,
    )
    assert quick.options["clock"] == 30  # quick match: 30 s, whatever was asked


def test_one_person_keeps_no_clock():
    assert cpu_table().options["clock"] == 0  # one person and CPUs: the table waits
    solo = actions.do_create_table(
        variant="seventeen",
        options=dict(SOLO_OPTIONS),
        seats=[ME, CPU, CPU, CPU],
        guest_key="solo",
        kind=Table.Kind.SOLO,
    )
    assert solo.options["clock"] == 0 and solo.turn_deadline is None


def test_an_organisers_table_keeps_its_clock_and_gets_30_s_when_it_set_none():
    a = User.objects.create_user("a", password="pw-a-123456")
    b = User.objects.create_user("b", password="pw-b-123456")
    players = [actions.SeatSpec("player", user=a, name="A"), actions.SeatSpec("player", user=b)]
    seats = players + [CPU, CPU]
    unset = actions.do_seat_players(variant="classic", options={}, seats=seats)
    assert unset.organised and unset.options["clock"] == 30
    off = actions.do_seat_players(variant="classic", options={"clock": 0}, seats=seats)
    assert off.options["clock"] == 0  # the organiser chose no clock
    sixty = actions.do_seat_players(variant="classic", options={"clock": 60}, seats=seats)
    assert sixty.options["clock"] == 60


def test_the_new_table_form_offers_15_30_60_with_30_first_and_off_for_friends():
    form = CreateTableForm()
    field = form["classic__clock"]
    assert [v for v, _label in field.field.choices] == ["0", "15", "30", "60"]
    assert field.initial == "30"
    data = {"variant": "classic", "classic__clock": "30", "seat_1": "human"}
    data |= {"seat_2": "cpu:easy", "seat_3": "cpu:easy"}
    with_friend = CreateTableForm(data)
    assert with_friend.is_valid() and with_friend.options()["clock"] == 30
    alone = CreateTableForm({**data, "seat_1": "cpu:easy"})
    assert alone.is_valid() and "clock" not in alone.options()  # one person: the services say 0


# ------------------------------------------------------------------ time-outs


def test_a_time_out_is_counted_and_the_player_told_what_was_discarded_for_them():
    table = two_people()
    mover = time_out(table)
    assert seat(table, mover).timeouts == 1
    last = HandAction.objects.filter(hand__table=table).order_by("-index").first()
    assert last.by_cpu and last.seat == mover and last.payload["type"] == "timeout"
    tile = notation(state_of(table).discards[mover][-1])  # rummy [D8]: drawn and discarded
    expected = f"Time's up: {tile_words(tile, 'rummy')} was discarded for you."
    ctx = context_for(table, mover)
    assert ctx["notice"]["text"] == expected and not ctx["notice"]["away"]
    html, _keys = realtime.live_frame(ctx, None, "en")
    assert expected.replace("'", "&#x27;") in html and 'data-testid="timeout-notice"' in html
    # the other player is told nothing, and sees the seat played by nobody
    other = context_for(table, 1 - mover)
    assert other["notice"] is None
    # the notice survives the frames that follow (the other player's move) ...
    play_own_turn(table)
    assert context_for(table, mover)["notice"]["text"] == expected
    # ... until the player's own move ends the row of time-outs
    play_own_turn(table)
    assert seat(table, mover).timeouts == 0
    assert context_for(table, mover)["notice"] is None


def test_a_time_out_where_the_cpu_plays_the_turn_names_the_tile_it_discarded():
    table = actions.do_create_table(
        variant="classic", options={"clock": 15}, seats=[ME, FRIEND, CPU, CPU], guest_key="g-a"
    )
    actions.do_join_table(table.pk, guest_key="g-b")
    page_open(table)
    while state_of(table).turn not in (0, 1):
        assert actions.sweep(at=actions.now() + timedelta(seconds=1))
    mover = time_out(table)  # the seat's CPU plays the turn, one step a sweep
    for _ in range(40):
        last = HandAction.objects.filter(hand__table=table).order_by("-index").first()
        if last.payload["type"] in ("discard", "close") or state_of(table).turn != mover:
            break
        assert actions.sweep(at=actions.now() + timedelta(minutes=5))
    last = HandAction.objects.filter(hand__table=table, seat=mover).order_by("-index").first()
    assert last.by_cpu and last.payload["type"] == "discard"
    words = tile_words(notation(last.payload["tile"]), "fifty-one")
    assert context_for(table, mover)["notice"]["text"] == (
        f"Time's up: {words} was discarded for you."
    )


def test_two_time_outs_in_a_row_hand_the_seat_to_its_stand_in_until_the_player_is_back():
    table = two_people()
    first = time_out(table)
    play_own_turn(table)  # the other player
    assert time_out(table) == first
    assert seat(table, first).timeouts == 2
    notice = context_for(table, first)["notice"]
    assert notice["away"] and "I'm back" in realtime.render_leaf(
        "notice", context_for(table, first)
    )
    # everyone sees who plays that seat
    other = context_for(table, 1 - first)
    assert next(p for p in other["players"] if p["position"] == first)["stand_in"]
    assert "CPU playing for Guest" in realtime.render_leaf(f"opp-{first}", other)
    # on its next turn the stand-in plays after the usual short CPU delay, not the clock
    at = actions.now()
    play_own_turn(table, at=at)
    table.refresh_from_db()
    assert table.cpu_due_at == at + actions.cpu_delay()
    assert actions.do_play_due(table.pk, at=at + actions.cpu_delay())
    assert seat(table, first).timeouts == 2  # a stand-in's turn is not a time-out
    # "I'm back": the seat is the player's again, on the turn in play too
    actions.do_come_back(table.pk, guest_key="g-a" if first == 0 else "g-b")
    assert seat(table, first).timeouts == 0
    assert context_for(table, first)["notice"] is None


def test_im_back_on_ones_own_turn_calls_the_stand_ins_move_off():
    table = two_people()
    first = time_out(table)
    play_own_turn(table)
    time_out(table)
    at = actions.now()
    play_own_turn(table, at=at)  # the other player: now the stand-in is due for `first`
    table.refresh_from_db()
    assert table.cpu_due_at is not None and state_of(table).turn == first
    deadline = table.turn_deadline
    key = "g-a" if first == 0 else "g-b"
    actions.do_come_back(table.pk, guest_key=key)
    actions.do_come_back(table.pk, guest_key=key)  # said twice: nothing more
    table.refresh_from_db()
    assert table.cpu_due_at is None and table.turn_deadline == deadline  # the clock runs on
    assert actions.do_play_due(table.pk, at=at + timedelta(seconds=5)) is False
    with pytest.raises(actions.ActionRefused) as refused:
        actions.do_come_back(table.pk, guest_key="nobody")
    assert refused.value.code == "not_seated"


def test_the_im_back_button_posts_to_the_table():
    table = two_people()
    first = time_out(table)
    play_own_turn(table)
    time_out(table)
    client = Client()
    session = client.session
    session.save()
    Seat.objects.filter(table=table, position=first).update(guest_key=session.session_key)
    url = f"/t/{table.code}/back/"
    assert client.post(url, headers={"HX-Request": "true"}).status_code == 204
    assert seat(table, first).timeouts == 0
    assert Client().post(url, headers={"HX-Request": "true"}).status_code == 403
    assert client.get(url).status_code == 405


# ------------------------------------------------------------------ presence


def test_a_seat_taken_by_a_bare_post_is_away_until_its_page_connects():
    table = actions.do_create_table(
        variant="rummy", options={"players": 2}, seats=[ME, FRIEND], guest_key="g-a"
    )
    assert seat(table, 0).away_since is not None  # nobody has opened the page yet
    page_open(table, 0)
    assert seat(table, 0).away_since is None
    client = Client()
    assert client.post(f"/t/{table.code}/join/").status_code == 302  # never opens the page
    ghost = seat(table, 1)
    assert ghost.guest_key and ghost.away_since is not None
    # the table does not freeze: the ghost's stand-in plays its turns after the grace
    table.refresh_from_db()
    for _ in range(3):
        if state_of(table).turn == 1:
            break
        play_own_turn(table)
    table.refresh_from_db()
    assert table.cpu_due_at == max(ghost.away_since + actions.grace(), table.updated_at)
    assert actions.do_play_due(table.pk, at=ghost.away_since + actions.grace())
    last = HandAction.objects.filter(hand__table=table).order_by("-index").first()
    assert last.seat == 1 and last.by_cpu
    # its first socket clears it
    page_open(table, 1)
    assert seat(table, 1).away_since is None


def test_others_see_a_cpu_playing_for_an_away_player(settings):
    table = two_people()
    s1 = seat(table, 1)
    actions.do_set_presence(s1.pk, False, channel=f"test-page-{s1.pk}")
    for viewer in (context_for(table, 0), presenter.table_context(table, None)):
        p = next(p for p in viewer["players"] if p["position"] == 1)
        assert p["stand_in"] and p["away"]
        assert "CPU playing for Guest" in realtime.render_leaf("opp-1", viewer)


def test_the_countdown_is_on_the_seat_to_move_and_by_the_own_controls():
    table = two_people()
    mover = state_of(table).turn
    mine, theirs = context_for(table, mover), context_for(table, 1 - mover)
    stamp = table.turn_deadline.isoformat()
    assert f'data-deadline="{stamp}"' in realtime.render_leaf("controls", mine)
    assert 'data-testid="my-clock"' in realtime.render_leaf("controls", mine)
    assert 'data-testid="my-clock"' not in realtime.render_leaf("controls", theirs)
    seat_box = realtime.render_leaf(f"opp-{mover}", theirs)
    assert f'data-testid="seat-clock-{mover}"' in seat_box and stamp in seat_box
    assert "seat-clock" not in realtime.render_leaf(f"opp-{1 - mover}", mine)


# ------------------------------------------------------- nobody at the table, coming back


def test_while_you_were_away_says_what_the_stand_in_played_and_how_the_hand_ended(settings):
    settings.OKEY_AWAY_GRACE_S = 0
    table = cpu_table("rummy", players=2)
    me = seat(table, 0)
    state = state_of(table)
    if state.turn == 0:  # one move of the player's own first
        play_own_turn(table)
    assert presenter.away_summary(table, me) is None  # nothing played for them yet
    actions.do_set_presence(me.pk, False, channel=f"test-page-{me.pk}")  # the player leaves
    at = actions.now()
    for _ in range(3000):
        table.refresh_from_db()
        if table.current_hand.result is not None:
            break
        at += timedelta(seconds=1)
        actions.sweep(at=at)
    hand = table.current_hand
    assert hand.result is not None
    # nobody is at this casual table: no new hand is dealt
    assert actions.sweep(at=at + timedelta(hours=1)) == 0
    assert table.hands.count() == 1
    # the player comes back: the page says what their stand-in did
    actions.do_set_presence(me.pk, True, channel="back-page")
    me.refresh_from_db()
    summary = presenter.away_summary(table, me)
    turns = HandAction.objects.filter(
        hand=hand, seat=0, by_cpu=True, payload__type__in=["discard", "close", "timeout"]
    ).count()
    assert turns >= 1
    points = sum(line.points for line in hand.score_lines.filter(seat=0))
    first = f"Your stand-in played {turns} turn{'s' if turns != 1 else ''}."
    assert summary["lines"][0] == first
    assert (
        summary["lines"][1].startswith("Hand 1 ended") and f"{points:+d}." in (summary["lines"][1])
    )
    client = Client()
    session = client.session
    session.save()
    Seat.objects.filter(pk=me.pk).update(guest_key=session.session_key)
    page = client.get(f"/t/{table.code}/").content.decode()
    assert 'data-testid="away-summary"' in page and first in page
    # the player deals the next hand and plays: the summary is over
    table.refresh_from_db()
    actions.do_next_hand(table.pk, table.version)
    for _ in range(20):
        if state_of(table).turn == 0:
            break
        actions.sweep(at=at + timedelta(hours=2))
    play_own_turn(table)
    assert presenter.away_summary(table, seat(table, 0)) is None


def test_leaving_and_coming_back_at_a_hands_end_deals_the_next_hand_once(settings):
    settings.OKEY_AWAY_GRACE_S = 15
    table = cpu_table()
    me = seat(table, 0)
    play_out_hand(table)
    t0 = actions.now()
    actions.do_set_presence(me.pk, False, at=t0, channel=f"test-page-{me.pk}")
    actions.do_set_presence(me.pk, True, at=t0, channel="again")  # back the same instant
    table.refresh_from_db()
    assert table.cpu_due_at is None
    version = table.version
    actions.do_next_hand(table.pk, version)
    actions.do_next_hand(table.pk, version)  # a double click: dealt once
    with pytest.raises(actions.ActionRefused):
        actions.do_next_hand(table.pk, version - 1)
    assert table.hands.count() == 2


def test_two_sweepers_never_count_or_play_a_time_out_twice():
    table = two_people()
    table.refresh_from_db()
    due = table.turn_deadline + timedelta(milliseconds=1)
    mover = state_of(table).turn
    assert actions.do_play_due(table.pk, at=due) is True
    assert actions.do_play_due(table.pk, at=due) is False  # the other sweeper, too late
    assert actions.sweep(at=due) == 0
    assert seat(table, mover).timeouts == 1
    assert HandAction.objects.filter(hand__table=table, by_cpu=True).count() == 1
