"""A seat's rack: its own order of tiles, sorting, where a dropped tile goes, and
"Show me" (the expert's hint, never at a competitive table).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games.engine import legal_actions
from games.engine.bots.hint import hint
from games.engine.racksort import RACK_SLOTS, rack_sort
from games.live.actions.base import ActionRefused, lock_table, seat_at
from games.live.realtime import snapshot
from games.models import Hand, Seat, Table

# --------------------------------------------------------------- rack order


def arrange_slots(rack_ids: list[int], saved: list[int | None]) -> list[int | None]:
    """The seat's own order of its rack: keep saved slots of tiles still held,
    put new tiles in the first free slots after the last placed tile."""
    held = set(rack_ids)
    slots: list[int | None] = [None] * RACK_SLOTS
    placed: set[int] = set()
    for i, tid in enumerate(saved[:RACK_SLOTS]):
        if isinstance(tid, int) and tid in held and tid not in placed:
            slots[i] = tid
            placed.add(tid)
    missing = [t for t in rack_ids if t not in placed]
    if missing:
        last = max((i for i, t in enumerate(slots) if t is not None), default=-1)
        free = [i for i in range(last + 1, RACK_SLOTS) if slots[i] is None]
        free += [i for i in range(0, last + 1) if slots[i] is None]
        for tid, i in zip(missing, free, strict=False):
            slots[i] = tid
    return slots


def do_save_rack_order(seat_id: int, order: Any) -> None:
    """Save the player's own arrangement: ``RACK_SLOTS`` slots (the engine's rack layout,
    ``racksort.py``) of their tile ids or gaps.
    Anything else (foreign or repeated ids, wrong shape) is refused unchanged.
    Private to the seat: no version, no broadcast."""
    if (
        not isinstance(order, list)
        or len(order) > RACK_SLOTS
        or any(t is not None and type(t) is not int for t in order)
    ):
        raise ActionRefused(
            "bad_action", f"a rack order is a list of {RACK_SLOTS} tile ids or gaps"
        )
    seat = Seat.objects.select_related("table").get(pk=seat_id)
    _hand, state, _game = snapshot(seat.table)
    held = set(state.racks[seat.position]) if state is not None else set()
    ids = [t for t in order if t is not None]
    if len(set(ids)) != len(ids) or not set(ids) <= held:
        raise ActionRefused("tile_not_in_rack", "that order holds tiles that are not yours")
    Seat.objects.filter(pk=seat_id).update(rack_order=order)


def do_sort_rack(seat_id: int, mode: str) -> None:
    """Arrange a seat's rack by runs, groups or pairs (the seat's own view only:
    no version, no broadcast; the consumer sends that seat its frame)."""
    seat = Seat.objects.select_related("table").get(pk=seat_id)
    _hand, state, _game = snapshot(seat.table)
    if state is None or state.over:
        return
    seat.rack_order = rack_sort(state, seat.position, mode)
    seat.save(update_fields=["rack_order"])


def resolve_place(table_id: int, position: int, action: dict[str, Any]) -> dict[str, Any]:
    """A tile dropped on a table meld: swap the okey out when the tile is the
    one it stands for, otherwise add the tile to the meld."""
    hand, state, _game = snapshot(Table.objects.get(pk=table_id))
    if hand is None or state is None:
        raise ActionRefused("hand_over", "no hand is being played")
    tile, meld = action.get("tile"), action.get("meld")
    legal = legal_actions(state, position)
    for a in legal:
        if a["type"] == "swap" and a.get("tile") == tile and meld in (None, a.get("meld")):
            return a
    if meld is None:  # assisted table: "put it where it fits" with one tap
        for a in legal:
            if a["type"] == "add" and a.get("tile") == tile:
                return a
        raise ActionRefused("no_place", "that tile fits no meld on the table")
    return {"type": "add", "tile": tile, "meld": meld}


def do_show_hint(table_id: int, position: int) -> dict[str, Any]:
    """ "Show me" for a seat whose turn it is: the expert's choice and why, for that
    seat's own view. Refused (``no_engine_help``) at a competitive table (rated,
    tournament, challenge run: ``Table.competitive``), whatever the frame says; at any
    other table the turn it was asked on is stored once in ``Hand.hints`` (a repeated or
    replayed ask on the same turn stores nothing more), for the score sheet and the
    review. No version, no broadcast: the answer is this seat's alone."""
    with transaction.atomic():
        table = lock_table(table_id)
        if table.competitive:
            raise ActionRefused(
                "no_engine_help", "no engine help at a competitive table: it is your own game"
            )
        hand, state, _game = snapshot(table)
        if hand is None or state is None or hand.result is not None:
            raise ActionRefused("hand_over", "the hand is over")
        if state.turn != position:
            raise ActionRefused("not_your_turn", "it is not your turn")
        seat = seat_at(table, position)
        if seat.is_cpu or seat.forfeited_at is not None:
            raise ActionRefused("not_seated", "this seat is not played by you")
        stored = Hand.objects.filter(pk=hand.pk).values_list("hints", flat=True).first() or {}
        turns = stored.get(str(position), [])
        if state.turn_no not in turns:
            hints = {**stored, str(position): sorted({*turns, state.turn_no})}
            Hand.objects.filter(pk=hand.pk).update(hints=hints)
    # the state is the snapshot's, never changed in place: the expert reads it after the
    # lock is released, so a slow answer holds up nobody's move
    return hint(state, position)
