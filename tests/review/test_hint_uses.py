"""The review says who used "Show me" in a finished hand and on how many turns: on the
game's page (beside each finished hand), on the hand's replay and on a share link's
pages; a hand in play shows nothing."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User

from games.live import actions, cpu
from games.models import Hand, Table
from games.review.models import ShareLink
from tests.review.conftest import cpu_table, play_out_hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def ayse(client):
    user = User.objects.create_user("ayse", password="pw-long-enough-1")
    user.profile.display_name = "Ayşe"
    user.profile.save()
    client.force_login(user)
    return user


def to_my_next_turn(table: Table) -> None:
    """Play on (every seat like an easy CPU) until seat 0 is to move on a later turn."""

    def state():
        return actions.load_state(Table.objects.get(pk=table.pk).current_hand)

    def step() -> None:
        t = Table.objects.get(pk=table.pk)
        s = actions.load_state(t.current_hand)
        is_cpu = t.seats.get(position=s.turn).is_cpu
        actions.do_submit_action(
            t.pk, s.turn, cpu.choose(s, s.turn, "easy"), t.version, by_cpu=is_cpu
        )

    while state().turn == 0:
        step()
    while state().turn != 0:
        step()
    assert state().result is None


def badges(html: str) -> list[str]:
    return [
        re.sub(r"<[^>]+>", "", b)
        for b in re.findall(r'data-testid="hand-hints"[^>]*>(.*?)</span>', html)
    ]


def test_the_game_page_and_the_replay_say_who_used_show_me(client, ayse):
    table = cpu_table("classic", user=ayse)
    assert actions.load_state(table.current_hand).turn == 0  # seat 0 starts
    actions.do_show_hint(table.pk, 0)
    to_my_next_turn(table)
    actions.do_show_hint(table.pk, 0)
    table = play_out_hand(table)
    first = Hand.objects.get(table=table, number=0)
    assert first.result is not None and first.hints == {"0": sorted(first.hints["0"])}
    actions.do_next_hand(table.pk, table.version)
    second = Hand.objects.get(table=table, number=1)
    Hand.objects.filter(pk=second.pk).update(hints={"0": [0]})  # in play: not shown

    html = client.get(f"/review/game/{table.code}/").content.decode()
    assert badges(html) == ["Ayşe: Show me ×2"]
    replay = client.get(f"/review/hand/{first.pk}/").content.decode()
    line = replay.split('data-testid="rv-hints"', 1)[1].split("</p>", 1)[0]
    assert "Show me in this hand" in line and "Ayşe ×2" in line and 'data-seat="0"' in line

    link = ShareLink.objects.create(table=table, created_by=ayse)
    table.status = Table.Status.FINISHED  # share links show finished games only
    table.save(update_fields=["status"])
    client.logout()
    shared = client.get(f"/review/s/{link.token}/").content.decode()
    assert badges(shared) == ["Ayşe: Show me ×2"]
    shared_hand = client.get(f"/review/s/{link.token}/hand/1/").content.decode()
    assert "Ayşe ×2" in shared_hand.split('data-testid="rv-hints"', 1)[1].split("</p>", 1)[0]


def test_a_hand_without_show_me_says_nobody_used_it(client, ayse):
    table = play_out_hand(cpu_table("classic", user=ayse))
    hand = table.current_hand
    html = client.get(f"/review/game/{table.code}/").content.decode()
    assert badges(html) == []
    replay = client.get(f"/review/hand/{hand.pk}/").content.decode()
    line = replay.split('data-testid="rv-hints"', 1)[1].split("</p>", 1)[0]
    assert "Nobody used Show me in this hand." in line
