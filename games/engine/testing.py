"""Build specific hand situations from notation (for tests, fixtures and bots).

``make_state("fifty-one", racks=["R5 R6 R7 …", …], indicator="B4", …)`` gives a
``HandState`` in which every one of the 106 tiles is somewhere: tiles not
named go to the bottom of the pile (or into old discards, ``rest="discards"``,
to build an empty-pile situation). The first mention of a kind gets copy 0,
the second copy 1, in the order: indicator, racks, melds, discards,
takeable, pile.
"""

from __future__ import annotations

from typing import Any

from .actions import apply
from .melds import PAIR, classify
from .options import validate_options
from .rules import rules_for
from .state import DRAW, PLAY, HandState
from .table import TableMeld
from .tiles import N_TILES, NotationError, ids_of_kind, kind_of, okey_kind_for, parse_kind


class _Alloc:
    def __init__(self) -> None:
        self.used: set[int] = set()

    def one(self, word: str) -> int:
        k = parse_kind(word)
        for t in ids_of_kind(k):
            if t not in self.used:
                self.used.add(t)
                return t
        raise NotationError("too_many_copies", f"{word}: both copies are already placed")

    def many(self, text: str | None) -> tuple[int, ...]:
        return tuple(self.one(w) for w in (text or "").split())


def make_state(
    variant: str,
    racks: list[str | None],
    *,
    indicator: str,
    pile: str | None = None,
    discards: list[str] | None = None,
    melds: list[dict] | None = None,
    takeable: str | None = None,
    opened: list[str | None] | None = None,
    limit: int | None = None,
    turn: int = 0,
    phase: str | None = None,
    starter: int = 0,
    turns_done: list[int] | None = None,
    options: dict | None = None,
    rest: str = "pile",
    seed: str = "test",
    context: dict | None = None,
    took: list[str] | None = None,
) -> HandState:
    """A hand state from notation strings.

    A rack given as ``None`` is filled with 14 unnamed tiles (lowest free ids).
    ``pile`` lists tiles from the top (first = next drawn). ``melds`` are
    ``{"owner": seat, "tiles": "R5 R6 F", "assign": {"F"…}?}`` dicts (an okey's
    part is found by ``classify`` unless ``"plays"`` lists each tile's kind).
    ``takeable`` (notation) is appended to the previous seat's discards and
    may be taken. ``phase`` defaults to "play" when the player to move holds
    one more tile than the others, else "draw". ``turns_done`` defaults to 1
    for everyone (past the first turn) — pass zeros for a first-turn situation.
    ``took`` names, per seat, the tiles it took from a discard pile earlier this
    hand (the public log, oldest first); each is found in that seat's rack or, if
    not there, on the table.
    """
    opts = validate_options(variant, options)
    n = opts["players"]
    if len(racks) != n:
        raise ValueError(f"{variant} with {n} players needs {n} racks")
    al = _Alloc()
    ind = al.one(indicator)
    okey_kind = okey_kind_for(kind_of(ind))
    rack_ids = [al.many(r) if r is not None else () for r in racks]
    table: list[TableMeld] = []
    ace_high = rules_for(variant).ace_high
    for i, m in enumerate(melds or []):
        tiles = al.many(m["tiles"])
        if "plays" in m:
            plays = tuple(parse_kind(w) for w in m["plays"].split())
            shape_tiles = tiles
        else:
            shape = classify(list(tiles), okey_kind, ace_high=ace_high)
            if shape is None:
                raise ValueError(f"{m['tiles']!r} is not a meld")
            shape_tiles, plays = shape.tiles, shape.plays
        kind = m.get("kind") or _kind_of_plays(plays, len(tiles))
        table.append(TableMeld(i + 1, m["owner"], m.get("laid_by", m["owner"]), kind,
                               tuple(shape_tiles), tuple(plays)))  # fmt: skip
    disc = [list(al.many(d)) for d in (discards or [""] * n)]
    take_id = None
    if takeable is not None:
        take_id = al.one(takeable)
        disc[(turn - 1) % n].append(take_id)
    pile_top = list(al.many(pile))
    for s_, r in enumerate(racks):
        if r is None:  # filler rack: 14 unnamed tiles (15 for the player to move in "play")
            size = 15 if (s_ == turn and phase == PLAY) else 14
            fill = [t for t in range(N_TILES) if t not in al.used and t < 104][:size]
            al.used.update(fill)
            rack_ids[s_] = tuple(fill)
    left = [t for t in range(N_TILES) if t not in al.used]
    if rest == "pile":
        pile_ids = tuple(left) + tuple(reversed(pile_top))
    else:
        pile_ids = tuple(reversed(pile_top))
        for j, t in enumerate(left):
            # old discards: never the takeable tile (which stays on top)
            seat = (turn + 1 + j) % n
            disc[seat].insert(0, t)
    took_ids: list[tuple[int, ...]] = []
    for s_, words in enumerate(took or [""] * n):
        where = [*rack_ids[s_], *(t for m in table for t in m.tiles)]
        got: list[int] = []
        for w in (words or "").split():
            k = parse_kind(w)
            found = next((x for x in where if kind_of(x) == k and x not in got), None)
            if found is None:
                raise ValueError(f"took: {w} is neither in seat {s_}'s rack nor on the table")
            got.append(found)
        took_ids.append(tuple(got))
    if opened is None:
        opened = [None] * n
        for meld in table:
            opened[meld.owner] = opened[meld.owner] or ("pairs" if meld.kind == PAIR else "melds")
    if phase is None:
        others = [len(r) for s, r in enumerate(rack_ids) if s != turn]
        phase = PLAY if others and len(rack_ids[turn]) > max(others) else DRAW
    return HandState(
        variant=variant,
        options=opts,
        seed=seed,
        starter=starter,
        n_players=n,
        indicator=ind,
        okey_kind=okey_kind,
        racks=tuple(rack_ids),
        pile=pile_ids,
        discards=tuple(tuple(d) for d in disc),
        melds=tuple(table),
        turn=turn,
        phase=phase,
        turns_done=tuple(turns_done if turns_done is not None else [1] * n),
        turn_no=n,
        opened=tuple(opened),
        opened_turn=tuple(0 if o else None for o in opened),
        limit=limit,
        takeable=take_id,
        next_meld_id=len(table) + 1,
        context=dict(context or {}),
        took=tuple(took_ids),
    )


def _kind_of_plays(plays: tuple[int, ...], n: int) -> str:
    if n == 2:
        return "pair"
    return "group" if len({p % 13 for p in plays}) == 1 else "run"


def ids(state: HandState, seat: int, text: str) -> list[int]:
    """The ids, in ``seat``'s rack, of the tiles named in ``text`` (in order)."""
    pool = list(state.racks[seat])
    out = []
    for w in text.split():
        k = parse_kind(w)
        t = next((x for x in pool if kind_of(x) == k), None)
        if t is None:
            raise ValueError(f"{w} is not in seat {seat}'s rack")
        pool.remove(t)
        out.append(t)
    return out


def tile(state: HandState, seat: int, word: str) -> int:
    return ids(state, seat, word)[0]


def play(state: HandState, *actions: dict) -> tuple[HandState, list[dict]]:
    """Apply several actions; return the final state and all events."""
    events: list[Any] = []
    for a in actions:
        state, ev = apply(state, a)
        events += ev
    return state, events
