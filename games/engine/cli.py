"""Command line: ``python -m games.engine <command> …`` (JSON on stdout).

Commands
--------
``rack --variant V --indicator R5 "R3 R4 …"``
    Evaluate a rack of N or N + 1 tiles, N the rule set's ``rack_size`` (14; 101: 21),
    N + 1 the starter's deal (lay-down rule sets: 1 to N + 1 tiles)::

        {"winning": bool, "kind": "melds"|"pairs"|null, "melds": [[tile…]…],
         "leftover": [tile…], "opening_total": int|null}

    ``winning`` is the whole-rack close of rules.md §1 under the variant's ace
    rule: 14 tiles that split entirely into runs and groups or seven pairs (a
    rack size N other than 14: N tiles that split entirely into melds); for
    N + 1 tiles, some tile can be put down and the other N are winning (it is
    then the one ``leftover`` tile). A winning rack reports its winning arrangement,
    any other rack its best arrangement (fewest tiles left over; lay-down
    variants break ties by the opening total). ``opening_total`` is that
    arrangement's total under the variant's values (fifty-one: sum of numbers;
    seventeen: meld values) and null for whole-rack variants (classic, rummy).
    Melds list the tiles in table order; ``plays`` gives what each tile plays.

``meld --variant V --indicator R5 "…"``
    ``{"valid": bool, "kind": "run"|"group"|"pair"|null, "points": int|null,
    "plays": [tile…]|null}``: points are the meld's value in lay-down variants
    (fifty-one: sum of numbers, an okey counting the tile it plays [D9];
    seventeen: rules.md §5 values) and null in classic and rummy, which do not
    count melds. Okeys take the default placement of ``melds.classify``.

``deal --variant V --seed N [--players n]``
    ``{"racks": [[tile…]…], "indicator": tile, "okey": tile, "pile": [tile…]}``
    (seat 0 starts; the pile's last tile is the top; each rack has the rule set's
    ``rack_size`` tiles, the starter's one more).

``simulate --variant V --hands N --seed S``
    Random-play hands through ``games.engine.simulate.simulate``.

The measuring tools (the throughput bench, the bots' arena) are not engine commands: they
live in ``games/tools/engine/`` and run as ``python -m games.tools.engine bench|arena …``
on this same command line (``main(argv, commands=…)``).

``--variant`` is any rule set of the registry (``games.engine.rules.RULES``: every module
of ``games/engine/rulesets``); a new rule set needs no edit here.

Invalid input exits with status 2 and prints ``{"error": code, "message": text}``.

Adding a command: write ``def _my_args(p)`` and a handler ``def _my(args) -> dict``
decorated with ``@command("name", "help", _my_args)``; the handler returns the
JSON object (or raises ``CliError``/``NotationError``/``Refusal``).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any, NoReturn

from .rules import RULES, Rules
from .tiles import (
    FALSE_KIND,
    NotationError,
    deal,
    format_tiles,
    kind_notation,
    kind_of,
    notation,
    okey_kind_for,
    parse_kind,
    parse_tiles,
)


class CliError(Exception):
    """Bad input: printed as ``{"error": code, "message": message}``, exit status 2."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # argparse's own errors become JSON too
        raise CliError("bad_arguments", message)


Handler = Callable[[argparse.Namespace], Any]
Commands = dict[str, tuple[str, Callable[[argparse.ArgumentParser], None], Handler]]
COMMANDS: Commands = {}


def command(
    name: str,
    help_text: str,
    add_arguments: Callable[[argparse.ArgumentParser], None],
    commands: Commands = COMMANDS,
):
    """Register a subcommand in ``commands`` (the engine's own unless given); its handler
    returns the JSON object to print."""

    def deco(fn: Handler) -> Handler:
        commands[name] = (help_text, add_arguments, fn)
        return fn

    return deco


# ---------------------------------------------------------------- helpers


