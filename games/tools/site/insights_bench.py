"""Insights benchmark: ``python -m games.tools.site.insights_bench``.

Prints figures, asserts nothing. On a fresh SQLite database in a temporary directory
(migrated here; the site's own database is never touched):

1. the table's path: what Insights adds to a finished hand, ``do_record_hand`` (the
   ``hand_finished`` receiver's work) for hands of four accounts that the engine played to
   their end (``--record-hands``, fifty-one), median and p95 per hand;
2. a player with ``--hands`` (5,000) stored hands in one rule set, spread over
   ``--months`` (24) months, rated and casual, against every CPU level, with penalties,
   a par for most hands and an analysis for some (HandStat rows and their MonthStat sums
   made directly, as ``rebuild_insights`` would store them);
3. the Insights page of that player, requested ``--requests`` times per filter set through
   Django's test client (logged in as the player; DEBUG off): median and p95 in ms, with
   the machine's load average. Target: under 200 ms.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

FILTERS = [
    {},
    {"period": "30"},
    {"period": "90"},
    {"period": "365"},
    {"period": "365", "rated": "casual", "cpu": "hard"},
]
PENALTIES = ("tiles_left", "not_opened", "layoff", "discard_taken", "penalty_tile")
LEVELS = ("none", "easy", "medium", "hard", "expert", "mixed")


def setup_django(directory: Path) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{directory / 'insights-bench.sqlite3'}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "okeysite.settings")
    os.environ["DEBUG"] = ""
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def make_user(username: str):
    """An account (its profile is made by accounts' signal)."""
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(username=username, password=None)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def bench_record(n: int) -> list[float]:
    """Seconds of ``do_record_hand`` for ``n`` engine-played fifty-one hands of four
    accounts (each in its own transaction, as at the table)."""
    from django.db import transaction

    from games.engine.simulate import play_hand
    from games.insights.actions import do_record_hand
    from games.models import Hand, Seat, Table

    users = [make_user(f"rec{i}") for i in range(4)]
    table = Table.objects.create(variant="fifty-one", status="playing")
    for pos, u in enumerate(users):
        Seat.objects.create(table=table, position=pos, user=u)
    table = Table.objects.prefetch_related("seats").get(pk=table.pk)
    at = datetime(2026, 5, 1, tzinfo=UTC)
    times = []
    for i in range(n):
        state = play_hand("fifty-one", None, f"insights-bench-{i}", i % 4)
        hand = Hand.objects.create(
            table=table,
            number=i,
            seed=str(state.seed),
            seed_commitment="-",
            starter=i % 4,
            snapshot=state.to_json(),
            result=state.result,
            finished_at=at + timedelta(minutes=i),
        )
        start = time.perf_counter()
        with transaction.atomic():
            do_record_hand(table, hand, state)
        times.append(time.perf_counter() - start)
    return times


def make_player(hands: int, months: int, variant: str, seed: int) -> object:
    """A player with ``hands`` stored hands of ``variant`` over ``months`` months up to now."""
    from django.utils import timezone

    from games.insights.actions import months_of
    from games.insights.models import HandStat, MonthStat
    from games.models import Hand, Table

    rng = random.Random(seed)
    user = make_user("bench_player")
    table = Table.objects.create(variant=variant, status="finished")
    Hand.objects.bulk_create(
        [
            Hand(table=table, number=i, seed=f"b{i}", seed_commitment="-", starter=0)
            for i in range(hands)
        ],
        batch_size=1000,
    )
    ids = list(Hand.objects.filter(table=table).order_by("number").values_list("pk", flat=True))
    now = timezone.now()
    span = timedelta(days=30 * months)
    stats = []
    for i, hand_id in enumerate(ids):
        won = rng.random() < 0.25
        total = -rng.choice((500, 1000)) if won else rng.choice((0, 500, 30, 80, 150, 1000))
        penalties = {}
        for reason in rng.sample(PENALTIES, rng.randint(0, 2)):
            penalties[reason] = [1, rng.randint(1, 30) * 10]
        analysed = rng.random() < 0.2
        stats.append(
            HandStat(
                user=user,
                hand_id=hand_id,
                seat=0,
                variant=variant,
                finished_at=now - span + span * (i + 1) / hands,
                rated=rng.random() < 0.4,
                cpu_level=rng.choice(LEVELS),
                total=total,
                won=won,
                ending=rng.choice(("hand", "okey", "pairs")) if won else "hand",
                opening_turn=rng.randint(1, 12) if rng.random() < 0.8 else None,
                okeys_kept=rng.randint(0, 1),
                okeys_wasted=int(rng.random() < 0.05),
                fed=int(rng.random() < 0.04),
                penalties=penalties,
                par=total + rng.randint(-40, 40) * 10 if rng.random() < 0.9 else None,
                decisions=rng.randint(10, 40) if analysed else None,
                accuracy=rng.randint(40, 100) if analysed else None,
                lost_milli=rng.randint(0, 90000) if analysed else None,
            )
        )
    HandStat.objects.bulk_create(stats, batch_size=1000)
    MonthStat.objects.bulk_create(months_of(stats), batch_size=1000)
    return user


def bench_page(user: object, variant: str, requests: int) -> list[tuple[str, list[float], int]]:
    from django.test import Client
    from django.urls import reverse

    client = Client()
    client.force_login(user)
    url = reverse("insights:player", args=[user.get_username(), variant])
    out = []
    for query in FILTERS:
        times = []
        for _ in range(requests):
            start = time.perf_counter()
            answer = client.get(url, query)
            times.append(time.perf_counter() - start)
            if answer.status_code != 200:
                raise SystemExit(f"{url} {query}: {answer.status_code}")
        label = "&".join(f"{k}={v}" for k, v in query.items()) or "(all time)"
        out.append((label, times, len(answer.content)))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--months", type=int, default=24)
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--record-hands", type=int, default=60)
    parser.add_argument("--variant", default="fifty-one")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        setup_django(Path(tmp))
        from games.insights.models import HandStat, MonthStat

        load = os.getloadavg()
        print(f"load average at start: {load[0]:.2f}, {load[1]:.2f}, {load[2]:.2f}")
        rec = bench_record(args.record_hands)
        print(
            f"do_record_hand (4 accounts, fifty-one, {len(rec)} hands): "
            f"median {1000 * statistics.median(rec):.2f} ms, "
            f"p95 {1000 * percentile(rec, 0.95):.2f} ms"
        )
        start = time.perf_counter()
        user = make_player(args.hands, args.months, args.variant, args.seed)
        made = time.perf_counter() - start
        print(
            f"player: {HandStat.objects.filter(user=user).count()} hands, "
            f"{MonthStat.objects.filter(user=user).count()} month rows ({made:.1f} s to make)"
        )
        for label, times, size in bench_page(user, args.variant, args.requests):
            print(
                f"GET insights {label:42s} median {1000 * statistics.median(times):6.1f} ms  "
                f"p95 {1000 * percentile(times, 0.95):6.1f} ms  ({size // 1024} kB)"
            )
        load = os.getloadavg()
        print(f"load average at end: {load[0]:.2f}, {load[1]:.2f}, {load[2]:.2f}")


if __name__ == "__main__":
    main()
