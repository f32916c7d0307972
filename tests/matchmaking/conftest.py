import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _fresh_throttles():
    """The press counts (accounts/throttle.py) live in the cache; a test's accounts may
    reuse an earlier test's ids."""
    cache.clear()
    yield
    cache.clear()
