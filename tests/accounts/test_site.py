"""The site shell: home page, base template, settings, ASGI application."""

import importlib.util

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_home_for_anonymous_links_to_signup_and_login(client):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    html = response.content.decode()
    assert reverse("accounts:signup") in html
    assert reverse("accounts:login") in html
    assert "Okey" in html
    assert '<html lang="en"' in html


def test_base_template_loads_vendored_assets_and_csrf_header(client):
    html = client.get(reverse("home")).content.decode()
    assert "/static/css/site.css" in html
    assert "/static/vendor/htmx-2.0.11.min.js" in html
    assert "/static/vendor/htmx-ext-ws-2.0.4.min.js" in html
    assert "/static/vendor/Sortable-1.15.7.min.js" in html
    assert 'hx-headers=\'{"X-CSRFToken": "' in html
    assert 'action="/i18n/setlang/"' in html


def test_nav_shows_logout_form_when_logged_in(client, make_user):
    client.force_login(make_user(display_name="Zeynep"))
    html = client.get(reverse("home")).content.decode()
    assert "Zeynep" in html
    assert 'action="/accounts/logout/"' in html
    assert reverse("accounts:signup") not in html.split("<main")[0]


def test_set_language_switches_the_page(client):
    response = client.post("/i18n/setlang/", {"language": "es", "next": "/"})
    assert response.status_code == 302
    assert response.cookies["django_language"].value == "es"
    assert '<html lang="es"' in client.get("/").content.decode()


def test_admin_has_profiles(admin_client, admin_user):
    response = admin_client.get("/admin/accounts/profile/")
    assert response.status_code == 200
    user_page = admin_client.get(f"/admin/auth/user/{admin_user.pk}/change/")
    assert user_page.status_code == 200
    assert b"profile-0-display_name" in user_page.content


def test_asgi_application_routes_http_and_websocket():
    from channels.routing import ProtocolTypeRouter

    from okeysite.asgi import application

    assert isinstance(application, ProtocolTypeRouter)
    assert set(application.application_mapping) == {"http", "websocket"}


SETTINGS_ENV = (
    "DATABASE_URL",
    "REDIS_URL",
    "ALLOWED_HOSTS",
    "DEBUG",
    "SECRET_KEY",
    "SECRET_KEY_FILE",
    "HTTPS",
    "SECURE_SSL_REDIRECT",
    "SECURE_COOKIES",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
)


def load_settings(monkeypatch, **env):
    for key in SETTINGS_ENV:
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    spec = importlib.util.find_spec("okeysite.settings")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_settings_defaults(monkeypatch, tmp_path):
    s = load_settings(monkeypatch, SECRET_KEY_FILE=str(tmp_path / ".secret_key"))
    assert s.DEBUG is False  # never on by itself, not even without a SECRET_KEY
    assert s.SECURE_SSL_REDIRECT is False  # `make run` serves plain HTTP on localhost
    assert s.SESSION_COOKIE_SECURE is False
    assert s.SECURE_HSTS_SECONDS == 0
    assert s.INSTALLED_APPS[0] == "daphne"
    db = s.DATABASES["default"]
    assert db["ENGINE"] == "django.db.backends.sqlite3"
    assert str(db["NAME"]).endswith("db.sqlite3")
    assert db["OPTIONS"]["timeout"] >= 10
    assert "journal_mode=WAL" in db["OPTIONS"]["init_command"]
    assert s.CHANNEL_LAYERS["default"]["BACKEND"] == (
        "okeysite.channel_layers.ThrottledInMemoryChannelLayer"  # in-memory, one process
    )
    assert [code for code, _ in s.LANGUAGES] == ["en", "es", "de", "tr"]


def test_settings_from_environment(monkeypatch):
    s = load_settings(
        monkeypatch,
        SECRET_KEY="s3cret",
        DEBUG="0",
        ALLOWED_HOSTS="okey.example.org, www.okey.example.org",
        DATABASE_URL="postgres://u:p@db.internal:5432/okey",
        REDIS_URL="redis://127.0.0.1:6379/0",
    )
    assert s.SECRET_KEY == "s3cret"
    assert s.DEBUG is False
    assert s.ALLOWED_HOSTS == ["okey.example.org", "www.okey.example.org"]
    assert s.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    assert s.DATABASES["default"]["NAME"] == "okey"
    layer = s.CHANNEL_LAYERS["default"]
    assert layer["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    assert layer["CONFIG"]["hosts"] == ["redis://127.0.0.1:6379/0"]


def test_without_secret_key_a_random_one_is_made_once_and_kept_private(monkeypatch, tmp_path):
    key_file = tmp_path / ".secret_key"
    first = load_settings(monkeypatch, SECRET_KEY_FILE=str(key_file))
    assert key_file.stat().st_mode & 0o777 == 0o600
    assert key_file.read_text().strip() == first.SECRET_KEY
    # Strong enough for `check --deploy` (security.W009): long, varied, not Django's dev prefix.
    assert len(first.SECRET_KEY) >= 50
    assert len(set(first.SECRET_KEY)) >= 5
    assert not first.SECRET_KEY.startswith("django-insecure-")
    again = load_settings(monkeypatch, SECRET_KEY_FILE=str(key_file))
    assert again.SECRET_KEY == first.SECRET_KEY  # sessions and signed exports survive restarts
    other = load_settings(monkeypatch, SECRET_KEY_FILE=str(tmp_path / "other"))
    assert other.SECRET_KEY != first.SECRET_KEY  # random, not a fixed development key
    # No temporary file is left behind.
    assert sorted(tmp_path.iterdir()) == sorted([key_file, tmp_path / "other"])


def test_debug_only_when_asked_for(monkeypatch, tmp_path):
    key_file = str(tmp_path / ".secret_key")
    assert load_settings(monkeypatch, SECRET_KEY_FILE=key_file, DEBUG="1").DEBUG is True
    assert load_settings(monkeypatch, SECRET_KEY_FILE=key_file, DEBUG="0").DEBUG is False
    assert load_settings(monkeypatch, SECRET_KEY_FILE=key_file, DEBUG="").DEBUG is False


def test_an_environment_secret_key_writes_no_file(monkeypatch, tmp_path):
    key_file = tmp_path / ".secret_key"
    s = load_settings(monkeypatch, SECRET_KEY="k" * 10 + "x" * 50, SECRET_KEY_FILE=str(key_file))
    assert s.SECRET_KEY == "k" * 10 + "x" * 50
    assert not key_file.exists()


def test_https_switches_on_the_transport_settings(monkeypatch, tmp_path):
    s = load_settings(monkeypatch, SECRET_KEY_FILE=str(tmp_path / "k"), HTTPS="1")
    assert s.SECURE_SSL_REDIRECT is True
    assert s.SESSION_COOKIE_SECURE is True
    assert s.CSRF_COOKIE_SECURE is True
    assert s.SECURE_HSTS_SECONDS == 31_536_000
    assert s.SECURE_PROXY_SSL_HEADER == ("HTTP_X_FORWARDED_PROTO", "https")
    # Each can be set on its own.
    s = load_settings(
        monkeypatch, SECRET_KEY_FILE=str(tmp_path / "k"), HTTPS="1", SECURE_HSTS_SECONDS="60"
    )
    assert s.SECURE_HSTS_SECONDS == 60
