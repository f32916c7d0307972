"""The wire format of actions, and the JSON of hand states and records.

``action_from_json`` parses and checks one action a client sends (``bad_json``,
``bad_action``). The state's JSON codec (``state_to_json``, ``state_from_json``),
``record_from_json`` and ``replay`` live in ``state.py`` beside ``HandState`` (whose
``to_json`` / ``from_json`` use them); they are importable from here too.
"""

from __future__ import annotations

import json

from .actions import normalize_action
from .refusals import Refusal
from .state import record_from_json, replay, state_from_json, state_to_json


def action_from_json(data: str | bytes | dict, n_players: int = 4) -> dict:
    """Parse and validate the shape of one action (``bad_action`` / ``bad_json``)."""
    if isinstance(data, (str, bytes, bytearray)):
        try:
            data = json.loads(data)
        except (ValueError, UnicodeDecodeError):
            raise Refusal("bad_json") from None
    return normalize_action(data, n_players)


__all__ = [
    "action_from_json",
    "record_from_json",
    "replay",
    "state_from_json",
    "state_to_json",
]
