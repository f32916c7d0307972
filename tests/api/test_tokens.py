"""Personal access tokens: made and revoked on the profile page, stored hashed, scoped;
unknown, revoked and out-of-scope tokens refused with a JSON error; guessing is cut off
per address; every token and address is rate limited (429 with Retry-After)."""

from __future__ import annotations

import hashlib

import pytest

from games.api.models import ApiToken
from tests.api.conftest import Api, api_as, token_for
from tests.support.accounts import logged_in, make_user

pytestmark = pytest.mark.django_db


def test_a_token_made_on_the_profile_page_is_shown_once_and_stored_hashed(ayse):
    client = logged_in(ayse)
    page = client.get("/accounts/profile/")
    assert b'data-testid="api-tokens"' in page.content
    response = client.post(
        "/accounts/profile/tokens/new/", {"name": "my bot", "scopes": ["read", "play"]}
    )
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    secret = response.context["secret"]
    assert secret in response.content.decode()
    token = ApiToken.objects.get()
    assert token.digest == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in (token.digest, token.name) and token.prefix == secret[:8]
    assert token.scopes == ["play", "read"]
    # the profile lists it by name and prefix, never the secret again
    listing = client.get("/accounts/profile/").content.decode()
    assert "my bot" in listing and f"{secret[:8]}…" in listing and secret not in listing
    assert Api(secret).get("/api/v1/me").json()["token"]["name"] == "my bot"


def test_a_token_revoked_on_the_profile_page_works_no_more(ayse):
    token, secret = token_for(ayse)
    assert Api(secret).get("/api/v1/me").status_code == 200
    client = logged_in(ayse)
    response = client.post(f"/accounts/profile/tokens/{token.pk}/revoke/")
    assert response.status_code == 302
    answer = Api(secret).get("/api/v1/me")
    assert answer.status_code == 401
    assert answer.json()["code"] == "token_revoked"
    assert b"api-token-row" not in client.get("/accounts/profile/").content


def test_nobody_revokes_another_players_token(ayse):
    token, secret = token_for(ayse)
    mehmet = make_user("mehmet")
    logged_in(mehmet).post(f"/accounts/profile/tokens/{token.pk}/revoke/")
    assert Api(secret).get("/api/v1/me").status_code == 200


def test_a_token_needs_a_name_and_a_known_scope(ayse):
    client = logged_in(ayse)
    client.post("/accounts/profile/tokens/new/", {"name": "", "scopes": ["read"]})
    client.post("/accounts/profile/tokens/new/", {"name": "x", "scopes": ["admin"]})
    client.post("/accounts/profile/tokens/new/", {"name": "a\u202eb", "scopes": ["read"]})
    assert not ApiToken.objects.exists()


def test_no_token_unknown_token_and_wrong_scheme_are_401_with_a_code(ayse):
    assert Api().get("/api/v1/me").json()["code"] == "missing_token"
    assert Api().get("/api/v1/me").status_code == 401
    answer = Api("not-a-real-token").get("/api/v1/me")
    assert answer.status_code == 401
    assert answer.json()["code"] == "invalid_token" and answer.json()["message"]
    basic = Api().get("/api/v1/me", headers={"Authorization": "Basic eDp5"})
    assert basic.status_code == 401


def test_a_public_route_refuses_a_bad_token_rather_than_ignore_it(ayse):
    assert Api().get("/api/v1/rulesets").status_code == 200
    assert Api("wrong").get("/api/v1/rulesets").status_code == 401


def test_scopes_limit_what_a_token_does(ayse):
    reader = api_as(ayse, ["read"])
    player = api_as(ayse, ["play"])
    body = {"variant": "classic"}
    refused = reader.post("/api/v1/tables", body)
    assert refused.status_code == 403
    assert refused.json()["code"] == "insufficient_scope"
    assert player.post("/api/v1/tables", body).status_code == 201
    code = player.get("/api/v1/players/ayse/games").json()  # public: any token
    assert code["total"] == 0
    assert player.get("/api/v1/games/nope/record").json()["code"] == "insufficient_scope"
    assert reader.get("/api/v1/games/nope/record").status_code == 404


def test_guessing_tokens_is_cut_off_for_the_address(ayse, settings):
    settings.API_AUTH_FAIL_LIMIT = 3
    _token, secret = token_for(ayse)
    for i in range(3):
        assert Api(f"guess-{i}").get("/api/v1/me").status_code == 401
    blocked = Api("guess-4").get("/api/v1/me")
    assert blocked.status_code == 429
    assert blocked.json()["code"] == "too_many_failures"
    assert int(blocked["Retry-After"]) == settings.API_AUTH_FAIL_WINDOW
    # even the right token waits: the address is refused before any lookup
    assert Api(secret).get("/api/v1/me").status_code == 429
    # no token at all: the public routes still answer
    assert Api().get("/api/v1/rulesets").status_code == 200


def test_each_token_has_its_rate_limit(ayse, settings):
    settings.API_TOKEN_RATE_LIMIT = 5
    first, second = api_as(ayse), api_as(ayse)
    for _ in range(5):
        assert first.get("/api/v1/me").status_code == 200
    limited = first.get("/api/v1/me")
    assert limited.status_code == 429
    assert limited.json()["code"] == "rate_limited"
    assert int(limited["Retry-After"]) == settings.API_TOKEN_RATE_WINDOW
    assert second.get("/api/v1/me").status_code == 200


def test_each_address_has_its_rate_limit(settings, db):
    settings.API_IP_RATE_LIMIT = 4
    for _ in range(4):
        assert Api().get("/api/v1/rulesets").status_code == 200
    limited = Api().get("/api/v1/rulesets")
    assert limited.status_code == 429
    assert limited.json()["code"] == "rate_limited"
    assert limited["Retry-After"] == str(settings.API_IP_RATE_WINDOW)
    other = Api().get("/api/v1/rulesets", REMOTE_ADDR="10.9.8.7")
    assert other.status_code == 200
    # the rest of the site is not counted
    assert Api().get("/").status_code == 200


def test_an_account_holds_a_bounded_number_of_tokens(ayse):
    from games.api import tokens

    for i in range(tokens.MAX_ACTIVE):
        token_for(ayse, name=f"t{i}")
    with pytest.raises(tokens.TokenRefused):
        token_for(ayse)
    client = logged_in(ayse)
    client.post("/accounts/profile/tokens/new/", {"name": "one more", "scopes": ["read"]})
    assert ApiToken.objects.count() == tokens.MAX_ACTIVE


def test_a_closed_account_s_token_works_no_more(ayse):
    _token, secret = token_for(ayse)
    ayse.is_active = False
    ayse.save()
    assert Api(secret).get("/api/v1/me").status_code == 401
