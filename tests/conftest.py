"""Shared fixtures.

Browser (end-to-end) tests
--------------------------
Mark them ``@pytest.mark.e2e`` and use pytest-playwright's ``page`` fixture together with
``daphne_server`` (the base URL of the real ASGI app, HTTP + websockets)::

    @pytest.mark.e2e
    def test_something(page, daphne_server):
        page.goto(f"{daphne_server}/")
        expect(page.get_by_test_id("nav-user")).to_have_text("Ayşe")

``daphne_server`` is session-scoped: one daphne subprocess on a free 127.0.0.1 port, serving
as ``make run`` does (DEBUG off; static files collected into a temporary directory and served
by WhiteNoise), with its own migrated SQLite file database in a temporary directory
(``e2e_env`` holds the environment it runs with, so a test can start another process, e.g. a
sweeper, on the same database; override ``daphne_extra_env`` to add variables). The mail the
server sends is written to files in ``<E2E_TMP_DIR>/mail`` (Django's file backend).
Drive everything through the browser; e2e tests get ``DJANGO_ALLOW_ASYNC_UNSAFE=true`` in case
they must read the ORM, but the test process's ORM is pytest-django's test database, NOT the
server's. Playwright uses Debian's ``/usr/bin/chromium``.

Dates and time zones
--------------------
No test may depend on today's date or the machine's time zone: tests that care freeze or
travel with ``time_machine`` (or pass an injected ``at=`` / ``now``). To check that, run the
suite on another day: ``pytest --at 2027-01-01T00:00:30+00:00 -m "not e2e"`` starts the whole
run at that instant (the clock keeps ticking from there; ``time.monotonic`` is untouched).
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest
import time_machine

from tests.support import servers
from tests.support.servers import free_port, postgres, redis  # noqa: F401 (fixtures)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


# Time travel for the whole run --------------------------------------------------------


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--at",
        default="",
        help="run the whole suite as if it started at this ISO instant (e.g. 2028-02-29T23:59Z)",
    )


def pytest_configure(config: pytest.Config) -> None:
    at = config.getoption("--at", default="")
    if at:
        config._okey_travel = time_machine.travel(at, tick=True)  # type: ignore[attr-defined]
        config._okey_travel.start()  # type: ignore[attr-defined]


def pytest_unconfigure(config: pytest.Config) -> None:
    travel = getattr(config, "_okey_travel", None)
    if travel is not None:
        travel.stop()


# Markers ----------------------------------------------------------------------------
#
# ``e2e``: a real browser; ``servers``: server processes started by the test (daphne,
# PostgreSQL, Redis, nginx, ``manage.py serve``); ``slow``: long-running. ``make test-fast``
# leaves out the first two (docs/testing.md). A test is marked here by the fixtures it
# uses, so a new test needs no marker of its own; a test that starts its servers without
# one of these fixtures carries an explicit ``@pytest.mark.servers``.

# Every pytest-playwright fixture (``page``, ``context``, ``browser``...) asks for this one.
BROWSER_FIXTURES = frozenset({"playwright"})
# Fixtures that start server processes (tests/games/test_multiprocess.py defines the
# PostgreSQL and Redis ones, imported by the tests that share them).
SERVER_FIXTURES = frozenset({"daphne_server", "postgres", "redis"})


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by marker
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        used = set(getattr(item, "fixturenames", ()))
        if used & BROWSER_FIXTURES and item.get_closest_marker("e2e") is None:
            item.add_marker(pytest.mark.e2e)
        if used & SERVER_FIXTURES and item.get_closest_marker("servers") is None:
            item.add_marker(pytest.mark.servers)


# Playwright -------------------------------------------------------------------------


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Launch Debian's Chromium (``playwright install`` cannot download here)."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is missing (apt-get install -y chromium)")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """English pages and a laptop-sized viewport, whatever the machine's locale."""
    return {
        **browser_context_args,
        "locale": "en-US",
        "viewport": {"width": 1280, "height": 800},
    }


@pytest.fixture(autouse=True)
def _e2e_allow_async_unsafe(request, monkeypatch):
    """Playwright's sync API runs an event loop in the test thread; let e2e tests use the
    ORM anyway (Django would refuse with SynchronousOnlyOperation)."""
    if request.node.get_closest_marker("e2e"):
        monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(autouse=True)
