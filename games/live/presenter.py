"""Builds template contexts for a table, for one seat, from the engine's view only.

Nothing here reads another seat's rack, the pile or the seed while a hand is
in play: the only source is ``engine.view_for(state, seat)``.
"""

from __future__ import annotations

from functools import lru_cache, partial
from typing import Any

from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import capfirst
from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext as _

from games import plugins
from games.engine import replay, view_for
from games.engine.actions import FREE_ACTIONS, apply
from games.engine.rules import rules_for
from games.engine.tiles import notation
from games.live import messages, outcome
from games.live.actions import AWAY_AFTER_TIMEOUTS, arrange_slots, stand_in_plays
from games.live.realtime import hand_record, page_seen, snapshot
from games.models import Hand, HandAction, Seat, Table, variant_choices
from games.templatetags.okey_tiles import tile_html
from games.tilewords import tile_label, yellow_is_green

TOOK_SHOWN = 4  # the last tiles each opponent took from the discards


MELD_KINDS = {
    "run": pgettext_lazy("meld", "Run"),
    "group": pgettext_lazy("meld", "Group"),
    "pair": pgettext_lazy("meld", "Pair"),
}

SYMBOLS = {"R": "♥", "Y": "★", "B": "◆", "K": "♠", "F": "✿"}


class TileCtx(dict):
    """A tile as the templates draw it (``tile_ctx``). ``{{ t.html }}`` and
    ``{{ t.small }}`` are its markup (``okey_tiles.tile_html``), made when a template
    first asks for it and kept per language and everything the markup shows
    (``_TILE_HTML``): a table shows the same few dozen tiles move after move, so
    most are made once per language. Set the marks (``last``, ``hinted`` ...) before
    a template reads the markup."""

    __slots__ = ()

    def __missing__(self, key: str) -> Any:
        if key == "html":
            return tile_markup(self, "")
        if key == "small":
            return tile_markup(self, "small")
        raise KeyError(key)


_TILE_HTML: dict[tuple[Any, ...], str] = {}
_TILE_HTML_LIMIT = 50_000
_TILE_FIELDS = ("id", "t", "variant", "okey", "face_down", "plays")
_TILE_FIELDS += ("penalty", "hinted", "drawn", "last", "colour", "number", "symbol", "css")


def tile_markup(tile: dict[str, Any], size: str) -> str:
    """``okey_tiles.tile_html(tile, size)``, remembered per language and every field
    the markup reads (the tile words are the language's)."""
    key = (get_language(), size, *(tile.get(f) for f in _TILE_FIELDS))
    html = _TILE_HTML.get(key)
    if html is None:
        if len(_TILE_HTML) >= _TILE_HTML_LIMIT:
            _TILE_HTML.clear()
        html = _TILE_HTML[key] = tile_html(tile, size)
    return html


def _face(t: str, variant: str) -> dict[str, str]:
    """How a tile of notation ``t`` is drawn in the rule set: its colour, number, symbol
    and css (the same for every tile of that face; made once per face and rule set's
    yellow face, so the cache follows what the rules object says)."""
    return _face_of(t, variant, yellow_is_green(variant))


@lru_cache(maxsize=1024)
def _face_of(t: str, variant: str, green: bool) -> dict[str, str]:
    colour = t[0]
    return {
        "colour": colour,
        "number": "" if colour == "F" else t[1:],
        "symbol": "♣" if (colour == "Y" and green) else SYMBOLS[colour],
        "css": f"c-{colour.lower()}" + (" rummy" if green else ""),
        "variant": variant,
    }


def tile_ctx(tile: dict[str, Any], variant: str) -> TileCtx:
    """A tile as the templates draw it. Where the rule set shows its yellow tiles green
    (``Rules.yellow_shown_green``: Okey Rummy) they get the green face (css ``rummy``)
    and the clover; ``variant`` rides along so the tile's words say the same."""
    ctx = TileCtx(tile)
    ctx.update(_face(tile["t"], variant))
    return ctx


