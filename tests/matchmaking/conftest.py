import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _fresh_throttles():
    """The press counts (accounts/throttle.py) live in the cache; a test's accounts may
    reuse an earlier test's ids."""
    cache.clear()
    yield
    cache.clear()


def press(user, variant: str):
    """ "Play now" and the table page it leads to, opened: a seat taken by a press counts
    as away until its page connects (games/live/actions/, do_join_table), and quick match
    passes over a table where everyone is away. Tests of presence itself call
    ``quick.do_quick_match`` and open and close the page themselves."""
    from games.live import actions as table_actions
    from games.matchmaking import actions as quick

    match = quick.do_quick_match(user, variant)
    table_actions.do_set_presence(match.seat.pk, True, channel=f"page-{match.seat.pk}")
    return match
