import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from accounts.models import Profile

pytestmark = pytest.mark.django_db


def signup_data(password, **overrides):
    data = {
        "username": "mehmet",
        "display_name": "Mehmet the Bold",
        "password1": password,
        "password2": password,
    }
    data.update(overrides)
    return data


def test_signup_page_renders(client):
    response = client.get(reverse("accounts:signup"))
    assert response.status_code == 200
    assert b'name="display_name"' in response.content
    assert b"csrfmiddlewaretoken" in response.content


def test_signup_creates_user_profile_and_logs_in(client, password):
    response = client.post(reverse("accounts:signup"), signup_data(password))
    assert response.status_code == 302
    assert response["Location"] == reverse("home")

    user = get_user_model().objects.get(username="mehmet")
    profile = Profile.objects.get(user=user)
    assert profile.display_name == "Mehmet the Bold"
    assert profile.language == "en"
    assert profile.assisted_default is False
    assert profile.public_records is False

    home = client.get(reverse("home"))
    assert home.wsgi_request.user == user
    assert b"Mehmet the Bold" in home.content
    assert b'data-testid="nav-user"' in home.content


def test_signup_uses_the_current_language(client, password):
    response = client.post(
        reverse("accounts:signup"), signup_data(password), HTTP_ACCEPT_LANGUAGE="de"
    )
    assert response.status_code == 302
    assert Profile.objects.get(user__username="mehmet").language == "de"
    assert response.cookies["django_language"].value == "de"


def test_signup_rejects_mismatched_passwords(client, password):
    response = client.post(
        reverse("accounts:signup"), signup_data(password, password2=password + "x")
    )
    assert response.status_code == 200
    assert not get_user_model().objects.filter(username="mehmet").exists()


def test_signup_requires_display_name(client, password):
    response = client.post(reverse("accounts:signup"), signup_data(password, display_name=""))
    assert response.status_code == 200
    assert response.context["form"].errors["display_name"]


def test_signup_redirects_to_safe_next_only(client, password):
    ok = client.post(reverse("accounts:signup"), signup_data(password, next="/rules/"))
    assert ok["Location"] == "/rules/"
    client.logout()
    evil = client.post(
        reverse("accounts:signup"),
        signup_data(password, username="other", next="https://evil.example/"),
    )
    assert evil["Location"] == reverse("home")


def test_every_user_gets_a_profile(django_user_model):
    user = django_user_model.objects.create_user(username="cpu-free", password="x")
    assert user.profile.display_name == ""
    assert user.profile.name == "cpu-free"
    assert str(user.profile) == "cpu-free"