def relative_positions(n: int, me: int, variant: str) -> dict[int, str]:
    """Where each seat sits on screen. Play passes s → s+1; the previous player sits on
    your left when the rule set draws play counter-clockwise, on your right when it draws
    it clockwise (``Rules.direction``: RULES.md §1, [D2])."""
    if n == 2:
        return {me: "bottom", (me + 1) % 2: "top"}
    clockwise = rules_for(variant).direction == "clockwise"
    left, right = ("right", "left") if clockwise else ("left", "right")
    places = {me: "bottom", (me - 1) % n: left, (me + 1) % n: right}
    if n == 4:
        places[(me + 2) % 4] = "top"
    return places


@lru_cache(maxsize=4096)
def table_urls(code: str) -> dict[str, str]:
    """Links on the live fragments, reversed once per table (not on every render)."""
    return {"sheet": reverse("games:sheet", args=[code]), "verify": reverse("solo:verify")}


def _shared_context(table: Table, seats: list[Seat]) -> dict[str, Any]:
    """What every seat and watcher of this table read sees alike, in the active
    language: the table's flags, each player's public panel (name, presence, counts,
    discards, takes, total), the indicator, the melds, the totals and the standings,
    all from the spectator's view of the hand (``view_for(state, None)``: nothing of
    any rack). Made once per table read (the table object and its seats), version and
    language, and shared by the frames rendered from that read; ``table_context``
    copies what it adds a seat's own marks to."""
    lang = get_language()
    key = (table.version, table.updated_at, lang)
    memo = table.__dict__.get("_okey_shared")
    if memo is not None and memo[0] is seats and key in memo[1]:
        return memo[1][key]
    hand, state, game = snapshot(table)
    rules = rules_for(table.variant)
    shared: dict[str, Any] = {
        "variant_name": _variant_label(table.variant, lang),
        "assisted": bool(table.options.get("assisted")),
        # a double tap on an okey turns it face down where the rules allow it (seventeen)
        "okeys_flip": rules.okeys_flip,
        # melds lie on the table in the lay-down rule sets (fifty-one, seventeen)
        "lays_down": not rules.whole_rack,
        # a game of a fixed number of hands says "Hand 2 of 7" (Rules.hands_shown)
        "hands_shown": rules.hands_shown(table.options),
        "hand": hand,
        "state": state,
        "game": game,
    }
    public = view_for(state, None) if hand is not None else None
    # a finished hand of a duplicate round still played at another table (RULES.md D38):
    # asked once per table read, after the action that ended the hand has committed
    shared["embargoed"] = public is not None and public["over"] and plugins.deal_embargoed(table)
    if hand is not None:
        shared["hand_number"] = hand.number + 1
    n = len(seats)
    totals = game.totals()
    players = []
    for s in seats:
        p: dict[str, Any] = {
            "position": s.position,
            "name": s.display_name(),
            "is_cpu": s.is_cpu,
            "is_open": s.is_open,
            "away": s.away_since is not None,
            # "CPU playing for Ayşe": away, away by time-outs, or forfeited (a hand in play)
            "stand_in": public is not None and stand_in_plays(s),
        }
        if public is not None:
            p["count"] = public["rack_counts"][s.position]
            p["turn"] = public["turn"] == s.position and not public["over"]
            # the turn clock's countdown on the seat box of the seat to move (static/js)
            p["deadline"] = table.turn_deadline if p["turn"] else None
            # the felt shows the last three discards of each seat
            p["discards"] = [
                tile_ctx(t, table.variant) for t in public["discards"][s.position][-3:]
            ]
            if p["discards"]:  # each seat's latest discard is marked as such
                p["discards"][-1]["last"] = True
            p["opened"] = public.get("opened", [None] * n)[s.position]
            # what this seat took from the discards (public at a real table)
            took = (public.get("took") or [[]] * n)[s.position]
            p["took"] = [tile_ctx({"t": t}, table.variant) for t in took[-TOOK_SHOWN:]]
            p["took_count"] = len(took)
        p["total"] = totals[s.position] if s.position < len(totals) else 0
        players.append(p)
    shared["players"] = players
    shared["totals"] = totals
    if public is not None:
        shared["indicator"] = tile_ctx(public["indicator"], table.variant)
        shared["melds"] = meld_ctx(public, players, table.variant)
        shared["takeable"] = (
            tile_ctx(public["takeable"], table.variant) if public.get("takeable") else None
        )
    shared["urls"] = table_urls(table.code)
    shared["game_over"] = table.status == Table.Status.FINISHED
    shared["winners"] = game.winners() if shared["game_over"] else []
    # the running score table (games/live/outcome.py)
    names = {p["position"]: p["name"] for p in players}
    shared["names"] = names
    shared["standing"] = outcome.game_standing(game, names)
    if memo is None or memo[0] is not seats:
        memo = (seats, {})
        table.__dict__["_okey_shared"] = memo
    memo[1][key] = shared
    return shared


