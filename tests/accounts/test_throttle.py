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

    # Even the right password is refused now (429 Too Many Requests).
    response = attempt(client, "ayse", password)
    assert response.status_code == 429
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


# Per IP, across usernames ---------------------------------------------------------------


def test_failures_across_usernames_block_the_ip(client, make_user, password):
    """Guessing against many usernames from one IP: 20 failures in 15 minutes close it."""
    make_user()
    for n in range(20):
        response = attempt(client, f"someone{n}", "wrong")
        assert response.status_code == 200, n  # no username reached its own limit of 5
    response = attempt(client, "ayse", password)
    assert response.status_code == 429
    assert "Too many failed attempts" in response.content.decode()
    assert not response.wsgi_request.user.is_authenticated
    # Another IP is not affected.
    assert attempt(client, "ayse", password, ip="10.0.0.9").status_code == 302


def test_a_refused_attempt_is_not_counted(rf, client, make_user, password):
    make_user()
    for n in range(20):
        attempt(client, f"someone{n}", "wrong")
    request = rf.post("/", REMOTE_ADDR="10.0.0.1")
    assert throttle.ip_failures(request) == 20
    attempt(client, "ayse", password)
    attempt(client, "ayse", "wrong")
    assert throttle.ip_failures(request) == 20
    assert throttle.failures(request, "ayse") == 0


def test_a_success_does_not_clear_the_ip_count(client, make_user, password):
    """One working account must not reset the count for guessing at the others."""
    make_user()
    for n in range(19):
        attempt(client, f"someone{n}", "wrong")
    assert attempt(client, "ayse", password).status_code == 302
    client.logout()
    attempt(client, "nobody", "wrong")  # the 20th failure from this IP
    assert attempt(client, "ayse", password).status_code == 429


@override_settings(LOGIN_IP_THROTTLE_LIMIT=3, LOGIN_IP_THROTTLE_WINDOW=60)
def test_ip_limit_comes_from_settings(rf):
    request = rf.post("/", REMOTE_ADDR="10.2.2.2")
    for name in ("a", "b", "c"):
        assert not throttle.is_blocked(request, "z")
        throttle.record_failure(request, name)
    assert throttle.is_blocked(request, "z")
    assert throttle.LOGIN_IP.window == 60


# The client's IP ------------------------------------------------------------------------


def test_forwarded_for_is_ignored_without_a_trusted_proxy(client, make_user, password):
    """A client cannot dodge the limit by writing its own X-Forwarded-For."""
    make_user()
    for n in range(5):
        client.post(
            reverse(LOGIN),
            {"username": "ayse", "password": "wrong"},
            REMOTE_ADDR="10.0.0.1",
            HTTP_X_FORWARDED_FOR=f"192.0.2.{n}",
        )
    response = client.post(
        reverse(LOGIN),
        {"username": "ayse", "password": password},
        REMOTE_ADDR="10.0.0.1",
        HTTP_X_FORWARDED_FOR="192.0.2.77",
    )
    assert response.status_code == 429


@pytest.mark.parametrize(
    ("proxies", "forwarded", "expected"),
    [
        (0, "203.0.113.5", "10.0.0.1"),
        (1, "203.0.113.5", "203.0.113.5"),
        # The client wrote the first entry; the proxy appended the real address.
        (1, "6.6.6.6, 203.0.113.5", "203.0.113.5"),
        (2, "6.6.6.6, 203.0.113.5, 10.9.9.9", "203.0.113.5"),
        (2, "203.0.113.5", "203.0.113.5"),
        (1, "", "10.0.0.1"),
        (1, "not-an-ip", "not-an-ip"),
    ],
)
def test_client_ip_behind_trusted_proxies(rf, settings, proxies, forwarded, expected):
    settings.TRUSTED_PROXIES = proxies
    request = rf.get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=forwarded)
    assert throttle.client_ip(request) == expected


def test_ipv6_clients_count_per_64_network(rf):
    one = rf.get("/", REMOTE_ADDR="2001:db8:1:2::1")
    other = rf.get("/", REMOTE_ADDR="2001:db8:1:2:ffff::9")
    elsewhere = rf.get("/", REMOTE_ADDR="2001:db8:1:3::1")
    assert throttle.client_ip(one) == throttle.client_ip(other) == "2001:db8:1:2::/64"
    assert throttle.client_ip(elsewhere) != throttle.client_ip(one)
    mapped = rf.get("/", REMOTE_ADDR="::ffff:192.0.2.1")
    assert throttle.client_ip(mapped) == "192.0.2.1"


# Sign-up ---------------------------------------------------------------------------------


def signup(client, n, password, ip="10.0.0.1"):
    return client.post(
        reverse("accounts:signup"),
        {
            "username": f"player{n}",
            "display_name": f"Player {n}",
            "password1": password,
            "password2": password,
        },
        REMOTE_ADDR=ip,
    )


def test_signups_per_ip_are_limited(client, password, django_user_model):
    for n in range(5):
        assert signup(client, n, password).status_code == 302
        client.logout()
    response = signup(client, 5, password)
    assert response.status_code == 429
    assert "Too many accounts were created from your network" in response.content.decode()
    assert not django_user_model.objects.filter(username="player5").exists()
    assert not response.wsgi_request.user.is_authenticated
    # The form keeps what was typed.
    assert 'value="player5"' in response.content.decode()
    # Another IP can still sign up.
    assert signup(client, 6, password, ip="10.0.0.2").status_code == 302


def test_failed_signups_do_not_count(client, password, django_user_model):
    for n in range(8):
        client.post(
            reverse("accounts:signup"),
            {"username": f"p{n}", "display_name": "X", "password1": password, "password2": "no"},
            REMOTE_ADDR="10.0.0.1",
        )
    assert signup(client, 1, password).status_code == 302


@override_settings(SIGNUP_THROTTLE_LIMIT=1)
def test_signup_limit_comes_from_settings(client, password):
    assert signup(client, 1, password).status_code == 302
    client.logout()
    assert signup(client, 2, password).status_code == 429
