import pytest
from django.urls import reverse

from accounts.models import Profile

pytestmark = pytest.mark.django_db


def test_profile_requires_login(client):
    response = client.get(reverse("accounts:profile"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


def test_profile_page_shows_current_values(client, make_user):
    client.force_login(make_user(display_name="Ayşe", language="es"))
    response = client.get(reverse("accounts:profile"))
    assert response.status_code == 200
    form = response.context["form"]
    assert form.initial["display_name"] == "Ayşe"
    assert form.initial["language"] == "es"


def test_profile_edit_saves_and_switches_language(client, make_user):
    user = make_user(display_name="Ayşe")
    client.force_login(user)
    response = client.post(
        reverse("accounts:profile"),
        {
            "display_name": "Ayşe K.",
            "language": "tr",
            "assisted_default": "on",
            "public_records": "on",
        },
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:profile")
    assert response.cookies["django_language"].value == "tr"

    profile = Profile.objects.get(user=user)
    assert profile.display_name == "Ayşe K."
    assert profile.language == "tr"
    assert profile.assisted_default is True
    assert profile.public_records is True

    page = client.get(reverse("accounts:profile"))
    assert '<html lang="tr"' in page.content.decode()


def test_profile_edit_can_clear_opt_ins(client, make_user):
    user = make_user(assisted_default=True, public_records=True)
    client.force_login(user)
    client.post(reverse("accounts:profile"), {"display_name": "A", "language": "en"})
    profile = Profile.objects.get(user=user)
    assert profile.assisted_default is False
    assert profile.public_records is False


def test_profile_edit_rejects_unknown_language(client, make_user):
    user = make_user()
    client.force_login(user)
    response = client.post(reverse("accounts:profile"), {"display_name": "A", "language": "xx"})
    assert response.status_code == 200
    assert response.context["form"].errors["language"]
    assert Profile.objects.get(user=user).language == "en"


def test_language_switch_also_updates_the_signed_in_players_profile(client, django_user_model):
    user = django_user_model.objects.create_user("polyglot", password="pw-Poly-123")
    client.force_login(user)
    r = client.post("/i18n/setlang/", {"language": "tr", "next": "/"})
    assert r.status_code == 302
    user.profile.refresh_from_db()
    assert user.profile.language == "tr"
    assert r.cookies["django_language"].value == "tr"
    client.post("/i18n/setlang/", {"language": "xx", "next": "/"})  # unknown: ignored
    user.profile.refresh_from_db()
    assert user.profile.language == "tr"
