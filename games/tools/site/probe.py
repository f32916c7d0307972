"""SQL queries per accepted action, for ``manage.py loadbench`` (games/tools/site/load.py).

The servers' queries cannot be counted from outside their processes, so the bench
counts them in its own process, on the bench's database, along the very path a server
takes after a player's frame: ``table_actions.do_submit_action``, then the four seats'
frames rendered from the action's own read (``realtime.render_all`` with
``realtime.seats_read_with``), the snapshot cache primed by the action's commit.
"""

from __future__ import annotations

from typing import Any

from . import servers


def probe_queries(variant: str, actions: int = 40) -> dict[str, float]:
    """One table of four guests, up to ``actions`` draws and discards; the mean
    queries per action (BEGIN and COMMIT included) and per round of four frames.
    The table is abandoned afterwards (the servers never play it)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.live import actions as table_actions
    from games.live import consumers, realtime
    from games.models import Table

    table = table_actions.do_create_table(
        variant=variant,
        options={"players": 4},
        seats=[table_actions.SeatSpec("me")] + [table_actions.SeatSpec("human")] * 3,
        guest_key="probe-0",
    )
    for i in (1, 2, 3):
        table_actions.do_join_table(table.pk, guest_key=f"probe-{i}")
    table = Table.objects.get(pk=table.pk)
    members = []
    for seat in table.seats.all():
        member = consumers.TableConsumer()
        member.scope, member.table_id, member.seat_id = {}, table.pk, seat.pk
        member.position, member._lang = seat.position, "en"
        members.append(member)
    realtime.render_all(members, None, realtime.read_table(table.pk, None))  # first frames
    in_action = in_frames = done = 0
    for _ in range(actions):
        _hand, state, _game = realtime.snapshot(table)
        if state is None or state.over:
            break
        if state.phase == "draw":
            move: dict[str, Any] = {"type": "draw"}
        else:
            move = {"type": "discard", "tile": state.racks[state.turn][0]}
        with CaptureQueriesContext(connection) as q:
            table = table_actions.do_submit_action(table.pk, state.turn, move, table.version)
        in_action += len(q.captured_queries)
        with CaptureQueriesContext(connection) as q:
            realtime.render_all(members, None, realtime.seats_read_with(table))
        in_frames += len(q.captured_queries)
        done += 1
    servers.retire_tables([servers.TableSpec(table.pk, table.code, [])])
    return {
        "action": round(in_action / max(done, 1), 2),
        "frames": round(in_frames / max(done, 1), 2),
        "actions": done,
    }


def summary_lines(result: dict[str, Any]) -> list[str]:
    q = result.get("queries_per_action")
    if not q:
        return []
    return [
        f"  SQL queries per accepted action {q['action']} (BEGIN and COMMIT included)"
        f" + {q['frames']} for the four seats' frames (counted in the bench process"
        f" over {q['actions']} actions: games/tools/site/probe.py)"
    ]