def _rules(variant: str) -> Rules:
    if variant not in RULES:
        raise CliError("bad_variant", f"unknown variant {variant!r} (choose from {list(RULES)})")
    return RULES[variant]


def _okey_kind(indicator: str) -> tuple[int, int]:
    """(indicator kind, okey kind)."""
    words = indicator.split()
    if len(words) != 1:
        raise CliError("bad_indicator", "give exactly one indicator tile (e.g. R5)")
    kind = parse_kind(words[0])
    if kind == FALSE_KIND:
        raise NotationError("bad_indicator", "a false joker cannot be the indicator (D1)")
    return kind, okey_kind_for(kind)


def _rack(text: str, indicator_kind: int) -> list[int]:
    ids = parse_tiles(text)
    if sum(1 for t in ids if kind_of(t) == indicator_kind) > 1:
        raise NotationError(
            "too_many_copies",
            f"{kind_notation(indicator_kind)} is the indicator: only its twin is in play",
        )
    return ids


def _tiles(ids) -> list[str]:
    return [notation(t) for t in ids]


def _variant_arg(p: argparse.ArgumentParser) -> None:
    *names, last = RULES  # every rule set of the registry (rulesets/)
    p.add_argument("--variant", required=True, help=f"{', '.join(names)} or {last}")


# ------------------------------------------------------------------- rack


def _rack_args(p: argparse.ArgumentParser) -> None:
    _variant_arg(p)
    p.add_argument("--indicator", required=True, help="the face-up indicator tile, e.g. R5")
    p.add_argument("tiles", help='the rack, e.g. "R3 R4 R5 K9 B9 Y9 F"')


@command("rack", "evaluate a rack (winning? best arrangement)", _rack_args)
def cmd_rack(args: argparse.Namespace) -> dict:
    from .evaluate import Arrangement, best_arrangement, is_winning

    rules = _rules(args.variant)
    ind, ok = _okey_kind(args.indicator)
    ids = _rack(args.tiles, ind)
    lay_down = rules.values is not None
    size = rules.rack_size  # each seat's deal; the starter's is one more (101: 21, 22)
    allowed = range(1, size + 2) if lay_down else (size, size + 1)
    if len(ids) not in allowed:
        counts = f"1 to {size + 1}" if lay_down else f"{size} or {size + 1}"
        raise CliError(
            "bad_tile_count", f"{args.variant} racks hold {counts} tiles, not {len(ids)}"
        )
    ace_high = rules.ace_high

    def winning(tiles: list[int]) -> Arrangement | None:
        if size == 14:
            return is_winning(tiles, ok, ace_high=ace_high)
        arr = best_arrangement(tiles, ok, ace_high=ace_high)
        return arr if not arr.leftover else None

    win: Arrangement | None = None
    if len(ids) == size:
        win = winning(ids)
    elif len(ids) == size + 1:
        seen = set()
        for t in ids:  # put each kind down once; okeys last (an okey close scores more)
            k = kind_of(t)
            if k in seen:
                continue
            seen.add(k)
            arr = winning([x for x in ids if x != t])
            if arr is not None and (win is None or kind_of(t) == ok):
                win = Arrangement(arr.kind, arr.melds, [t], None)
    best = best_arrangement(ids, ok, ace_high=ace_high, values=rules.values)
    if win is not None and lay_down:
        if len(best.leftover) == len(ids) - size:
            win = best  # as winning, with the best opening total
        else:
            total = sum(rules.meld_value(m.kind, m.plays) for m in win.melds)
            win = Arrangement(win.kind, win.melds, win.leftover, total)
    arr = win or best
    return {
        "winning": win is not None,
        "kind": arr.kind,
        "melds": [_tiles(m.tiles) for m in arr.melds],
        "plays": [[kind_notation(k) for k in m.plays] for m in arr.melds],
        "leftover": _tiles(arr.leftover),
        "opening_total": arr.opening_total if lay_down else None,
    }


# ------------------------------------------------------------------- meld


