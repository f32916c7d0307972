"""/healthz: 200 when the database, the channel layer, the cache and the sweeper answer,
else 503 naming the failing part and nothing more; never cached. (The real outages, a
stopped PostgreSQL and a stopped Redis, are in tests/ops/test_outages.py.)"""

from __future__ import annotations

import json
import time

import pytest
from django.db import OperationalError, connections
from django.test import Client

from okeysite import metrics
from tests.support.servers import free_port

pytestmark = pytest.mark.django_db

PARTS = {"database", "channel_layer", "cache", "sweeper"}


@pytest.fixture(autouse=True)
def sweeping(monkeypatch):
    """This process's sweeper finished a pass a moment ago (no sweeper runs in tests)."""
    monkeypatch.setattr(metrics.sweeper, "last_pass", time.monotonic())


def healthz() -> tuple[int, dict]:
    response = Client().get("/healthz")
    assert response["Content-Type"] == "application/json"
    assert "no-store" in response["Cache-Control"]
    return response.status_code, json.loads(response.content)


def test_all_parts_answer():
    status, body = healthz()
    assert status == 200
    assert body == {"status": "ok", "checks": dict.fromkeys(PARTS, "ok"), "failing": []}


def test_a_stalled_sweeper_fails(monkeypatch, settings):
    settings.HEALTHZ_SWEEPER_MAX_LAG_S = 30
    monkeypatch.setattr(metrics.sweeper, "last_pass", time.monotonic() - 31)
    status, body = healthz()
    assert (status, body["status"], body["failing"]) == (503, "failing", ["sweeper"])
    monkeypatch.setattr(metrics.sweeper, "last_pass", time.monotonic() - 29)
    assert healthz()[0] == 200


def test_a_process_whose_sweeper_never_ran_fails_once_the_lag_has_passed(monkeypatch, settings):
    settings.HEALTHZ_SWEEPER_MAX_LAG_S = 30
    monkeypatch.setattr(metrics.sweeper, "last_pass", None)
    monkeypatch.setattr(metrics.sweeper, "started", time.monotonic())
    assert healthz()[0] == 200  # just started: the sweeper's first pass is due
    monkeypatch.setattr(metrics.sweeper, "started", time.monotonic() - 60)
    assert healthz()[1]["failing"] == ["sweeper"]


def test_a_process_started_without_its_sweeper_on_purpose_passes(monkeypatch):
    monkeypatch.setattr(metrics.sweeper, "last_pass", time.monotonic() - 3600)
    assert healthz()[1]["failing"] == ["sweeper"]
    monkeypatch.setattr(metrics.sweeper, "enabled", False)  # serve --no-sweeper
    assert healthz() == (
        200,
        {"status": "ok", "checks": dict.fromkeys(PARTS, "ok"), "failing": []},
    )


def test_a_failing_database_is_named_without_its_error(monkeypatch):
    def broken(*args, **kwargs):
        raise OperationalError("connection to server at 10.9.8.7 failed: password secret")

    monkeypatch.setattr(connections["default"], "cursor", broken)
    status, body = healthz()
    assert (status, body["failing"]) == (503, ["database"])
    assert body["checks"]["database"] == "failing"
    assert "10.9.8.7" not in json.dumps(body) and "secret" not in json.dumps(body)


def test_an_unreachable_redis_fails_the_cache_and_the_channel_layer(settings):
    """Both pointed at a port nobody listens on, as when Redis is stopped."""
    dead = f"redis://127.0.0.1:{free_port()}/0"
    settings.CACHES = {
        **settings.CACHES,
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": dead},
    }
    assert healthz()[1]["failing"] == ["cache"]
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [dead]},
        }
    }
    status, body = healthz()
    assert (status, body["failing"]) == (503, ["channel_layer", "cache"])


def test_only_get_and_head():
    assert Client().head("/healthz").status_code == 200
    assert Client().post("/healthz").status_code == 405
