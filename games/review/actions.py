"""The review's writes: share links of finished games, imported records and their
replays, and the CPU commentary kept for a hand or a record.

None of these is a live table: nobody watches them over a websocket, so they write
without a broadcast.
"""

from __future__ import annotations

import contextlib
from typing import Any

from django.db import IntegrityError, transaction

from games.live.actions import base
from games.live.actions.base import ActionRefused, seat_of
from games.models import Hand, Table
from games.review.models import HandCommentary, ImportedHand, ImportedRecord, ShareLink


def do_share_table(table_id: int, *, user: Any = None, guest_key: str = "") -> ShareLink:
    """A share link of a finished game, made by one of its players."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        if seat_of(list(table.seats.all()), user, guest_key) is None:
            raise ActionRefused("not_seated", "this is not one of your games")
        if table.status != Table.Status.FINISHED:
            raise ActionRefused("game_not_over", "only a finished game can be shared")
        signed_in = user is not None and user.is_authenticated
        return ShareLink.objects.create(
            table=table,
            created_by=user if signed_in else None,
            guest_key="" if signed_in else guest_key,
        )


def do_revoke_share(link_id: int, *, user: Any = None, guest_key: str = "") -> ShareLink:
    """Revoke a share link (any player of its game); revoking twice changes nothing."""
    with transaction.atomic():
        link = ShareLink.objects.select_for_update().select_related("table").get(pk=link_id)
        if seat_of(list(link.table.seats.all()), user, guest_key) is None:
            raise ActionRefused("not_seated", "this is not one of your games")
        if link.revoked_at is None:
            link.revoked_at = base.now()
            link.save(update_fields=["revoked_at"])
        return link


def do_import_record(
    *,
    variant: str,
    title: str,
    document: dict[str, Any],
    hands: list[ImportedHand],
    user: Any = None,
    guest_key: str = "",
) -> ImportedRecord:
    """Store a verified game file and its hands' replays (computed by the caller
    before this transaction, so the database is locked only for the inserts)."""
    signed_in = user is not None and user.is_authenticated
    with transaction.atomic():
        rec = ImportedRecord.objects.create(
            owner=user if signed_in else None,
            guest_key="" if signed_in else guest_key,
            variant=variant,
            title=title[:120],
            data=document,
        )
        for hand in hands:
            hand.record = rec
        ImportedHand.objects.bulk_create(hands)
    return rec


def do_store_imported_hands(rec: ImportedRecord, hands: list[ImportedHand]) -> None:
    """The replays of a record imported before they were stored; a parallel request
    may have stored them first (then these are not)."""
    for hand in hands:
        hand.record = rec
    with contextlib.suppress(IntegrityError), transaction.atomic():
        ImportedHand.objects.bulk_create(hands)


def do_note_import_commentary(record_id: int, key: str, data: dict[str, Any]) -> dict[str, Any]:
    """Keep the CPU commentary of one hand and seat of an imported record (``key``:
    "hand:seat"); when a parallel request kept one first, that one stays and is
    returned (the record's row is locked, so neither loses the other's)."""
    with transaction.atomic():
        rec = ImportedRecord.objects.select_for_update().get(pk=record_id)
        if key in rec.commentary:
            return rec.commentary[key]
        rec.commentary = {**rec.commentary, key: data}
        rec.save(update_fields=["commentary"])
    return data


def do_note_hand_commentary(hand_id: int, seat: int, data: dict[str, Any]) -> dict[str, Any]:
    """Keep the CPU commentary of one seat of a finished hand (a cache of what
    ``review.commentary.compute`` gives for it); when a parallel request kept one
    first, that one stays and is returned. The hand's row is locked, and the
    (hand, seat) constraint backs ``get_or_create``, so two requests store one row."""
    with transaction.atomic():
        hand = Hand.objects.select_for_update().get(pk=hand_id)
        kept, _created = HandCommentary.objects.get_or_create(
            hand=hand, seat=seat, defaults={"data": data}
        )
    return kept.data