@lru_cache(maxsize=256)
def _variant_label(variant: str, lang: str) -> str:
    """The rule set's display name in ``lang`` (the active language)."""
    return str(dict(variant_choices()).get(variant, variant))


def embargoed_view(view: dict[str, Any]) -> dict[str, Any]:
    """A finished hand's view while its deal is still played at another table of a
    duplicate round (RULES.md D38, ``plugins.deal_embargoed``): no more than the seat saw
    in play. The finisher's rack stays (it is shown at the table when they finish); the
    other racks and the seed are withheld."""
    revealed = view.get("revealed")
    if not revealed:
        return view
    finisher = (view.get("result") or {}).get("finisher")
    racks = [rack if i == finisher else [] for i, rack in enumerate(revealed["racks"])]
    return {**view, "revealed": {**revealed, "racks": racks, "seed": None, "withheld": True}}


def table_context(
    table: Table,
    seat: Seat | None,
    *,
    error: dict | None = None,
    hint: dict | None = None,
    seats: list[Seat] | None = None,
) -> dict[str, Any]:
    """The context of the table's page and live fragments for ``seat`` (None: a
    watcher), from that seat's engine view only. The part every viewer sees alike
    comes from ``_shared_context``, made once per table read and language."""
    if seats is None:
        seats = list(table.seats.select_related("user__profile").all())
    shared = _shared_context(table, seats)
    hand, state, game = shared["hand"], shared["state"], shared["game"]
    me = seat.position if seat is not None else None
    ctx: dict[str, Any] = {
        "table": table,
        "seat": seat,
        "me": me,
        "version": table.version,
        "error": error,
        "variant_name": shared["variant_name"],
        "assisted": shared["assisted"],
        # competitive play (rated, tournament, challenge run): no engine help for a seat;
        # the server refuses it too (actions.rack.do_show_hint)
        "hints_allowed": not table.competitive,
        "okeys_flip": shared["okeys_flip"],
        "lays_down": shared["lays_down"],
        "hands_shown": shared["hands_shown"],
        "hand": hand,
        "view": None,
    }
    view = None
    if hand is not None:
        view = view_for(state, me)
        if view["over"] and shared["embargoed"]:
            view = embargoed_view(view)
        ctx["view"] = view
        ctx["hand_number"] = shared["hand_number"]
    places = relative_positions(len(seats), me if me is not None else 0, table.variant)
    players = [
        {**p, "place": places.get(p["position"], "top"), "is_me": p["position"] == me}
        for p in shared["players"]
    ]
    totals = shared["totals"]
    ctx["players"] = players
    # no hand dealt yet: the felt shows who is seated and the seats still to fill
    ctx["waiting"] = table.status == Table.Status.WAITING
    ctx["seats_free"] = sum(1 for p in players if p["is_open"])
    ctx["opponents"] = [p for p in players if not p["is_me"]]
    ctx["my_player"] = next((p for p in players if p["is_me"]), None)
    if view is not None:
        ctx["indicator"] = shared["indicator"]
        ctx["melds"] = shared["melds"]
        ctx["takeable"] = shared["takeable"]
        if hint and hint.get("meld") is not None:
            # "Show me" adds a tile to (or swaps an okey out of) this meld: it is marked
            ctx["melds"] = [{**m, "hinted": m["id"] == hint["meld"]} for m in ctx["melds"]]
        if ctx["takeable"] and hint and ctx["takeable"]["id"] in hint["tiles"]:
            # "Show me" suggests taking it: this seat's own copy is marked
            ctx["takeable"] = TileCtx(ctx["takeable"], hinted=True)
        ctx["legal"] = set(view.get("legal", []))
        ctx["my_turn"] = me is not None and view["turn"] == me and not view["over"]
        if view.get("rack") is not None and seat is not None:
            penalty = set(view.get("penalty_tiles") or [])  # assisted tables only
            hinted = set(hint["tiles"]) if hint else set()
            # the tile just drawn or taken stays marked until the player moves it
            # (their saved order then holds it): the seat's own view only
            drawn = drawn_unmoved(view, seat.rack_order or [])
            by_id = {}
            for t in view["rack"]:
                tile = tile_ctx(t, table.variant)
                tile["penalty"] = t["id"] in penalty
                tile["hinted"] = t["id"] in hinted
                tile["drawn"] = t["id"] == drawn
                by_id[t["id"]] = tile
            rack_tiles = {t["id"]: t for t in view["rack"]}
            # assisted tables: what a discard would cost, said before it is sent (the
            # engine's ``Rules.discard_penalty``, in the seat's view on its own turn)
            ctx["discard_costs"] = {
                c["tile"]: discard_cost_text(c, rack_tiles.get(c["tile"]), table.variant)
                for c in view.get("discard_costs") or ()
            }
            # the okey's own control (seventeen): turn it face down, or up again
            ctx["flip"] = flip_control(view) if shared["okeys_flip"] else None
            slots = arrange_slots(list(by_id), seat.rack_order or [])
            ctx["slots"] = [by_id.get(t) if t is not None else None for t in slots]
            ctx["slots_html"] = partial(slots_html, ctx["slots"])  # called if rendered
        ctx["result"] = view.get("result") if view["over"] else None
        if ctx["result"]:
            finisher = ctx["result"].get("finisher")
            name = next((p["name"] for p in players if p["position"] == finisher), "")
            ctx["result_text"] = messages.ending_text(ctx["result"]["ending"], name, table.variant)
        revealed = view.get("revealed") if view["over"] else None
        # a duplicate deal still played at another table: the racks wait (the page says so)
        ctx["racks_withheld"] = bool(revealed and revealed.get("withheld"))
        if ctx["racks_withheld"]:
            revealed = None
        if revealed:  # every rack, drawn as the table draws tiles (the outcome's "All racks")
            racks = [[tile_ctx(t, table.variant) for t in rack] for rack in revealed["racks"]]
            revealed = {**revealed, "racks": racks}
        ctx["revealed"] = revealed
        ctx["hand_lines"] = [
            {**line, "label": messages.reason_label(line["reason"], table.variant)}
            for line in view.get("scores", [])
        ]
    ctx["totals"] = totals
    ctx["urls"] = shared["urls"]
    ctx["game_over"] = shared["game_over"]
    ctx["winners"] = shared["winners"]
    # the outcome dialog and the running score table (games/live/outcome.py)
    names = shared["names"]
    ctx["standing"] = shared["standing"]
    ctx["outcome"] = (
        outcome.hand_outcome(view, names, game, lambda t: tile_ctx(t, table.variant))
        if view is not None and ctx.get("result")
        else None
    )
    # the turn clock by the player's own controls, and what the clock's stand-in played
    # for them (docs/clock-and-presence.md)
    ctx["clock_deadline"] = table.turn_deadline if ctx.get("my_turn") else None
    # a rated game's own forfeit ("Leave this game"), and the seat of one who left it
    # (games/live/actions/, "leavers")
    ctx["forfeited"] = seat is not None and seat.forfeited_at is not None
    ctx["can_leave"] = (
        seat is not None
        and not ctx["forfeited"]
        and table.rated
        and not table.organised
        and table.status == Table.Status.PLAYING
    )
    ctx["notice"] = timeout_notice(table, seat)
    ctx["status_text"] = status_text(table, view, me, players)
    ctx["hint_text"] = (
        messages.hint_text(hint["reason"], hint["detail"], table.variant) if hint else ""
    )
    ctx["hint_action"] = hint_action(hint, view, table.variant) if hint and view else None
    ctx["announce"] = announce_text(view, players, me, table.variant, ctx.get("result_text"))
    # a waiting quick-match table's card: who waits, their ratings, "Fill with CPUs"
    ctx["quick_wait"] = plugins.waiting_context(table, seats, seat)
    # a lesson's panel (games/learn): what to do now, from this seat's own view
    ctx["lesson"] = plugins.lesson_panel(ctx)
    # the page's ``data-seen``: what it shows, so that the socket's first frame leaves
    # it out (computed only when the page's template asks for it)
    ctx["page_seen"] = partial(page_seen, ctx)
    return ctx


