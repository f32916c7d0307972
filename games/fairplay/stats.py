"""The statistics of the fair-play page: pure Python, no Django (docs/fair-play.md).

**Expert-match rate against the pool** (``match_z``). A player made ``m`` matches in their
last ``n`` decisions of a rule set. Rates are compared on the logit scale, with the
empirical logit ``L = ln((m + ½) / (n − m + ½))``: honest rates pile up under 1 (in classic
the hard CPU's plan is the expert's, so a good player matches 90-97 %), where a raw rate
hides the difference between 95 % and 100 % that the logit shows (ln 19 ≈ 2.9 against
ln 601 ≈ 6.4 at n = 300). The pool is every other player of the rule set with at least
``min_decisions`` decisions; its centre ``c`` is the median of their ``L`` and its spread
``s`` is 1.4826 × their median absolute deviation (both robust: a few cheaters in the pool
move neither). Part of that spread is each pool player's own sampling noise, the binomial
variance on the logit scale ``v(n) = 1 / (n p (1 − p))`` at the pool's rate ``p = expit(c)``
(the delta method); what is left is the spread of the players' true rates,
``τ² = max(0, s² − median v(n_j))``. The player's score is

    z = (L − c) / sqrt(τ² + v(n))

a normal approximation of how far the player's rate is above the pool's, counting both
how much players differ and how much ``n`` decisions can vary. Listed from
``z ≥ threshold`` (3: about one honest player in 740 under the normal model).

**Feeding** (``feed_z``). For an ordered pair (A, B) where A sat right before B (so B may
take A's discards) in ``n`` hands, B finished ``k`` of them holding a tile taken from A.
The chance of that in a hand is the pool's rate ``p0`` over every other such pair of the
rule set, shrunk towards ``prior_rate`` with ``prior_weight`` hands (so a small pool does
not make p0 zero); ``P = P(Bin(n, p0) ≥ k)`` and ``z = Φ⁻¹(1 − P)``.

**Always together, never competing** (``together_p``). Two accounts that shared ``g``
finished competitive games, where A placed ahead of B ``a`` times and B ahead of A ``b``
times (ties count for neither): if they really played each other, each finishes ahead
about as often; ``P = P(Bin(a + b, ½) ≤ min(a, b))`` (one-sided sign test for the one
who never gets ahead), listed when ``g`` is large, most of the games of the less active
account were with the other, and ``Φ⁻¹(1 − P) ≥`` threshold.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

NORMAL = statistics.NormalDist()
Z_CAP = 8.0  # a probability below 1e-15 is shown as z = 8


def logit(m: int, n: int) -> float:
    """The empirical logit of ``m`` successes in ``n`` trials."""
    return math.log((m + 0.5) / (n - m + 0.5))


def expit(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def sampling_variance(n: int, p: float) -> float:
    """The binomial variance of the empirical logit of ``n`` trials at rate ``p``."""
    p = min(max(p, 1e-6), 1 - 1e-6)
    return 1.0 / (max(1, n) * p * (1 - p))


@dataclass(frozen=True)
class Pool:
    """A rule set's pool of per-player rates on the logit scale."""

    centre: float  # median logit
    spread: float  # 1.4826 × MAD of the logits
    between: float  # τ: the spread left once sampling noise is taken out
    size: int

    @property
    def rate(self) -> float:
        return expit(self.centre)

    @property
    def rate_pct(self) -> float:
        return 100 * self.rate


def pool_of(players: Sequence[tuple[int, int]]) -> Pool | None:
    """The pool of (matches, decisions) pairs; None without a player."""
    if not players:
        return None
    logits = [logit(m, n) for m, n in players]
    centre = statistics.median(logits)
    spread = 1.4826 * statistics.median(abs(x - centre) for x in logits)
    noise = statistics.median(sampling_variance(n, expit(centre)) for _m, n in players)
    between = math.sqrt(max(0.0, spread**2 - noise))
    return Pool(centre=centre, spread=spread, between=between, size=len(players))


def match_z(m: int, n: int, pool: Pool) -> float:
    """How far ``m`` matches in ``n`` decisions are above the pool (see the module)."""
    v = pool.between**2 + sampling_variance(n, pool.rate)
    return (logit(m, n) - pool.centre) / math.sqrt(v)


def raw_z(m: int, n: int, rates: Sequence[float]) -> float:
    """The plain z of a raw rate against the mean and standard deviation of ``rates``
    (shown by the simulation beside ``match_z``, to say why the logit is used)."""
    mean = statistics.fmean(rates)
    sd = statistics.pstdev(rates) or 1e-9
    return (m / n - mean) / sd


def _log_binom_pmf(k: int, n: int, p: float) -> float:
    return (
        math.lgamma(n + 1)
        - math.lgamma(k + 1)
        - math.lgamma(n - k + 1)
        + k * math.log(p)
        + (n - k) * math.log1p(-p)
    )


def binom_upper(k: int, n: int, p: float) -> float:
    """P(Bin(n, p) ≥ k)."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    p = min(max(p, 1e-12), 1 - 1e-12)
    return min(1.0, sum(math.exp(_log_binom_pmf(i, n, p)) for i in range(k, n + 1)))


def z_of(p_value: float) -> float:
    """The one-sided normal score of a tail probability (capped at ``Z_CAP``)."""
    if p_value <= 1e-15:
        return Z_CAP
    return min(Z_CAP, NORMAL.inv_cdf(1.0 - min(p_value, 1.0 - 1e-15)))


def feed_rate(k_pool: int, n_pool: int, prior_rate: float, prior_weight: float) -> float:
    """The pool's rate of fed finishes per hand, shrunk towards the prior."""
    return (k_pool + prior_rate * prior_weight) / (n_pool + prior_weight)


def feed_p(k: int, n: int, p0: float) -> float:
    """The chance of ``k`` or more fed finishes in ``n`` hands at rate ``p0``."""
    return binom_upper(k, n, p0)


def together_p(a: int, b: int) -> float:
    """One-sided sign test: the chance that the one behind gets ahead at most
    ``min(a, b)`` times in ``a + b`` decided games if each got ahead half of them."""
    n, k = a + b, min(a, b)
    if n == 0:
        return 1.0
    return min(1.0, sum(math.exp(_log_binom_pmf(i, n, 0.5)) for i in range(0, k + 1)))
