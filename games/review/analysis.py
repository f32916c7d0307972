"""The review that teaches, on the site: each finished hand's analysis of one seat, made
once in the background and kept (``HandAnalysis``), and its presentation (classes,
accuracy, the evaluation graph, retry mode's data).

Background work: Django has no task queue here, so ``ensure`` keeps one row per (hand,
seat) (its unique constraint: a second request, or a second process, finds the row made
by the first) and hands a pending row to the runner, by default a one-thread pool in this
process. ``run`` claims the row (an UPDATE from pending to running: only one claimer wins,
whatever the number of processes), computes with ``games.engine.analysis.analyse_hand``
(the expert sees each decision's per-seat view only), writes its progress (done/total)
after every decision of the seat, and stores the result. A row left running by a process
that died is claimed again once it has not moved for ``STALE_AFTER``; a failure is stored
(and retried on a later visit). Tests swap the runner (``set_runner``) to run it at once.

Only finished hands are analysed (``Hand.result`` set; an import is always finished), and
the views call this only after the review's own permission checks.

The pool is shared by everyone, so starting an analysis is rationed (``Quota``): at most
``STARTS_PER_HOUR`` new analyses per user (a guest: per session) and ``STARTS_PER_IP_HOUR``
per IP address in any hour, and none while ``QUEUE_LIMIT`` analyses are waiting or
running in all. Beyond that ``ensure`` refuses (``AnalysisRefused``) and makes no row, so
nothing is queued; an analysis already made, or already under way, is shown whatever
the counts (looking at it starts nothing).

The par of each hand and seat (``games.review.par``, ``HandPar``) is background work of
the same kind: it goes through the same runner and pool (``start``), is claimed the same
way (``claim``) and counts in the same queue (``queued`` counts both kinds of row).

When an analysis of a played hand is stored, ``games.signals.analysis_ready`` is sent
(``hand_id``, ``seat``, ``summary``: accuracy, value lost, decisions).
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, close_old_connections, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine import analysis as engine_analysis
from games.engine.tiles import ids_of_kind, kind_of, notation
from games.live.messages import hint_text
from games.signals import analysis_ready
from games.tilewords import tile_words

from .commentary import move_text
from .models import HandAnalysis, HandPar, ImportedHand
from .replay import record_for_hand

log = logging.getLogger(__name__)
STALE_AFTER = timedelta(minutes=2)

_pool: ThreadPoolExecutor | None = None
# the jobs (function, row pk) handed to this process's pool and not finished: a waiting
# card asks for itself every second, and each visit of a pending row would queue it once
# more (an analysis and a par may share a pk: the function tells them apart)
_handed: set[tuple[Callable[[int], None], int]] = set()
_handed_lock = threading.Lock()


def _in_thread(fn: Callable[[int], None], pk: int) -> None:
    """Hand ``pk`` to the one-thread pool, unless it is there already (queued or being
    computed): the pool's queue holds each analysis (and each par) once."""
    global _pool
    key = (fn, pk)
    with _handed_lock:
        if key in _handed:
            return
        _handed.add(key)
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="review-analysis")

    def job() -> None:
        try:
            fn(pk)
        finally:
            with _handed_lock:
                _handed.discard(key)

    _pool.submit(job)


Runner = Callable[[Callable[[int], None], int], None]
_runner: Runner = _in_thread
# the evaluator ``run`` uses (None: the expert); tests give a constructed one
evaluator: engine_analysis.Evaluator | None = None


def set_runner(runner: Runner | None) -> Runner:
    """Replace how a pending analysis is started (None: the background thread); returns
    the previous one. ``set_runner(lambda fn, pk: fn(pk))`` computes in the request."""
    global _runner
    previous = _runner
    _runner = runner or _in_thread
    return previous


def start(fn: Callable[[int], None], pk: int) -> None:
    """Start ``fn(pk)`` with the current runner (the pool, or the test's)."""
    _runner(fn, pk)


def _record(row: HandAnalysis) -> dict[str, Any]:
    if row.hand_id is not None:
        return record_for_hand(row.hand)
    return row.imported.engine_record


# ------------------------------------------------------------------ the quota

STARTS_PER_HOUR = 20  # new analyses per user, or per guest session, in any hour
STARTS_PER_IP_HOUR = 40  # new analyses per IP address (IPv6: per /64) in any hour
QUEUE_LIMIT = 8  # analyses waiting or running in all, beyond which none is started
QUOTA_WINDOW = timedelta(hours=1)
# a waiting row counts in the queue this long after it was made (a row left waiting by a
# process that died must not fill the queue for ever; it starts again when visited)
QUEUED_FOR = timedelta(minutes=15)

