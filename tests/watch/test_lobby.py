"""The lobby's live tables: which tables are listed, what a row says, and when the
list is sent again (on a hand dealt, a game finished, a watcher count changed;
never on a move; coalesced)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.live import actions
from games.models import Table
from games.watch import consumers as watch_consumers
from games.watch import lobby
from tests.games.conftest import play_out_hand
from tests.watch.conftest import adb, cpu_table, frames, lobby_socket, person, table_socket

CODES = re.compile(r'data-testid="live-table" data-code="([\w-]+)"')


def some_tables() -> dict[str, Table]:
    """A public table in play, a private one in play, a public one waiting for a
    player and a public one finished."""
    user, _ = person("ayse")
    playing = cpu_table(user)
    private = cpu_table(guest_key="g-private", public=False)
    waiting = actions.do_create_table(
        variant="classic",
        options={},
        seats=[actions.SeatSpec("me"), actions.SeatSpec("human")] + [actions.SeatSpec("cpu")] * 2,
        guest_key="g-waiting",
        public=True,
    )
    finished = cpu_table(guest_key="g-finished")
    Table.objects.filter(pk=finished.pk).update(status=Table.Status.FINISHED)  # as if played out
    return {"playing": playing, "private": private, "waiting": waiting, "finished": finished}


@pytest.mark.django_db
def test_the_lobby_lists_the_public_tables_in_play_only():
    tables = some_tables()
    assert tables["waiting"].status == Table.Status.WAITING
    for page in ("/watch/", "/"):
        html = Client().get(page).content.decode()
        assert CODES.findall(html) == [tables["playing"].code], page


@pytest.mark.django_db
def test_a_row_names_the_rule_set_the_players_their_ratings_the_hand_and_the_watchers():
    user, _ = person("ayse")
    table = cpu_table(user, variant="seventeen")
    html = Client().get("/watch/").content.decode()
    row = re.search(r'data-testid="live-table".*?</li>', html, re.S).group(0)
    assert "Seventeen" in row  # the rules object's label
    assert "Hand 1 of 7" in row  # Rules.hands_shown: a fixed number of hands
    assert re.search(r">\s*Ayse <span class=\"rating provisional\"[^>]*>1500\?</span>", row)
    assert row.count(">CPU</span>") == 3  # the CPUs are marked, with no rating
    assert "0 watching" in row
    assert table.code in row


@pytest.mark.django_db
def test_a_rule_set_without_a_fixed_length_says_the_hand_alone():
    cpu_table(variant="classic")
    html = Client().get("/watch/").content.decode()
    assert re.search(r'data-testid="live-hand">Hand 1<', html)


@pytest.mark.django_db
def test_with_no_public_table_in_play_the_lobby_says_so():
    cpu_table(public=False)
    assert 'data-testid="live-empty"' in Client().get("/watch/").content.decode()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_list_is_sent_again_when_a_hand_is_dealt_and_not_on_moves():
    table = await adb(cpu_table)(variant="seventeen")
    comm = await lobby_socket()
    first = await comm.receive_from()
    assert "Hand 1 of 7" in first and 'hx-swap-oob="true"' in first
    await adb(play_out_hand)(table)  # a whole hand of moves: nothing for the lobby
    assert await frames(comm) == []
    table = await adb(Table.objects.get)(pk=table.pk)
    await adb(actions.do_next_hand)(table.pk, table.version)
    sent = await frames(comm)
    assert len(sent) == 1 and "Hand 2 of 7" in sent[0]
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_table_that_starts_or_finishes_enters_or_leaves_the_list():
    comm = await lobby_socket()
    assert 'data-testid="live-empty"' in await comm.receive_from()
    table = await adb(cpu_table)()
    sent = await frames(comm)
    assert len(sent) == 1 and CODES.findall(sent[0]) == [table.code]

    def finish() -> None:  # the game's end, as the table actions announce it
        from games.signals import game_finished

        Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
        game_finished.send(sender=Table, table=Table.objects.get(pk=table.pk), game=None)

    await adb(finish)()
    sent = await frames(comm)
    assert len(sent) == 1 and CODES.findall(sent[0]) == []
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_watcher_arriving_at_a_listed_table_updates_the_count_in_the_list():
    table = await adb(cpu_table)()
    comm = await lobby_socket()
    assert "0 watching" in await comm.receive_from()
    watcher = await table_socket(table.code)
    sent = await frames(comm)
    assert len(sent) == 1 and "1 watching" in sent[0]
    await watcher.disconnect()
    sent = await frames(comm)
    assert len(sent) == 1 and "0 watching" in sent[0]
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_private_tables_watchers_do_not_reach_the_lobby():
    table = await adb(cpu_table)(public=False)
    comm = await lobby_socket()
    await comm.receive_from()
    watcher = await table_socket(table.code)
    await watcher.receive_from()
    assert await frames(comm) == []
    await watcher.disconnect()
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_changes_that_arrive_together_are_rendered_once_per_process(settings):
    settings.OKEY_LOBBY_COALESCE_S = 0.2
    await adb(cpu_table)()
    socks = [await lobby_socket(), await lobby_socket("?n=1")]
    for s in socks:
        await s.receive_from()
    hub = watch_consumers.lobby_hub()
    before = hub.renders
    for _ in range(5):  # five changes, as a busy site makes them
        await adb(lobby.lobby_changed)()
    for s in socks:
        assert len(await frames(s, timeout=1.0)) <= 1  # an unchanged list is not re-sent
    assert hub.renders == before + 1
    for s in socks:
        await s.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_home_pages_list_is_as_long_as_its_socket_asks():
    for i in range(3):
        await adb(cpu_table)(guest_key=f"g-{i}")
    short, full = await lobby_socket("?n=2"), await lobby_socket()
    assert len(CODES.findall(await short.receive_from())) == 2
    assert len(CODES.findall(await full.receive_from())) == 3
    for s in (short, full):
        await s.disconnect()


@pytest.mark.django_db
def test_the_new_table_form_opens_a_public_table_when_asked():
    client = Client()
    form = {"variant": "classic", "seat_1": "cpu:easy", "seat_2": "cpu:easy", "seat_3": "cpu:easy"}
    client.post("/tables/new/", form)
    client.post("/tables/new/", {**form, "public": "on"})
    private, public = Table.objects.order_by("pk")
    assert (private.public, public.public) == (False, True)
    assert CODES.findall(client.get("/watch/").content.decode()) == [public.code]
