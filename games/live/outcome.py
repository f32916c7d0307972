"""What the outcome dialog and the running score table show, from the engine only.

When a hand ends the table shows a dialog that names the hand's winner (or says the
hand is drawn and why), the finishing rack, this hand's score lines grouped by player
with plain-language reasons, the running totals and which way the totals win in this
rule set (games/engine/RULES.md §2-§5: classic and rummy are won by the highest total,
fifty-one and seventeen by the lowest; ``Rules.higher_wins``). At the end of the game
it names the game's winner and every place. During play the same kind of dialog shows
the totals so far, hand by hand.

Everything here is read from the seat's engine view (``view_for``: the racks and the
seed are public once the hand is over) and from the game's recorded hands
(``Game.hands``, ``Game.totals``, ``Game.winners``); nothing decides a rule.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext, gettext_lazy, ngettext_lazy
from django.utils.translation import gettext as _

from games.engine import rulebase
from games.engine.game import Game
from games.engine.rules import rules_for
from games.engine.tiles import notation
from games.live import messages

TileCtx = Callable[[dict[str, Any]], dict[str, Any]]


def direction_text(variant: str) -> str:
    """Which way the totals win in this rule set (``Rules.higher_wins``)."""
    if rules_for(variant).higher_wins:
        return _("The highest total wins.")
    return _("The lowest total wins.")


def hand_winners(variant: str, options: dict[str, Any], result: dict[str, Any]) -> list[int]:
    """The seats that won the hand: the finisher (a rummy show that reached the target:
    the shower), with a fifty-one partner in 2v2 [D14]; none when the hand is drawn."""
    seat = result.get("finisher")
    if seat is None:
        seat = (result.get("detail") or {}).get("shower")
    if seat is None:
        return []
    teams = rules_for(variant).teams(options)
    if teams is not None:
        return next((sorted(team) for team in teams if seat in team), [seat])
    return [seat]


def names_text(seats: list[int], names: dict[int, str]) -> str:
    return ", ".join(names.get(s, "") for s in seats)


# The words of the engine's score-line explanations (``Rules.explain_line``: the msgids
# are rulebase's ``WHY_*``), translated here; a plural form counts the parameter named
# last. A msgid missing here is a rule set's own (marked ``gettext_noop`` in its module).
WHY: dict[str, Any] = {
    rulebase.WHY_BY: gettext_lazy("by %(name)s"),
    rulebase.WHY_PARTNER_FINISHED: gettext_lazy("%(name)s finished"),
    rulebase.WHY_TILES_LEFT_WORTH: ngettext_lazy(
        "%(tiles)s tile left worth %(sum)s, × %(m)s",
        "%(tiles)s tiles left worth %(sum)s, × %(m)s",
        "tiles",
    ),
    rulebase.WHY_OKEYS_AT: ngettext_lazy(
        "%(n)s okey at %(each)s", "%(n)s okeys at %(each)s each", "n"
    ),
    rulebase.WHY_SUM_COUNTS_OKEYS: ngettext_lazy(
        "the sum counts %(n)s okey as %(each)s",
        "the sum counts %(n)s okeys as %(each)s each",
        "n",
    ),
    rulebase.WHY_TILES_LEFT_X10: ngettext_lazy(
        "%(n)s tile left × 10", "%(n)s tiles left × 10", "n"
    ),
    rulebase.WHY_THE_BASE: gettext_lazy("the base %(base)s"),
    rulebase.WHY_DIRECT_X4: gettext_lazy("× 4: the rack was laid down at once"),
    rulebase.WHY_TENTH_OF_BASE: gettext_lazy("a tenth of the base %(base)s"),
    rulebase.WHY_ENDING_X: gettext_lazy("× %(m)s for this ending"),
    rulebase.WHY_PAIRS_X: gettext_lazy("× %(n)s for the pairs openings"),
    rulebase.WHY_OKEY_FINISH_X2: gettext_lazy("× 2: finished with an okey"),
    rulebase.WHY_PILE_RAN_OUT: gettext_lazy("the pile ran out"),
}


def why_text(item: dict[str, Any], names: dict[int, str]) -> str:
    """One part of an explanation in the reader's language, seats named."""
    params = {**item["params"], **{k: names.get(s, "") for k, s in item["seats"].items()}}
    text = WHY.get(item["msgid"])
    if text is None:
        text = gettext(item["msgid"])
    return str(text % params)


def line_detail(line: dict[str, Any], names: dict[int, str], variant: str) -> str:
    """The plain-language why of one score line, beyond its reason's label: the rule
    set's explanation (``Rules.explain_line``), translated and joined."""
    return "; ".join(why_text(item, names) for item in rules_for(variant).explain_line(line))


def places(totals: list[int], higher_wins: bool) -> list[int]:
    """Standard competition ranking: equal totals share a place ("1, 1, 3")."""
    better = (lambda a, b: a > b) if higher_wins else (lambda a, b: a < b)
    return [1 + sum(1 for o in totals if better(o, v)) for v in totals]


