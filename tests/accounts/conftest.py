import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _clear_cache():
    """Login throttling counts live in the cache: start every test from zero."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """These tests log in many times; the hasher's strength is not what they test."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def password():
    return "tile-rack-47-okey"


@pytest.fixture
def make_user(django_user_model, password):
    def make(username="ayse", display_name="", language="en", **profile_fields):
        user = django_user_model.objects.create_user(username=username, password=password)
        profile = user.profile
        profile.display_name = display_name
        profile.language = language
        for key, value in profile_fields.items():
            setattr(profile, key, value)
        profile.save()
        return user

    return make
