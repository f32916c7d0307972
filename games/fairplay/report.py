"""The figures of the staff page, from the scan's rows (``stats`` has the formulas)."""

from __future__ import annotations

from collections import defaultdict
from itertools import combinations
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Q, Sum

from . import stats
from .conf import setting
from .models import GameCheck, HandCheck, PlayerStats


def _names(ids) -> dict[int, dict[str, Any]]:
    users = get_user_model().objects.filter(pk__in=set(ids)).select_related("profile")
    return {
        u.pk: {
            "id": u.pk,
            "username": u.get_username(),
            "name": u.profile.name if hasattr(u, "profile") else u.get_username(),
            "marked": bool(getattr(getattr(u, "profile", None), "fair_play_marked", False)),
        }
        for u in users
    }


def match_rows(variant: str) -> dict[str, Any]:
    """Every scored player of the rule set (enough decisions), highest score first, and
    the pool they are scored against (``pool``: None when it is too small)."""
    last = int(setting("LAST_DECISIONS"))
    least = int(setting("MIN_DECISIONS"))
    scored = []
    for row in PlayerStats.objects.filter(variant=variant, decisions__gte=least):
        bits = row.recent[-last:]
        if len(bits) < least:
            continue
        scored.append((row, bits.count("1"), len(bits)))
    names = _names(r.user_id for r, _m, _n in scored)
    pool = stats.pool_of(
        [(m, n) for r, m, n in scored if not names.get(r.user_id, {}).get("marked")]
    )
    if pool is None or pool.size < int(setting("MIN_POOL")):
        return {"pool": None, "rows": [], "players": len(scored)}
    threshold = float(setting("Z"))
    rows = []
    for r, m, n in scored:
        z = stats.match_z(m, n, pool)
        rows.append(
            {
                "player": names.get(r.user_id, {"id": r.user_id, "username": "?", "name": "?"}),
                "decisions": n,
                "matches": m,
                "rate": m / n,
                "rate_pct": 100 * m / n,
                "loss": r.loss / r.decisions if r.decisions else 0.0,
                "total_decisions": r.decisions,
                "hands": r.hands,
                "z": z,
                "flagged": z >= threshold,
            }
        )
    rows.sort(key=lambda x: -x["z"])
    return {"pool": pool, "rows": rows, "players": len(scored)}


def feed_rows(variant: str) -> dict[str, Any]:
    """Ordered neighbour pairs (A before B): hands, B's finishes with A's discard, what
    chance would give, and the score; highest score first."""
    pairs = list(
        HandCheck.objects.filter(
            variant=variant, status=HandCheck.Status.DONE, feeder__isnull=False
        )
        .values("feeder", "user")
        .annotate(n=Count("id"), k=Count("id", filter=Q(fed=True)))
    )
    total_n = sum(p["n"] for p in pairs)
    total_k = sum(p["k"] for p in pairs)
    prior = float(setting("FEED_PRIOR"))
    weight = float(setting("FEED_PRIOR_WEIGHT"))
    threshold = float(setting("Z"))
    least = int(setting("MIN_FEEDS"))
    names = _names([p["feeder"] for p in pairs] + [p["user"] for p in pairs])
    rows = []
    for p in pairs:
        if p["feeder"] == p["user"]:
            continue
        p0 = stats.feed_rate(total_k - p["k"], total_n - p["n"], prior, weight)
        z = stats.z_of(stats.feed_p(p["k"], p["n"], p0))
        rows.append(
            {
                "feeder": names.get(p["feeder"]),
                "finisher": names.get(p["user"]),
                "hands": p["n"],
                "fed": p["k"],
                "expected": p["n"] * p0,
                "rate": p["k"] / p["n"],
                "rate_pct": 100 * p["k"] / p["n"],
                "base": p0,
                "base_pct": 100 * p0,
                "z": z,
                "flagged": p["k"] >= least and z >= threshold,
            }
        )
    rows.sort(key=lambda x: -x["z"])
    base = stats.feed_rate(total_k, total_n, prior, weight)
    return {
        "rows": rows,
        "base": base,
        "base_pct": 100 * base,
        "hands": total_n,
    }


def together_rows(variant: str) -> list[dict[str, Any]]:
    """Pairs of accounts that shared competitive games: how many, how many each placed
    ahead of the other, how often they sat side by side, the share of the less active
    one's games; highest score first."""
    games_of: dict[int, int] = defaultdict(int)
    pair: dict[tuple[int, int], dict[str, int]] = defaultdict(
        lambda: {"games": 0, "a_ahead": 0, "b_ahead": 0, "beside": 0}
    )
    for g in GameCheck.objects.filter(variant=variant).only("players", "seats"):
        seats = {int(uid): (pos, place) for uid, (pos, place) in g.seats.items()}
        for uid in seats:
            games_of[uid] += 1
        for a, b in combinations(sorted(seats), 2):
            row = pair[(a, b)]
            row["games"] += 1
            (pa, qa), (pb, qb) = seats[a], seats[b]
            if qa and qb and qa < qb:
                row["a_ahead"] += 1
            elif qa and qb and qb < qa:
                row["b_ahead"] += 1
            if (pa - pb) % g.players in (1, g.players - 1):
                row["beside"] += 1
    least = int(setting("TOGETHER_MIN_GAMES"))
    share = float(setting("TOGETHER_SHARE"))
    threshold = float(setting("Z"))
    names = _names([u for ab in pair for u in ab])
    rows = []
    for (a, b), r in pair.items():
        if r["games"] < 2:
            continue
        z = stats.z_of(stats.together_p(r["a_ahead"], r["b_ahead"]))
        together = r["games"] / max(1, min(games_of[a], games_of[b]))
        rows.append(
            {
                "a": names.get(a),
                "b": names.get(b),
                **r,
                "share": together,
                "share_pct": 100 * together,
                "z": z,
                "flagged": r["games"] >= least and together >= share and z >= threshold,
            }
        )
    rows.sort(key=lambda x: (-x["flagged"], -x["z"], -x["games"]))
    return rows


def variants_with_figures() -> list[str]:
    found = set(PlayerStats.objects.values_list("variant", flat=True).distinct())
    found |= set(GameCheck.objects.values_list("variant", flat=True).distinct())
    return sorted(found)


def totals() -> dict[str, int]:
    agg = HandCheck.objects.filter(status=HandCheck.Status.DONE).aggregate(
        seats=Count("id"), decisions=Sum("decisions")
    )
    return {"seats": agg["seats"] or 0, "decisions": agg["decisions"] or 0}
