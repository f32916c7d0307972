import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_login_page_renders(client):
    response = client.get(reverse("accounts:login"))
    assert response.status_code == 200
    assert b'name="username"' in response.content
    assert b'name="password"' in response.content


def test_login_and_logout(client, make_user, password):
    user = make_user(display_name="Ayşe")
    response = client.post(reverse("accounts:login"), {"username": "ayse", "password": password})
    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    home = client.get(reverse("home"))
    assert home.wsgi_request.user == user
    assert "Ayşe" in home.content.decode()

    # Log out is POST only (CSRF-protected form in the nav).
    assert client.get(reverse("accounts:logout")).status_code == 405
    response = client.post(reverse("accounts:logout"))
    assert response.status_code == 302
    home = client.get(reverse("home"))
    assert not home.wsgi_request.user.is_authenticated
    assert "Ayşe" not in home.content.decode()


def test_login_with_wrong_password_fails(client, make_user, password):
    make_user()
    response = client.post(
        reverse("accounts:login"), {"username": "ayse", "password": password + "!"}
    )
    assert response.status_code == 200
    assert not response.wsgi_request.user.is_authenticated
    assert response.context["form"].non_field_errors()


def test_login_sets_the_profile_language(client, make_user, password):
    make_user(language="tr")
    response = client.post(reverse("accounts:login"), {"username": "ayse", "password": password})
    assert response.cookies["django_language"].value == "tr"
    home = client.get(reverse("home"))
    assert '<html lang="tr"' in home.content.decode()


def test_login_honours_next(client, make_user, password):
    make_user()
    response = client.post(
        reverse("accounts:login") + "?next=/accounts/profile/",
        {"username": "ayse", "password": password, "next": "/accounts/profile/"},
    )
    assert response["Location"] == "/accounts/profile/"


def test_logged_in_user_visiting_login_is_redirected(client, make_user):
    user = make_user()
    client.force_login(user)
    response = client.get(reverse("accounts:login"))
    assert response.status_code == 302
