"""The hand state: one immutable-by-convention record per moment of a hand, how a hand
is dealt (``new_hand``), saved and loaded as JSON (``state_to_json``,
``state_from_json``, ``HandState.to_json`` / ``from_json``) and rebuilt from its record
(``replay``).

``HandState`` holds only tuples, frozensets and never-mutated dicts, so
``apply`` copies it with a shallow ``copy.copy`` and replaces the fields it
changes: copying costs a few dozen pointer copies, never a deep copy.

The JSON codec and ``replay`` live here, beside the class whose methods use them, and
above the state machine (``actions.py``, which only reads states): loading a state saved
before the taken-discards log existed replays its actions. ``serial.py`` re-exports
them with the actions' wire format.

Everything is versioned ``{"format": 1, ...}``. Loading never crashes on bad input:
truncated, tampered or wrongly typed data raises ``Refusal`` with code ``bad_json``,
``bad_format``, ``bad_state`` or ``bad_record`` (all ``ValueError`` subclasses).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from typing import Any

from .actions import apply, normalize_action
from .melds import MELD_KINDS, classify
from .options import validate_options
from .phases import DRAW, OVER, PLAY
from .refusals import Refusal
from .rules import Rules, rules_for
from .table import TableMeld
from .tiles import N_TILES, deal, kind_of, okey_kind_for

FORMAT = 1


@dataclass(slots=True, eq=True)
class HandState:
    """One hand of one variant. Seats 0..n-1; play passes from s to s+1.

    ``pile[-1]`` is the top of the pile. ``discards[s]`` are seat s's discards
    (last = most recent). ``takeable`` is the tile the player to move may take
    (the previous player's last discard), or None. ``taken`` is a taken
    discard not used yet [D12] and ``snapshot`` the state before that take.
    ``scores`` are the hand's score lines so far ``{"seat","points","reason","detail"}``.
    ``took[s]`` are the tiles seat s took from a discard pile this hand, in order
    (public: each was face up when taken; an undone take is not in it).
    """

    variant: str
    options: dict
    seed: Any
    starter: int
    n_players: int
    indicator: int
    okey_kind: int
    racks: tuple[tuple[int, ...], ...]
    pile: tuple[int, ...]
    discards: tuple[tuple[int, ...], ...]
    melds: tuple[TableMeld, ...] = ()
    turn: int = 0
    phase: str = PLAY
    turns_done: tuple[int, ...] = ()
    turn_no: int = 0
    opened: tuple[str | None, ...] = ()
    opened_turn: tuple[int | None, ...] = ()
    limit: int | None = None
    takeable: int | None = None
    taken: int | None = None
    drawn: int | None = None
    undone: bool = False
    snapshot: HandState | None = None
    scores: tuple[dict, ...] = ()
    shown: tuple[int, ...] = ()
    flipped: frozenset[int] = frozenset()
    turn_okeys: frozenset[int] = frozenset()
    turn_ends: frozenset[tuple[int, str]] = frozenset()
    provisional: tuple[int, ...] = ()
    next_meld_id: int = 1
    result: dict | None = None
    actions: tuple[dict, ...] = ()
    context: dict = field(default_factory=dict)
    took: tuple[tuple[int, ...], ...] = ()

    # ------------------------------------------------------------------ helpers
    def clone(self) -> HandState:
        """A shallow copy (every field is immutable or never mutated in place)."""
        return _clone(self)

    @property
    def rules(self) -> Rules:
        return rules_for(self.variant)

    @property
    def over(self) -> bool:
        return self.phase == OVER

    @property
    def version(self) -> int:
        return len(self.actions)

    def prev_seat(self, seat: int) -> int:
        return (seat - 1) % self.n_players

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % self.n_players

    def is_okey(self, tile: int) -> bool:
        return kind_of(tile) == self.okey_kind

    def meld_by_id(self, meld_id: int) -> TableMeld | None:
        for m in self.melds:
            if m.id == meld_id:
                return m
        return None

    def hand_totals(self) -> list[int]:
        """Sum of this hand's score lines per seat."""
        out = [0] * self.n_players
        for line in self.scores:
            out[line["seat"]] += line["points"]
        return out

    def all_tiles(self) -> list[int]:
        """Every tile id in the hand, wherever it is (for the 106-tile invariant)."""
        out: list[int] = [self.indicator, *self.pile]
        for r in self.racks:
            out.extend(r)
        for d in self.discards:
            out.extend(d)
        for m in self.melds:
            out.extend(m.tiles)
        if self.result and self.result.get("closed_tile") is not None:
            out.append(self.result["closed_tile"])
        return out

    def record(self) -> dict:
        """The replayable record of this hand (``replay(record)`` rebuilds it)."""
        rec = {
            "format": FORMAT,
            "variant": self.variant,
            "options": dict(self.options),
            "seed": self.seed,
            "starter": self.starter,
            "actions": [dict(a) for a in self.actions],
        }
        if self.context:
            rec["context"] = dict(self.context)
        return rec

    def to_json(self) -> dict:
        return state_to_json(self)

    @classmethod
    def from_json(cls, data: dict | str) -> HandState:
        return state_from_json(data)


_FIELD_NAMES = tuple(f.name for f in fields(HandState))


def _make_clone():  # a straight-line copier: ~3x faster than copy.copy on this class
    body = "\n".join(f"    n.{name} = s.{name}" for name in _FIELD_NAMES)
    src = f"def _clone(s):\n    n = _new(_cls)\n{body}\n    return n\n"
    scope = {"_new": object.__new__, "_cls": HandState}
    exec(src, scope)  # noqa: S102 - generated from the dataclass's own field names
    return scope["_clone"]


_clone = _make_clone()


def new_hand(
    variant: str,
    options: dict | None = None,
    seed: int | str = 0,
    starter: int = 0,
    *,
    context: dict | None = None,
) -> HandState:
    """Deal a new hand. ``options`` are validated (defaults filled).

    ``context`` carries game-level facts a hand needs: for ``rummy`` the
    players' game totals before this hand (``{"totals": [...]}``), so that a
    shown indicator that reaches the target ends the game at once (rules.md §3).
    """
    opts = validate_options(variant, options)
    n = opts["players"]
    if type(seed) not in (int, str):
        raise Refusal("bad_option", "the seed must be an int or a string", option="seed")
    if type(starter) is not int or not 0 <= starter < n:
        raise Refusal("bad_option", "the starter must be a seat of the table", option="starter")
    context = dict(context or {})
    totals = context.get("totals")
    if set(context) - {"totals"} or (
        totals is not None
        and (
            not isinstance(totals, list)
            or len(totals) != n
            or any(type(x) is not int for x in totals)
        )
    ):
        raise Refusal("bad_option", "context holds only 'totals': one int per seat")
    d = deal(seed, n, starter, rules_for(variant).rack_size)
    return HandState(
        variant=variant,
        options=opts,
        seed=seed,
        starter=starter,
        n_players=n,
        indicator=d.indicator,
        okey_kind=okey_kind_for(kind_of(d.indicator)),
        racks=d.racks,
        pile=d.pile,
        discards=((),) * n,
        turn=starter,
        phase=PLAY,
        turns_done=(0,) * n,
        opened=(None,) * n,
        opened_turn=(None,) * n,
        context=context,
        took=((),) * n,
    )


# ------------------------------------------------------------ saving and loading


_STATE_FIELDS = [
    "variant",
    "seed",
    "starter",
    "n_players",
    "indicator",
    "racks",
    "pile",
    "discards",
    "melds",
    "turn",
    "phase",
    "turns_done",
    "turn_no",
    "opened",
    "opened_turn",
    "limit",
    "takeable",
    "taken",
    "drawn",
    "undone",
    "snapshot",
    "scores",
    "shown",
    "flipped",
    "turn_okeys",
    "turn_ends",
    "provisional",
    "next_meld_id",
    "result",
    "actions",
    "context",
    "options",
]


def state_to_json(state: HandState) -> dict:
    """A JSON-ready dict of the whole state (server-side: it holds every rack and the seed)."""
    return {
        "format": FORMAT,
        "variant": state.variant,
        "options": dict(state.options),
        "seed": state.seed,
        "starter": state.starter,
        "n_players": state.n_players,
        "indicator": state.indicator,
        "racks": [list(r) for r in state.racks],
        "pile": list(state.pile),
        "discards": [list(d) for d in state.discards],
        "melds": [m.to_json() for m in state.melds],
        "turn": state.turn,
        "phase": state.phase,
        "turns_done": list(state.turns_done),
        "turn_no": state.turn_no,
        "opened": list(state.opened),
        "opened_turn": list(state.opened_turn),
        "limit": state.limit,
        "takeable": state.takeable,
        "taken": state.taken,
        "drawn": state.drawn,
        "undone": state.undone,
        "snapshot": state_to_json(state.snapshot) if state.snapshot is not None else None,
        "scores": [dict(x) for x in state.scores],
        "shown": list(state.shown),
        "flipped": sorted(state.flipped),
        "turn_okeys": sorted(state.turn_okeys),
        "turn_ends": sorted([list(x) for x in state.turn_ends]),
        "provisional": list(state.provisional),
        "next_meld_id": state.next_meld_id,
        "result": state.result,
        "actions": [dict(a) for a in state.actions],
        "context": dict(state.context),
        "took": [list(x) for x in state.took],
    }


def _load(data: Any, code: str) -> dict:
    if isinstance(data, (str, bytes, bytearray)):
        try:
            data = json.loads(data)
        except (ValueError, UnicodeDecodeError) as exc:
            raise Refusal("bad_json", f"not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise Refusal(code, "expected a JSON object")
    if data.get("format") != FORMAT:
        raise Refusal("bad_format", f"unsupported format {data.get('format')!r} (expected 1)")
    return data


def _ints(v: Any, lo: int, hi: int, what: str) -> tuple[int, ...]:
    if not isinstance(v, list) or any(type(x) is not int or not lo <= x < hi for x in v):
        raise ValueError(f"{what}: expected a list of ints in [{lo}, {hi})")
    return tuple(v)


def _opt_int(v: Any, lo: int, hi: int, what: str) -> int | None:
    if v is None:
        return None
    if type(v) is not int or not lo <= v < hi:
        raise ValueError(f"{what}: expected an int in [{lo}, {hi}) or null")
    return v


def _int(v: Any, lo: int, hi: int, what: str) -> int:
    if v is None:
        raise ValueError(f"{what}: missing")
    out = _opt_int(v, lo, hi, what)
    assert out is not None
    return out


def _build(d: dict, nested: bool = False) -> HandState:
    if not isinstance(d, dict):
        raise ValueError("expected an object")
    missing = [f for f in _STATE_FIELDS if f not in d]
    if missing:
        raise ValueError(f"missing fields {missing}")
    variant = d["variant"]
    options = validate_options(variant, d["options"])
    n = options["players"]
    if d["n_players"] != n:
        raise ValueError("n_players does not match the options")
    seed = d["seed"]
    if type(seed) not in (int, str):
        raise ValueError("seed must be an int or a string")
    indicator = _int(d["indicator"], 0, 104, "indicator")
    okey_kind = okey_kind_for(kind_of(indicator))

    def seats(v: Any, what: str) -> list:
        if not isinstance(v, list) or len(v) != n:
            raise ValueError(f"{what}: expected one entry per seat")
        return v

    racks = tuple(_ints(r, 0, N_TILES, "rack") for r in seats(d["racks"], "racks"))
    discards = tuple(_ints(r, 0, N_TILES, "discards") for r in seats(d["discards"], "discards"))
    melds = []
    if not isinstance(d["melds"], list):
        raise ValueError("melds: expected a list")
    ace_high = rules_for(variant).ace_high
    for m in d["melds"]:
        if not isinstance(m, dict):
            raise ValueError("meld: expected an object")
        tiles = _ints(m["tiles"], 0, N_TILES, "meld tiles")
        plays = _ints(m["plays"], 0, 52, "meld plays")
        kind = m["kind"]
        if kind not in MELD_KINDS:
            raise ValueError(f"meld kind {kind!r} is not one of {MELD_KINDS}")
        if len(plays) != len(tiles):
            raise ValueError("meld: plays must match tiles")
        assign = {t: k for t, k in zip(tiles, plays, strict=True) if kind_of(t) == okey_kind}
        shape = classify(list(tiles), okey_kind, ace_high=ace_high, allow=(kind,), assign=assign)
        if shape is None or sorted(shape.plays) != sorted(plays):
            raise ValueError(f"meld {m.get('id')!r} is not a valid {kind!r}")
        melds.append(
            TableMeld(
                _int(m["id"], 1, 1 << 30, "meld id"),
                _int(m["owner"], 0, n, "meld owner"),
                _int(m["laid_by"], 0, n, "meld laid_by"),
                kind,
                tiles,
                plays,
            )
        )
    phase = d["phase"]
    if phase not in (DRAW, PLAY, OVER):
        raise ValueError("bad phase")
    opened = tuple(seats(d["opened"], "opened"))
    if any(o not in (None, "melds", "pairs") for o in opened):
        raise ValueError("opened: expected null, 'melds' or 'pairs'")
    for key in ("scores", "actions", "shown", "turn_ends", "provisional", "flipped"):
        if not isinstance(d[key], list):
            raise ValueError(f"{key}: expected a list")
    for ln in d["scores"]:
        if (
            not isinstance(ln, dict)
            or not isinstance(ln.get("detail"), dict)
            or type(ln.get("points")) is not int
            or type(ln.get("seat")) is not int
            or not 0 <= ln["seat"] < n
            or not isinstance(ln.get("reason"), str)
        ):
            raise ValueError("bad score line")
    res = d["result"]
    if (res is None) != (phase != OVER):
        raise ValueError("result: an object exactly when the hand is over")
    if res is not None and (
        not isinstance(res, dict)
        or not isinstance(res.get("ending"), str)
        or not (res.get("finisher") is None or type(res.get("finisher")) is int)
        or not isinstance(res.get("lines"), list)
        or not isinstance(res.get("detail"), dict)
        or not isinstance(res.get("totals"), list)
        or len(res["totals"]) != n
        or any(type(x) is not int for x in res["totals"])
        or any(
            not isinstance(x, dict) or not isinstance(x.get("detail"), dict) for x in res["lines"]
        )
    ):
        raise ValueError("result: damaged")
    ct = res.get("closed_tile") if res else None
    if ct is not None and (type(ct) is not int or not 0 <= ct < N_TILES):
        raise ValueError("result: bad closed tile")
    ctx = d["context"]
    if not isinstance(ctx, dict) or set(ctx) - {"totals"}:
        raise ValueError("context: expected an object (only 'totals')")
    if "totals" in ctx and (
        not isinstance(ctx["totals"], list)
        or len(ctx["totals"]) != n
        or any(type(x) is not int for x in ctx["totals"])
    ):
        raise ValueError("context totals: one int per seat")
    # each action as ``apply`` stored it (a canonical, well-formed action), so the views
    # and the replay of a loaded state read sound actions; ``bad_action`` → ``bad_state``
    actions = tuple(normalize_action(a, n) for a in d["actions"])
    if type(d["undone"]) is not bool:
        raise ValueError("undone: expected a bool")
    if nested and d["snapshot"] is not None:
        raise ValueError("a snapshot holds no snapshot")
    snapshot = _build(d["snapshot"], nested=True) if d["snapshot"] is not None else None
    state = HandState(
        variant=variant,
        options=options,
        seed=seed,
        starter=_int(d["starter"], 0, n, "starter"),
        n_players=n,
        indicator=indicator,
        okey_kind=okey_kind,
        racks=racks,
        pile=_ints(d["pile"], 0, N_TILES, "pile"),
        discards=discards,
        melds=tuple(melds),
        turn=_int(d["turn"], 0, n, "turn"),
        phase=phase,
        turns_done=tuple(_ints(d["turns_done"], 0, 1 << 30, "turns_done")),
        turn_no=_int(d["turn_no"], 0, 1 << 30, "turn_no"),
        opened=opened,
        opened_turn=tuple(_opt_int(x, 0, 1 << 30, "opened_turn") for x in d["opened_turn"]),
        limit=_opt_int(d["limit"], 0, 10_000, "limit"),
        takeable=_opt_int(d["takeable"], 0, N_TILES, "takeable"),
        taken=_opt_int(d["taken"], 0, N_TILES, "taken"),
        drawn=_opt_int(d["drawn"], 0, N_TILES, "drawn"),
        undone=d["undone"],
        snapshot=snapshot,
        scores=tuple(dict(x) for x in d["scores"]),
        shown=_ints(d["shown"], 0, n, "shown"),
        flipped=frozenset(_ints(d["flipped"], 0, N_TILES, "flipped")),
        turn_okeys=frozenset(_ints(d["turn_okeys"], 0, N_TILES, "turn_okeys")),
        turn_ends=frozenset(
            (_int(x[0], 1, 1 << 30, "turn_ends"), str(x[1])) for x in d["turn_ends"]
        ),
        provisional=_ints(d["provisional"], 1, 1 << 30, "provisional"),
        next_meld_id=_int(d["next_meld_id"], 1, 1 << 30, "next_meld_id"),
        result=d["result"],
        actions=actions,
        context=dict(d["context"]),
    )
    if "took" in d:
        state.took = tuple(_ints(x, 0, N_TILES, "took") for x in seats(d["took"], "took"))
    else:  # saved before the log existed: rebuild it from the hand's own actions
        state.took = _took_by_replay(state)
    if len(state.turns_done) != n or len(state.opened_turn) != n:
        raise ValueError("per-seat lists have the wrong length")
    if sorted(state.all_tiles()) != list(range(N_TILES)):
        raise ValueError("the 106 tiles are not all accounted for exactly once")
    # a provisional opening is melds on the table (the discard confirms or returns them)
    if not set(state.provisional) <= {m.id for m in state.melds}:
        raise ValueError("provisional: not melds on the table")
    return state


def _took_by_replay(state: HandState) -> tuple[tuple[int, ...], ...]:
    """The public taken-discards log of a state saved without one (older saves)."""
    try:
        return replay(state.record()).took
    except (Refusal, ValueError):
        return ((),) * state.n_players


def state_from_json(data: dict | str | bytes, *, verify: bool = False) -> HandState:
    """Load a state saved by ``state_to_json``. ``verify=True`` also replays its
    actions from the seed and refuses a state that differs (catches tampering
    that keeps the structure valid)."""
    d = _load(data, "bad_state")
    try:
        state = _build(d)
    except Refusal as exc:
        raise Refusal("bad_state", f"{exc.code}: {exc.message}") from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise Refusal("bad_state", f"damaged state: {exc}") from None
    if verify:
        again = replay(state.record())
        if again != state:
            raise Refusal("bad_state", "the state does not match a replay of its own actions")
    return state


def record_from_json(data: dict | str | bytes) -> dict:
    """Validate the outer shape of a hand record (see ``replay``)."""
    d = _load(data, "bad_record")
    for key in ("variant", "seed", "starter", "actions"):
        if key not in d:
            raise Refusal("bad_record", f"missing {key!r}")
    if not isinstance(d["actions"], list):
        raise Refusal("bad_record", "actions must be a list")
    if type(d["seed"]) not in (int, str) or type(d["starter"]) is not int:
        raise Refusal("bad_record", "seed must be an int or a string, starter an int")
    if not isinstance(d.get("options", {}), dict) or not isinstance(d.get("context", {}), dict):
        raise Refusal("bad_record", "options and context must be objects")
    return d


def replay(record: dict | str | bytes) -> HandState:
    """Rebuild a hand from ``{"format": 1, "variant", "options", "seed", "starter",
    "actions": [...], "context"?}``. An action that is refused raises the
    ``Refusal`` (with ``detail["index"]`` set to its position)."""
    d = record_from_json(record)
    try:
        state = new_hand(
            d["variant"], d.get("options"), d["seed"], d["starter"], context=d.get("context")
        )
    except Refusal:
        raise
    except ValueError as exc:
        raise Refusal("bad_record", str(exc)) from None
    for i, action in enumerate(d["actions"]):
        try:
            state, _ = apply(state, action)
        except Refusal as exc:
            exc.detail["index"] = i
            raise
    return state


def replay_from(state: HandState, actions: list[dict] | tuple[dict, ...]) -> HandState:
    """Continue a hand from one of its own states (a snapshot) with the actions
    accepted after it, in order: the state a full ``replay`` of the seed and all
    the actions gives. A refused action raises the ``Refusal`` with
    ``detail["index"]`` set to its index in the whole hand."""
    start = len(state.actions)
    for i, action in enumerate(actions):
        try:
            state, _ = apply(state, action)
        except Refusal as exc:
            exc.detail["index"] = start + i
            raise
    return state


__all__ = [
    "DRAW",
    "FORMAT",
    "OVER",
    "PLAY",
    "HandState",
    "new_hand",
    "record_from_json",
    "replay",
    "replay_from",
    "state_from_json",
    "state_to_json",
]
