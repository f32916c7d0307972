"""What a long load run watches besides latency (``manage.py loadbench --soak MINUTES``).

- :class:`RssSampler`: every server process's resident set size (VmRSS), sampled on a
  thread of the bench every ``every`` seconds from the start of play, so that memory
  that grows with time (and not with the number of tables) shows; the soak's criterion
  compares the last sample with the one taken after ``baseline_s`` (five minutes: the
  caches and the allocator's arenas have filled by then);
- :func:`presence_left`: once every player has closed its socket, the presence rows of
  the bench's tables that are left (``SeatConnection`` and the watchers'
  ``WatchConnection`` rows, and seats whose ``connections`` count is not 0), waited on
  until there are none or ``settle_s`` has passed; anything left is a leak (a process
  drops a closed socket's row at once and reconciles its rows every 10 s:
  ``actions.presence.do_reconcile_presence``);
- :func:`tracebacks`: the tracebacks the servers logged.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import servers

SOAK_BASELINE_S = 300.0  # the RSS the soak's end is compared with: after five minutes
SOAK_RSS_LIMIT = 0.10  # the end within 10% of it
PRESENCE_SETTLE_S = 25.0  # two of the sweepers' presence reconciliations (every 10 s) and more
# ... plus this per socket: every close is a database trip and re-renders the table for the
# seats still there, so 2,000 sockets closing at once keep two processes busy for a while
PRESENCE_SETTLE_PER_SOCKET_S = 0.03


def settle_time(sockets: int) -> float:
    """How long the presence rows of ``sockets`` closed sockets may take to go."""
    return PRESENCE_SETTLE_S + PRESENCE_SETTLE_PER_SOCKET_S * sockets


class RssSampler:
    """Samples the servers' RSS on a daemon thread; :meth:`stop` ends it (and takes a
    last sample)."""

    def __init__(
        self,
        pids: list[int],
        every: float = 60.0,
        log: Callable[[str], None] = lambda msg: None,
        progress: Callable[[], str] = lambda: "",
    ) -> None:
        self.pids, self.every, self.log, self.progress = pids, every, log, progress
        self.samples: list[dict[str, Any]] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._t0 = 0.0

    def start(self) -> None:
        self._t0 = time.monotonic()
        self.sample()
        self._thread = threading.Thread(target=self._run, name="rss-sampler", daemon=True)
        self._thread.start()

    def sample(self) -> None:
        at = round(time.monotonic() - self._t0, 1)
        rss = [round(servers.rss_kb(pid) / 1024, 1) for pid in self.pids]
        self.samples.append({"t_s": at, "rss_mb": rss})
        self.log(f"{at / 60:5.1f} min: RSS {' + '.join(f'{x} MB' for x in rss)} {self.progress()}")

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            self.sample()

    def stop(self) -> None:
        if self._thread is None:
            return
        self._stop.set()
        self._thread.join(10)
        self._thread = None
        self.sample()


def rss_change(
    samples: list[dict[str, Any]], baseline_s: float = SOAK_BASELINE_S
) -> dict[str, Any]:
    """Each server's RSS at the first sample at or after ``baseline_s`` and at the last,
    with the change in percent (None when the run was shorter than ``baseline_s``)."""
    base = next((s for s in samples if s["t_s"] >= baseline_s), None)
    if base is None or not samples:
        return {"baseline_s": baseline_s, "at_baseline_mb": None, "at_end_mb": None, "pct": None}
    end = samples[-1]
    pct = [
        round(100 * (e - b) / b, 1) if b else None
        for b, e in zip(base["rss_mb"], end["rss_mb"], strict=True)
    ]
    return {
        "baseline_s": base["t_s"],
        "end_s": end["t_s"],
        "at_baseline_mb": base["rss_mb"],
        "at_end_mb": end["rss_mb"],
        "pct": pct,
    }


def presence_counts(table_ids: list[int]) -> dict[str, int]:
    """The presence rows of these tables: open seat sockets, watcher sockets, and seats
    whose count of connections is not 0."""
    from games.models import Seat, SeatConnection
    from games.watch.models import WatchConnection

    return {
        "seat_connections": SeatConnection.objects.filter(seat__table_id__in=table_ids).count(),
        "watch_connections": WatchConnection.objects.filter(table_id__in=table_ids).count(),
        "seats_counted_present": Seat.objects.filter(
            table_id__in=table_ids, connections__gt=0
        ).count(),
    }


def presence_left(
    table_ids: list[int], settle_s: float = PRESENCE_SETTLE_S, poll_s: float = 0.5
) -> dict[str, Any]:
    """After every socket closed: the presence rows left right away and once they are
    gone or ``settle_s`` has passed (what is left then is leaked)."""
    from django.db import connections

    at_close = presence_counts(table_ids)
    end = time.monotonic() + settle_s
    now = at_close
    while any(now.values()) and time.monotonic() < end:
        time.sleep(poll_s)
        now = presence_counts(table_ids)
    connections["default"].close()
    return {"at_close": at_close, "left": now, "leaked": sum(now.values())}


def tracebacks(log_paths: list[Path]) -> int:
    """How many tracebacks the servers wrote to their logs."""
    n = 0
    for path in log_paths:
        with contextlib.suppress(OSError):
            n += path.read_text(errors="replace").count("Traceback (most recent call last)")
    return n
