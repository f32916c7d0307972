"""Insights' writes: a finished hand's rows, the par and the analysis as the review
stores them, the release of hands a duplicate round kept back, and the rebuild.

Receivers of the core's signals (games/signals.py, connected in ``apps.py``):

* ``hand_finished``: inside the transaction that records the hand, one ``HandStat`` per
  account seated at it (no guest, no CPU; a lesson's scripted hand is no play of the
  learner's and is left out) and the sums of its ``MonthStat`` row, a handful of queries.
  A failure here is logged and rolled back to a savepoint: it never stops the hand from
  being recorded (``rebuild_insights`` restores the rows).
* ``par_ready`` / ``analysis_ready``: the review computed a seat's par or analysis; the
  HandStat row takes it and its MonthStat row replaces the hand's old figures by the new.

Every MonthStat change locks its row (``select_for_update``; rows of one hand in user
order), so two hands of the same player finishing at two tables add up.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from django.apps import apps
from django.db import transaction

from games import plugins
from games.engine.state import HandState
from games.insights.derive import analysis_figures, par_value, seat_stats
from games.insights.models import HandStat, MonthStat, fold
from games.models import Hand, Seat, Table

log = logging.getLogger(__name__)

# A lesson's hand (games/learn: its deal and its CPUs' moves are scripted) starts its seed
# with this; read here so that no insights query needs the learn app.
LESSON_SEED_PREFIX = "learn:"


def _seats(table: Table) -> list[tuple[int, int | None, bool, str]]:
    """(position, user id, is CPU, CPU level) of the table's seats (the live table has
    them loaded already: no query)."""
    return [(s.position, s.user_id, s.is_cpu, s.cpu_level) for s in table.seats.all()]


def stats_for_hand(
    table: Table, hand: Hand, state: HandState, seats: list[tuple[int, int | None, bool, str]]
) -> list[HandStat]:
    """The (unsaved) HandStat rows of a finished hand: one per account's seat."""
    if isinstance(hand.seed, str) and hand.seed.startswith(LESSON_SEED_PREFIX):
        return []
    levels = [(False, "")] * state.n_players
    for pos, _user, is_cpu, level in seats:
        if pos < state.n_players:
            levels[pos] = (is_cpu, level)
    out = []
    for pos, user_id, is_cpu, _level in seats:
        if user_id is None or is_cpu or pos >= state.n_players:
            continue
        figures = seat_stats(state, pos, levels)
        out.append(
            HandStat(
                user_id=user_id,
                hand_id=hand.pk,
                seat=pos,
                variant=state.variant,
                finished_at=hand.finished_at,
                rated=table.rated,
                cpu_level=figures["cpu_level"],
                total=figures["total"],
                won=figures["won"],
                ending=figures["ending"],
                opening_turn=figures["opening_turn"],
                okeys_kept=figures["okeys_kept"],
                okeys_wasted=figures["okeys_wasted"],
                fed=figures["fed"],
                penalties=figures["penalties"],
            )
        )
    return out


def _add_to_months(stats: Iterable[HandStat], sign: int = 1) -> None:
    """Fold ``stats`` into their MonthStat rows, each row locked (inside a transaction)."""
    for stat in sorted(stats, key=lambda s: (s.user_id, s.hand_id, s.seat)):
        user_id, variant, month, rated, level = stat.key()
        row, _created = MonthStat.objects.select_for_update().get_or_create(
            user_id=user_id, variant=variant, month=month, rated=rated, cpu_level=level
        )
        fold(row, stat, sign)
        row.save()


def on_hand_finished(sender: Any, table: Table, hand: Hand, state: HandState, **kwargs: Any):
    """``hand_finished`` receiver (see the module's docstring)."""
    try:
        with transaction.atomic():
            do_record_hand(table, hand, state)
    except Exception:  # the hand is recorded whatever happens here
        log.exception("insights: hand %s not recorded", hand.pk)