# the clock of the quota and of the stale check (tests give their own)
clock: Callable[[], datetime] = timezone.now


class AnalysisRefused(Exception):
    """No analysis was started: ``code`` says why, ``message`` in the reader's language."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def _setting(name: str, default: int) -> int:
    return int(getattr(settings, name, default))


@dataclass(frozen=True)
class Quota:
    """Who asks for analyses: the account (``u:<pk>``) or the guest session
    (``s:<key>``), and the IP address (``accounts.throttle.client_ip``)."""

    who: str
    ip: str

    @classmethod
    def of(cls, request) -> Quota:
        from accounts.throttle import client_ip

        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            who = f"u:{user.pk}"
        else:
            if not request.session.session_key:
                request.session.save()
            who = f"s:{request.session.session_key}"
        return cls(who=who, ip=client_ip(request))

    def _counts(self) -> list[tuple[str, int]]:
        return [
            (self.who, _setting("ANALYSIS_STARTS_PER_HOUR", STARTS_PER_HOUR)),
            (f"ip:{self.ip}", _setting("ANALYSIS_STARTS_PER_IP_HOUR", STARTS_PER_IP_HOUR)),
        ]

    def check(self, now: datetime) -> None:
        """Refuse (``AnalysisRefused``) a new analysis over a limit; count nothing."""
        for ident, limit in self._counts():
            if len(_starts(ident, now)) >= limit:
                raise AnalysisRefused(
                    "analysis_quota",
                    _("Too many analyses requested; try again in a few minutes."),
                )
        if queued(now) >= _setting("ANALYSIS_QUEUE_LIMIT", QUEUE_LIMIT):
            raise AnalysisRefused(
                "analysis_queue_full",
                _("The expert is busy with other analyses; try again in a few minutes."),
            )

    def note(self, now: datetime) -> None:
        """Count one analysis started now."""
        for ident, _limit in self._counts():
            stamps = [*_starts(ident, now), now.timestamp()]
            cache.set(_quota_key(ident), stamps, timeout=int(QUOTA_WINDOW.total_seconds()))


def _quota_key(ident: str) -> str:
    return "analysis-starts:" + hashlib.sha256(ident.encode()).hexdigest()


def _starts(ident: str, now: datetime) -> list[float]:
    """When ``ident`` started its analyses of the last hour (a sliding window, kept in
    Django's cache: Redis with ``REDIS_URL``, so every process shares it)."""
    since = (now - QUOTA_WINDOW).timestamp()
    return [t for t in cache.get(_quota_key(ident)) or () if since < t <= now.timestamp()]


def queued(now: datetime) -> int:
    """Analyses and pars waiting (made in the last ``QUEUED_FOR``) or running (not
    stale): the one queue of the pool."""
    count = 0
    for model in (HandAnalysis, HandPar):
        S = model.Status
        waiting = model.objects.filter(status=S.PENDING, updated__gte=now - QUEUED_FOR)
        running = model.objects.filter(status=S.RUNNING, updated__gte=now - STALE_AFTER)
        count += waiting.count() + running.count()
    return count


def do_ensure(
    *,
    seat: int,
    hand=None,
    imported: ImportedHand | None = None,
    now: datetime | None = None,
    quota: Quota | None = None,
) -> HandAnalysis:
    """The analysis row of ``seat`` in ``hand`` (a finished played hand) or ``imported``;
    made if missing and started when nobody is computing it. A new one is started only
    within ``quota`` (when given): ``AnalysisRefused`` otherwise, with no row made."""
    key: dict[str, Any] = {"hand": hand} if hand is not None else {"imported": imported}
    if hand is not None and hand.result is None:
        raise ValueError("only a finished hand is analysed")
    now = now or clock()
    row = HandAnalysis.objects.filter(seat=seat, **key).first()
    if row is None:
        if quota is not None:
            quota.check(now)
        try:
            with transaction.atomic():
                row = HandAnalysis.objects.create(seat=seat, **key)
        except IntegrityError:  # made by a parallel request
            row = HandAnalysis.objects.get(seat=seat, **key)
        else:
            if quota is not None:
                quota.note(now)
    stale = row.status == HandAnalysis.Status.RUNNING and row.updated < now - STALE_AFTER
    if row.status == HandAnalysis.Status.PENDING or stale:
        pk = row.pk
        transaction.on_commit(lambda: start(do_run, pk))
        row.refresh_from_db()  # a runner that computes at once has finished already
    return row


def claim(model, pk: int, now, **reset: Any) -> bool:
    """A row of ``model`` (``HandAnalysis``, ``HandPar``) pending (or stale) → running,
    with the fields ``reset``; True for the one caller that moved it."""
    S = model.Status
    base = model.objects.filter(pk=pk)
    claimed = base.filter(status=S.PENDING).update(status=S.RUNNING, updated=now, **reset)
    if not claimed:
        claimed = base.filter(status=S.RUNNING, updated__lt=now - STALE_AFTER).update(
            status=S.RUNNING, updated=now, **reset
        )
    return bool(claimed)


def _claim(pk: int, now) -> bool:
    return claim(HandAnalysis, pk, now, done=0)


def do_run(pk: int) -> None:
    """Compute one analysis if this caller claims it (any thread or process)."""
    try:
        if not _claim(pk, timezone.now()):
            return
        row = HandAnalysis.objects.select_related("hand__table", "imported").get(pk=pk)
        record = _record(row)

        def progress(done: int, total: int) -> None:
            HandAnalysis.objects.filter(pk=pk).update(
                done=done, total=total, updated=timezone.now()
            )

        HandAnalysis.objects.filter(pk=pk).update(
            total=engine_analysis.decisions_of(record, row.seat)
        )
        try:
            data = engine_analysis.analyse_hand(
                record, row.seat, evaluate=evaluator, progress=progress
            )
        except Exception as exc:  # stored, so the page says so instead of polling forever
            log.exception("analysis %s failed", pk)
            HandAnalysis.objects.filter(pk=pk).update(
                status=HandAnalysis.Status.FAILED, error=str(exc)[:200]
            )
            return
        HandAnalysis.objects.filter(pk=pk).update(
            status=HandAnalysis.Status.DONE, data=data, error=""
        )
        if row.hand_id is not None:
            send_robust(
                analysis_ready,
                sender=HandAnalysis,
                hand_id=row.hand_id,
                seat=row.seat,
                summary=summary(data),
            )
    finally:
        close_old_connections()


def send_robust(signal, **kwargs: Any) -> None:
    """Send ``signal`` once the result is stored: a receiver that fails (another app's
    bookkeeping) is logged and leaves the stored result as it is."""
    for receiver, result in signal.send_robust(**kwargs):
        if isinstance(result, Exception):
            log.error("%s failed on %s", receiver, kwargs, exc_info=result)


def summary(data: dict[str, Any]) -> dict[str, Any]:
    """What ``analysis_ready`` says of a stored analysis: its ``accuracy`` (0-100, None
    without a decision), ``value_lost`` (the sum of its decisions' losses against the
    expert's best, in the rule set's points), ``value_lost_per_decision`` and the number
    of ``decisions``."""
    decisions = data.get("decisions") or []
    lost = round(sum(d["loss"] for d in decisions), 3)
    return {
        "accuracy": data.get("accuracy"),
        "value_lost": lost,
        "value_lost_per_decision": round(lost / len(decisions), 3) if decisions else None,
        "decisions": len(decisions),
    }


# ------------------------------------------------------------------ presentation


def class_label(cls: str) -> str:
    labels = {
        "best": _("best"),
        "good": _("good"),
        "inaccuracy": _("inaccuracy"),
        "mistake": _("mistake"),
        "blunder": _("blunder"),
    }
    return labels.get(cls, cls)


def action_text(action: dict, variant: str) -> str:
    """A move in words, tiles named in the reader's language."""
    t = action["type"]
    tile = action.get("tile")
    words = tile_words(notation(tile), variant) if tile is not None else ""
    melds = " | ".join(
        ", ".join(tile_words(notation(x), variant) for x in m) for m in action.get("melds") or []
    )
    text = move_text(t)
    return text % {"tile": words, "melds": melds} if text else t


def value_text(value: float, unit: float) -> str:
    """A value in the rule set's points: whole points where a hand's swing is large."""
    if unit >= 20:
        return f"{value:+.0f}"
    return f"{value:+.2f}"


def _option(opt: dict, variant: str, unit: float) -> dict[str, Any]:
    return {
        **opt,
        "text": action_text(opt["action"], variant),
        "value_text": value_text(opt["value"], unit),
        "why": hint_text(opt["reason"], _words_detail(opt.get("detail") or {}), variant)
        if opt.get("reason")
        else "",
    }


def _words_detail(detail: dict) -> dict:
    return {k: v for k, v in detail.items() if isinstance(v, (str, int, float))}


# the graph's drawing box (SVG user units; CSS scales it to the card's width)
GRAPH_W, GRAPH_H, PAD = 600.0, 160.0, 14.0


def graph(decisions: list[dict], steps: int) -> dict[str, Any] | None:
    """The evaluation graph of a hand: x = the move's number in the hand, y = the value
    the seat has given away so far against the expert's best moves (0 at the top; each
    decision's point is where it left the line, coloured by its class; a fall is what
    that move lost). The expert's values of a draw and of a discard are not on one scale
    (a draw is valued before the tile is seen), so the graph draws what is comparable:
    the losses, in the rule set's points. Coordinates are computed here; the template
    draws them."""
    if not decisions:
        return None
    total = sum(d["loss"] for d in decisions)
    lo = -max(total, 1e-9)
    width, height = GRAPH_W - 2 * PAD, GRAPH_H - 2 * PAD

    def x(step: int) -> float:
        return round(PAD + width * step / max(1, steps), 1)

    def y(v: float) -> float:
        return round(PAD + height * (0 - v) / (0 - lo), 1)

    points = []
    line = [f"{x(0)},{y(0.0)}"]
    lost = 0.0
    for d in decisions:
        before = -lost
        lost += d["loss"]
        line.append(f"{x(d['step'])},{y(before)}")
        line.append(f"{x(d['step'])},{y(-lost)}")
        points.append(
            {
                "step": d["step"],
                "x": x(d["step"]),
                "y": y(-lost),
                "class": d["class"],
                "drop": d["class"] in ("inaccuracy", "mistake", "blunder"),
            }
        )
    line.append(f"{x(steps)},{y(-lost)}")
    return {
        "w": GRAPH_W,
        "h": GRAPH_H,
        "line": " ".join(line),
        "points": points,
        "zero": y(0.0),
        "bottom": y(lo),
        "left": PAD,
        "right": GRAPH_W - PAD,
        "lost": lost,
    }


def present(row: HandAnalysis, variant: str) -> dict[str, Any]:
    """A finished analysis in the reader's language: decisions with their class, values
    and reasons, the counts, the accuracy, the graph and retry mode's data."""
    data = row.data
    unit = data.get("swing") or 1.0
    decisions = []
    for d in data.get("decisions", []):
        played = _option(d["played"], variant, unit)
        best = _option(d["best"], variant, unit)
        decisions.append(
            {
                **d,
                "class_label": class_label(d["class"]),
                "played": played,
                "best": best,
                "alternatives": [_option(o, variant, unit) for o in d["alternatives"]],
                "loss_text": value_text(-d["loss"], unit) if d["loss"] else "",
            }
        )
    counts = [
        {"cls": c, "label": class_label(c), "n": data.get("counts", {}).get(c, 0)}
        for c in engine_analysis.CLASSES
    ]
    return {
        "accuracy": data.get("accuracy"),
        "decisions": decisions,
        "counts": counts,
        "graph": graph(data.get("decisions", []), data.get("steps", 0)),
        "lost_text": value_text(-sum(d["loss"] for d in data.get("decisions", [])), unit),
        "retry": retry_data(data, variant, unit),
        "swing": unit,
    }


def retry_data(data: dict, variant: str, unit: float) -> list[dict[str, Any]]:
    """Retry mode's questions: per mistake or blunder, the position's step, the options
    the player may pick (by tile kind for a discard, the pile or the discard to take, a
    button for any other move), and the expert's answer with its reason in words. The
    page shows the answer only after a pick (it is the player's own finished hand: hiding
    it is for the lesson, not a secret)."""
    out = []
    for d in data.get("decisions", []):
        if d["class"] not in engine_analysis.RETRY_CLASSES:
            continue
        options = []
        for o in d["options"]:
            a = o["action"]
            options.append(
                {
                    "type": a["type"],
                    "tile": a.get("tile"),
                    "ids": list(ids_of_kind(kind_of(a["tile"])))
                    if a.get("tile") is not None
                    else [],
                    "text": action_text(a, variant),
                    "value": o["value"],
                    "value_text": value_text(o["value"], unit),
                    "class": engine_analysis.classify(d["best"]["value"] - o["value"], unit),
                    "class_label": class_label(
                        engine_analysis.classify(d["best"]["value"] - o["value"], unit)
                    ),
                }
            )
        best = _option(d["best"], variant, unit)
        out.append(
            {
                "step": d["step"],
                "type": d["type"],
                "options": options,
                "best_text": best["text"],
                "best_value": best["value_text"],
                "best_ids": list(ids_of_kind(kind_of(d["best"]["action"]["tile"])))
                if d["best"]["action"].get("tile") is not None
                else [],
                "best_type": d["best"]["action"]["type"],
                "why": best["why"],
                "played_text": action_text(d["played"]["action"], variant),
                "played_value": value_text(d["played"]["value"], unit),
            }
        )
    return out


def game_accuracy(rows) -> int | None:
    """The accuracy over every analysed hand of a game (``rows``: done analyses)."""
    return engine_analysis.game_accuracy(r.data for r in rows)
