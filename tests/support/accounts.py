"""Accounts for tests: rows made through the ORM, and the browser's sign-up and log-in.

``make_user`` / ``make_users`` create accounts (``create_user``, so the profile exists through
``accounts.signals``) and set the profile fields given; ``logged_in`` is a test client of an
account. ``sign_up`` / ``log_in`` drive the real pages in a Playwright ``page`` (e2e tests);
every account they make has the password ``PASSWORD``.

In the test process passwords are hashed with MD5 (``tests/conftest.py``,
``_fast_password_hasher``): a PBKDF2 hash costs a quarter of a second of CPU. The e2e
server hashes as production does.
"""

from __future__ import annotations

from typing import Any

PASSWORD = "green-felt-2024!"


def make_user(username: str, display_name: str = "", *, password: str = PASSWORD, **profile: Any):
    """An account named ``username``, shown as ``display_name``; ``profile`` sets other
    fields of its profile (``language``, ``public_records``, ...), saved once."""
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(username=username, password=password)
    if display_name:
        profile["display_name"] = display_name
    if profile:
        for key, value in profile.items():
            setattr(user.profile, key, value)
        user.profile.save()
    return user


def make_users(*usernames: str, **profile: Any) -> list:
    """One account per name, each with the same ``profile`` fields."""
    return [make_user(name, **profile) for name in usernames]


def logged_in(user):
    """A test client (django.test.Client) logged in as ``user`` (no password check)."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


# In the browser -----------------------------------------------------------------------


def sign_up(page, base: str, username: str, language: str = "") -> None:
    """Sign up as ``username`` (shown as ``username.title()``) on the sign-up page and wait
    until the header names the new account. With ``language``, the page is in that language
    (the language cookie) and the form is filled by the fields' ids, not their labels."""
    from playwright.sync_api import expect

    if language:
        page.context.add_cookies([{"name": "django_language", "value": language, "url": base}])
        page.goto(f"{base}/accounts/signup/")
        page.fill("#id_username", username)
        page.fill("#id_display_name", username.title())
        page.fill("#id_password1", PASSWORD)
        page.fill("#id_password2", PASSWORD)
        page.locator("main button[type=submit]").click()
    else:  # by the English labels, as a person (or a screen reader) finds the fields
        page.goto(f"{base}/accounts/signup/")
        page.get_by_label("Username").fill(username)
        page.get_by_label("Display name").fill(username.title())
        page.get_by_label("Password", exact=True).fill(PASSWORD)
        page.get_by_label("Password confirmation").fill(PASSWORD)
        page.locator("main").get_by_role("button", name="Sign up").click()
    expect(page.get_by_test_id("nav-user")).to_have_text(username.title())


def log_in(page, base: str, username: str, password: str = PASSWORD) -> None:
    """Log in as ``username`` in a fresh session (the page's cookies cleared first) and wait
    until the header shows an account."""
    from playwright.sync_api import expect

    page.context.clear_cookies()
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.locator("main").get_by_role("button", name="Log in").click()
    expect(page.get_by_test_id("nav-user")).to_be_visible()