def discard_cost_text(cost: dict[str, Any], tile: dict[str, Any] | None, variant: str) -> str:
    """The rule set's sentence on what a discard costs (``Rules.discard_penalty``'s
    msgid), with the points and the tile in words, capitalised."""
    words = tile_label(tile, variant) if tile is not None else ""
    try:
        text = _(cost["msgid"]) % {"points": cost["points"], "tile": words}
    except (KeyError, TypeError, ValueError):
        text = _(cost["msgid"])
    return capfirst(text)  # "Black 9 fits …": the tile may open the sentence


def flip_control(view: dict[str, Any]) -> dict[str, Any] | None:
    """The okey's face-down control (RULES.md §5: face down, an okey only moves within
    the rack): turns the first face-up okey of the rack face down, or, with every okey
    face down, the first one face up again. None without an okey in the rack."""
    okeys = [t for t in view.get("rack") or () if t.get("okey")]
    if not okeys or "flip" not in (view.get("legal") or ()):
        return None
    up = [t for t in okeys if not t.get("face_down")]
    if up:
        return {"tile": up[0]["id"], "label": _("Turn the okey face down")}
    return {"tile": okeys[0]["id"], "label": _("Turn the okey face up")}


def slots_html(slots: list[TileCtx | None]) -> SafeString:
    """The rack's slots, each with its tile: ``{{ slots_html }}`` in the ``rack``
    partial (the template calls it when it renders the rack). Made here rather than
    by a template loop over the 32 slots, which cost more than the rest of the rack."""
    return mark_safe(
        "".join(
            f'<div class="slot" data-slot="{i}">{t["html"] if t else ""}</div>'
            for i, t in enumerate(slots)
        )
    )


