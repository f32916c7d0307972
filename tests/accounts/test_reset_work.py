"""A password-reset request does the same work for a known and an unknown address: the
address is looked up, and the mail written and sent, only after the answer has been
sent (accounts/views.py ``PasswordResetView``; docs/security.md "Password reset")."""

from __future__ import annotations

import sys

import pytest
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.sessions.middleware import SessionMiddleware
from django.urls import reverse

from accounts.views import PasswordResetView

pytestmark = pytest.mark.django_db


def ask(rf, email: str):
    """The reset view's answer to a request for ``email``, as the server has it before
    it closes the response, and the functions (file, name) called to make it."""
    request = rf.post(reverse("accounts:password_reset"), {"email": email})
    request._dont_enforce_csrf_checks = True
    SessionMiddleware(lambda r: None).process_request(request)
    calls: list[tuple[str, str]] = []

    def spy(frame, event, arg):
        if event == "call":
            calls.append((frame.f_code.co_filename, frame.f_code.co_name))

    sys.setprofile(spy)
    try:
        response = PasswordResetView.as_view()(request)
    finally:
        sys.setprofile(None)
    return response, calls


def test_a_known_and_an_unknown_address_take_the_same_code_path(rf, make_user, mailoutbox):
    user = make_user()
    user.email = "ayse@example.org"
    user.save()
    ask(rf, "warm-up@example.org")  # templates and caches loaded once

    known, known_calls = ask(rf, "ayse@example.org")
    unknown, unknown_calls = ask(rf, "nobody@example.org")

    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"] == reverse("accounts:password_reset_done")
    assert known_calls == unknown_calls  # the very same calls, in the same order
    names = {name for _file, name in known_calls}
    assert "get_users" not in names and "make_token" not in names and "send_mail" not in names
    assert mailoutbox == []

    known.close()  # the server has sent the answer: now the mail goes out
    unknown.close()
    assert [m.to for m in mailoutbox] == [["ayse@example.org"]]


def test_the_address_is_looked_up_after_the_answer(rf, make_user, mailoutbox, monkeypatch):
    looked_up: list[str] = []
    real = PasswordResetForm.get_users

    def get_users(self, email):
        looked_up.append(email)
        return real(self, email)

    monkeypatch.setattr(PasswordResetForm, "get_users", get_users)
    response, _calls = ask(rf, "nobody@example.org")
    assert looked_up == []
    response.close()
    assert looked_up == ["nobody@example.org"]
    assert mailoutbox == []