def do_record_hand(table: Table, hand: Hand, state: HandState) -> list[HandStat]:
    """Store the hand's HandStat rows and add them to their months (unless the hand's
    deals are still embargoed); release this table's players' earlier embargoed hands
    whose embargo is over."""
    with transaction.atomic():
        stats = stats_for_hand(table, hand, state, _seats(table))
        if not stats:
            return []
        embargoed = plugins.deal_embargoed(table)
        for s in stats:
            s.embargoed = embargoed
        HandStat.objects.bulk_create(stats)
        do_release_embargoed([s.user_id for s in stats])
        if not embargoed:
            _add_to_months(stats)
        return stats


def _replace(hand_id: int, seat: int, change: Any) -> HandStat | None:
    """Lock the hand's HandStat row, take its figures out of its month, apply
    ``change(stat)`` (True: changed) and put them back."""
    with transaction.atomic():
        stat = HandStat.objects.select_for_update().filter(hand_id=hand_id, seat=seat).first()
        if stat is None:
            return None  # a guest's or a CPU's seat, or a lesson
        if not stat.embargoed:
            _add_to_months([stat], -1)
        changed = change(stat)
        if changed:
            stat.save()
        if not stat.embargoed:
            _add_to_months([stat])
        return stat


def do_note_par(hand_id: int, seat: int, par: Any) -> HandStat | None:
    """The review stored ``seat``'s par of the hand (``par_ready``)."""
    value = par_value(par)

    def change(stat: HandStat) -> bool:
        if stat.par == value:
            return False
        stat.par = value
        return True

    return _replace(hand_id, seat, change)


def do_note_analysis(hand_id: int, seat: int, summary: Any) -> HandStat | None:
    """The review stored ``seat``'s analysis of the hand (``analysis_ready``)."""
    figures = analysis_figures(summary)
    decisions, accuracy, lost = figures if figures is not None else (None, None, None)

    def change(stat: HandStat) -> bool:
        if (stat.decisions, stat.accuracy, stat.lost_milli) == (decisions, accuracy, lost):
            return False
        stat.decisions, stat.accuracy, stat.lost_milli = decisions, accuracy, lost
        return True

    return _replace(hand_id, seat, change)


def on_par_ready(sender: Any, hand_id: int, seat: int, par: Any, **kwargs: Any) -> None:
    do_note_par(hand_id, seat, par)


def on_analysis_ready(sender: Any, hand_id: int, seat: int, summary: Any, **kwargs: Any) -> None:
    do_note_analysis(hand_id, seat, summary)


def do_release_embargoed(user_ids: Iterable[int]) -> int:
    """Add to their months the embargoed hands of these users whose duplicate round no
    longer keeps their deals back (``plugins.deal_embargoed``); returns how many."""
    with transaction.atomic():
        waiting = list(
            # only the HandStat rows are locked, never another game's table row
            HandStat.objects.select_for_update(of=("self",))
            .filter(user_id__in=list(user_ids), embargoed=True)
            .select_related("hand__table")
        )
        free = [s for s in waiting if not plugins.deal_embargoed(s.hand.table)]
        if not free:
            return 0
        HandStat.objects.filter(pk__in=[s.pk for s in free]).update(embargoed=False)
        for s in free:
            s.embargoed = False
        _add_to_months(free)
        return len(free)


# ------------------------------------------------------------------------- rebuild


def _stored_pars(hand_ids: list[int]) -> dict[tuple[int, int], int]:
    """The pars the review stored for these hands, by (hand, seat)."""
    try:
        model = apps.get_model("review", "HandPar")
    except LookupError:  # a review without pars
        return {}
    rows = model.objects.filter(hand_id__in=hand_ids)
    if any(f.name == "status" for f in model._meta.fields):
        rows = rows.filter(status="done")
    out = {}
    for hand_id, seat, par in rows.values_list("hand_id", "seat", "par"):
        value = par_value(par)
        if value is not None:
            out[(hand_id, seat)] = value
    return out


