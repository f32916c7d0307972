"""The gauges /metrics computes when it is scraped (the counters are okeysite.metrics's).

- ``okey_tables_in_play``: tables whose status is "playing" (one COUNT on the database,
  the same figure from every process);
- ``okey_table_sockets{kind}``: this process's open table sockets, a seated player's
  ("seat") or a watcher's ("watcher"), the consumers' own registries;
- ``okey_sweeper_lag_seconds``: since this process's sweeper last finished a pass;
- ``okey_analysis_queue{kind,status}``: the review's background work waiting ("pending")
  or being computed ("running"): hand analyses ("analysis") and pars ("par").

A scrape whose database query fails leaves the database's gauges out (and logs why: the
error counter moves); the others are still served.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

from django.apps import apps
from django.db.models import Count
from prometheus_client import REGISTRY
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from games.live import consumers
from games.models import Table
from okeysite import metrics

log = logging.getLogger(__name__)

QUEUES = (("analysis", "review", "HandAnalysis"), ("par", "review", "HandPar"))


class OpsCollector(Collector):
    def describe(self) -> Iterator[Metric]:
        """The names, for the registry's duplicate check (without it the registry would
        collect, and query the database, while the app loads)."""
        yield GaugeMetricFamily("okey_table_sockets", "", labels=["kind"])
        yield GaugeMetricFamily("okey_sweeper_lag_seconds", "")
        yield GaugeMetricFamily("okey_tables_in_play", "")
        yield GaugeMetricFamily("okey_analysis_queue", "", labels=["kind", "status"])

    def collect(self) -> Iterator[Metric]:
        sockets = GaugeMetricFamily(
            "okey_table_sockets", "Open table websockets of this process.", labels=["kind"]
        )
        sockets.add_metric(["seat"], len(consumers.live_connections()))
        sockets.add_metric(["watcher"], len(consumers.live_watchers()))
        yield sockets
        yield GaugeMetricFamily(
            "okey_sweeper_lag_seconds",
            "Seconds since this process's sweeper last finished a pass.",
            value=metrics.sweeper.lag(),
        )
        try:
            in_play = Table.objects.filter(status=Table.Status.PLAYING).count()
            queue = list(queue_rows())
        except Exception as exc:  # one line a scrape while the database is down
            log.error("reading the database for /metrics failed: %s: %s", type(exc).__name__, exc)
            return
        yield GaugeMetricFamily(
            "okey_tables_in_play", "Tables with a game being played.", value=in_play
        )
        family = GaugeMetricFamily(
            "okey_analysis_queue",
            "The review's background work: pending or running rows.",
            labels=["kind", "status"],
        )
        for kind, status, count in queue:
            family.add_metric([kind, status], count)
        yield family


def queue_rows() -> Iterator[tuple[str, str, int]]:
    """(kind, status, rows) of the review's queues, "pending" and "running" (none when the
    review is not installed)."""
    for kind, app_label, name in QUEUES:
        try:
            model = apps.get_model(app_label, name)
        except LookupError:
            continue
        counts = dict.fromkeys(("pending", "running"), 0)
        rows = model.objects.filter(status__in=list(counts)).order_by().values("status")
        for row in rows.annotate(n=Count("pk")):
            counts[row["status"]] = row["n"]
        for status, count in counts.items():
            yield kind, status, count


_registered: list[OpsCollector] = []


def register() -> None:
    """Add the collector to prometheus-client's default registry, once per process."""
    if not _registered:
        collector = OpsCollector()
        REGISTRY.register(collector)
        _registered.append(collector)
