import pytest
from django.core.cache import cache

from tests.support import accounts


@pytest.fixture(autouse=True)
def _clear_cache():
    """Login throttling counts live in the cache: start every test from zero."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def password():
    return "tile-rack-47-okey"


@pytest.fixture
def make_user(password):
    """``make_user(username="ayse", display_name="", language="en", **profile_fields)``: an
    account with the ``password`` fixture's password (tests/support/accounts.py)."""

    def make(username="ayse", display_name="", language="en", **profile_fields):
        return accounts.make_user(
            username,
            password=password,
            display_name=display_name,
            language=language,
            **profile_fields,
        )

    return make