def _stored_analyses(hand_ids: list[int]) -> dict[tuple[int, int], tuple[int, int, int]]:
    """The done analyses of these hands, by (hand, seat): (decisions, accuracy, lost)."""
    model = apps.get_model("review", "HandAnalysis")
    out = {}
    rows = model.objects.filter(hand_id__in=hand_ids, status="done")
    for hand_id, seat, data in rows.values_list("hand_id", "seat", "data"):
        figures = analysis_figures(data)
        if figures is not None:
            out[(hand_id, seat)] = figures
    return out


def recompute(user_id: int | None = None, chunk: int = 500) -> list[HandStat]:
    """Every HandStat row recomputed from the stored finished hands (the final state each
    hand keeps, its table's seats, the review's pars and analyses), unsaved; only the
    hands of ``user_id`` when given."""
    hands = Hand.objects.filter(result__isnull=False, finished_at__isnull=False)
    if user_id is not None:
        tables = Seat.objects.filter(user_id=user_id, is_cpu=False).values("table_id")
        hands = hands.filter(table_id__in=tables)
    hands = hands.select_related("table").order_by("pk")
    seats: dict[int, list] = {}
    embargo: dict[int, bool] = {}
    out: list[HandStat] = []
    batch: list[Hand] = []

    def flush() -> None:
        ids = [h.pk for h in batch]
        pars = _stored_pars(ids)
        analyses = _stored_analyses(ids)
        table_ids = {h.table_id for h in batch} - set(seats)
        for t, *row in Seat.objects.filter(table_id__in=table_ids).values_list(
            "table_id", "position", "user_id", "is_cpu", "cpu_level"
        ):
            seats.setdefault(t, []).append(tuple(row))
        for h in batch:
            if h.table_id not in embargo:
                embargo[h.table_id] = plugins.deal_embargoed(h.table)
            state = HandState.from_json(h.snapshot)
            for s in stats_for_hand(h.table, h, state, seats.get(h.table_id, [])):
                if user_id is not None and s.user_id != user_id:
                    continue
                s.embargoed = embargo[h.table_id]
                s.par = pars.get((h.pk, s.seat))
                if (h.pk, s.seat) in analyses:
                    s.decisions, s.accuracy, s.lost_milli = analyses[(h.pk, s.seat)]
                out.append(s)
        batch.clear()

    for hand in hands.iterator(chunk_size=chunk):
        batch.append(hand)
        if len(batch) >= chunk:
            flush()
    flush()
    return out


def months_of(stats: Iterable[HandStat]) -> list[MonthStat]:
    """The MonthStat rows (unsaved) of these HandStat rows, embargoed ones left out."""
    rows: dict[tuple, MonthStat] = {}
    for s in stats:
        if s.embargoed:
            continue
        key = s.key()
        row = rows.get(key)
        if row is None:
            user_id, variant, month, rated, level = key
            row = rows[key] = MonthStat(
                user_id=user_id, variant=variant, month=month, rated=rated, cpu_level=level
            )
        fold(row, s)
    return list(rows.values())


def do_rebuild(user_id: int | None = None) -> tuple[int, int]:
    """Delete the insights rows (of ``user_id``, or all) and recompute them from the
    stored hands; returns (hands, months) stored."""
    with transaction.atomic():
        stats = recompute(user_id)
        old_stats, old_months = HandStat.objects.all(), MonthStat.objects.all()
        if user_id is not None:
            old_stats = old_stats.filter(user_id=user_id)
            old_months = old_months.filter(user_id=user_id)
        old_stats.delete()
        old_months.delete()
        HandStat.objects.bulk_create(stats, batch_size=500)
        months = months_of(stats)
        MonthStat.objects.bulk_create(months, batch_size=500)
        return len(stats), len(months)