def player_rows(
    n: int,
    names: dict[int, str],
    lines: list[dict[str, Any]],
    hand_totals: list[int] | None,
    totals: list[int],
    winners: list[int],
    variant: str,
) -> list[dict[str, Any]]:
    """One row group per seat: its lines of this hand, its hand total and game total.
    A reason the shared list lacks is said in the rule set's own words
    (``messages.reason_label``: ``Rules.reason_labels``)."""
    rows = []
    for seat in range(n):
        mine = [
            {
                "points": ln["points"],
                "label": messages.reason_label(ln["reason"], variant),
                "reason": ln["reason"],
                "detail": line_detail(ln, names, variant),
            }
            for ln in lines
            if ln["seat"] == seat
        ]
        rows.append(
            {
                "seat": seat,
                "name": names.get(seat, ""),
                "lines": mine,
                "hand_total": hand_totals[seat] if hand_totals else sum(x["points"] for x in mine),
                "total": totals[seat] if seat < len(totals) else 0,
                "winner": seat in winners,
            }
        )
    return rows


def game_standing(game: Game, names: dict[int, str]) -> dict[str, Any]:
    """The game so far (or finished): hand-by-hand totals, places and the winners."""
    r = game.rules
    totals = game.totals()
    teams = r.teams(game.options)
    team_totals = game.team_totals()
    if teams is not None and team_totals is not None:
        team_place = places(team_totals, r.higher_wins)
        place_of = {s: team_place[i] for i, team in enumerate(teams) for s in team}
    else:
        seat_place = places(totals, r.higher_wins)
        place_of = dict(enumerate(seat_place))
    over = game.is_over()
    winners = game.winners() if over else []
    ranking = sorted(range(game.n_players), key=lambda s: (place_of[s], s))
    out: dict[str, Any] = {
        "over": over,
        "direction": direction_text(game.variant),
        "higher_wins": r.higher_wins,
        "start": game.start_points() if game.start_points() else None,
        "hands": [{"number": i + 1, "totals": list(h.totals)} for i, h in enumerate(game.hands)],
        "totals": totals,
        "teams": [
            {"names": names_text(team, names), "total": team_totals[i]}
            for i, team in enumerate(teams)
        ]
        if teams is not None and team_totals is not None
        else None,
        "places": [
            {"place": place_of[s], "seat": s, "name": names.get(s, ""), "total": totals[s]}
            for s in ranking
        ],
        "winners": winners,
        "headline": "",
    }
    if over and winners:
        if len(winners) == 1:
            out["headline"] = _("%(name)s wins the game.") % {"name": names.get(winners[0], "")}
        else:
            out["headline"] = _("The game is won by %(names)s.") % {
                "names": names_text(winners, names)
            }
    return out


def hand_outcome(
    view: dict[str, Any],
    names: dict[int, str],
    game: Game,
    tile_ctx: TileCtx,
) -> dict[str, Any]:
    """The outcome dialog's data for a finished hand, from the seat's view once over."""
    result = view["result"]
    variant = view["variant"]
    winners = hand_winners(variant, view["options"], result)
    ending = result["ending"]
    finisher = result.get("finisher")
    if finisher is None:
        finisher = (result.get("detail") or {}).get("shower")
    if winners:
        if len(winners) == 1:
            headline = _("%(name)s wins the hand.") % {"name": names.get(winners[0], "")}
        else:
            headline = _("%(names)s win the hand.") % {"names": names_text(winners, names)}
    else:
        headline = _("The hand is drawn.")
    why = messages.ending_text(
        ending, names.get(finisher, "") if finisher is not None else "", variant
    )
    if not winners and ending != "exhausted":
        why = why or _("Nobody finished.")

    # the finishing rack: a close shows its arrangement (melds or pairs) and the tile
    # put down; a lay-down finish shows the finisher's melds and the last tile
    revealed = view.get("revealed") or {}
    detail = result.get("detail") or {}
    okey = view.get("okey")

    def marked(t: dict[str, Any]) -> dict[str, Any]:
        """An okey in the finishing rack is marked as the okey, as on the table (a run
        "10 okey 12" must not read as "10 10 12")."""
        ctx = tile_ctx(t)
        return {**ctx, "okey": True} if okey is not None and t.get("t") == okey else ctx

    by_id = {t["id"]: t for rack in revealed.get("racks") or [] for t in rack}
    for m in view.get("melds") or []:
        for t in m["tiles"]:
            by_id.setdefault(t["id"], t)
    for pile in view.get("discards") or []:  # the tile put down to close lies there
        for t in pile:
            by_id.setdefault(t["id"], t)
    groups: list[list[dict[str, Any]]] = []
    if detail.get("arrangement"):
        for part in detail["arrangement"]:
            groups.append([marked(by_id[t]) for t in part if t in by_id])
    elif finisher is not None and view.get("melds"):
        groups = [[marked(t) for t in m["tiles"]] for m in view["melds"] if m["owner"] == finisher]
    last_id = result.get("closed_tile")
    if last_id is None:
        last_id = detail.get("last_tile")
    last = None
    if isinstance(last_id, int):  # public once the hand is over (the view's revealed)
        last = marked(by_id.get(last_id) or {"id": last_id, "t": notation(last_id)})
    if not groups and finisher is not None and revealed.get("racks"):
        rack = revealed["racks"][finisher]
        if rack:
            groups = [[marked(t) for t in rack]]

    standing = game_standing(game, names)
    return {
        "ending": ending,
        "draw": not winners,
        "headline": headline,
        "why": why,
        "winners": winners,
        "finisher": finisher,
        "finisher_name": names.get(finisher, "") if finisher is not None else "",
        "groups": groups,
        "last_tile": last,
        "rows": player_rows(
            view["n_players"],
            names,
            view.get("scores") or [],
            view.get("hand_totals"),
            standing["totals"],
            winners,
            variant,
        ),
        "game": standing,
        "direction": standing["direction"],
    }
