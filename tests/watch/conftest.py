"""Fixtures of the live tables' tests: instant CPUs, predictable deals, no lobby wait."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client

from games.live import actions as table_actions
from games.models import Seat
from okeysite.asgi import application
from tests.games.conftest import _fast_cpus, fixed_seeds  # noqa: F401 (autouse fixtures)
from tests.support.accounts import logged_in, make_user

ORIGIN = (b"origin", b"http://testserver")


@pytest.fixture(autouse=True)
def _lobby_at_once(settings):
    """The lobby renders a change at once (its coalescing wait is tested on its own)."""
    settings.OKEY_LOBBY_COALESCE_S = 0


def person(name: str) -> tuple[User, Client]:
    """An account shown as ``name.title()`` and a client logged in as it."""
    user = make_user(name, name.title())
    return user, logged_in(user)


def cpu_table(user=None, *, public: bool = True, variant: str = "classic", guest_key: str = ""):
    """A table of one person (seat 0) and three CPUs, in play. The person counts as
    present from the start, as seats did before a seat nobody opened counted as away
    (games/live/actions/): these tests watch frames, and the one telling the table that
    the seat is back would come between."""
    table = table_actions.do_create_table(
        variant=variant,
        options={},
        seats=[table_actions.SeatSpec("me")] + [table_actions.SeatSpec("cpu", "easy")] * 3,
        user=user,
        guest_key=guest_key or ("" if user else "guest-w"),
        public=public,
    )
    Seat.objects.filter(table=table, is_cpu=False).update(away_since=None)
    return table


async def table_socket(code: str, client: Client | None = None) -> WebsocketCommunicator:
    """A table socket: a seat's when ``client`` holds one, else a watcher's."""
    headers = [ORIGIN]
    if client is not None:
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    comm = WebsocketCommunicator(application, f"/ws/t/{code}/", headers=headers)
    ok, _ = await comm.connect()
    assert ok
    return comm


async def lobby_socket(query: str = "") -> WebsocketCommunicator:
    comm = WebsocketCommunicator(application, f"/ws/lobby/{query}", headers=[ORIGIN])
    ok, _ = await comm.connect()
    assert ok
    return comm


async def frames(comm: WebsocketCommunicator, timeout: float = 0.3) -> list[str]:
    """Everything the socket was sent until it went quiet."""
    out = []
    while not await comm.receive_nothing(timeout=timeout):
        out.append(await comm.receive_from())
    return out


adb = sync_to_async
