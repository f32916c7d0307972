"""Translated texts for the engine's stable codes (refusals and score reasons).

The engine speaks English with stable codes; the web layer shows the player's
language, falling back to the engine's own message for a code it does not know.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy

REFUSALS = {
    "not_your_turn": gettext_lazy("It is not your turn."),
    "wrong_phase": gettext_lazy("You cannot do that at this point of your turn."),
    "must_draw": gettext_lazy("Draw a tile first."),
    "already_drawn": gettext_lazy("You have already drawn this turn."),
    "tile_not_in_rack": gettext_lazy("That tile is not in your rack."),
    "not_a_meld": gettext_lazy("Those tiles do not form a run, group or pair."),
    "below_opening_limit": gettext_lazy("Your opening does not reach the limit."),
    "must_use_taken_discard": gettext_lazy(
        "Use the tile you took in a meld this turn, or undo the turn."
    ),
    "okey_discard_forbidden": gettext_lazy("You may discard an okey only to finish."),
    "hand_over": gettext_lazy("The hand is over."),
    "not_opened": gettext_lazy("Open first."),
    "not_winning": gettext_lazy("Those tiles are not a winning rack."),
    "nothing_to_take": gettext_lazy("There is no discard to take."),
    "unknown_meld": gettext_lazy("There is no such meld on the table."),
    "bad_action": gettext_lazy("That move is not understood."),
    "stale_state": gettext_lazy("The table had moved on; you now see the current state."),
    "malformed_frame": gettext_lazy("That message could not be read."),
    "frame_too_large": gettext_lazy("That message is too large."),
    "rate_limited": gettext_lazy("Too many messages; slow down."),
    "not_seated": gettext_lazy("Spectators cannot play."),
    "table_full": gettext_lazy("This table has no free seat."),
    "hand_not_over": gettext_lazy("The hand is still being played."),
    "game_over": gettext_lazy("The game is over."),
    "bad_option": gettext_lazy("That table option is not allowed."),
    "not_host": gettext_lazy("Only the table's host can do that."),
    "no_place": gettext_lazy("That tile fits no meld on the table."),
}

REASONS = {
    # classic: lines go to the players who lost to the close; rummy: to the closer
    "close": gettext_lazy("Hand closed"),
    "okey_close": gettext_lazy("Hand closed with an okey"),
    "pairs_close": gettext_lazy("Hand closed with seven pairs"),
    "pairs_okey_close": gettext_lazy("Seven pairs closed with an okey"),
    "indicator_shown": gettext_lazy("Indicator shown"),
    "finished": gettext_lazy("Finished the hand"),
    "tiles_left": gettext_lazy("Tiles left in the rack"),
    "not_opened": gettext_lazy("Never opened"),
    "partner_finished": gettext_lazy("Partner finished"),
    "layoff": gettext_lazy("Tile added to their meld"),
    "okey_swap": gettext_lazy("Okey swapped out of their meld"),
    "penalty_tile": gettext_lazy("Discarded a usable tile"),
    "discard_taken": gettext_lazy("Their discard was taken"),
    "okey_given": gettext_lazy("Okey added to their meld"),
    "okey_taken": gettext_lazy("Okey taken from their meld"),
    "pair_given": gettext_lazy("Pair laid on them"),
    "usable_discard": gettext_lazy("Discarded a usable tile"),
    "okey_discard": gettext_lazy("Tried to discard an okey"),
}

ENDINGS = {
    "close": gettext_lazy("%(name)s closed the hand."),
    "okey_close": gettext_lazy("%(name)s closed the hand with an okey."),
    "pairs_close": gettext_lazy("%(name)s closed with seven pairs."),
    "pairs_okey_close": gettext_lazy("%(name)s closed seven pairs with an okey."),
    "target": gettext_lazy("%(name)s reached the target by showing the indicator."),
    "hand": gettext_lazy("%(name)s finished the hand."),
    "finish": gettext_lazy("%(name)s finished the hand."),
    "pairs": gettext_lazy("%(name)s finished with pairs."),
    "okey": gettext_lazy("%(name)s finished by discarding an okey."),
    "direct": gettext_lazy("%(name)s laid down the whole rack at once."),
    "direct_okey": gettext_lazy("%(name)s laid down the whole rack and discarded an okey."),
    "exhausted": gettext_lazy("The pile ran out: the hand is drawn."),
}


def ending_text(ending: str, name: str) -> str:
    text = ENDINGS.get(ending)
    return str(text) % {"name": name} if text is not None else ending.replace("_", " ")


def refusal_text(code: str, fallback: str) -> str:
    text = REFUSALS.get(code)
    return str(text) if text is not None else fallback


def reason_label(code: str) -> str:
    text = REASONS.get(code)
    return str(text) if text is not None else code.replace("_", " ")
