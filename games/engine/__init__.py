"""The Okey rules engine (pure Python; no Django). See API.md."""

from .actions import (
    apply,
    is_penalty_tile,
    legal_actions,
    normalize_action,
    take_useful,
    timeout_action,
)
from .game import Game, HandResult
from .options import VARIANTS, validate_options
from .refusals import REFUSALS, Refusal
from .rules import RULES, rules_for
from .serial import action_from_json, record_from_json, replay, state_from_json, state_to_json
from .simulate import simulate
from .state import FORMAT, HandState, new_hand
from .tiles import deal, format_tiles, notation, parse_tiles
from .view import view_for

__all__ = [
    "FORMAT",
    "Game",
    "HandResult",
    "action_from_json",
    "record_from_json",
    "replay",
    "simulate",
    "state_from_json",
    "state_to_json",
    "view_for",
    "REFUSALS",
    "RULES",
    "VARIANTS",
    "HandState",
    "Refusal",
    "apply",
    "deal",
    "format_tiles",
    "is_penalty_tile",
    "legal_actions",
    "new_hand",
    "normalize_action",
    "notation",
    "parse_tiles",
    "rules_for",
    "take_useful",
    "timeout_action",
    "validate_options",
]
