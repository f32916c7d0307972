"""Password change and reset through the site's pages, and the email address they need."""

import importlib.util
import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from accounts import mail

pytestmark = pytest.mark.django_db

RESET = "accounts:password_reset"
NEW_PASSWORD = "fresh-felt-93-okey"


def without_csrf(html: str) -> str:
    """The page with its CSRF tokens blanked (they are masked anew on every render)."""
    html = re.sub(r'"X-CSRFToken": "[^"]+"', "", html)
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)


def reset_link(message) -> str:
    match = re.search(r"https?://[^/\s]+(/accounts/password/reset/[^\s]+/)", message.body)
    assert match, message.body
    return match.group(1)


# Links where a player looks for them ---------------------------------------------------


def test_login_page_links_to_the_reset(client):
    html = client.get(reverse("accounts:login")).content.decode()
    assert f'href="{reverse(RESET)}"' in html
    assert "Forgot your password?" in html


def test_profile_page_links_to_password_change(client, make_user):
    client.force_login(make_user())
    html = client.get(reverse("accounts:profile")).content.decode()
    assert f'href="{reverse("accounts:password_change")}"' in html
    assert "Change password" in html


# Change ----------------------------------------------------------------------------------


def test_password_change_needs_a_login(client):
    response = client.get(reverse("accounts:password_change"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


def test_password_change_end_to_end(client, make_user, password):
    user = make_user()
    client.force_login(user)
    page = client.get(reverse("accounts:password_change"))
    assert page.status_code == 200
    assert 'name="old_password"' in page.content.decode()

    wrong = client.post(
        reverse("accounts:password_change"),
        {"old_password": "nope", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert wrong.status_code == 200
    assert wrong.context["form"].has_error("old_password")

    response = client.post(
        reverse("accounts:password_change"),
        {"old_password": password, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
        follow=True,
    )
    assert response.redirect_chain[-1][0] == reverse("accounts:password_change_done")
    assert "Your password has been changed" in response.content.decode()
    # Still signed in on this browser; the new password works, the old one does not.
    assert response.wsgi_request.user == user
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    assert not user.check_password(password)


# Reset -----------------------------------------------------------------------------------


def test_reset_end_to_end(client, make_user, mailoutbox):
    user = make_user()
    user.email = "ayse@example.org"
    user.save()

    page = client.get(reverse(RESET))
    assert page.status_code == 200
    assert 'name="email"' in page.content.decode()

    response = client.post(reverse(RESET), {"email": "AYSE@example.org"}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("accounts:password_reset_done")
    assert "Check your email" in response.content.decode()
    assert len(mailoutbox) == 1
    message = mailoutbox[0]
    assert message.to == ["ayse@example.org"]
    assert "Okey online" in message.subject
    assert "ayse" in message.body  # the username, in case it was forgotten too

    link = reset_link(message)
    form_page = client.get(link, follow=True)  # Django swaps the token for a session key
    assert form_page.context["validlink"] is True
    set_url = form_page.redirect_chain[-1][0]
    done = client.post(
        set_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}, follow=True
    )
    assert done.redirect_chain[-1][0] == reverse("accounts:password_reset_complete")
    assert "Your new password is set" in done.content.decode()

    login = client.post(reverse("accounts:login"), {"username": "ayse", "password": NEW_PASSWORD})
    assert login.status_code == 302

    # The link works once.
    client.logout()
    again = client.get(link, follow=True)
    assert again.context["validlink"] is False
    assert "This link does not work" in again.content.decode()


def test_reset_does_not_reveal_whether_the_address_exists(client, make_user, mailoutbox):
    user = make_user()
    user.email = "ayse@example.org"
    user.save()
    known = client.post(reverse(RESET), {"email": "ayse@example.org"}, follow=True)
    unknown = client.post(reverse(RESET), {"email": "nobody@example.org"}, follow=True)
    assert len(mailoutbox) == 1
    assert known.status_code == unknown.status_code == 200
    assert known.redirect_chain == unknown.redirect_chain
    assert without_csrf(known.content.decode()) == without_csrf(unknown.content.decode())


def test_reset_mail_is_in_the_readers_language(client, make_user, mailoutbox, monkeypatch):
    """The mail is written in the account's language, not the requesting browser's."""
    from django.template import loader
    from django.utils import translation

    languages = []
    render = loader.render_to_string

    def recording_render(name, context=None, *args, **kwargs):
        if name.startswith("accounts/password_reset_"):
            languages.append((name, translation.get_language()))
        return render(name, context, *args, **kwargs)

    monkeypatch.setattr(loader, "render_to_string", recording_render)
    user = make_user(language="tr")
    user.email = "ayse@example.org"
    user.save()
    client.cookies["django_language"] = "de"
    response = client.post(reverse(RESET), {"email": "ayse@example.org"}, follow=True)
    assert '<html lang="de"' in response.content.decode()  # the page: the browser's
    assert languages == [
        ("accounts/password_reset_subject.txt", "tr"),
        ("accounts/password_reset_email.txt", "tr"),
    ]
    assert len(mailoutbox) == 1


def test_reset_requests_per_ip_are_limited(client, make_user, mailoutbox):
    user = make_user()
    user.email = "ayse@example.org"
    user.save()
    for n in range(5):
        target = "ayse@example.org" if n == 0 else f"x{n}@example.org"
        assert client.post(reverse(RESET), {"email": target}).status_code == 302
    response = client.post(reverse(RESET), {"email": "ayse@example.org"})
    assert response.status_code == 429
    assert "Too many password reset requests" in response.content.decode()
    assert len(mailoutbox) == 1  # the refused request sent nothing
    other_ip = client.post(reverse(RESET), {"email": "ayse@example.org"}, REMOTE_ADDR="10.5.5.5")
    assert other_ip.status_code == 302
    assert len(mailoutbox) == 2


def test_background_delivery_sends_from_a_thread(settings, monkeypatch):
    settings.EMAIL_SEND_IN_BACKGROUND = True
    started = []

    class FakeThread:
        def __init__(self, target, args, daemon):
            started.append((target, args, daemon))

        def start(self):
            target, args, _daemon = started[-1]
            target(*args)

    monkeypatch.setattr(mail.threading, "Thread", FakeThread)
    sent = []

    class Message:
        subject = "s"

        def send(self):
            sent.append(self)

    mail.deliver(Message())
    assert len(started) == 1 and started[0][2] is True
    assert len(sent) == 1


def test_a_failing_backend_does_not_break_the_page(client, make_user, settings, caplog):
    settings.EMAIL_BACKEND = "tests.accounts.test_password.BrokenBackend"
    user = make_user()
    user.email = "ayse@example.org"
    user.save()
    response = client.post(reverse(RESET), {"email": "ayse@example.org"})
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:password_reset_done")
    assert "Failed to send mail" in caplog.text


class BrokenBackend:
    def __init__(self, *args, **kwargs):
        pass

    def send_messages(self, messages):
        raise OSError("mail server down")


# Email address on sign-up and in the profile ---------------------------------------------


def test_signup_takes_an_optional_email(client, password):
    data = {
        "username": "mehmet",
        "display_name": "Mehmet",
        "password1": password,
        "password2": password,
    }
    assert client.post(reverse("accounts:signup"), data).status_code == 302
    assert get_user_model().objects.get(username="mehmet").email == ""
    client.logout()
    data.update(username="deniz", email="deniz@example.org")
    assert client.post(reverse("accounts:signup"), data).status_code == 302
    assert get_user_model().objects.get(username="deniz").email == "deniz@example.org"


def test_signup_refuses_a_malformed_email(client, password):
    response = client.post(
        reverse("accounts:signup"),
        {
            "username": "mehmet",
            "display_name": "Mehmet",
            "email": "not-an-address",
            "password1": password,
            "password2": password,
        },
    )
    assert response.status_code == 200
    assert response.context["form"].has_error("email")


def test_profile_sets_and_clears_the_email(client, make_user, password):
    user = make_user()
    client.force_login(user)
    client.post(
        reverse("accounts:profile"),
        {
            "display_name": "A",
            "language": "en",
            "email": "ayse@example.org",
            "current_password": password,
        },
    )
    user.refresh_from_db()
    assert user.email == "ayse@example.org"
    page = client.get(reverse("accounts:profile"))
    assert page.context["form"].initial["email"] == "ayse@example.org"
    # Other changes need no password while the email stays as it is.
    client.post(
        reverse("accounts:profile"),
        {"display_name": "B", "language": "en", "email": "ayse@example.org"},
    )
    user.refresh_from_db()
    assert user.profile.display_name == "B"
    client.post(
        reverse("accounts:profile"),
        {"display_name": "B", "language": "en", "email": "", "current_password": password},
    )
    user.refresh_from_db()
    assert user.email == ""


@pytest.mark.parametrize(
    ("typed", "expected"),
    [("", "Enter your current password"), ("wrong", "entered incorrectly")],
)
def test_changing_the_email_needs_the_current_password(client, make_user, typed, expected):
    """A borrowed signed-in browser cannot redirect the reset links elsewhere."""
    user = make_user(display_name="Ayşe")
    user.email = "ayse@example.org"
    user.save()
    client.force_login(user)
    response = client.post(
        reverse("accounts:profile"),
        {
            "display_name": "Mallory",
            "language": "en",
            "email": "mallory@example.org",
            "current_password": typed,
        },
    )
    assert response.status_code == 200
    assert expected in response.content.decode()
    user.refresh_from_db()
    assert user.email == "ayse@example.org"
    assert user.profile.display_name == "Ayşe"  # nothing of the form was saved


def test_wrong_current_passwords_count_as_failed_log_ins(client, make_user, password):
    user = make_user()
    client.force_login(user)
    data = {"display_name": "A", "language": "en", "email": "m@example.org"}
    for _ in range(5):
        client.post(reverse("accounts:profile"), {**data, "current_password": "wrong"})
    response = client.post(reverse("accounts:profile"), {**data, "current_password": password})
    assert "Too many failed attempts" in response.content.decode()
    user.refresh_from_db()
    assert user.email == ""


# Settings --------------------------------------------------------------------------------

EMAIL_VARS = (
    "EMAIL_HOST",
    "EMAIL_PORT",
    "EMAIL_HOST_USER",
    "EMAIL_HOST_PASSWORD",
    "EMAIL_USE_TLS",
    "EMAIL_FILE_PATH",
    "DEFAULT_FROM_EMAIL",
    "EMAIL_SEND_IN_BACKGROUND",
    "TRUSTED_PROXIES",
)


def load_settings(monkeypatch, **env):
    for key in EMAIL_VARS:
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    spec = importlib.util.find_spec("okeysite.settings")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_email_goes_to_the_console_by_default(monkeypatch):
    s = load_settings(monkeypatch)
    assert s.EMAIL_BACKEND == "django.core.mail.backends.console.EmailBackend"
    assert s.EMAIL_SEND_IN_BACKGROUND is False
    assert s.TRUSTED_PROXIES == 0


def test_email_goes_to_files_when_a_path_is_set(monkeypatch, tmp_path):
    s = load_settings(monkeypatch, EMAIL_FILE_PATH=str(tmp_path))
    assert s.EMAIL_BACKEND == "django.core.mail.backends.filebased.EmailBackend"
    assert str(tmp_path) == s.EMAIL_FILE_PATH


def test_email_goes_over_smtp_when_the_environment_asks(monkeypatch):
    s = load_settings(
        monkeypatch,
        EMAIL_HOST="smtp.example.org",
        EMAIL_PORT="2525",
        EMAIL_HOST_USER="okey",
        EMAIL_HOST_PASSWORD="pw",
        EMAIL_USE_TLS="0",
        DEFAULT_FROM_EMAIL="Okey <okey@example.org>",
        TRUSTED_PROXIES="1",
    )
    assert s.EMAIL_BACKEND == "django.core.mail.backends.smtp.EmailBackend"
    assert (s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_HOST_USER) == ("smtp.example.org", 2525, "okey")
    assert s.EMAIL_HOST_PASSWORD == "pw"
    assert s.EMAIL_USE_TLS is False
    assert s.DEFAULT_FROM_EMAIL == "Okey <okey@example.org>"
    assert s.EMAIL_SEND_IN_BACKGROUND is True
    assert s.TRUSTED_PROXIES == 1


def test_a_reset_lifts_the_lock_on_that_username(client, make_user, mailoutbox, password):
    user = make_user()
    user.email = "ayse@example.org"
    user.save()
    for _ in range(5):
        client.post(reverse("accounts:login"), {"username": "ayse", "password": "wrong"})
    locked = client.post(reverse("accounts:login"), {"username": "ayse", "password": password})
    assert locked.status_code == 429

    client.post(reverse(RESET), {"email": "ayse@example.org"})
    form_page = client.get(reset_link(mailoutbox[0]), follow=True)
    client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    login = client.post(reverse("accounts:login"), {"username": "ayse", "password": NEW_PASSWORD})
    assert login.status_code == 302
