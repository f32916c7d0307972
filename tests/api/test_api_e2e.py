"""In Chromium, served by daphne: a player makes a token on their profile page, the API
answers it, they revoke it and the API refuses it; the API's docs (Swagger UI) render from
the site's own files with every other host unreachable. Screenshots of both at phone and
desktop size go to /tmp/shots/api/."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.support.accounts import sign_up

SHOTS = Path("/tmp/shots/api")
SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 768}}


def call(base: str, path: str, secret: str) -> tuple[int, dict]:
    request = urllib.request.Request(base + path, headers={"Authorization": f"Bearer {secret}"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310 (loopback)
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.screenshot(path=str(SHOTS / f"{name}-{size}.png"), full_page=True)


@pytest.mark.e2e
def test_a_token_is_made_used_and_revoked_from_the_profile(page: Page, daphne_server: str):
    sign_up(page, daphne_server, "api_player")
    page.goto(f"{daphne_server}/accounts/profile/")
    section = page.get_by_test_id("api-tokens")
    expect(section.get_by_test_id("api-no-tokens")).to_be_visible()
    section.get_by_label("Token name").fill("my script")
    section.get_by_label(re.compile("Play:")).check()
    shot(page, "profile-new-token")
    section.get_by_test_id("api-token-create").click()
    secret_box = page.get_by_test_id("api-token-secret")
    expect(secret_box).to_be_visible()
    secret = secret_box.input_value()
    assert len(secret) == 43
    shot(page, "token-created")

    status, me = call(daphne_server, "/api/v1/me", secret)
    assert status == 200
    assert me["username"] == "api_player" and me["token"]["scopes"] == ["play", "read"]

    page.get_by_test_id("api-token-done").click()
    row = page.get_by_test_id("api-token-row")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("my script")
    expect(row).to_contain_text(secret[:8])
    assert secret not in page.content()
    shot(page, "profile-tokens")
    row.get_by_test_id("api-token-revoke").click()
    expect(page.get_by_test_id("api-token-row")).to_have_count(0)
    status, refused = call(daphne_server, "/api/v1/me", secret)
    assert status == 401 and refused["code"] == "token_revoked"


@pytest.mark.e2e
def test_the_docs_render_without_the_network(page: Page, daphne_server: str):
    outside: list[str] = []

    def only_this_site(route):
        if route.request.url.startswith(daphne_server):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    page.route("**/*", only_this_site)
    page.goto(f"{daphne_server}/api/docs")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Okey API")
    expect(page.locator(".opblock-summary-path").first).to_be_visible()
    expect(page.get_by_text("/api/v1/tables/{code}/actions").first).to_be_visible()
    assert outside == []
    shot(page, "docs")


@pytest.mark.e2e
def test_the_real_server_refuses_an_oversized_or_chunked_body(daphne_server: str):
    """Through daphne: a body past 64 KiB is 413 whether its length is declared or sent
    in chunks without one, and the unknown version is a JSON 404."""
    import http.client
    from urllib.parse import urlsplit

    host = urlsplit(daphne_server)
    body = b'{"variant": "' + b"a" * (1024 * 1024) + b'"}'

    def post(chunked: bool) -> tuple[int, dict]:
        conn = http.client.HTTPConnection(host.hostname, host.port, timeout=30)
        headers = {"Content-Type": "application/json", "Authorization": "Bearer x"}
        if chunked:
            conn.request(
                "POST", "/api/v1/tables", body=iter([body]), headers=headers, encode_chunked=True
            )
        else:
            conn.request("POST", "/api/v1/tables", body=body, headers=headers)
        response = conn.getresponse()
        answer = response.status, json.loads(response.read())
        conn.close()
        return answer

    for chunked in (False, True):
        status, answer = post(chunked)
        assert status == 413 and answer["code"] == "body_too_large"
    conn = http.client.HTTPConnection(host.hostname, host.port, timeout=10)
    conn.request("GET", "/api/v2/rulesets")
    response = conn.getresponse()
    assert response.status == 404
    assert json.loads(response.read())["code"] == "not_found"