def drawn_unmoved(view: dict[str, Any], saved: list[int | None]) -> int | None:
    """The tile this seat just drew or took (its own view's ``drawn``) while it
    still sits in the slot it landed in: once the player moves it, no mark."""
    drawn = view.get("drawn")
    if drawn is None or drawn not in saved:
        return drawn
    rack = [t["id"] for t in view.get("rack") or ()]
    landed = arrange_slots(rack, [None if t == drawn else t for t in saved])
    return drawn if saved.index(drawn) == landed.index(drawn) else None


def meld_ctx(view: dict[str, Any], players: list[dict], variant: str) -> list[dict[str, Any]]:
    """The table's melds, each with its owner's name (and team with partners) and
    its okeys marked: a meld tile that is the okey shows the tile it stands for."""
    names = {p["position"]: p["name"] for p in players}
    # the rule set's teams (``Rules.teams``: fifty-one and 101 with partners, 0 and 2
    # against 1 and 3 [D14]); a team is named by its number, from 1
    teams = rules_for(variant).teams(view.get("options") or {}) or []
    team_of = {s: i + 1 for i, team in enumerate(teams) for s in team}
    out = []
    for m in view.get("melds", []):
        tiles = [TileCtx(tile_ctx(t, variant), okey=t["t"] == view["okey"]) for t in m["tiles"]]
        owner = m["owner"]
        team = team_of.get(owner)
        kind = str(MELD_KINDS.get(m["kind"], m["kind"]))
        label = _("%(kind)s of %(name)s") % {"kind": kind, "name": names.get(owner, "")}
        if team:
            label += " · " + _("team %(n)s") % {"n": team}
        out.append(
            {**m, "tiles": tiles, "owner_name": names.get(owner, ""), "team": team, "label": label}
        )
    return out


