"""The status line under the table's title names whose turn it is while a hand is played
("Ayşe's turn.", "Your turn: …", "CPU 2 is thinking."); before and after play it says
what the table is doing (presenter.status_text)."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.live import actions, presenter
from games.models import Table
from tests.games.conftest import cpu_table

PLAYERS = [
    {"position": 0, "name": "Ayşe", "is_cpu": False, "stand_in": False},
    {"position": 1, "name": "CPU 2", "is_cpu": True, "stand_in": False},
    {"position": 2, "name": "Mehmet", "is_cpu": False, "stand_in": True},
    {"position": 3, "name": "Deniz", "is_cpu": False, "stand_in": False},
]


def view(turn: int, phase: str = "draw", over: bool = False) -> dict:
    return {"turn": turn, "phase": phase, "over": over}


def status(turn: int, me: int | None, status: str = Table.Status.PLAYING, **kw) -> str:
    with translation.override("en"):
        return str(presenter.status_text(Table(status=status), view(turn, **kw), me, PLAYERS))


def test_another_persons_turn_is_named():
    assert status(0, me=3) == "Ayşe's turn."
    assert status(3, me=0) == "Deniz's turn."


def test_a_watcher_reads_whose_turn_it_is():
    assert status(0, me=None) == "Ayşe's turn."


def test_a_cpu_seat_is_thinking():
    assert status(1, me=0) == "CPU 2 is thinking."


def test_a_seat_the_cpu_plays_for_says_so():
    assert status(2, me=0) == "The CPU plays for Mehmet."


def test_your_own_turn_says_what_to_do():
    assert status(0, me=0) == "Your turn: draw from the pile or take the discard."
    assert status(0, me=0, phase="play") == "Your turn: discard a tile to end it."


def test_a_waiting_table_keeps_its_wording():
    with translation.override("en"):
        text = presenter.status_text(Table(status=Table.Status.WAITING), None, 0, PLAYERS)
    assert str(text) == "Waiting for players to join."


def test_a_hand_over_names_nobody():
    assert status(1, me=0, over=True) == "The hand is over."


@pytest.mark.django_db
def test_the_table_page_names_the_cpu_to_move():
    table = cpu_table("classic")
    seat = table.seats.get(position=0)
    with translation.override("en"):
        ctx = presenter.table_context(table, seat)
        assert str(ctx["status_text"]) == "Your turn: discard a tile to end it."
        tile = ctx["view"]["rack"][0]["id"]
        actions.do_submit_action(table.pk, 0, {"type": "discard", "tile": tile}, table.version)
        table.refresh_from_db()
        ctx = presenter.table_context(table, seat)
        nxt = table.seats.get(position=ctx["view"]["turn"])
        assert nxt.is_cpu
        assert str(ctx["status_text"]) == f"{nxt.display_name()} is thinking."
        # a watcher reads the same line
        assert str(presenter.table_context(table, None)["status_text"]) == str(ctx["status_text"])