def _fresh_page_cache(settings):
    """Each test starts with no rendered page fragments (games/common/pagecache.py): a test's
    database may reuse the ids of an earlier test's rows, and a key names rows by id.
    The heavy pages are not paced in the test process (a socket an earlier test left
    open would count as a live table); tests/review/test_pagecache_share.py sets
    ``OKEY_PAGE_SHARE`` to test the pacing."""
    from django.core.cache import caches

    caches["pages"].clear()
    settings.OKEY_PAGE_SHARE = 1
    yield


@pytest.fixture(autouse=True)
def _no_par_at_hand_end(settings):
    """A finished hand queues its pars in a background thread once its transaction
    commits (games/review/par.py); in the test process that thread would write to the
    test database behind the test's back. tests/review/test_par_site.py switches it on
    with its own runner; the browser tests' server computes pars as the site does. A par
    is computed in the test's thread, not in a worker process (one test uses the worker)."""
    settings.OKEY_PAR_AT_HAND_END = False
    settings.OKEY_PAR_PROCESS = False


@pytest.fixture(autouse=True)
def _site_language():
    """Each test starts and ends in the site's default language: a request through the test
    client activates the visitor's language in the test's thread (LocaleMiddleware), and a
    later test of the same process would otherwise render in it."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fresh_snapshot_cache():
    """Each test starts with no cached table state (``realtime.snapshot``, per process):
    an earlier test's table may have had the same id, version and (with a frozen clock)
    ``updated_at``, which is the cache's key."""
    realtime = sys.modules.get("games.live.realtime")
    if realtime is not None:
        realtime._SNAPSHOTS.clear()


@pytest.fixture(autouse=True)
def _hide_playwright_loop(request):
    """Playwright's sync API runs its event loop in a greenlet, so for as long as the
    session's browser lives that loop counts as *running* on the main thread. A test that
    comes after a browser test in the same process (with pytest-xdist any test may) would
    then be refused by ``asyncio.run``, pytest-asyncio ("Runner.run() cannot be called
    from a running event loop") and ``async_to_sync``. Outside the browser tests, hide
    that loop for the test (set-up, call, tear-down) and put it back afterwards."""
    if "playwright" in request.fixturenames:
        yield
        return
    foreign = asyncio.events._get_running_loop()
    asyncio.events._set_running_loop(None)
    try:
        yield
    finally:
        asyncio.events._set_running_loop(foreign)


# Static files -----------------------------------------------------------------------


@pytest.fixture(scope="session", autouse=True)
def _static_files_without_collectstatic():
    """Pages rendered in the test process name static files without a collectstatic run
    (production's manifest storage needs its manifest): plain names. The e2e server runs
    collectstatic and serves them as production does."""
    from django.test.utils import override_settings

    with override_settings(
        STORAGES={
            "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        }
    ):
        yield


@pytest.fixture(scope="session", autouse=True)
def _fast_password_hasher():
    """Passwords in the test process are hashed with MD5: production's PBKDF2 costs about
    a quarter of a second of CPU per hash (each account made, each ``login``), which no test
    here is about. The e2e server hashes as production does."""
    from django.test.utils import override_settings

    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


# The real server --------------------------------------------------------------------
#
# tests/support/servers.py starts and waits for server processes (``ROOT``, ``free_port``,
# the server's environment); the fixtures below are built from it.


@pytest.fixture(scope="session")
def daphne_extra_env() -> dict[str, str]:
    """Extra environment variables for the e2e server (and its migrate run). Override this
    session fixture in a conftest.py to set e.g. ``OKEY_CPU_DELAY_MS``."""
    return {}


@pytest.fixture(scope="session")
def e2e_env(tmp_path_factory, daphne_extra_env) -> dict[str, str]:
    """Environment of the e2e server: its own migrated SQLite file database."""
    tmp_dir = tmp_path_factory.mktemp("e2e-server")
    env = servers.server_env(tmp_dir)
    env.update(daphne_extra_env)
    env["E2E_TMP_DIR"] = str(tmp_dir)
    servers.prepare(env)
    return env


@pytest.fixture(scope="session")
def daphne_server(e2e_env):
    """Start daphne (okeysite.asgi:application) on a free port; yield its base URL."""
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    log_path = Path(e2e_env["E2E_TMP_DIR"]) / "daphne.log"
    proc = servers.serve(e2e_env, port, log_path)
    try:
        servers.wait_for_http(f"{base_url}/", proc=proc, log_path=log_path)
        yield base_url
    finally:
        servers.stop(proc)