def _meld_args(p: argparse.ArgumentParser) -> None:
    _rack_args(p)


@command("meld", "classify one meld (run, group, pair) and its points", _meld_args)
def cmd_meld(args: argparse.Namespace) -> dict:
    from .melds import classify

    rules = _rules(args.variant)
    ind, ok = _okey_kind(args.indicator)
    ids = _rack(args.tiles, ind)
    if not 2 <= len(ids) <= 13:
        raise CliError("bad_tile_count", f"a meld has 2 to 13 tiles, not {len(ids)}")
    shape = classify(ids, ok, ace_high=rules.ace_high)
    if shape is None:
        return {"valid": False, "kind": None, "points": None, "plays": None}
    points = rules.meld_value(shape.kind, shape.plays) if rules.values is not None else None
    return {
        "valid": True,
        "kind": shape.kind,
        "points": points,
        "plays": [kind_notation(k) for k in shape.plays],
    }


# ------------------------------------------------------------------- deal


def _deal_args(p: argparse.ArgumentParser) -> None:
    _variant_arg(p)
    p.add_argument("--seed", required=True, help="any text or number")
    p.add_argument("--players", type=int, default=None, help="one of the rule set's table sizes")


@command("deal", "the seeded deal of a hand", _deal_args)
def cmd_deal(args: argparse.Namespace) -> dict:
    from .options import validate_options
    from .refusals import Refusal

    rules = _rules(args.variant)
    options = {} if args.players is None else {"players": args.players}
    try:
        players = validate_options(args.variant, options)["players"]
    except Refusal as e:
        raise CliError("bad_player_count", e.message) from None
    d = deal(args.seed, players, 0, rules.rack_size)  # the rule set's deal (101: 21/22)
    return {
        "racks": [_tiles(r) for r in d.racks],
        "indicator": notation(d.indicator),
        "okey": kind_notation(d.okey_kind),
        "pile": _tiles(d.pile),
    }


# --------------------------------------------------------------- simulate


def _simulate_args(p: argparse.ArgumentParser) -> None:
    _variant_arg(p)
    p.add_argument("--hands", type=int, default=10)
    p.add_argument("--seed", default="0")


@command("simulate", "play random hands (games.engine.simulate)", _simulate_args)
def cmd_simulate(args: argparse.Namespace) -> dict:
    _rules(args.variant)
    if args.hands < 1:
        raise CliError("bad_arguments", "--hands must be at least 1")
    from .simulate import simulate

    return simulate(args.variant, args.hands, args.seed)


# ------------------------------------------------------------------- main


def build_parser(
    commands: Commands = COMMANDS, prog: str = "python -m games.engine"
) -> argparse.ArgumentParser:
    parser = _Parser(prog=prog, description="Okey rules engine tools")
    sub = parser.add_subparsers(dest="command", metavar="command", parser_class=_Parser)
    for name, (help_text, add_arguments, _fn) in commands.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        try:
            add_arguments(p)
        except ImportError as e:  # one missing module must not break the other commands
            p.description = f"{help_text} (unavailable: {e})"
    return parser


def main(
    argv: list[str] | None = None,
    commands: Commands = COMMANDS,
    prog: str = "python -m games.engine",
) -> int:
    """Run one of ``commands``; print its JSON object (or text table); return the exit
    status."""
    from .refusals import Refusal

    try:
        parser = build_parser(commands, prog)
        args = parser.parse_args(argv)
        if not args.command:
            raise CliError("bad_arguments", f"choose a command: {', '.join(commands)}")
        out = commands[args.command][2](args)
    except (CliError, NotationError) as e:
        print(json.dumps({"error": e.code, "message": e.message}))
        return 2
    except Refusal as e:
        print(json.dumps({"error": e.code, "message": e.message}))
        return 2
    if isinstance(out, str):
        print(out)
    else:
        print(json.dumps(out))
    return 0


__all__ = ["COMMANDS", "CliError", "Commands", "build_parser", "command", "format_tiles", "main"]