def hint_action(hint: dict, view: dict[str, Any], variant: str) -> dict[str, Any] | None:
    """The hinted move as the fields the table's form sends, with its button's label
    ("Discard black 6"): acting on a hint is one click."""
    action = hint.get("action") or {}
    kind = action.get("type")
    tile_id = action.get("tile")
    tile = None
    words = None
    if isinstance(tile_id, int):
        held = next((t for t in view.get("rack") or () if t["id"] == tile_id), None)
        if held is not None:
            tile = held["t"]
            words = tile_label(held, variant) if held.get("okey") else None
    if kind == "take" and view.get("takeable"):
        tile = view["takeable"]["t"]
    label = messages.hint_action_label(kind or "", tile, variant, words)
    if not label:
        return None
    fields: dict[str, Any] = {"action": kind}
    for k in ("tile", "meld", "as"):
        if action.get(k) is not None:
            fields[k] = action[k]
    if action.get("melds"):
        fields["melds"] = action["melds"]
    return {"label": label, "fields": fields}


def announce_text(
    view: dict[str, Any] | None,
    players: list[dict],
    me: int | None,
    variant: str,
    result_text: str | None = None,
) -> str:
    """What the screen-reader region reads: the latest move of another seat and
    whose turn it is ("Mehmet discarded red 7. Your turn."), from the view only."""
    if view is None:
        return ""
    if view["over"]:
        return str(result_text or "")
    names = {p["position"]: p["name"] for p in players}
    parts = []
    move = view.get("last_move")
    if move and move.get("seat") != me and move.get("seat") in names:
        parts.append(
            messages.move_text(move["type"], names[move["seat"]], move.get("tile"), variant)
        )
    turn = view["turn"]
    if me is not None and turn == me:
        parts.append(_("Your turn."))
    elif turn in names:
        parts.append(_("%(name)s's turn.") % {"name": names[turn]})
    return " ".join(p for p in parts if p)


def status_text(
    table: Table, view: dict | None, me: int | None, players: list[dict] | None = None
) -> str:
    """The line under the table's title: the table's state before and after play, and
    during a hand whose turn it is, from ``view`` (the viewer's engine view) and the
    public panels of ``players`` (name, ``is_cpu``, ``stand_in``)."""
    if table.status == Table.Status.WAITING:
        return _("Waiting for players to join.")
    if table.status == Table.Status.ABORTED:
        return _("Game aborted: a player left before it counted. It is not rated.")
    if table.status == Table.Status.FINISHED:
        if view is not None and not view["over"]:  # every person left (services: leavers)
            return _("Every player left: the game ended here and was rated by leaving order.")
        return _("The game is over.")
    if view is None:
        return ""
    if view["over"]:
        return _("The hand is over.")
    if me is not None and view["turn"] == me:
        if view["phase"] == "draw":
            return _("Your turn: draw from the pile or take the discard.")
        return _("Your turn: discard a tile to end it.")
    turn = next((p for p in players or [] if p["position"] == view["turn"]), None)
    if turn is None:
        return _("Waiting for the other players.")
    if turn.get("is_cpu"):
        return _("%(name)s is thinking.") % {"name": turn["name"]}
    if turn.get("stand_in"):  # away or gone: the CPU plays the seat (docs/clock-and-presence.md)
        return _("The CPU plays for %(name)s.") % {"name": turn["name"]}
    return _("%(name)s's turn.") % {"name": turn["name"]}


# ------------------------------------------------------- the clock's stand-in
#
# What a player is told when the stand-in CPU played for them, derived from the stored
# actions (``HandAction.by_cpu``), never kept apart: a time-out notice in every frame of
# the seat while its row of time-outs lasts (``Seat.timeouts``), and, on the page they
# open when they come back, "While you were away" (docs/clock-and-presence.md).

