"""The metrics the core counts on its own paths, as prometheus-client objects.

The core (games/*.py, games/live/) may import this module, as it imports okeysite.limits;
the operator's sub-app (games/ops/) serves them at /metrics with the gauges it computes
at scrape time (tables in play, open sockets, sweeper lag, the analysis queue). Each
``manage.py serve`` process counts for itself and serves its own figures: Prometheus
scrapes every process at its own port (docs/operators.md, "Metrics").

What is counted here, and where:

- ``okey_actions_total{by}``: moves stored at a table (one per ``HandAction`` row, the
  player's or the server's: ``by`` is "player" or "cpu"), counted when their transaction
  commits (games/live/actions/table.py, ``apply_action``, the one place every move passes);
- ``okey_action_seconds``: for each of those moves, the time from the action's start (the
  player's frame handled by ``do_submit_action``, or the sweeper's ``do_play_due``; the
  wait for the table's row lock included) to its commit;
- ``okey_table_sockets_opened_total``: table sockets accepted (games/live/consumers.py);
- ``okey_errors_total{logger}``: log records at ERROR or above (``ErrorCounter``, a logging
  handler on the root logger: a view's 500, a socket's failed frame, a sweeper step);
- ``sweeper``: when this process's sweeper last finished a pass (games/live/sweeper.py).

Each count is a lock and an addition (about a microsecond): cheap on the move's path.
"""

from __future__ import annotations

import logging
import time

from prometheus_client import Counter, Histogram

ACTIONS = Counter(
    "okey_actions",
    "Moves stored at a table (committed), by who made them (player or cpu).",
    ["by"],
)
# A move takes 2-10 ms when the table is not contended (docs/benchmarks.md); the buckets
# reach far past that so a stalled database shows in the top ones.
ACTION_SECONDS = Histogram(
    "okey_action_seconds",
    "Time from a move's start (lock wait included) to its commit.",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
SOCKETS_OPENED = Counter(
    "okey_table_sockets_opened",
    "Table websockets accepted by this process.",
)
ERRORS = Counter(
    "okey_errors",
    "Log records at ERROR or above, by logger.",
    ["logger"],
)


def action_done(by_cpu: bool, started: float) -> None:
    """Count one committed move that started at ``started`` (``time.perf_counter()``)."""
    ACTIONS.labels("cpu" if by_cpu else "player").inc()
    ACTION_SECONDS.observe(time.perf_counter() - started)


class SweeperState:
    """When this process's sweeper last finished a pass (``time.monotonic()``), and when
    this process started: before the first pass, the lag counts from the start.
    ``enabled`` is False in a process started without its sweeper on purpose
    (``manage.py serve --no-sweeper``)."""

    __slots__ = ("enabled", "last_pass", "started")

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.last_pass: float | None = None
        self.enabled = True

    def passed(self) -> None:
        self.last_pass = time.monotonic()

    def lag(self, now: float | None = None) -> float:
        """Seconds since the last pass ended (since the start if none has)."""
        now = time.monotonic() if now is None else now
        return max(0.0, now - (self.last_pass if self.last_pass is not None else self.started))


sweeper = SweeperState()


class ErrorCounter(logging.Handler):
    """A logging handler that counts the records at ERROR or above by logger name
    (okeysite/settings.py puts it on the root logger). It writes nothing."""

    def __init__(self, level: int = logging.ERROR) -> None:
        super().__init__(level)

    def emit(self, record: logging.LogRecord) -> None:
        ERRORS.labels(record.name).inc()
