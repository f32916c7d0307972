"""The formulas of the fair-play page (games/fairplay/stats.py; docs/fair-play.md)."""

from __future__ import annotations

import math

import pytest

from games.fairplay import stats


def test_binomial_tails_are_exact():
    assert stats.binom_upper(0, 5, 0.3) == 1.0
    assert stats.binom_upper(6, 5, 0.3) == 0.0
    assert stats.binom_upper(5, 5, 0.2) == pytest.approx(0.2**5)
    # P(X >= 1) = 1 - P(X = 0)
    assert stats.binom_upper(1, 10, 0.1) == pytest.approx(1 - 0.9**10)
    assert stats.together_p(10, 0) == pytest.approx(0.5**10)
    assert stats.together_p(5, 5) == pytest.approx(sum(math.comb(10, i) for i in range(6)) / 1024)


def test_a_tail_probability_becomes_a_normal_score():
    assert stats.z_of(0.00135) == pytest.approx(3.0, abs=0.01)
    assert stats.z_of(0.5) == pytest.approx(0.0)
    assert stats.z_of(0.0) == stats.Z_CAP


def test_more_decisions_make_the_same_rate_less_probable():
    pool = stats.pool_of([(270, 300), (262, 300), (280, 300), (255, 300), (275, 300)])
    assert pool is not None and pool.size == 5
    assert 0.85 < pool.rate < 0.93
    # a perfect record: improbable over 300 decisions, less so over 60
    assert stats.match_z(300, 300, pool) > stats.match_z(60, 60, pool) > 0
    # a rate at the pool's centre scores about 0, whatever the number of decisions
    assert abs(stats.match_z(90, 100, pool)) < 0.5


def test_the_pool_is_not_moved_by_a_few_cheaters():
    honest = [(270, 300), (262, 300), (280, 300), (255, 300), (275, 300), (268, 300)]
    alone = stats.pool_of(honest)
    with_cheats = stats.pool_of([*honest, (300, 300), (300, 300)])
    assert alone is not None and with_cheats is not None
    assert abs(with_cheats.rate - alone.rate) < 0.02
    assert stats.match_z(300, 300, with_cheats) >= 3


def test_the_feed_rate_leans_on_the_prior_until_the_pool_is_large():
    assert stats.feed_rate(0, 0, 0.2, 40) == pytest.approx(0.2)
    assert stats.feed_rate(0, 10, 0.2, 40) == pytest.approx(8 / 50)
    assert stats.feed_rate(1000, 10000, 0.2, 40) == pytest.approx(0.1, abs=0.001)
