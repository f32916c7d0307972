"""The review exchange format ``okey-review/1``: export, import and verification.

A file holds one hand or a whole game::

    {"format": "okey-review/1", "variant": "classic", "options": {...},
     "players": [{"seat": 0, "name": "Ayşe", "cpu": null}, ...],
     "hands": [{"number": 1, "seed": "…", "starter": 0, "context": {...}?,
                "actions": [{"seat": 0, "type": "discard", "tile": "R7"}, ...],
                "result": {"ending", "finisher", "totals", "lines": [...], "closed_tile"}}]}

Events use the tile notation of rules.md (``R7``, ``K13``, ``F``), never the engine's
tile ids: on import every tile is resolved against the acting seat's rack at that moment
(the lower copy first when both copies are held). Importing replays every hand from its
seed with the engine; an action the engine refuses, a hand that stops before its end or a
result that differs from the replay is refused with the reason.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _
from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator
from pydantic_core import ErrorDetails

from games.common import jsonsafe
from games.common.jsonsafe import refusal
from games.engine import Refusal, apply, new_hand, replay
from games.engine.actions import FREE_ACTION_LIMIT, FREE_ACTIONS
from games.engine.options import validate_options
from games.engine.refusals import REFUSALS
from games.engine.rules import RULES, rules_for
from games.engine.tiles import NotationError, ids_of_kind, kind_notation, notation, parse_kind
from games.live.messages import refusal_text

FORMAT = "okey-review/1"

# ------------------------------------------------------------------ limits
#
# A file is refused, before any hand is replayed, when it holds more than a real game can
# (the rules are games/engine/RULES.md; section numbers below are its own).

MAX_BYTES = 1024 * 1024  # 1 MB: a classic game of 100 hands, as this site exports it, is 550 KB
# document → hands → hand → actions → action → melds → meld: the deepest the format nests.
MAX_DEPTH = 7
# The longest text of the format is a deal seed (the site stores 128 characters); a player's
# name is at most 60 (as on a table), and a tile, a type or a reason is a few characters.
MAX_STRING = 128
MAX_NAME = 60
# A value takes at least two bytes ("0,"), so MAX_BYTES alone allows 500,000. An action is at
# least 3 values in 24 bytes ({"seat":0,"type":"draw"}), so a real file of MAX_BYTES holds
# about 130,000 values; the rest is room for melds and results.
MAX_VALUES = 300_000
# the most seats any registered rule set has (2 to 4 today: §1-§6)
MAX_PLAYERS = max(n for rules in RULES.values() for n in rules.players)
N_TILES = 106  # 4 colours × 13 numbers × 2 copies + 2 false jokers (§1)
MELD_MAX = 13  # a run holds each number once (§1)


def rack_max(rack_size: int) -> int:
    """The most tiles a rack holds: the starter is dealt one more than the others and every
    turn ends with a discard (§1; 15 with the usual 14, 22 in 101's deal of 21, §6)."""
    return rack_size + 1


def max_hands(variant: str, options: dict) -> int:
    """The most hands one game of ``variant`` with these (validated) options can have: the
    rule set's own bound (``Rules.max_hands``: a fixed number of hands, or what the
    scoring allows in the games played to a score, with room for drawn hands)."""
    return rules_for(variant).max_hands(options)


def max_moves(n_players: int, rack_size: int) -> int:
    """The most moves (actions other than the free flips and arrangements) one hand with
    ``n_players`` dealt ``rack_size`` tiles each (the starter one more) can have (§1,
    [D4], [D12])."""
    # 48 with four players of 14 tiles, 62 with 3, 76 with 2; 20 with four of 21 (101)
    pile = N_TILES - 1 - (rack_size * n_players + 1)
    # A turn starts with a tile from the pile (at most pile + 1 draws: the last finds it empty
    # [D4]) or the previous discard. In classic and rummy nothing stops a discard being taken
    # and discarded again; a file may take as often as it draws.
    turns = 2 * (pile + 1)
    # Per turn: draw or take, an undo and the draw after it [D12], and the discard, close or
    # time-out that ends it. Opening, laying, adding and swapping each put a tile of the rack
    # on the table, where it stays but for an okey swapped out or a provisional opening that
    # falls short (§5): each tile twice. A show is once a seat.
    return 4 * turns + 2 * N_TILES + n_players


# Free actions (flip, arrange) keep the turn; the table takes at most FREE_ACTION_LIMIT of
# them from a seat between two moves (games/engine/actions.py), and so does an import.


# ----------------------------------------------------------------- actions


def action_to_events(action: dict) -> dict:
    """An engine action (tile ids) as an exchange event (notation)."""
    out: dict[str, Any] = {"seat": action["seat"], "type": action["type"]}
    for key, value in action.items():
        if key in ("seat", "type"):
            continue
        if key == "tile":
            out["tile"] = notation(value)
        elif key == "tiles":
            out["tiles"] = [notation(t) for t in value]
        elif key == "melds":
            out["melds"] = [[notation(t) for t in m] for m in value]
        elif key == "assign":
            out["assign"] = [
                [notation(int(tid)), kind_notation(kind)] for tid, kind in value.items()
            ]
        elif key == "as":
            out["as"] = kind_notation(value) if isinstance(value, int) else value
        else:  # meld (a table meld id), to (a seat)
            out[key] = value
    return out


class _Pool:
    """Resolves notation to tile ids held by a seat: each id at most once per action."""

    def __init__(self, held: tuple[int, ...] | list[int]):
        self.held = list(held)
        self.used: set[int] = set()

    def take(self, text: Any) -> int:
        if not isinstance(text, str):
            raise Refusal("bad_action", f"{text!r} is not a tile in notation (R7, K13, F)")
        try:
            kind = parse_kind(text)
        except NotationError as exc:
            raise Refusal("bad_action", exc.message) from None
        for tid in sorted(ids_of_kind(kind)):
            if tid in self.held and tid not in self.used:
                self.used.add(tid)
                return tid
        # not held: the lower copy, so that the engine names the refusal
        tid = next((t for t in ids_of_kind(kind) if t not in self.used), ids_of_kind(kind)[0])
        self.used.add(tid)
        return tid


def event_to_action(event: Any, state) -> dict:
    """An exchange event as an engine action, its tiles resolved against ``state``."""
    if not isinstance(event, dict):
        raise Refusal("bad_action", "an event is an object with a seat and a type")
    seat = event.get("seat")
    if type(seat) is not int or not 0 <= seat < state.n_players:
        raise Refusal("bad_action", f"seat {seat!r} is not a seat of this table")
    held = list(state.racks[seat])
    most = rack_max(state.rules.rack_size)  # the rule set's deal bounds a rack
    if event.get("type") == "flip":  # an okey anywhere (rack or table)
        held += [t for m in state.melds for t in m.tiles]
    pool = _Pool(held)
    out: dict[str, Any] = {}
    for key, value in event.items():
        if key == "tile":
            out["tile"] = pool.take(value)
        elif key == "tiles":
            # an arrangement is the whole rack, at most ``most`` tiles
            if not isinstance(value, list) or len(value) > most:
                raise Refusal("bad_action", f"tiles must be a list of at most {most} tiles")
            out["tiles"] = [pool.take(t) for t in value]
        elif key == "melds":
            # melds come from one rack (``most`` tiles, each meld at least a pair)
            if (
                not isinstance(value, list)
                or len(value) > most // 2
                or not all(isinstance(m, list) and len(m) <= MELD_MAX for m in value)
            ):
                raise Refusal(
                    "bad_action",
                    f"melds must be at most {most // 2} lists of at most {MELD_MAX} tiles",
                )
            out["melds"] = [[pool.take(t) for t in m] for m in value]
        else:
            out[key] = value
    if "assign" in out:
        assign = out["assign"]
        if (
            not isinstance(assign, list)
            or len(assign) > 2  # there are two okeys (§1)
            or not all(isinstance(p, list) and len(p) == 2 for p in assign)
        ):
            raise Refusal("bad_action", "assign is a list of [okey, stands for] pairs")
        meld_ids = [t for m in out.get("melds", []) for t in m]
        okeys = _Pool(meld_ids)
        out["assign"] = {str(okeys.take(p[0])): p[1] for p in assign}
    return out


# ------------------------------------------------------------------ results


def result_summary(state) -> dict | None:
    """The comparable, notation-only result of a finished hand: the ending, the finisher,
    the per-seat totals and every score line of the hand (reason and points)."""
    result = state.result
    if not result:
        return None
    closed = result.get("closed_tile")
    return {
        "ending": result.get("ending"),
        "finisher": result.get("finisher"),
        "totals": list(result.get("totals") or []),
        "lines": [
            {"seat": ln.get("seat"), "points": ln.get("points"), "reason": ln.get("reason")}
            for ln in state.scores
        ],
        "closed_tile": notation(closed) if isinstance(closed, int) else closed,
    }


# ------------------------------------------------------------------- export


def hand_export(record: dict, number: int) -> dict:
    """One hand of the exchange format from an engine record (``state.record()``): the
    actions in the engine's normalised form and the result, both from a replay."""
    state = replay(record)
    out: dict[str, Any] = {"number": number, "seed": record["seed"], "starter": record["starter"]}
    if record.get("context"):
        out["context"] = dict(record["context"])
    out["actions"] = [action_to_events(a) for a in state.actions]
    out["result"] = result_summary(state)
    return out


def _mac(body: dict) -> str:
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return salted_hmac(FORMAT, text, algorithm="sha256").hexdigest()


def sign(doc: dict) -> dict:
    """The document with this site's ``signature`` (HMAC-SHA256 with the secret key over
    the canonical JSON of everything else): an import can tell it was not changed."""
    body = {k: v for k, v in doc.items() if k != "signature"}
    return {**body, "signature": _mac(body)}


def document(
    variant: str,
    options: dict,
    players: list[dict],
    hands: list[dict],
    deals: int | None = None,
) -> dict:
    """One game in the exchange format. ``deals``: a game of fixed deals (duplicate play,
    RULES.md D38) says how many; the field is left out of any other game."""
    doc = {
        "format": FORMAT,
        "variant": variant,
        "options": dict(options),
        "players": players,
        "hands": hands,
    }
    if deals is not None:
        doc["deals"] = deals
    return doc


# ------------------------------------------------------------------- import


@dataclass
class ImportRefused(Exception):
    """A file the import refuses: a stable code and a message for the person."""

    code: str
    message: str
    detail: dict = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


@dataclass
class ImportedHand:
    number: int
    seed: Any
    starter: int
    context: dict
    actions: list[dict]  # engine form (tile ids)
    result: dict  # engine result of the replay
    summary: dict  # result_summary of the replay
    export: dict = field(default_factory=dict)  # the hand in the exchange format

    def record(self, variant: str, options: dict) -> dict:
        rec = {
            "format": 1,
            "variant": variant,
            "options": dict(options),
            "seed": self.seed,
            "starter": self.starter,
            "actions": [dict(a) for a in self.actions],
        }
        if self.context:
            rec["context"] = dict(self.context)
        return rec


def _engine_reason(exc: Refusal) -> str:
    text = refusal_text(exc.code, REFUSALS.get(exc.code, exc.message))
    if exc.message and exc.message != text and exc.message != REFUSALS.get(exc.code):
        return f"{text} ({exc.message})"
    return text


# The file as a pydantic model (strict). Its fields are declared in the order the file is
# checked, so the first error is the one the person is told about; a validator refuses with
# the format's own code and message (``refusal``), and ``_explain`` names a type or shape
# error from where it is. Unknown keys are ignored (the signature covers them all the same).


class HandIn(BaseModel):
    model_config = ConfigDict(extra="ignore")

    actions: list[Any]  # events: each is judged by the engine at its move (event_to_action)
    seed: int | str
    starter: int
    context: dict[str, Any] | None = None
    number: Any = None  # the hand's number when it is a whole number, else its place
    result: Any = None  # compared with the replay's result_summary

    @field_validator("seed")
    @classmethod
    def _seed_digits(cls, seed: int | str) -> int | str:
        if isinstance(seed, int) and len(str(seed)) > MAX_STRING:
            raise ValueError("a seed is at most MAX_STRING digits")
        return seed


class PlayerIn(BaseModel):
    model_config = ConfigDict(extra="ignore")

    name: str | None = Field(default=None, max_length=MAX_NAME)
    cpu: Any = None  # a CPU level name, or anything else for "not a CPU"


class ReviewFile(BaseModel):
    model_config = ConfigDict(extra="ignore")

    format: Literal[FORMAT]  # type: ignore[valid-type]
    variant: str
    options: Any = Field(default=None, validate_default=True)  # the engine judges them
    # a game of fixed deals (RULES.md D38): its hands are bounded by it, not by the rule set
    deals: int | None = Field(default=None, ge=1, le=64, strict=True)
    hands: list[HandIn]
    players: list[PlayerIn] | None = None

    @field_validator("variant")
    @classmethod
    def _known_variant(cls, variant: str) -> str:
        if variant not in RULES:
            raise refusal("bad_variant", _("Unknown variant %(v)r.") % {"v": variant})
        return variant

    @field_validator("options")
    @classmethod
    def _engine_options(cls, options: Any, info: ValidationInfo) -> Any:
        if "variant" not in info.data:
            return options  # the variant is refused already
        try:
            return validate_options(info.data["variant"], options or {})
        except Refusal as exc:
            raise refusal(exc.code, _engine_reason(exc)) from None

    @field_validator("hands")
    @classmethod
    def _hands_of_one_game(cls, hands: list[HandIn], info: ValidationInfo) -> list[HandIn]:
        """As many hands as one game can have, each with as many moves as its tiles allow."""
        if not hands:
            raise refusal("bad_record", _("The file holds no hands."))
        if "variant" not in info.data or "options" not in info.data:
            return hands  # refused already
        variant, options = info.data["variant"], info.data["options"]
        deals = info.data.get("deals")
        most = deals if deals is not None else max_hands(variant, options)
        if len(hands) > most:
            raise refusal(
                "too_large",
                _("Too many hands: one game of this rule set has at most %(max)s.") % {"max": most},
            )
        rack_size = rules_for(variant).rack_size
        for h_index, hand in enumerate(hands):
            _check_moves(hand.actions, options["players"], rack_size, _hand_label(h_index))
        return hands

    @field_validator("players", mode="before")
    @classmethod
    def _one_per_seat(cls, players: Any, info: ValidationInfo) -> Any:
        """One player per seat, counted before any player is read."""
        options = info.data.get("options") if "variant" in info.data else None
        seats = options["players"] if isinstance(options, dict) else None
        if isinstance(players, list) and (
            len(players) > MAX_PLAYERS or (seats is not None and len(players) != seats)
        ):
            raise refusal("bad_record", _("The file must list one player per seat."))
        return players


def _hand_label(h_index: int) -> str:
    return _("Hand %(n)s") % {"n": h_index + 1}


def _explain(error: ErrorDetails) -> tuple[str, str]:
    """A type or shape error of ``ReviewFile`` in the words of the checks it replaces."""
    loc = error["loc"]
    found = None if error["type"] == "missing" else error["input"]
    if not loc:
        return "bad_json", _("The file must hold one JSON object.")
    if loc[0] == "format":
        return "bad_format", _("Unsupported format %(found)r: this site reads %(expected)s.") % {
            "found": found,
            "expected": FORMAT,
        }
    if loc[0] == "variant":
        return "bad_variant", _("Unknown variant %(v)r.") % {"v": found}
    if loc[0] == "hands" and len(loc) > 1 and isinstance(loc[1], int):
        label = _hand_label(loc[1])
        if len(loc) > 2 and loc[2] in ("seed", "starter", "context"):
            return "bad_record", _("%(hand)s: the seed, the starter or the context is damaged.") % {
                "hand": label
            }
        return "bad_record", _("%(hand)s: no list of actions.") % {"hand": label}
    if loc[0] == "hands":
        return "bad_record", _("The file holds no hands.")
    if loc[0] == "players" and len(loc) > 2 and error["type"] == "string_too_long":
        return "too_large", _("A player's name is longer than %(max)s characters.") % {
            "max": MAX_NAME
        }
    if loc[0] == "players" and len(loc) > 1:
        return "bad_record", _("Each player is an object with a name.")
    return "bad_record", _("The file must list one player per seat.")


def _players(players: list[PlayerIn] | None, n: int) -> list[dict]:
    """One player per seat: the file's names (a seat's number where it has none)."""
    if players is None:
        return [{"seat": s, "name": _("Seat %(n)s") % {"n": s + 1}, "cpu": None} for s in range(n)]
    return [
        {
            "seat": s,
            "name": p.name or _("Seat %(n)s") % {"n": s + 1},
            "cpu": p.cpu if isinstance(p.cpu, str) else None,
        }
        for s, p in enumerate(players)
    ]


def _parse(raw: bytes | str) -> tuple[dict, ReviewFile]:
    """The file's JSON object within the limits above and read into ``ReviewFile``: nothing is
    replayed before both pass. Raises ``ImportRefused``."""
    data = jsonsafe.load_object(
        raw,
        max_bytes=MAX_BYTES,
        max_depth=MAX_DEPTH,
        max_values=MAX_VALUES,
        max_string=MAX_STRING,
        refused=ImportRefused,
    )
    return data, jsonsafe.validate(ReviewFile, data, explain=_explain, refused=ImportRefused)


def _check_moves(events: list, n: int, rack_size: int, label: str) -> None:
    """At most ``max_moves(n, rack_size)`` moves, and at most FREE_ACTION_LIMIT free actions
    of a seat between two moves: one pass over the events, before any replay."""
    most = max_moves(n, rack_size)
    moves = 0
    runs = [0] * MAX_PLAYERS
    for event in events:
        kind = event.get("type") if isinstance(event, dict) else None
        seat = event.get("seat") if isinstance(event, dict) else None
        free = isinstance(kind, str) and kind in FREE_ACTIONS
        if free and type(seat) is int and 0 <= seat < MAX_PLAYERS:
            runs[seat] += 1
            if runs[seat] > FREE_ACTION_LIMIT:
                raise refusal(
                    "too_large",
                    _(
                        "%(hand)s: more than %(max)s flips or arrangements by one player "
                        "between two moves."
                    )
                    % {"hand": label, "max": FREE_ACTION_LIMIT},
                )
            continue
        moves += 1
        runs = [0] * MAX_PLAYERS
        if moves > most:
            raise refusal(
                "too_large",
                _("%(hand)s: too many actions (a hand has at most %(max)s).")
                % {"hand": label, "max": most},
            )


def load_document(raw: bytes | str) -> dict:
    """Parse and verify an exchange file. Returns ``{"variant", "options", "players",
    "hands": [ImportedHand…], "document"}``; raises ``ImportRefused`` with the reason.

    Limits first (size, nesting, the length of every list and text: see above), then every
    hand is replayed with the engine; nothing is stored here."""
    data, doc = _parse(raw)
    variant, options = doc.variant, doc.options
    out_hands: list[ImportedHand] = []
    players = _players(doc.players, options["players"])
    final_options = options
    for h_index, h in enumerate(doc.hands):
        label = _hand_label(h_index)
        seed, starter, context = h.seed, h.starter, h.context or {}
        try:
            state = new_hand(variant, options, seed, starter, context=context)
        except Refusal as exc:
            raise ImportRefused(
                exc.code, _("%(hand)s: %(reason)s") % {"hand": label, "reason": _engine_reason(exc)}
            ) from None
        except (ValueError, TypeError) as exc:
            raise ImportRefused(
                "bad_record", _("%(hand)s: %(reason)s") % {"hand": label, "reason": exc}
            ) from None
        final_options = state.options
        actions: list[dict] = []
        for i, event in enumerate(h.actions):
            try:
                action = event_to_action(event, state)
                state, _events = apply(state, action)
            except Refusal as exc:
                raise ImportRefused(
                    exc.code,
                    _("%(hand)s, move %(move)s (%(event)s) was refused: %(reason)s")
                    % {
                        "hand": label,
                        "move": i + 1,
                        "event": _short(event),
                        "reason": _engine_reason(exc),
                    },
                    {"hand": h_index, "index": i},
                ) from None
            actions.append(state.actions[-1])
        if not state.over:
            raise ImportRefused(
                "incomplete",
                _("%(hand)s: the moves stop before the hand is over.") % {"hand": label},
                {"hand": h_index},
            )
        summary = result_summary(state)
        claimed = h.result
        if claimed is not None and claimed != summary:
            raise ImportRefused(
                "result_mismatch",
                _("%(hand)s: the result in the file is not the result of its moves.")
                % {"hand": label},
                {"hand": h_index},
            )
        number = h.number if type(h.number) is int else h_index + 1
        hd = ImportedHand(
            number, seed, starter, dict(context), actions, dict(state.result), summary
        )
        hd.export = _export_of(hd, state)
        out_hands.append(hd)
    normal = document(
        variant, final_options, players, [hd.export for hd in out_hands], deals=doc.deals
    )
    signature = data.get("signature")
    signed = signature is not None
    if signed:
        body = {k: v for k, v in data.items() if k != "signature"}
        if not isinstance(signature, str) or not constant_time_compare(signature, _mac(body)):
            raise ImportRefused(
                "signature_mismatch",
                _(
                    "The file was changed after it was exported from this site: its moves "
                    "replay, but its signature does not match them any more."
                ),
            )
        normal = sign(normal)
    return {
        "variant": variant,
        "options": dict(final_options),
        "players": players,
        "hands": out_hands,
        "document": normal,
        "signed": signed,
    }


def _export_of(hd: ImportedHand, state) -> dict:
    """The hand as this site exports it, from the replay just made (``hand_export``
    without replaying a second time)."""
    out: dict[str, Any] = {"number": hd.number, "seed": hd.seed, "starter": hd.starter}
    if hd.context:
        out["context"] = dict(hd.context)
    out["actions"] = [action_to_events(a) for a in state.actions]
    out["result"] = hd.summary
    return out


def _short(event: Any) -> str:
    if not isinstance(event, dict):
        return repr(event)[:40]
    parts = [str(event.get("type"))]
    for key in ("tile", "melds", "tiles"):
        if key in event:
            parts.append(json.dumps(event[key], ensure_ascii=False)[:60])
    return " ".join(parts)
