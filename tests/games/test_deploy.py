"""A deployment's safe defaults: error pages in the site's look and the reader's language, the
Content-Security-Policy, the favicon, and a clean ``manage.py check --deploy`` with the
production settings documented in docs/deployment.md."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import PermissionDenied
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import path

import okeysite.urls

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.django_db


def _forbidden(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied("Only the tournament's organisers can do that.")


def _broken(request: HttpRequest) -> HttpResponse:
    raise DatabaseError("the database is down")


# This module is also the URLconf of the tests marked ``urls(__name__)``: the site's URLs
# plus two views that fail the way real views can.
urlpatterns = [
    path("test-forbidden/", _forbidden),
    path("test-broken/", _broken),
    *okeysite.urls.urlpatterns,
]


# Error pages -----------------------------------------------------------------------------


def test_404_is_the_site_page_in_the_readers_language(client):
    response = client.get("/no/such/page/", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 404
    html = response.content.decode()
    assert '<html lang="de"' in html
    assert 'data-testid="error-404"' in html
    assert 'class="site-header"' in html  # base.html: header, menu, footer
    assert 'id="language-select"' in html  # the request is there: the full menu


@pytest.mark.urls(__name__)
def test_403_shows_the_reason_the_view_gave(client):
    response = client.get("/test-forbidden/", HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 403
    html = response.content.decode()
    assert '<html lang="es"' in html
    assert 'data-testid="error-403"' in html
    assert "Only the tournament&#x27;s organisers can do that." in html
    assert "/accounts/login/?next=/test-forbidden/" in html  # a guest is offered to log in


@pytest.mark.urls(__name__)
def test_500_page_needs_neither_the_database_nor_context_processors(
    django_assert_num_queries,
):
    client = Client(raise_request_exception=False)
    with django_assert_num_queries(0):
        response = client.get("/test-broken/", HTTP_ACCEPT_LANGUAGE="tr")
    assert response.status_code == 500
    html = response.content.decode()
    assert '<html lang="tr"' in html
    assert 'data-testid="error-500"' in html
    assert 'class="site-header"' in html
    assert 'id="language-select"' not in html  # no request: no form that would need it


def test_400_for_a_host_that_is_not_allowed(client):
    response = client.get("/", HTTP_HOST="evil.example", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 400
    html = response.content.decode()
    assert 'data-testid="error-400"' in html
    assert '<html lang="de"' in html


def test_csrf_failure_is_the_site_page_in_the_readers_language():
    client = Client(enforce_csrf_checks=True)
    response = client.post("/i18n/setlang/", {"language": "es"}, HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 403
    html = response.content.decode()
    assert 'data-testid="error-csrf"' in html
    assert '<html lang="es"' in html
    assert "CSRF verification failed" not in html  # not Django's page for developers


# Content-Security-Policy -----------------------------------------------------------------


def _policy(response: HttpResponse) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {
        name: values
        for name, *values in (part.split() for part in header.split(";") if part.strip())
    }


def test_pages_carry_a_policy_without_inline_or_eval_scripts(client):
    policy = _policy(client.get("/"))
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert policy["connect-src"] == ["'self'"]  # the table's websocket, same host
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["form-action"] == ["'self'"]
    # Error pages too.
    assert _policy(client.get("/no/such/page/"))["script-src"] == ["'self'"]


INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)
HANDLER_ATTRIBUTE = re.compile(r"\son[a-z]+\s*=", re.IGNORECASE)
STYLE_ATTRIBUTE = re.compile(r"\sstyle\s*=", re.IGNORECASE)
HX_ON = re.compile(r"\shx-on", re.IGNORECASE)


def test_no_template_has_what_the_policy_refuses():
    """Inline scripts, on*= handlers, hx-on (run through eval) and style= attributes are all
    blocked by the policy: a page that had one would silently lose it."""
    offending = []
    for template in sorted((ROOT / "templates").rglob("*.html")):
        text = template.read_text()
        for pattern in (INLINE_SCRIPT, HANDLER_ATTRIBUTE, STYLE_ATTRIBUTE, HX_ON):
            offending += [f"{template.relative_to(ROOT)}: {m}" for m in pattern.findall(text)]
    assert offending == []


def test_htmx_is_told_not_to_inject_its_inline_style(client):
    html = client.get("/").content.decode()
    assert """<meta name="htmx-config" content='{"includeIndicatorStyles": false}'>""" in html


# Favicon ---------------------------------------------------------------------------------


def test_favicon_ico_leads_to_the_sites_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"] == "/static/favicon.svg"
    assert (ROOT / "static" / "favicon.svg").read_text().startswith("<svg")
    assert 'rel="icon" href="/static/favicon.svg"' in client.get("/").content.decode()


# manage.py check --deploy ----------------------------------------------------------------


def _deploy_check(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    base = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("SECURE_", "HTTPS", "DEBUG", "SECRET_KEY", "REDIS_URL"))
    }
    base.update(
        {
            "DJANGO_SETTINGS_MODULE": "okeysite.settings",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
            "SECRET_KEY_FILE": str(tmp_path / ".secret_key"),
            "STATIC_ROOT": str(tmp_path / "static"),
        }
    )
    base.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=base,
        capture_output=True,
        text=True,
        timeout=120,
    )


# The production settings of docs/deployment.md.
PRODUCTION_ENV = {
    "ALLOWED_HOSTS": "okey.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://okey.example.org",
    "HTTPS": "1",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "1",
    "SECURE_HSTS_PRELOAD": "1",
}


def test_deploy_check_is_clean_with_the_documented_production_settings(tmp_path):
    result = _deploy_check(tmp_path, SECRET_KEY=secrets.token_urlsafe(50), **PRODUCTION_ENV)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_deploy_check_is_clean_with_the_generated_secret_key(tmp_path):
    result = _deploy_check(tmp_path, **PRODUCTION_ENV)
    assert result.returncode == 0, result.stdout + result.stderr


def test_deploy_check_warns_without_https(tmp_path):
    result = _deploy_check(tmp_path, ALLOWED_HOSTS="okey.example.org")
    assert result.returncode != 0
    found = set(re.findall(r"security\.W\d+", result.stdout + result.stderr))
    # No HSTS, no redirect to HTTPS, cookies sent over plain HTTP. DEBUG stays off.
    assert found == {"security.W004", "security.W008", "security.W012", "security.W016"}
