"""A par for every hand, on the site: for each finished played hand and each seat held by
a person, the hand total the expert CPU makes from that seat on the same deal with hard
CPUs in the other seats (``games.engine.par.par_for_seat``), and the luck of the deal;
computed once in the background and kept (``HandPar``). docs/par.md says more.

Background work, shared with the expert's analyses (``games.review.analysis``): the same
runner and one-thread pool (``analysis.start``), the same claim of a pending row
(``analysis.claim``: whatever the number of processes, one computes), the same stale
rule, and the same queue: ``analysis.queued`` counts pars with analyses, and nothing is
started while ``QUEUE_LIMIT`` rows wait or run in all.

* At a hand's end (``games.signals.hand_finished``), once its transaction has committed,
  a job goes to the pool that makes and starts a row for each person's seat, unless the
  queue is full or the deal is embargoed (a duplicate round still playing it,
  ``plugins.deal_embargoed``): then nothing is queued, and a visit of the hand's review
  does it later (``do_ensure`` with the visitor's ``analysis.Quota``: each par started
  counts as an analysis start). The table's request only hands the job to the pool (no
  query, no replay): the work runs off the table's path. The same job then catches up,
  within the queue's room, on recent hands left without a par (``do_catch_up``: the
  queue was full, or their embargo has ended since).
* ``do_run`` replays the deal (``games.review.replay.record_for_hand``: the hand's seed,
  starter, options and game context), stores the par, the seat's real total, the result
  against par (``engine.par.versus_par``), the luck, the replay's length and the
  computing thread's CPU seconds, then sends ``games.signals.par_ready``. A failure is
  stored (a later visit does not retry it: a par is deterministic).

Hands stay hidden until they end: only a finished hand gets a par, and none is started
or shown while its deal is embargoed. Tests switch the hand-end queue off with the
setting ``OKEY_PAR_AT_HAND_END = False`` (default True) and replace the runner with
``analysis.set_runner``.
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import IntegrityError, close_old_connections, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import plugins
from games.engine import par as engine_par
from games.models import Hand
from games.signals import par_ready

from . import analysis
from .models import HandPar
from .replay import record_for_hand

log = logging.getLogger(__name__)


def person_seats(hand: Hand) -> list[int]:
    """The seats of ``hand``'s table held by a person (an account or a guest), not a CPU."""
    return sorted(
        s.position
        for s in hand.table.seats.all()
        if not s.is_cpu and (s.user_id is not None or s.guest_key)
    )


def visible(hand: Hand) -> bool:
    """May anything of ``hand``'s par be computed or shown now: the hand is over and its
    deal is not embargoed (RULES.md [D38])."""
    return hand.result is not None and not plugins.deal_embargoed(hand.table)


# ------------------------------------------------------------------ queueing


def on_hand_finished(sender: Any, *, hand: Hand, **kwargs: Any) -> None:
    """``hand_finished`` receiver: once the hand's transaction commits, hand the queueing
    of its pars to the pool (``do_queue_at_hand_end``): the table's request only adds a
    job to the pool's queue, not even a query."""
    if not getattr(settings, "OKEY_PAR_AT_HAND_END", True):
        return
    pk = hand.pk
    transaction.on_commit(lambda: analysis.start(do_queue_at_hand_end, pk))


# the catch-up at each hand's end looks among this many of the latest hands (by id), at
# the newest CATCH_UP_SCAN of those without a par
CATCH_UP_HANDS = 2000
CATCH_UP_SCAN = 50


def do_queue_at_hand_end(hand_id: int) -> None:
    """Make and start the par rows of every person's seat of a finished hand, unless the
    pool's queue is full or the deal is embargoed; then catch up, within the queue's room,
    on recent finished hands that have no par yet (one skipped when the queue was full,
    or whose embargo has ended since: a duplicate round's last hand frees the others).
    Runs in the pool."""
    try:
        now = analysis.clock()
        limit = analysis._setting("ANALYSIS_QUEUE_LIMIT", analysis.QUEUE_LIMIT)
        room = limit - analysis.queued(now)
        hand = Hand.objects.select_related("table").filter(pk=hand_id).first()
        if hand is not None and room > 0 and visible(hand):
            room -= len(do_ensure(hand, now=now))
        if room > 0:
            do_catch_up(room, now)
    finally:
        close_old_connections()


