"""Inviting to a waiting table through the API (``POST /api/v1/tables/{code}/invite``).

- A person: the site has no per-person table invitation; the answer is the table's page,
  whose "Take a seat" seats whoever opens it first (``do_join_table``). Share it.
- A bot: today a CPU. The table's host fills every free seat with CPUs and the game starts
  (``do_fill_with_cpus``: CPUs at the medium level; levels are chosen per seat when the
  table is opened, ``others``).

The extension point for bot accounts: ``BOTS`` maps a bot kind to a function
``(table, caller's user, level) -> None`` that seats it. A bot account would be seated by
``do_join_table(table.pk, user=bot_account)``, its moves sent with its own token through
``POST /tables/{code}/actions`` like any player's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _

from games.api.errors import ApiError
from games.live import actions
from games.models import Table

# the level ``do_fill_with_cpus`` seats CPUs at
FILL_LEVEL = "medium"


def seat_cpus(table: Table, user: Any, level: str) -> None:
    if level != FILL_LEVEL:
        raise ApiError(
            400,
            "level_not_available",
            _(
                "A CPU invited to a waiting table plays at the medium level. Choose other levels"
                " for the CPU seats when you open the table."
            ),
        )
    actions.do_fill_with_cpus(table.pk, user=user)


BOTS: dict[str, Callable[[Table, Any, str], None]] = {"cpu": seat_cpus}
