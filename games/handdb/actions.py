"""The hand database's one write: build a month's file and its row.

The file is gzip-compressed JSON Lines (one okey-review/1 document a line, ``export``),
written to a temporary file in ``settings.HAND_DB_DIR`` and renamed over the month's file,
so a download never reads half a file. The gzip header carries no time and no name, and
the games, their names and their signatures are the same for the same data, so building a
month again gives the same bytes (the same SHA-256) until its games change (a duplicate
round's embargo ending adds its tables; an account switching its name to public changes
that name).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.handdb import export
from games.handdb.models import HandMonth

CHUNK = 1 << 16


class MonthNotOver(ValueError):
    """The month is still running (or in the future): its file would be partial."""


@dataclass
class Built:
    row: HandMonth
    path: Path
    skipped: dict[str, int] = field(default_factory=dict)  # tables left out, by reason


def hand_db_dir() -> Path:
    return Path(settings.HAND_DB_DIR)


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def do_build_month(month: str, *, now: datetime | None = None) -> Built:
    """Write ``month``'s file (replacing any earlier one) and its ``HandMonth`` row.
    Raises ``export.BadMonth`` for a malformed month and ``MonthNotOver`` for a month
    that has not ended at ``now``."""
    _start, end = export.month_bounds(month)
    if end > (now or timezone.now()):
        raise MonthNotOver(month)
    folder = hand_db_dir()
    folder.mkdir(parents=True, exist_ok=True)
    name = export.file_name(month)
    skipped: dict[str, int] = {}
    games = hands = 0
    fd, tmp_name = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as raw:
            # no file name and a zero time in the header: the same games, the same bytes
            with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as out:
                for game in export.month_games(month, skipped):
                    for doc in game.documents:
                        line = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
                        out.write(line.encode() + b"\n")
                    games += 1
                    hands += game.hands
            raw.flush()
            os.fsync(raw.fileno())
        os.chmod(tmp, 0o644)
        size, digest = tmp.stat().st_size, sha256_of(tmp)
        path = folder / name
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    with transaction.atomic():
        row, _created = HandMonth.objects.update_or_create(
            month=month,
            defaults={
                "file_name": name,
                "size": size,
                "sha256": digest,
                "games": games,
                "hands": hands,
                "built_at": now or timezone.now(),
            },
        )
    return Built(row, path, skipped)
