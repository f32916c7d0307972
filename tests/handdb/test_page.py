"""The downloads page (/hands/): each month's size, counts and SHA-256 as the files have
them, the download itself, the schema, and the profile's sharing switch."""

from __future__ import annotations

import hashlib
import re
from datetime import UTC, datetime

import pytest
from django.urls import reverse

from games.handdb import actions as handdb
from tests.handdb.conftest import Clock, casual_game, rated_game
from tests.support.accounts import logged_in, make_user

pytestmark = pytest.mark.django_db


def two_months():
    users = [make_user(f"u{i}") for i in range(4)]
    rated_game(users, Clock(datetime(2026, 3, 5, tzinfo=UTC)))
    rated_game(users, Clock(datetime(2026, 4, 5, tzinfo=UTC)))
    rated_game(users, Clock(datetime(2026, 4, 6, tzinfo=UTC)))
    march = handdb.do_build_month("2026-03", now=datetime(2026, 4, 1, tzinfo=UTC))
    april = handdb.do_build_month("2026-04", now=datetime(2026, 5, 1, tzinfo=UTC))
    return march, april


def cards(html: str) -> dict[str, str]:
    return dict(re.findall(r'data-month="([\d-]+)">(.*?)</li>', html, re.S))


def test_the_page_lists_each_month_with_the_files_size_counts_and_sum(client):
    march, april = two_months()
    html = client.get(reverse("handdb:downloads")).content.decode()
    found = cards(html)
    assert list(found) == ["2026-04", "2026-03"]  # the newest first
    for built, games in ((march, 1), (april, 2)):
        card = found[built.row.month]
        data = built.path.read_bytes()
        assert f'data-bytes="{len(data)}"' in card
        assert hashlib.sha256(data).hexdigest() in card
        assert f'data-testid="handdb-games">{games}<' in card
        assert f'data-testid="handdb-hands">{games}<' in card  # one hand a game
        assert reverse("handdb:download", args=[built.row.month]) in card
    assert "March 2026" in found["2026-03"]
    assert reverse("handdb:schema") in html


def test_a_download_is_the_file_as_an_attachment(client):
    march, _april = two_months()
    response = client.get(reverse("handdb:download", args=["2026-03"]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/gzip"
    assert response["Content-Disposition"] == 'attachment; filename="okey-hands-2026-03.jsonl.gz"'
    body = b"".join(response.streaming_content)
    assert body == march.path.read_bytes()
    assert hashlib.sha256(body).hexdigest() == march.row.sha256


def test_no_file_no_download(client):
    march, _april = two_months()
    assert client.get(reverse("handdb:download", args=["2026-05"])).status_code == 404
    assert client.get("/hands/2026-3/download/").status_code == 404
    march.path.unlink()
    assert client.get(reverse("handdb:download", args=["2026-03"])).status_code == 404


def test_an_empty_list_says_so_and_the_schema_is_the_documentation(client):
    html = client.get(reverse("handdb:downloads")).content.decode()
    assert 'data-testid="handdb-empty"' in html
    schema = client.get(reverse("handdb:schema"))
    assert schema["Content-Type"] == "text/plain; charset=utf-8"
    assert "okey-review/1" in schema.content.decode()


def test_the_page_is_translated(client):
    two_months()
    client.cookies["django_language"] = "tr"
    html = client.get(reverse("handdb:downloads"), HTTP_ACCEPT_LANGUAGE="tr").content.decode()
    assert 'lang="tr"' in html
    assert "Mart 2026" in html  # the month's name in the reader's language


def test_the_profile_switches_sharing_on_and_the_page_says_when_it_is_off():
    user = make_user("sharer")
    client = logged_in(user)
    assert (
        'data-testid="handdb-share-off"' in client.get(reverse("handdb:downloads")).content.decode()
    )
    client.post(
        reverse("accounts:profile"), {"display_name": "", "language": "en", "share_hands": "on"}
    )
    user.profile.refresh_from_db()
    assert user.profile.share_hands is True
    page = client.get(reverse("handdb:downloads")).content.decode()
    assert 'data-testid="handdb-share-off"' not in page
    # and from then on their casual games go in
    casual_game(Clock(datetime(2026, 3, 5, tzinfo=UTC)), user=user)
    built = handdb.do_build_month("2026-03", now=datetime(2026, 4, 1, tzinfo=UTC))
    assert built.row.games == 1
