"""/metrics: the moves and their latency counted once each, when they commit; the gauges
read at scrape time; who may scrape (docs/operators.md, "Metrics")."""

from __future__ import annotations

import logging
import time
from datetime import timedelta

import pytest
from django.db import transaction
from django.test import Client
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from games.live import actions as table_actions
from games.live import consumers, realtime
from games.models import Hand, HandAction, Table
from games.review.models import HandAnalysis, HandPar
from okeysite import metrics

pytestmark = pytest.mark.django_db(transaction=True)


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def counts() -> tuple[float, float, float]:
    return (
        sample("okey_actions_total", by="player"),
        sample("okey_actions_total", by="cpu"),
        sample("okey_action_seconds_count"),
    )


def guest_table() -> Table:
    """Four guests (no CPU): the first hand is dealt, nobody plays but the test."""
    table = table_actions.do_create_table(
        variant="classic",
        options={},
        seats=[table_actions.SeatSpec("me")] + [table_actions.SeatSpec("human")] * 3,
        guest_key="g0",
    )
    for i in (1, 2, 3):
        table_actions.do_join_table(table.pk, guest_key=f"g{i}")
    table.refresh_from_db()
    return table


def play_one(table: Table) -> Table:
    _hand, state, _game = realtime.snapshot(table)
    move = (
        {"type": "draw"}
        if state.phase == "draw"
        else {"type": "discard", "tile": state.racks[state.turn][0]}
    )
    return table_actions.do_submit_action(table.pk, state.turn, move, table.version)


def scrape(client: Client, **extra) -> dict[str, float]:
    response = client.get("/metrics", **extra)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    return {
        s.name + str(sorted(s.labels.items())): s.value
        for family in text_string_to_metric_families(response.content.decode())
        for s in family.samples
    }


def test_every_committed_move_is_counted_once_with_its_latency():
    table = guest_table()
    player, cpu, observed = counts()
    for _ in range(5):
        table = play_one(table)
    assert HandAction.objects.filter(hand__table=table).count() == 5
    assert counts() == (player + 5, cpu, observed + 5)
    assert sample("okey_action_seconds_sum") > 0


def test_a_refused_or_rolled_back_move_is_not_counted():
    table = guest_table()
    before = counts()
    _hand, state, _game = realtime.snapshot(table)
    with pytest.raises(table_actions.ActionRefused):  # not this seat's turn
        table_actions.do_submit_action(table.pk, (state.turn + 1) % 4, {"type": "draw"}, None)
    with pytest.raises(RuntimeError), transaction.atomic():
        play_one(table)
        raise RuntimeError("the caller's transaction fails after the move")
    assert HandAction.objects.filter(hand__table=table).count() == 0
    assert counts() == before


def test_the_sweepers_moves_are_counted_as_cpu_moves():
    table = table_actions.do_create_table(
        variant="classic",
        options={},
        seats=[table_actions.SeatSpec("cpu", "easy")] * 4,
    )
    table.refresh_from_db()
    player, cpu, observed = counts()
    later = table_actions.now() + timedelta(hours=1)
    assert table_actions.do_play_due(table.pk, at=later)
    assert table_actions.do_play_due(table.pk, at=later + timedelta(hours=1))
    moved = HandAction.objects.filter(hand__table=table, by_cpu=True).count()
    assert moved == 2
    assert counts() == (player, cpu + 2, observed + 2)


def test_the_scrape_reads_tables_in_play_sockets_sweeper_lag_and_the_analysis_queue(
    monkeypatch,
):
    table = guest_table()
    guest_table()
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    hand = Hand.objects.filter(table=table).first()
    HandAnalysis.objects.create(hand=hand, seat=0, status="pending")
    HandAnalysis.objects.create(hand=hand, seat=1, status="pending")
    HandAnalysis.objects.create(hand=hand, seat=2, status="done")
    HandPar.objects.create(hand=hand, seat=3, status="running")
    monkeypatch.setattr(consumers, "LIVE", {"a": 1, "b": 2, "c": 3})
    monkeypatch.setattr(consumers, "WATCHING", {"d": table.pk})
    monkeypatch.setattr(metrics.sweeper, "last_pass", time.monotonic() - 7)
    got = scrape(Client(), REMOTE_ADDR="127.0.0.1")
    assert got["okey_tables_in_play[]"] == Table.objects.filter(status="playing").count() == 1
    assert got["okey_table_sockets[('kind', 'seat')]"] == 3
    assert got["okey_table_sockets[('kind', 'watcher')]"] == 1
    assert 7 <= got["okey_sweeper_lag_seconds[]"] < 60
    queue = "okey_analysis_queue[('kind', '{}'), ('status', '{}')]"
    assert got[queue.format("analysis", "pending")] == 2
    assert got[queue.format("analysis", "running")] == 0
    assert got[queue.format("par", "running")] == 1


def test_error_records_are_counted_by_logger():
    before = sample("okey_errors_total", logger="games.live.sweeper")
    logging.getLogger("games.live.sweeper").error("sweeper step failed")
    logging.getLogger("games.live.sweeper").warning("a warning is not an error")
    assert sample("okey_errors_total", logger="games.live.sweeper") == before + 1


@pytest.mark.parametrize(
    ("allowed", "token", "extra", "status"),
    [
        (["127.0.0.1", "::1"], "", {"REMOTE_ADDR": "127.0.0.1"}, 200),
        (["127.0.0.1", "::1"], "", {"REMOTE_ADDR": "::1"}, 200),
        (["127.0.0.1", "::1"], "", {"REMOTE_ADDR": "203.0.113.9"}, 404),
        (["10.0.0.0/8"], "", {"REMOTE_ADDR": "10.1.2.3"}, 200),
        ([], "", {"REMOTE_ADDR": "127.0.0.1"}, 404),
        ([], "s3cret", {"REMOTE_ADDR": "203.0.113.9", "HTTP_AUTHORIZATION": "Bearer s3cret"}, 200),
        ([], "s3cret", {"REMOTE_ADDR": "203.0.113.9", "HTTP_AUTHORIZATION": "Bearer nope"}, 404),
        ([], "", {"REMOTE_ADDR": "203.0.113.9", "HTTP_AUTHORIZATION": "Bearer "}, 404),
    ],
)
def test_only_allowed_addresses_or_the_token_may_scrape(settings, allowed, token, extra, status):
    settings.METRICS_ALLOWED_IPS, settings.METRICS_TOKEN = allowed, token
    response = Client().get("/metrics", **extra)
    assert response.status_code == status
    assert (b"okey_actions_total" in response.content) == (status == 200)


def test_behind_nginx_the_forwarded_client_counts_not_the_proxy(settings):
    """nginx connects from 127.0.0.1 and appends the client it saw: with TRUSTED_PROXIES=1
    that client is the one checked, and a forged address further left is ignored."""
    settings.TRUSTED_PROXIES = 1
    outside = {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "127.0.0.1, 203.0.113.9"}
    assert Client().get("/metrics", **outside).status_code == 404
    assert Client().get("/metrics", REMOTE_ADDR="127.0.0.1").status_code == 200
