"""Accounts in Chromium, served by daphne: sign up (the pattern for e2e tests), and a
forgotten password reset through the emailed link."""

import email
import email.message
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.support.waits import wait_until


@pytest.mark.e2e
def test_sign_up_in_the_browser_shows_display_name(page: Page, daphne_server: str):
    page.goto(f"{daphne_server}/")
    # The vendored front-end libraries are served and htmx is 2.x with the ws extension.
    page.wait_for_function("() => window.htmx && window.Sortable")
    assert page.evaluate("() => htmx.version").startswith("2.")
    expect(page.get_by_test_id("nav-user")).to_have_count(0)

    page.get_by_role("banner").get_by_role("link", name="Sign up").click()
    expect(page).to_have_url(re.compile(r"/accounts/signup/$"))

    page.get_by_label("Username").fill("e2e_player")
    page.get_by_label("Display name").fill("Tile Master")
    page.get_by_label("Password", exact=True).fill("green-felt-2024!")
    page.get_by_label("Password confirmation").fill("green-felt-2024!")
    page.locator("main").get_by_role("button", name="Sign up").click()

    expect(page).to_have_url(f"{daphne_server}/")
    expect(page.get_by_test_id("nav-user")).to_have_text("Tile Master")

    # Log out through the POST form in the nav.
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_test_id("nav-user")).to_have_count(0)
    expect(page.get_by_role("banner").get_by_role("link", name="Log in")).to_be_visible()


def mails_to(mail_dir: Path, address: str) -> list[email.message.Message]:
    """The messages the server wrote to ``mail_dir`` (Django's file backend) for ``address``."""
    found = []
    for path in sorted(mail_dir.glob("*.log")) if mail_dir.exists() else []:
        for chunk in path.read_bytes().split(b"-" * 79):
            if chunk.strip():
                message = email.message_from_bytes(chunk.strip(b"\n"))
                if message["To"] == address:
                    found.append(message)
    return found


@pytest.mark.e2e
def test_forgotten_password_is_reset_through_the_emailed_link(
    page: Page, daphne_server: str, e2e_env: dict[str, str]
):
    mail_dir = Path(e2e_env["EMAIL_FILE_PATH"])
    address = "reset-e2e@example.org"
    # An account with an email address (optional at sign-up).
    page.goto(f"{daphne_server}/accounts/signup/")
    page.get_by_label("Username").fill("reset_e2e")
    page.get_by_label("Display name").fill("Reset Player")
    page.get_by_label("Email address").fill(address)
    page.get_by_label("Password", exact=True).fill("first-felt-2024!")
    page.get_by_label("Password confirmation").fill("first-felt-2024!")
    page.locator("main").get_by_role("button", name="Sign up").click()
    expect(page.get_by_test_id("nav-user")).to_have_text("Reset Player")
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_test_id("nav-user")).to_have_count(0)

    # Forgot it: the log-in page links to the reset.
    page.goto(f"{daphne_server}/accounts/login/")
    page.get_by_role("link", name="Forgot your password?").click()
    expect(page.get_by_role("heading", name="Forgot your password?")).to_be_visible()
    assert mails_to(mail_dir, address) == []
    page.get_by_label("Email").fill(address)
    page.get_by_role("button", name="Send me a link").click()
    expect(page.get_by_role("heading", name="Check your email")).to_be_visible()

    # The mail is written after the answer is sent (so the answer's timing says nothing
    # about the address): wait for the file backend to write it.
    (message,) = wait_until(lambda: mails_to(mail_dir, address), "the reset mail")
    body = message.get_payload(decode=True).decode(message.get_content_charset() or "utf-8")
    link = re.search(r"http://\S+/accounts/password/reset/\S+/", body).group(0)
    assert link.startswith(daphne_server)

    page.goto(link)
    expect(page.get_by_role("heading", name="Choose a new password")).to_be_visible()
    page.get_by_label("New password", exact=True).fill("second-felt-2025!")
    page.get_by_label("New password confirmation").fill("second-felt-2025!")
    page.get_by_role("button", name="Set my password").click()
    expect(page.get_by_role("heading", name="Password set")).to_be_visible()

    page.locator("main").get_by_role("link", name="Log in").click()
    page.get_by_label("Username").fill("reset_e2e")
    page.get_by_label("Password").fill("second-felt-2025!")
    page.locator("main").get_by_role("button", name="Log in").click()
    expect(page.get_by_test_id("nav-user")).to_have_text("Reset Player")

    # The link worked once.
    page.goto(link)
    expect(page.get_by_test_id("reset-link-invalid")).to_be_visible()
