"""The one token bucket and the one bounded LRU map (okeysite/limits.py) that the websocket
guard, the consumers, the quick phrases and the live tables' caches share."""

from __future__ import annotations

import pytest

from games import phrases
from games.live import consumers, realtime
from okeysite.limits import LRU, TokenBucket
from okeysite.wsguard import WebsocketGuard


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_lets_a_burst_through_then_refills_at_its_rate():
    clock = Clock()
    bucket = TokenBucket(rate=2.0, burst=3.0, clock=clock)
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    clock.now += 0.4  # 0.8 of a token
    assert not bucket.take()
    clock.now += 0.1
    assert bucket.take()
    clock.now += 60  # never more than the burst
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]


def test_peek_takes_nothing_and_spend_takes_unconditionally():
    clock = Clock()
    bucket = TokenBucket(rate=1.0, burst=1.0, clock=clock)
    assert bucket.peek() and bucket.peek()
    bucket.spend()
    assert not bucket.peek()
    assert bucket.wait_s() == pytest.approx(1.0)


def test_a_debt_delays_the_next_token():
    clock = Clock()
    bucket = TokenBucket(rate=0.5, burst=20.0, clock=clock)
    bucket.owe(4.0)
    assert bucket.tokens == -4.0 and bucket.wait_s() == pytest.approx(10.0)
    clock.now += 9.9
    assert not bucket.take()
    clock.now += 0.1
    assert bucket.take()


def test_the_lru_forgets_the_least_recently_used_key():
    cache: LRU[str, int] = LRU(maxsize=2)
    cache["a"], cache["b"] = 1, 2
    assert cache.get("a") == 1  # a read counts as a use
    cache["c"] = 3
    assert set(cache) == {"a", "c"}


def test_the_guard_forgets_old_keys_past_its_bound():
    guard = WebsocketGuard(app=None, clock=Clock())  # type: ignore[arg-type]
    for n in range(10_001):
        guard._rate(f"ip:10.0.{n // 256}.{n % 256}")
    assert len(guard.rates) == 10_000
    assert "ip:10.0.0.0" not in guard.rates


def test_the_consumers_buckets_follow_a_clock_set_after_they_were_made(monkeypatch):
    monkeypatch.setattr(consumers, "_clock", lambda: 500.0)
    bucket = consumers.Bucket(rate=1.0, burst=1.0)
    assert bucket.take()
    assert not bucket.take()  # the same instant: no refill
    monkeypatch.setattr(consumers, "_clock", lambda: 501.0)
    assert bucket.take()


def test_a_frame_takes_a_token_from_its_socket_and_every_shared_bucket(monkeypatch):
    monkeypatch.setattr(consumers, "_clock", lambda: 500.0)
    own = consumers.Bucket(rate=1.0, burst=2.0)
    shared = consumers.Bucket(rate=1.0, burst=1.0)
    assert consumers.allow_frame(own, [shared])
    assert not consumers.allow_frame(own, [shared])  # the shared one is empty
    assert own.tokens == 1.0  # and the socket's own token was not taken for nothing


def test_the_process_wide_maps_are_bounded():
    assert consumers._SHARED.maxsize == 10_000
    assert realtime._SNAPSHOTS.maxsize == realtime._SNAPSHOT_LIMIT
    assert realtime._LEAVES.maxsize == realtime._LEAF_LIMIT
    assert phrases.PhraseLimit().sent.maxsize == 10_000
