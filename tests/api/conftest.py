"""The API's tests: accounts with tokens, and calls with ``Authorization: Bearer``.

Rate-limit counts live in Django's cache (games/api/throttles.py): every test starts from
zero. Deals are fixed and CPUs move at once, as in tests/games."""

from __future__ import annotations

import itertools

import pytest
from django.core.cache import cache
from django.test import Client

from games.api import tokens
from games.api.models import SCOPES
from games.live.actions import base as actions_base
from tests.support.accounts import make_user


@pytest.fixture(autouse=True)
def _fresh_counts():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _fast_cpus(settings):
    settings.OKEY_CPU_DELAY_MS = 0


@pytest.fixture(autouse=True)
def fixed_seeds(monkeypatch):
    counter = itertools.count()
    monkeypatch.setattr(actions_base, "seed_source", lambda table, number: f"api-{next(counter)}")


class Api:
    """A test client that sends one token (or none) with every request."""

    def __init__(self, secret: str | None = None) -> None:
        self.client = Client()
        self.secret = secret

    def headers(self, extra: dict | None = None) -> dict:
        out = {"Authorization": f"Bearer {self.secret}"} if self.secret else {}
        return {**out, **(extra or {})}

    def get(self, path: str, **kwargs):
        return self.client.get(path, headers=self.headers(kwargs.pop("headers", None)), **kwargs)

    def post(self, path: str, data=None, *, raw: bytes | str | None = None, **kwargs):
        import json

        body = raw if raw is not None else json.dumps(data if data is not None else {})
        return self.client.post(
            path,
            body,
            content_type=kwargs.pop("content_type", "application/json"),
            headers=self.headers(kwargs.pop("headers", None)),
            **kwargs,
        )


def token_for(user, scopes=SCOPES, name: str = "test"):
    """A new token of ``user`` and its secret."""
    return tokens.do_create_token(user, name, list(scopes))


def api_as(user, scopes=SCOPES) -> Api:
    _token, secret = token_for(user, scopes)
    return Api(secret)


@pytest.fixture
def ayse(db):
    return make_user("ayse", "Ayşe", public_records=True)


@pytest.fixture
def anon():
    return Api()
