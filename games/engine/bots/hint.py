""" "Show me": the recommended action for a seat, with a one-line reason.

``hint(state, seat)`` asks the expert CPU (``expert.evaluate``, which decides from
the seat's view and legal actions only) and returns its choice with a stable reason
code plus the facts the sentence needs; the web layer words it in the player's
language (``games.live.messages.hint_text``).
"""

from __future__ import annotations

from typing import Any

from ..actions import apply, legal_actions
from ..state import HandState
from ..tiles import kind_notation, notation
from ..view import view_for
from .expert import evaluate


def _finish_points(state: HandState, seat: int, action: dict) -> int | None:
    """What the finish ``action`` is worth to ``seat``, if it ends the hand with
    ``seat`` finishing: in whole-rack rule sets the seat's edge over each other
    player (fixed by the rules: every loser pays the same), in lay-down ones the
    seat's own line (its finishing bonus; the others' penalties depend on racks it
    cannot see, so they are left out). Signed so that more is better for the seat."""
    try:
        after, _events = apply(state, action)
    except Exception:  # noqa: BLE001 - a hint never fails because of its wording
        return None
    if not after.over or (after.result or {}).get("finisher") != seat:
        return None
    totals = after.hand_totals()
    sign = 1 if state.rules.higher_wins else -1
    if state.rules.whole_rack:
        others = [t for s, t in enumerate(totals) if s != seat]
        return round(sign * (totals[seat] - sum(others) / max(1, len(others))))
    return sign * totals[seat]


def hint(state: HandState, seat: int) -> dict[str, Any]:
    """``{"action": {...}, "reason": code, "detail": {...}, "tiles": [ids to highlight],
    "meld": id of the table meld an add or swap goes to, else None}`` (the detail of an add
    or swap also holds ``meld``: that meld's tiles in notation, and its ``owner``).

    Reason codes (``expert.Option``): finish (``tile``, ``points``), okey_close,
    show, open_now (``total``, ``need``), lay, add, swap, undo, take_fits, draw,
    keeps_useful (``useful``, ``instead``), discard_safe (``avoid``: the tile kept
    back, which the next player collects: what it took, the view's public ``took``
    log), discard_guard (``avoid``: the tile kept back from a next player who may be
    one tile from closing; no longer given, worded for stored analyses), okey_wait
    (the winning rack kept for the okey close),
    opening_nearer and opening_unfed (``avoid``: hard's discard, farther from an opening
    or likelier to carry an unopened next player's opening: ``expert_lay``), melds_kept
    (fifty-one, opened: the new melds stay in the rack, ``expert_lay``),
    discard_loose (``leftover``)."""
    view = view_for(state, seat)
    legal = legal_actions(state, seat)
    best = evaluate(view, legal)[0]
    action = best.action
    reason = best.reason
    detail: dict[str, Any] = dict(best.detail)
    detail.pop("feeds", None)
    kind = action["type"]
    tiles: list[int] = []
    if kind in ("open", "lay"):
        tiles = [t for m in action.get("melds") or [] for t in m]
        detail["melds"] = len(action.get("melds") or [])
    elif kind == "take":
        if state.takeable is not None:
            tiles = [state.takeable]
            detail["tile"] = notation(state.takeable)
    elif "tile" in action:
        tiles = [action["tile"]]
        detail.setdefault("tile", notation(action["tile"]))
    meld = None
    if kind in ("add", "swap") and action.get("meld") is not None:
        # the meld the tile goes to, named so that the player finds it: its id (the table
        # marks it) and its tiles in table order (the sentence names them)
        target = next((m for m in state.melds if m.id == action["meld"]), None)
        if target is not None:
            meld = target.id
            detail["meld"] = " ".join(kind_notation(k) for k in target.plays)
            detail["owner"] = target.owner
    if kind in ("close", "discard", "add"):
        points = _finish_points(state, seat, action)
        if points is not None and reason != "okey_close":
            reason = "finish"
            detail["points"] = points
        elif points is not None:
            detail["points"] = points
    return {"action": action, "reason": reason, "detail": detail, "tiles": tiles, "meld": meld}
