"""The one token bucket and the one bounded LRU map of the site's rate limits and caches.

``TokenBucket`` meters a rate: ``burst`` tokens at most, ``rate`` more each second, one
taken per action. Its clock is injected (a callable returning seconds), so tests send a
burst "at one instant" or move time on by hand. It serves the websocket guard's socket
openings (``okeysite.wsguard``), the consumers' frames (``games.live.consumers``) and the
benchmark's players, who mirror the server's bucket to stay under it
(``games.tools.site.players``). Pure Python and no Django, so any layer may import it.

``LRU`` is ``cachetools.LRUCache``: a dict bounded to ``maxsize`` entries that forgets the
least recently used (read or written) first. The per-process caches of the live tables
(``games.live.realtime``), the quick phrases' per-seat counts (``games.phrases``) and the
per-key buckets above are kept in one.
docs/websocket-limits.md says why these and what they cost.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from cachetools import LRUCache as LRU

__all__ = ["LRU", "TokenBucket"]

Clock = Callable[[], float]


class TokenBucket:
    """``burst`` tokens at most, refilled at ``rate`` per second of ``clock``; full at first."""

    __slots__ = ("burst", "clock", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: float, clock: Clock = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens, self.stamp = burst, clock()

    def refill(self) -> float:
        """Bring the tokens up to now; returns them (possibly below zero: a debt)."""
        t = self.clock()
        self.tokens = min(self.burst, self.tokens + (t - self.stamp) * self.rate)
        self.stamp = t
        return self.tokens

    def peek(self) -> bool:
        """Whether a token is there now, without taking it."""
        return self.refill() >= 1

    def take(self) -> bool:
        """Take a token if there is one; False (and nothing taken) otherwise."""
        if self.refill() >= 1:
            self.tokens -= 1
            return True
        return False

    def spend(self, tokens: float = 1.0) -> None:
        """Take ``tokens`` unconditionally (after :meth:`peek` said they are there, or to
        put the bucket in debt)."""
        self.tokens -= tokens

    def owe(self, debt: float) -> None:
        """Leave the bucket at least ``debt`` tokens below zero: the next token comes only
        after ``(debt + 1) / rate`` seconds."""
        self.refill()
        self.tokens = min(self.tokens, -debt)

    def wait_s(self) -> float:
        """Seconds until a token is there (0 when one is), from the last refill."""
        return max(0.0, (1 - self.tokens) / self.rate)
