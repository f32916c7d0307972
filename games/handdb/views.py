"""The open hand database's pages: the list of monthly files, a file's download and the
schema (docs/hand-database.md). Anyone may read them, signed in or not."""

from __future__ import annotations

from django.conf import settings
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from games.handdb import actions, export
from games.handdb.models import HandMonth

SCHEMA_DOC = "docs/hand-database.md"


def downloads(request: HttpRequest) -> HttpResponse:
    return render(request, "handdb/downloads.html", {"months": HandMonth.objects.all()})


def download(request: HttpRequest, month: str) -> FileResponse:
    """The month's file as an attachment. Served by Django (the files are a few MB a
    month); a large site lets nginx serve ``HAND_DB_DIR`` instead (docs/hand-database.md)."""
    if export.MONTH.match(month) is None:
        raise Http404
    row = get_object_or_404(HandMonth, month=month)
    path = actions.hand_db_dir() / row.file_name
    try:
        handle = path.open("rb")
    except FileNotFoundError:
        raise Http404 from None
    response = FileResponse(
        handle, as_attachment=True, filename=row.file_name, content_type="application/gzip"
    )
    response["ETag"] = f'"{row.sha256}"'
    return response


def schema(request: HttpRequest) -> HttpResponse:
    """The files' documentation as plain text (the same file the repository ships)."""
    text = (settings.BASE_DIR / SCHEMA_DOC).read_text(encoding="utf-8")
    return HttpResponse(text, content_type="text/plain; charset=utf-8")