def do_catch_up(room: int, now: datetime) -> int:
    """Queue the pars of the latest finished hands that have none (the newest
    ``CATCH_UP_SCAN`` among the last ``CATCH_UP_HANDS``), newest first, whole hands only,
    at most ``room`` rows; returns how many were made."""
    latest = Hand.objects.order_by("-pk").values_list("pk", flat=True).first()
    if latest is None:
        return 0
    hands = (
        Hand.objects.filter(pk__gt=latest - CATCH_UP_HANDS, result__isnull=False)
        .filter(pars__isnull=True)
        .select_related("table")
        .prefetch_related("table__seats")
        .order_by("-pk")[:CATCH_UP_SCAN]
    )
    made = 0
    for hand in hands:
        seats = person_seats(hand)
        if not seats or len(seats) > room - made or not visible(hand):
            continue
        made += len(do_ensure(hand, seats=seats, now=now))
        if made >= room:
            break
    return made


def do_ensure(
    hand: Hand,
    *,
    seats: list[int] | None = None,
    now: datetime | None = None,
    quota: analysis.Quota | None = None,
) -> list[HandPar]:
    """The par rows of ``seats`` (default: the persons' seats) of a finished ``hand``,
    made if missing and started when nobody is computing them. A new row is made only
    within ``quota`` (when given): ``analysis.AnalysisRefused`` otherwise (the rows made
    before it stay). Nothing is made while ``visible(hand)`` is False (``ValueError`` for
    a hand in play)."""
    if hand.result is None:
        raise ValueError("only a finished hand has a par")
    if not visible(hand):
        return []
    now = now or analysis.clock()
    rows = []
    for seat in person_seats(hand) if seats is None else seats:
        row = HandPar.objects.filter(hand=hand, seat=seat).first()
        if row is None:
            if quota is not None:
                quota.check(now)
            try:
                with transaction.atomic():
                    row = HandPar.objects.create(hand=hand, seat=seat)
            except IntegrityError:  # made by a parallel request
                row = HandPar.objects.get(hand=hand, seat=seat)
            else:
                if quota is not None:
                    quota.note(now)
        stale = row.status == HandPar.Status.RUNNING and row.updated < now - analysis.STALE_AFTER
        if row.status == HandPar.Status.PENDING or stale:
            pk = row.pk
            transaction.on_commit(lambda pk=pk: analysis.start(do_run, pk))
        rows.append(row)
    return rows


# ------------------------------------------------------------------ computing

# The replay itself runs in a worker process (one per server process, started on the
# first par with "spawn": it imports the pure engine only), so the pool's thread only
# waits for it and the table's requests keep the server process's interpreter lock.
# ``OKEY_PAR_PROCESS = False`` computes in the pool's thread (the tests do).
_worker: ProcessPoolExecutor | None = None
_worker_lock = threading.Lock()
WORKER_TIMEOUT = 300  # seconds: a par takes well under one (docs/par.md)


def _executor() -> ProcessPoolExecutor:
    global _worker
    with _worker_lock:
        if _worker is None:
            _worker = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn")
            )
        return _worker


def _forget_worker() -> None:
    global _worker
    with _worker_lock:
        broken, _worker = _worker, None
    if broken is not None:
        broken.shutdown(wait=False, cancel_futures=True)


def compute(record: dict[str, Any], seat: int) -> tuple[dict[str, Any], float]:
    """``engine.par.par_of_record``: the par's JSON and the CPU seconds it took, in the
    worker process (or in this thread, with ``OKEY_PAR_PROCESS = False``, or when the
    worker cannot be used: a worker that died is replaced on the next par)."""
    if getattr(settings, "OKEY_PAR_PROCESS", True):
        try:
            return (
                _executor()
                .submit(engine_par.par_of_record, record, seat)
                .result(timeout=WORKER_TIMEOUT)
            )
        except (BrokenProcessPool, OSError, TimeoutError):
            log.warning("par worker unusable; computing in the pool's thread", exc_info=True)
            _forget_worker()
    return engine_par.par_of_record(record, seat)


