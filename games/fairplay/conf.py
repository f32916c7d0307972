"""The fair-play settings: ``FAIRPLAY_<NAME>`` in Django's settings, else these defaults
(docs/fair-play.md says what each one does and why its default)."""

from __future__ import annotations

from typing import Any

from django.conf import settings

DEFAULTS: dict[str, Any] = {
    # the match rate is read over a player's last this many checked decisions
    "LAST_DECISIONS": 300,
    # fewer checked decisions than this in a rule set: not scored, not in the pool
    "MIN_DECISIONS": 100,
    # fewer other players than this in a rule set's pool: nobody is scored
    "MIN_POOL": 5,
    # listed from this normal score up (match rate, feeding, together)
    "Z": 3.0,
    # a pair is listed for feeding only with at least this many fed finishes
    "MIN_FEEDS": 3,
    # the chance of a fed finish per (hand, ordered neighbour pair) before the pool has
    # many hands (measured: games.fairplay.simulate, classic, 0.20), and its weight in hands
    "FEED_PRIOR": 0.2,
    "FEED_PRIOR_WEIGHT": 40,
    # "always together": at least this many shared games, this share of the less
    # active account's competitive games
    "TOGETHER_MIN_GAMES": 10,
    "TOGETHER_SHARE": 0.8,
    # hands (and games) one scan checks at most
    "SCAN_BATCH": 50,
}
# the bits a player's figures keep (LAST_DECISIONS may be raised up to this)
RECENT_KEEP = 2000


def setting(name: str) -> Any:
    return getattr(settings, f"FAIRPLAY_{name}", DEFAULTS[name])
