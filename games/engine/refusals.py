"""Refusals: every illegal action raises ``Refusal(code, message)``.

The codes are stable snake_case identifiers; the web layer translates by code.
``REFUSALS`` is the one table of every code with its default English message.
A refused action never changes the state it was applied to.
"""

from __future__ import annotations

REFUSALS: dict[str, str] = {
    # malformed input
    "bad_action": "This action is malformed (missing or wrong fields, unknown type or tile ids).",
    "bad_option": "This table option is not valid for the variant.",
    "bad_variant": "Unknown variant.",
    "bad_state": "This saved hand state is damaged or was tampered with.",
    "bad_record": "This hand record is damaged or was tampered with.",
    "bad_json": "This is not valid JSON.",
    "bad_format": "Unsupported format version.",
    # turn order and phases
    "hand_over": "The hand is over.",
    "not_your_turn": "It is not your turn.",
    "wrong_phase": "You cannot do that at this point of your turn.",
    "already_drawn": "You have already drawn this turn.",
    "must_draw": "Draw a tile (or take the previous discard) first.",
    "nothing_to_take": "There is no discard you may take.",
    "take_after_undo": "After undoing a take the turn starts over with a draw from the pile.",
    # tiles
    "tile_not_in_rack": "That tile is not in your rack.",
    "keep_one_tile": "You must keep at least one tile to discard.",
    # closing (whole-rack variants)
    "not_winning": "The 14 tiles you keep do not form a winning rack.",
    "must_finish": "The pile is empty: with the taken discard you must close this turn (or undo).",
    "not_allowed_in_variant": "This action does not exist in this variant.",
    # showing the indicator
    "not_indicator_twin": "That tile is not the indicator's twin.",
    "show_too_late": "The indicator's twin can only be shown during your first turn.",
    "already_shown": "The indicator's twin has already been shown.",
    # melds
    "not_a_meld": "These tiles do not form a valid meld.",
    "mixed_opening": "Runs/groups and pairs never mix in one opening.",
    "too_few_pairs": "A pairs opening needs at least five pairs.",
    "below_opening_limit": "Your opening does not reach the required total.",
    "already_opened": "You have already opened.",
    "not_opened": "You must open before doing that.",
    "wrong_meld_type": "Your opening type does not allow this meld.",
    "unknown_meld": "There is no such meld on the table.",
    "does_not_fit": "That tile does not fit on that meld.",
    "no_okey_to_swap": "That meld holds no okey standing for that tile.",
    "swap_forbidden": "That okey cannot be taken out now.",
    "end_used_this_turn": "Only one tile per meld end per turn.",
    "pairs_opener_cannot_add": "A pairs opener never adds tiles to melds.",
    "bad_receiver": "A pair can only be given to a player who opened with pairs.",
    # taking the discard
    "must_use_taken_discard": "You must use the taken discard this turn (or undo).",
    "must_use_in_new_meld": "The taken discard must be used in a new meld.",
    "taken_not_in_new_meld": (
        "Once you have opened, a taken discard can only be added to a meld on the table,"
        " not laid in a new one."
    ),
    "nothing_to_undo": "There is no taken discard to give back.",
    # okeys
    "okey_discard_forbidden": "An okey may only be discarded to finish.",
    "not_an_okey": "Only an okey can be turned face down.",
    "bad_arrangement": "The new order must hold exactly the tiles of your rack.",
    # table policy (checked where players' actions enter, not by apply)
    "too_many_free_actions": "Too many flips in a row: wait for the next move.",
}


class Refusal(ValueError):
    """An illegal action, bad option or damaged data: stable ``code`` + English ``message``."""

    def __init__(self, code: str, message: str | None = None, **detail: object) -> None:
        if code not in REFUSALS:
            raise KeyError(f"unknown refusal code {code!r}")
        self.code = code
        self.message = message or REFUSALS[code]
        self.detail = detail
        super().__init__(f"{code}: {self.message}")

    def to_json(self) -> dict:
        return {"code": self.code, "message": self.message, "detail": dict(self.detail)}