def do_run(pk: int) -> None:
    """Compute one par if this caller claims it (any thread or process)."""
    try:
        if not analysis.claim(HandPar, pk, timezone.now()):
            return
        row = HandPar.objects.select_related("hand__table").get(pk=pk)
        if not visible(row.hand):  # embargoed since it was queued: wait for a visit
            HandPar.objects.filter(pk=pk).update(status=HandPar.Status.PENDING)
            return
        try:
            found, cpu = compute(record_for_hand(row.hand), row.seat)
        except Exception as exc:  # stored: the review says so instead of waiting
            log.exception("par %s failed", pk)
            code = getattr(exc, "code", "")
            HandPar.objects.filter(pk=pk).update(
                status=HandPar.Status.FAILED, error=(f"{code}: " if code else "") + str(exc)[:180]
            )
            return
        actual = row.hand.result["totals"][row.seat]
        HandPar.objects.filter(pk=pk).update(
            status=HandPar.Status.DONE,
            par=found["par"],
            result=actual,
            versus=engine_par.versus_par(actual, found["par"], row.hand.table.variant),
            luck=found["luck"],
            ending=found["ending"],
            actions=found["actions"],
            cpu_seconds=round(cpu, 4),
            error="",
        )
        row.refresh_from_db()
        analysis.send_robust(
            par_ready, sender=HandPar, hand_id=row.hand_id, seat=row.seat, par=row.as_dict()
        )
    finally:
        close_old_connections()


# ------------------------------------------------------------------ presentation


def luck_text(luck: dict[str, Any]) -> str:
    """The luck of a deal in words: "a rack 2 tiles from winning at the start: lucky"."""
    n = luck["tiles"]
    if luck.get("goal") == "open":
        if n == 0:
            rack = _("a rack that could open at the start")
        else:
            rack = ngettext(
                "a rack %(n)s tile from opening at the start",
                "a rack %(n)s tiles from opening at the start",
                n,
            ) % {"n": n}
    elif n == 0:
        rack = _("a winning rack at the start")
    else:
        rack = ngettext(
            "a rack %(n)s tile from winning at the start",
            "a rack %(n)s tiles from winning at the start",
            n,
        ) % {"n": n}
    word = {"lucky": _("lucky"), "average": _("average"), "unlucky": _("unlucky")}.get(
        luck["word"], luck["word"]
    )
    return _("%(rack)s: %(word)s") % {"rack": rack, "word": word}


def usual_text(luck: dict[str, Any]) -> str:
    usual = luck["usual"]
    if luck.get("goal") == "open":
        return ngettext(
            "Usual for this rule set: %(n)s tile from opening.",
            "Usual for this rule set: %(n)s tiles from opening.",
            usual,
        ) % {"n": usual}
    return ngettext(
        "Usual for this rule set: %(n)s tile from winning.",
        "Usual for this rule set: %(n)s tiles from winning.",
        usual,
    ) % {"n": usual}


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def present(hand: Hand, players: list[dict[str, Any]], me: int | None) -> dict[str, Any]:
    """The par card of a hand: one line per person's seat (their result, par, result
    against par and the luck of their deal, or that it is being computed)."""
    rows = {r.seat: r for r in HandPar.objects.filter(hand=hand)}
    totals = hand.result["totals"]
    lines = []
    for seat in person_seats(hand):
        row = rows.get(seat)
        line: dict[str, Any] = {
            "seat": seat,
            "name": players[seat]["name"] if seat < len(players) else "?",
            "is_me": seat == me,
            "result": signed(totals[seat]),
            "status": row.status if row is not None else "missing",
        }
        if row is not None and row.status == HandPar.Status.DONE:
            line.update(
                par=signed(row.par),
                versus=signed(row.versus),
                versus_sign=(row.versus > 0) - (row.versus < 0),
                luck=luck_text(row.luck),
                luck_word=row.luck.get("word", ""),
                usual=usual_text(row.luck),
            )
        lines.append(line)
    waiting = any(ln["status"] in ("pending", "running") for ln in lines)
    return {"lines": lines, "waiting": waiting}
