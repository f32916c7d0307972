"""The suite's own set-up (tests/conftest.py): tests keep working whatever ran before
them in the same process, as they must with pytest-xdist, which hands any test to any
worker in any order."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.support.servers import ROOT, free_port
from tests.support.waits import wait_for_port, wait_until

INNER_CONFTEST = '''
import asyncio

import pytest

from tests.conftest import _hide_playwright_loop  # noqa: F401 (the fixture under test)


@pytest.fixture(scope="session")
def playwright():
    """Stands in for pytest-playwright's: its sync API leaves its loop running on the
    main thread for the whole session."""
    loop = asyncio.new_event_loop()
    asyncio.events._set_running_loop(loop)
    yield loop
    asyncio.events._set_running_loop(None)
    loop.close()
'''

INNER_TESTS = """
import asyncio

import pytest
from asgiref.sync import async_to_sync


def test_a_browser_test(playwright):
    assert asyncio.events._get_running_loop() is playwright


@pytest.mark.asyncio
async def test_an_asyncio_test_after_it():
    assert await asyncio.sleep(0, "slept") == "slept"


def test_async_to_sync_after_it():
    async def double(n):
        return 2 * n

    assert async_to_sync(double)(21) == 42


def test_asyncio_run_after_it():
    assert asyncio.run(asyncio.sleep(0, "ran")) == "ran"


def test_another_browser_test_still_has_its_loop(playwright):
    assert asyncio.events._get_running_loop() is playwright
"""


def test_asyncio_tests_pass_after_a_browser_test_in_the_same_process(tmp_path: Path) -> None:
    (tmp_path / "pytest.ini").write_text(
        "[pytest]\nasyncio_mode = strict\nasyncio_default_fixture_loop_scope = function\n"
    )
    (tmp_path / "conftest.py").write_text(textwrap.dedent(INNER_CONFTEST))
    (tmp_path / "test_inner.py").write_text(textwrap.dedent(INNER_TESTS))
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env["PYTHONPATH"] = str(ROOT)
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:django",
            "-p",
            "no:playwright",
            "-p",
            "no:xdist",
            "-p",
            "no:cacheprovider",
            str(tmp_path),
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "5 passed" in result.stdout


MARKED_CONFTEST = '''
import pytest

from tests.conftest import pytest_collection_modifyitems  # noqa: F401 (the hook under test)


@pytest.fixture(scope="session")
def playwright():
    """Stands in for pytest-playwright's, which every browser fixture asks for."""


@pytest.fixture
def page(playwright):
    pass


@pytest.fixture(scope="session")
def daphne_server():
    pass


@pytest.fixture
def postgres():
    pass
'''

MARKED_TESTS = """
import pytest


def test_plain():
    pass


def test_in_a_browser(page):
    pass


def test_against_the_server(daphne_server):
    pass


def test_on_postgresql(postgres):
    pass


@pytest.mark.servers
def test_marked_by_hand():
    pass
"""


def _collected(tmp_path: Path, expression: str) -> list[str]:
    """The inner suite's test names that ``-m expression`` keeps."""
    (tmp_path / "pytest.ini").write_text(
        "[pytest]\nmarkers =\n    e2e: browser\n    servers: server processes\n"
    )
    (tmp_path / "conftest.py").write_text(textwrap.dedent(MARKED_CONFTEST))
    (tmp_path / "test_inner.py").write_text(textwrap.dedent(MARKED_TESTS))
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env["PYTHONPATH"] = str(ROOT)
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-m", expression]
        + ["-p", "no:django", "-p", "no:playwright", "-p", "no:xdist"]
        + ["-p", "no:cacheprovider", str(tmp_path)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode in (0, 5), result.stdout + result.stderr  # 5: none kept
    return sorted(line.split("::")[1] for line in result.stdout.splitlines() if "::" in line)


def test_the_fast_run_leaves_out_browser_and_server_tests_by_their_fixtures(tmp_path: Path):
    assert _collected(tmp_path, "not e2e and not servers") == ["test_plain"]


def test_browser_and_server_tests_are_marked_without_a_marker_of_their_own(tmp_path: Path):
    assert _collected(tmp_path, "e2e") == ["test_in_a_browser"]
    assert _collected(tmp_path, "servers") == [
        "test_against_the_server",
        "test_marked_by_hand",
        "test_on_postgresql",
    ]


def test_make_test_fast_installs_neither_the_browser_nor_the_servers() -> None:
    """``make test-fast`` (dry run): the fast markers, and none of the apt-get targets
    that ``make test`` needs for the browser and server tests."""
    result = subprocess.run(
        ["make", "-n", "test-fast"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert '-m "not e2e and not servers and not slow"' in result.stdout
    for package in ("chromium", "postgresql", "redis-server", "nginx"):
        assert package not in result.stdout, package


def test_wait_until_returns_the_first_true_answer() -> None:
    answers = iter([None, 0, [], "ready", "later"])
    assert wait_until(lambda: next(answers), interval=0) == "ready"


def test_wait_until_fails_naming_what_it_waited_for() -> None:
    with pytest.raises(AssertionError, match="timed out waiting for the sweeper"):
        wait_until(lambda: False, "the sweeper", timeout=0, interval=0)


def test_wait_for_port_returns_once_a_server_listens() -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        wait_for_port(server.getsockname()[1], timeout=5)


def test_wait_for_port_fails_at_once_when_the_server_exited() -> None:
    dead = subprocess.Popen([sys.executable, "-c", "raise SystemExit(3)"])
    dead.wait(30)
    with pytest.raises(AssertionError, match="the server exited with 3"):
        wait_for_port(free_port(), proc=dead, timeout=30)