TURN_ENDS = ("discard", "close", "timeout")  # the actions that end a turn


def _moves(table: Table, seat: Seat) -> QuerySet[HandAction]:
    """The seat's moves at this table (free actions left out), latest first."""
    return (
        HandAction.objects.filter(hand__table_id=table.pk, seat=seat.position)
        .exclude(payload__type__in=sorted(FREE_ACTIONS))
        .order_by("-hand__number", "-index")
    )


def _discarded_on_timeout(row: HandAction) -> str | None:
    """The tile the engine's own time-out action discarded (rummy [D8]: the top of the
    pile, or the rightmost tile of the opening rack), from the hand replayed to it."""
    record = hand_record(row.hand)
    before = replay({**record, "actions": record["actions"][: row.index]})
    after, _events = apply(before, row.payload)
    mine, was = after.discards[row.seat], before.discards[row.seat]
    return notation(mine[-1]) if len(mine) > len(was) else None


def timeout_notice(table: Table, seat: Seat | None) -> dict[str, Any] | None:
    """What the seat's player reads while their row of time-outs lasts (``Seat.timeouts``
    from 1 until their own move or "I'm back"): what the stand-in played for them last
    ("Time's up: blue 11 was discarded for you."), and from ``AWAY_AFTER_TIMEOUTS`` on
    that it plays on, with "I'm back". None otherwise (no query then)."""
    if seat is None or seat.is_cpu or not seat.timeouts or seat.forfeited_at is not None:
        return None
    last = _moves(table, seat).filter(by_cpu=True).select_related("hand__table").first()
    kind = last.payload.get("type", "") if last is not None else ""
    tile = None
    if kind in ("discard", "close") and isinstance(last.payload.get("tile"), int):
        tile = notation(last.payload["tile"])
    elif kind == "timeout":
        tile = _discarded_on_timeout(last)
    text = messages.timeout_text(kind, tile, table.variant)
    away = seat.timeouts >= AWAY_AFTER_TIMEOUTS
    return {
        "text": text,
        "stand_in": messages.stand_in_text(seat.timeouts) if away else "",
        "away": away,
        "back_url": reverse("games:back", args=[table.code]),
        "key": (last.pk if last is not None else None, seat.timeouts),
    }


def away_summary(table: Table, seat: Seat | None) -> dict[str, Any] | None:
    """ "While you were away": what the stand-in played for the seat since its player's
    own last move (its turns, and each hand that ended meanwhile: who won, what the
    player scored), for the page they open when they come back; None when the stand-in
    played no turn for them since. Left to the time-out notice while the player's row
    of time-outs lasts. ``key`` names the summary, so a dismissed one stays dismissed
    in that browser tab (static/js/table.js)."""
    if seat is None or seat.is_cpu or seat.timeouts or seat.forfeited_at is not None:
        return None
    moves = _moves(table, seat)
    own = moves.filter(by_cpu=False).values_list("hand__number", "index").first()
    played = moves.filter(by_cpu=True)
    if own is not None:
        number, index = own
        played = played.filter(Q(hand__number__gt=number) | Q(hand__number=number, index__gt=index))
    rows = list(played.values_list("pk", "hand_id", "payload__type"))
    turns = sum(1 for _pk, _hand, kind in rows if kind in TURN_ENDS)
    if not turns:
        return None
    lines = [messages.away_turns_text(turns)]
    names = {s.position: s.display_name() for s in table.seats.all()}
    ended = Hand.objects.filter(pk__in={h for _pk, h, _kind in rows}, result__isnull=False)
    for hand in ended.order_by("number").prefetch_related("score_lines"):
        won = outcome.hand_winners(table.variant, table.options, hand.result)
        points = sum(line.points for line in hand.score_lines.all() if line.seat == seat.position)
        lines.append(
            messages.away_hand_text(
                hand.number + 1, outcome.names_text(won, names) if won else "", points
            )
        )
    return {"lines": lines, "key": f"{table.code}:{rows[0][0]}"}
