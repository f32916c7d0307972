"""Waiting on a condition instead of sleeping a fixed time (a process, or a page in the browser).

A test that waits for another process (a server starting, a row written by a sweeper)
polls for the condition it needs with ``wait_until`` and fails with what it waited for
when the time is up; the interval only spaces the polls, it never decides the outcome.
"""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_until(
    condition: Callable[[], T],
    what: str = "the condition",
    *,
    timeout: float = 10.0,
    interval: float = 0.05,
) -> T:
    """Call ``condition()`` until it returns something true, and return that value;
    after ``timeout`` seconds, fail the test (AssertionError) naming ``what``."""
    end = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(interval)


def wait_for_port(
    port: int,
    *,
    host: str = "127.0.0.1",
    timeout: float = 60.0,
    interval: float = 0.1,
    proc: subprocess.Popen | None = None,
) -> None:
    """Wait until ``host:port`` accepts a TCP connection (a server has started); fail at
    once if ``proc``, the server's process, exits first."""

    def accepting() -> bool:
        if proc is not None:
            assert proc.poll() is None, f"the server exited with {proc.returncode}"
        try:
            socket.create_connection((host, port), 1).close()
        except OSError:
            return False
        return True

    wait_until(
        accepting, f"{host}:{port} to accept connections", timeout=timeout, interval=interval
    )


# In the browser (Playwright ``page``) ----------------------------------------------------


def ws_open(page) -> None:
    """Wait until the table page's socket is open (the page's ``ws-open`` class)."""
    page.wait_for_function("() => document.body.classList.contains('ws-open')")


def wait_my_turn_or_end(page) -> bool:
    """Wait until it is the player's turn (True) or the hand is over (False)."""
    page.wait_for_function(
        """() => document.querySelector('#t-result.show') ||
            document.querySelector('[data-testid=status]').textContent.includes('Your turn')""",
        timeout=60_000,
    )
    return page.locator("#t-result.show").count() == 0


def wait_version_after(page, before: str) -> None:
    """Wait until the table's version (``#act-version``) is no longer ``before``."""
    page.wait_for_function(
        f"() => document.querySelector('#act-version').value !== '{before}'", timeout=20_000
    )
