import pytest
from django.test import override_settings
from django.urls import reverse

from accounts import throttle

pytestmark = pytest.mark.django_db

LOGIN = "accounts:login"


def attempt(client, username, password, ip="10.0.0.1"):
    return client.post(reverse(LOGIN), {"username": username, "password": password}, REMOTE_ADDR=ip)


def test_five_failures_block_further_attempts(client, make_user, password):
    make_user()
    for _ in range(5):
        response = attempt(client, "ayse", "wrong")
        assert response.status_code == 200
        assert "Too many" not in response.content.decode()

    # Even the right password is refused now.
    response = attempt(client, "ayse", password)
    assert response.status_code == 200
    assert "Too many failed attempts" in response.content.decode()
    assert not response.wsgi_request.user.is_authenticated


def test_block_is_per_ip_and_username(client, make_user, password):
    make_user()
    make_user(username="mehmet")
    for _ in range(5):
        attempt(client, "ayse", "wrong")

    # Same IP, another user: fine. Same user (any case), another IP: fine.
    assert attempt(client, "mehmet", password).status_code == 302
    client.logout()
    assert attempt(client, "ayse", password, ip="10.0.0.2").status_code == 302
    client.logout()
    assert "Too many" in attempt(client, "AYSE", password).content.decode()


def test_success_resets_the_count(client, make_user, password):
    make_user()
    for _ in range(4):
        attempt(client, "ayse", "wrong")
    assert attempt(client, "ayse", password).status_code == 302
    client.logout()
    for _ in range(4):
        attempt(client, "ayse", "wrong")
    assert attempt(client, "ayse", password).status_code == 302


@override_settings(LOGIN_THROTTLE_WINDOW=60, LOGIN_THROTTLE_LIMIT=2)
def test_limit_and_window_come_from_settings(rf):
    request = rf.post("/", REMOTE_ADDR="10.1.1.1")
    assert not throttle.is_blocked(request, "x")
    assert throttle.record_failure(request, "x") == 1
    assert throttle.record_failure(request, "x") == 2
    assert throttle.is_blocked(request, "x")
    throttle.reset(request, "x")
    assert not throttle.is_blocked(request, "x")


def test_window_expiry_unblocks(rf, monkeypatch):
    request = rf.post("/", REMOTE_ADDR="10.1.1.2")
    for _ in range(5):
        throttle.record_failure(request, "y")
    assert throttle.is_blocked(request, "y")
    # Expiry is the cache's job: simulate the window running out.
    from django.core.cache import cache

    cache.delete(throttle._key(request, "y"))
    assert not throttle.is_blocked(request, "y")
