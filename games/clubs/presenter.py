"""What the club pages show: rankings, a player's history, the current season."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from typing import Any

from . import ranking
from . import standings as club_standings
from .models import Club, Season
from .standings import PlayerKey, key_slug


def current_season(club: Club, today: dt.date) -> Season | None:
    """The season running today; else the latest that has started; else the first to come."""
    seasons = list(club.seasons.all())
    running = [s for s in seasons if s.start <= today <= s.end]
    if running:
        return max(running, key=lambda s: (s.start, s.pk))
    started = [s for s in seasons if s.start <= today]
    if started:
        return max(started, key=lambda s: (s.start, s.pk))
    return min(seasons, key=lambda s: (s.start, s.pk)) if seasons else None


def _f(value: Fraction) -> float:
    return float(value)


def ranking_rows(
    club: Club, items: list[club_standings.Counted], as_of: dt.date
) -> list[dict[str, Any]]:
    names = club_standings.labels(club, items)
    members = set(club.memberships.values_list("user_id", flat=True))
    rows = []
    for standing in ranking.rank(club_standings.results(items), as_of):
        key = standing.score.player
        rows.append(
            {
                "rank": standing.rank,
                "name": names.get(key, key[1]),
                "slug": key_slug(key),
                "member": key[0] == "user" and key[1] in members,
                "name_only": key[0] == "name",
                "score": _f(standing.score.total),
                "tournaments": standing.score.tournaments,
                "weight": _f(standing.score.weight),
            }
        )
    return rows


def history(club: Club, key: PlayerKey, as_of: dt.date) -> dict[str, Any]:
    """Every finished tournament of the club this player has a place in, on ``as_of``."""
    items = club_standings.counted(club_standings.club_links_qs(club), club)
    by_link = {item.link.pk: item.link for item in items}
    score = ranking.scores(club_standings.results(items), as_of).get(key)
    lines = []
    for line in score.lines if score else []:
        link = by_link[line.result.tournament]
        lines.append(
            {
                "link": link,
                "tournament": link.tournament,
                "season": link.season,
                "rank": _f(line.result.rank),
                "n": line.result.n,
                "points": _f(line.points),
                "weight": _f(line.result.weight),
                "decay": _f(line.decay * 100),
                "contribution": _f(line.contribution),
            }
        )
    names = club_standings.labels(club, items)
    return {
        "name": names.get(key),
        "lines": lines,
        "score": _f(score.total) if score else None,
        "tournaments": score.tournaments if score else 0,
        "weight_sum": _f(score.weight) if score else 0.0,
        "min_weight": ranking.MIN_WEIGHT,
    }
