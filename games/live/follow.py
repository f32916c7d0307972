"""Following a seat: what a watcher sees of the seat they sit behind.

A watcher (a table socket without a seat) may pick one seat to follow from the
outcome dialog. The choice is kept for that socket only (a reload forgets it; it is
not stored and changes nothing at the table), and it takes effect only while no
hand is in play: once a hand is over, the outcome dialog shows the followed seat's
rack of that finished hand and its points, read from the engine's spectator view,
which reveals every rack and the seed when the hand is over (``view_for``, RULES.md
"Information": nothing is hidden after the hand). While a hand is played a
follower's frames are the spectator's exactly, whatever seat is followed: this
module leaves the context untouched then (``tests/watch/test_follow.py`` checks
every frame of a whole hand). The hand's replay (``/review/hand/<id>/``) stays for
its players and share links, as for any visitor: a watcher gets no review link.
"""

from __future__ import annotations

from typing import Any

from games.live.presenter import tile_ctx


def follow_context(ctx: dict[str, Any], follow: int | None) -> dict[str, Any]:
    """Add the follow choices (and the followed seat's finished rack) to a watcher's
    table context when the hand is over; return the context unchanged otherwise."""
    view = ctx.get("view")
    revealed = ctx.get("revealed")
    if ctx.get("seat") is not None or view is None or not view["over"] or not revealed:
        return ctx
    players = ctx["players"]
    if follow is not None and not 0 <= follow < len(players):
        follow = None
    ctx["follow_key"] = follow
    ctx["follow_choices"] = [
        {"position": p["position"], "name": p["name"], "on": p["position"] == follow}
        for p in players
    ]
    ctx["followed"] = None
    racks = revealed.get("racks") or []
    if follow is not None and follow < len(racks):
        variant = ctx["table"].variant
        ctx["followed"] = {
            "position": follow,
            "name": next(p["name"] for p in players if p["position"] == follow),
            "rack": [tile_ctx(t, variant) for t in racks[follow]],
            "points": sum(
                line["points"] for line in ctx.get("hand_lines") or () if line["seat"] == follow
            ),
            "total": next(p["total"] for p in players if p["position"] == follow),
        }
    return ctx
