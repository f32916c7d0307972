"""Bad input gets a clear 4xx in one JSON shape, costs bounded memory and changes
nothing: malformed and oversized JSON, unknown fields, unknown versions, CORS."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Table
from tests.api.conftest import Api, api_as

pytestmark = pytest.mark.django_db


@pytest.fixture
def player(ayse):
    return api_as(ayse, ["play"])


def test_malformed_json_is_400_and_says_where(player):
    answer = player.post("/api/v1/tables", raw='{"variant": "classic",')
    assert answer.status_code == 400
    body = answer.json()
    assert body["code"] == "malformed_json"
    assert "line 1" in body["message"]
    assert not Table.objects.exists()


@pytest.mark.parametrize(
    "raw",
    [b"\xff\xfe", "[" * 5000 + "]" * 5000, '{"variant": ' + "9" * 5000 + "}"],
    ids=["not-utf8", "deep", "huge-number"],
)
def test_json_that_python_cannot_read_is_400(player, raw):
    answer = player.post("/api/v1/tables", raw=raw)
    assert answer.status_code in (400, 422)
    assert answer.json()["code"] in ("malformed_json", "invalid_request")
    assert not Table.objects.exists()


def test_a_body_over_the_limit_is_413_and_never_read_whole(player, settings):
    settings.API_MAX_BODY_BYTES = 1024
    big = '{"variant": "classic", "options": {"x": "' + "a" * 2000 + '"}}'
    answer = player.post("/api/v1/tables", raw=big)
    assert answer.status_code == 413
    assert answer.json()["code"] == "body_too_large"
    assert not Table.objects.exists()


def test_a_body_larger_than_it_claims_is_cut_at_the_limit(player, settings):
    """A client that announces a small Content-Length (or none) cannot send more: the
    guard reads at most the limit plus one byte."""
    from io import BytesIO

    from django.core.handlers.wsgi import WSGIRequest

    from games.api.errors import ApiError
    from games.api.middleware import read_body

    settings.API_MAX_BODY_BYTES = 100
    stream = BytesIO(b"x" * 10_000)
    request = WSGIRequest(
        {
            "REQUEST_METHOD": "POST",
            "PATH_INFO": "/api/v1/tables",
            "wsgi.input": stream,
            "CONTENT_LENGTH": "",
        }
    )
    request._stream = stream  # no declared length: the raw stream
    with pytest.raises(ApiError) as refused:
        read_body(request)
    assert refused.value.status == 413
    assert stream.tell() == 101


def test_unknown_fields_and_wrong_types_are_422_with_where(player):
    answer = player.post("/api/v1/tables", {"variant": "classic", "colour": "red"})
    assert answer.status_code == 422
    body = answer.json()
    assert body["code"] == "invalid_request"
    assert body["errors"][0]["loc"][-1] == "colour"
    answer = player.post("/api/v1/tables", {"variant": "classic", "public": "maybe"})
    assert answer.status_code == 422
    assert not Table.objects.exists()


def test_engine_refusals_keep_their_code(player):
    answer = player.post("/api/v1/tables", {"variant": "chess"})
    assert answer.status_code == 400
    assert answer.json()["code"] == "bad_variant"
    answer = player.post("/api/v1/tables", {"variant": "classic", "options": {"start_points": 7}})
    assert answer.status_code == 400
    assert answer.json()["code"] == "bad_option"
    answer = player.post("/api/v1/tables", {"variant": "classic", "others": [{"kind": "cpu"}]})
    assert answer.status_code == 400
    assert answer.json()["code"] == "bad_option"
    assert not Table.objects.exists()


@pytest.mark.parametrize("path", ["/api/v2/rulesets", "/api/", "/api/v1/nothing", "/api/v0"])
def test_unknown_versions_and_paths_are_json_404(path):
    answer = Client().get(path)
    assert answer.status_code == 404
    assert answer["Content-Type"] == "application/json"
    assert answer.json()["code"] == "not_found"


def test_no_cors_header_unless_origins_are_configured(settings, db):
    headers = {"Origin": "https://elsewhere.example"}
    answer = Api().get("/api/v1/rulesets", headers=headers)
    assert not [h for h in answer.headers if h.lower().startswith("access-control")]
    preflight = Client().options(
        "/api/v1/rulesets",
        headers={**headers, "Access-Control-Request-Method": "GET"},
    )
    assert "Access-Control-Allow-Origin" not in preflight.headers


def test_cors_answers_only_the_configured_origins(settings, db):
    settings.API_CORS_ORIGINS = ["https://app.example"]
    ok = Api().get("/api/v1/rulesets", headers={"Origin": "https://app.example"})
    assert ok["Access-Control-Allow-Origin"] == "https://app.example"
    assert "Access-Control-Allow-Credentials" not in ok.headers
    other = Api().get("/api/v1/rulesets", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in other.headers
    preflight = Client().options(
        "/api/v1/tables",
        headers={"Origin": "https://app.example", "Access-Control-Request-Method": "POST"},
    )
    assert preflight.status_code == 204
    assert "Authorization" in preflight["Access-Control-Allow-Headers"]
    # the rest of the site never gets CORS headers
    page = Client().get("/", headers={"Origin": "https://app.example"})
    assert "Access-Control-Allow-Origin" not in page.headers


def test_answers_to_a_token_are_not_cached(player):
    assert player.get("/api/v1/me").headers["Cache-Control"] == "no-store"
