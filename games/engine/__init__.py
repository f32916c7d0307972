"""The Okey rules engine (pure Python; no Django). See API.md."""

from .actions import apply, is_penalty_tile, legal_actions, normalize_action, timeout_action
from .options import VARIANTS, validate_options
from .refusals import REFUSALS, Refusal
from .rules import RULES, rules_for
from .state import FORMAT, HandState, new_hand
from .tiles import deal, format_tiles, notation, parse_tiles

__all__ = [
    "FORMAT",
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
    "timeout_action",
    "validate_options",
]
