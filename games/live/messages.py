"""Translated texts for the engine's stable codes (refusals and score reasons).

The engine speaks English with stable codes; the web layer shows the player's
language, falling back to the engine's own message for a code it does not know.
Score reasons and hand endings shared by several rule sets are listed here
(``REASONS``, ``ENDINGS``); a rule set brings the texts of its own codes on its rules
object (``Rules.reason_labels``, ``Rules.ending_labels``), used for codes not listed.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy, ngettext

from games.engine.rules import RULES
from games.tilewords import tile_words, tiles_words

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
    "bad_variant": gettext_lazy("Unknown variant."),
    "bad_state": gettext_lazy("This saved hand state is damaged or was tampered with."),
    "bad_record": gettext_lazy("This hand record is damaged or was tampered with."),
    "bad_json": gettext_lazy("This is not valid JSON."),
    "bad_format": gettext_lazy("Unsupported format version."),
    "take_after_undo": gettext_lazy(
        "After undoing a take the turn starts over with a draw from the pile."
    ),
    "keep_one_tile": gettext_lazy("You must keep at least one tile to discard."),
    "must_finish": gettext_lazy(
        "The pile is empty: with the taken discard you must close this turn (or undo)."
    ),
    "not_allowed_in_variant": gettext_lazy("This action does not exist in this variant."),
    "not_indicator_twin": gettext_lazy("That tile is not the indicator's twin."),
    "show_too_late": gettext_lazy("The indicator's twin can only be shown during your first turn."),
    "already_shown": gettext_lazy("The indicator's twin has already been shown."),
    "mixed_opening": gettext_lazy("Runs/groups and pairs never mix in one opening."),
    "too_few_pairs": gettext_lazy("A pairs opening needs at least five pairs."),
    "already_opened": gettext_lazy("You have already opened."),
    "wrong_meld_type": gettext_lazy("Your opening type does not allow this meld."),
    "does_not_fit": gettext_lazy("That tile does not fit on that meld."),
    "no_okey_to_swap": gettext_lazy("That meld holds no okey standing for that tile."),
    "swap_forbidden": gettext_lazy("That okey cannot be taken out now."),
    "end_used_this_turn": gettext_lazy("Only one tile per meld end per turn."),
    "pairs_opener_cannot_add": gettext_lazy("A pairs opener never adds tiles to melds."),
    "bad_receiver": gettext_lazy("A pair can only be given to a player who opened with pairs."),
    "must_use_in_new_meld": gettext_lazy("The taken discard must be used in a new meld."),
    "taken_not_in_new_meld": gettext_lazy(
        "Once you have opened, a taken discard can only be added to a meld on the table,"
        " not laid in a new one."
    ),
    "nothing_to_undo": gettext_lazy("There is no taken discard to give back."),
    "not_an_okey": gettext_lazy("Only an okey can be turned face down."),
    "bad_arrangement": gettext_lazy("The new order must hold exactly the tiles of your rack."),
    "not_host": gettext_lazy("Only the table's host can do that."),
    "no_place": gettext_lazy("That tile fits no meld on the table."),
    "too_many_free_actions": gettext_lazy("Too many flips in a row: wait for the next move."),
    # bot accounts (do_invite_bot, games/live/rated.py)
    "not_a_bot": gettext_lazy("Only a bot account can be invited to a seat."),
    "bot_unrated": gettext_lazy(
        "Bot accounts play casual tables only: their games are never rated."
    ),
    "already_seated": gettext_lazy("This bot already has a seat at this table."),
    # quick match (games/matchmaking/actions.py)
    "quick_match_only": gettext_lazy(
        "Seats at a quick-match table go to players close in rating: press “Play now” to be"
        " matched."
    ),
    "too_early": gettext_lazy("CPUs can take the free seats once the table has waited a minute."),
    "game_started": gettext_lazy("The game has started: there is no wait to leave."),
    # competitive play (rated, tournament, challenge): no engine help for a seat
    "already_left": gettext_lazy("You left this game: your CPU plays your seat until it ends."),
    "not_rated_game": gettext_lazy("Only a rated game in play can be left this way."),
    "no_engine_help": gettext_lazy(
        "No engine help in competitive play: “Show me” is for casual tables and practice."
    ),
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


def _own_label(labels: str, variant: str, code: str) -> str | None:
    """A rule set's own text for a code the shared lists lack (``Rules.reason_labels`` or
    ``Rules.ending_labels``: engine msgids, translated here), or None."""
    rules = RULES.get(variant)
    text = getattr(rules, labels, {}).get(code) if rules is not None else None
    return gettext(text) if text else None


def ending_text(ending: str, name: str, variant: str = "") -> str:
    """Why the hand ended, naming the finisher: the shared text of ``ending``, else the
    rule set's own (``Rules.ending_labels``), else the code in words."""
    text = ENDINGS.get(ending)
    if text is None:
        text = _own_label("ending_labels", variant, ending)
    return str(text) % {"name": name} if text is not None else ending.replace("_", " ")


# Refusals that say their numbers (the engine's detail): "Your opening totals 43; it
# needs at least 51." rather than only that it falls short.
REFUSAL_NUMBERS = {
    "below_opening_limit": gettext_lazy(
        "Your opening totals %(total)s; it needs at least %(need)s."
    ),
    "too_few_pairs": gettext_lazy(
        "A pairs opening needs at least %(need)s pairs; you have %(have)s."
    ),
    "too_early": gettext_lazy(
        "CPUs can take the free seats once the table has waited a minute: in %(seconds)s s."
    ),
}


class RefusalText(str):
    """An engine refusal's English message that keeps the refusal's ``detail`` (its
    numbers), so that ``refusal_text`` can say them in the player's language."""

    detail: dict

    @classmethod
    def of(cls, message: str, detail: dict) -> RefusalText:
        text = cls(message)
        text.detail = dict(detail)
        return text


def refusal_text(code: str, fallback: str) -> str:
    detail = getattr(fallback, "detail", None)
    numbers = REFUSAL_NUMBERS.get(code)
    if detail and numbers is not None:
        try:
            return str(numbers) % detail
        except (KeyError, TypeError, ValueError):
            pass
    text = REFUSALS.get(code)
    return str(text) if text is not None else fallback


def reason_label(code: str, variant: str = "") -> str:
    """A score line's reason in words: the shared text of ``code``, else the rule set's
    own (``Rules.reason_labels``), else the code in words."""
    text = REASONS.get(code)
    if text is None:
        text = _own_label("reason_labels", variant, code)
    return str(text) if text is not None else code.replace("_", " ")


HINTS = {
    "close": gettext_lazy("Finish now: put %(tile)s down and show your rack."),
    "okey_close": gettext_lazy("Finish now by putting the okey down: it doubles the close."),
    "show": gettext_lazy("Show the indicator's twin %(tile)s while you still may."),
    "open": gettext_lazy("Open now: these melds reach the limit."),
    "lay": gettext_lazy("Lay these melds down: they are safe on the table."),
    "add": gettext_lazy("Add %(tile)s to a meld on the table."),
    "swap": gettext_lazy("Swap %(tile)s for the okey on the table and keep the okey."),
    # the same, naming the meld (marked on the table): %(meld)s is its tiles in words
    "add_meld": gettext_lazy("Add %(tile)s to the marked meld: %(meld)s."),
    "swap_meld": gettext_lazy(
        "Swap %(tile)s for the okey in the marked meld (%(meld)s) and keep the okey."
    ),
    "undo": gettext_lazy("Give the taken tile back: it cannot be used this turn."),
    "take_fits": gettext_lazy("Take %(tile)s: it fits your rack better than a blind draw."),
    "draw": gettext_lazy("Draw from the pile: the discard does not help you."),
    "discard_loose": gettext_lazy(
        "Discard %(tile)s: it fits none of your combinations (%(leftover)s loose tiles left)."
    ),
    "discard_safe": gettext_lazy(
        "Discard %(tile)s, not %(avoid)s: the next player took tiles that %(avoid)s would complete."
    ),
    # the expert's reasons (games/engine/bots/expert.py, API.md "Expert evaluation")
    "finish": gettext_lazy("Finishes: %(points)s. Put %(tile)s down and end the hand."),
    "open_now": gettext_lazy("Opens now: %(total)s ≥ %(need)s."),
    "keeps_useful": gettext_lazy(
        "Discard %(tile)s: keeps %(useful)s useful tiles instead of %(instead)s."
    ),
    "discard_guard": gettext_lazy(
        "Discard %(tile)s, not %(avoid)s: the next player may be one tile from closing, "
        "and %(avoid)s is more likely to be that tile."
    ),
    "opening_nearer": gettext_lazy(
        "Discard %(tile)s, not %(avoid)s: your rack stays closer to an opening."
    ),
    "opening_unfed": gettext_lazy(
        "Discard %(tile)s, not %(avoid)s: the next player has not opened yet, and "
        "%(avoid)s is more likely to help it open."
    ),
    "melds_kept": gettext_lazy(
        "Discard %(tile)s and keep your melds in the rack for now: every tile a rival adds "
        "to a meld of yours on the table costs you points."
    ),
    "okey_wait": gettext_lazy(
        "Discard %(tile)s and keep your winning rack: a tile that frees your okey "
        "may come before anyone closes, and the okey close pays double."
    ),
}


def hint_text(reason: str, detail: dict, variant: str = "") -> str:
    """The hint's sentence, tiles named in words ("Discard black 6: ...")."""
    # an expert reason without its figures is worded as the plain one
    needs = {"finish": ("points", "close"), "open_now": ("need", "open"),
             "keeps_useful": ("instead", "discard_loose"),
             "discard_guard": ("avoid", "discard_loose"),
             "opening_nearer": ("avoid", "discard_loose"),
             "opening_unfed": ("avoid", "discard_loose")}  # fmt: skip
    if reason in needs and needs[reason][0] not in detail:
        reason = needs[reason][1]
    if reason in ("add", "swap") and isinstance(detail.get("meld"), str):
        reason += "_meld"  # the hint names the meld the tile goes to
    text = HINTS.get(reason)
    if text is None:
        return reason.replace("_", " ")
    values = {"tile": "", "leftover": "", **{k: v for k, v in detail.items()}}
    for k in ("tile", "avoid"):
        if isinstance(values.get(k), str):
            values[k] = tile_words(values[k], variant)
    if isinstance(values.get("meld"), str):
        values["meld"] = tiles_words(values["meld"].split(), variant)
    if isinstance(values.get("points"), int):
        values["points"] = f"{values['points']:+d}"  # signed: "+2"
    try:
        return str(text) % values
    except (KeyError, TypeError, ValueError):
        return str(text)


# The button that does the hinted move in one click: %(tile)s in words.
HINT_ACTIONS = {
    "discard": gettext_lazy("Discard %(tile)s"),
    "close": gettext_lazy("Finish with %(tile)s"),
    "show": gettext_lazy("Show %(tile)s"),
    "add": gettext_lazy("Add %(tile)s to the marked meld"),
    "swap": gettext_lazy("Swap %(tile)s for the okey in the marked meld"),
    "take": gettext_lazy("Take %(tile)s"),
    "draw": gettext_lazy("Draw from the pile"),
    "open": gettext_lazy("Open with these melds"),
    "lay": gettext_lazy("Lay these melds"),
    "undo": gettext_lazy("Give the tile back"),
}


def hint_action_label(
    kind: str, tile: str | None, variant: str = "", words: str | None = None
) -> str:
    """The hint button's text; ``words`` names the tile when its notation alone
    would not (an okey: "Finish with okey (blue 3)")."""
    text = HINT_ACTIONS.get(kind)
    if text is None:
        return ""
    if words is None:
        words = tile_words(tile, variant) if tile else ""
    return str(text) % {"tile": words}


# What the table's screen-reader region says of the latest move (from the seat's
# view: engine.view ``last_move``); tiles in words.
MOVES = {
    "draw": gettext_lazy("%(name)s drew a tile."),
    "take": gettext_lazy("%(name)s took %(tile)s."),
    "discard": gettext_lazy("%(name)s discarded %(tile)s."),
    "open": gettext_lazy("%(name)s opened."),
    "lay": gettext_lazy("%(name)s laid melds down."),
    "add": gettext_lazy("%(name)s added a tile to a meld."),
    "swap": gettext_lazy("%(name)s took an okey from a meld."),
    "undo": gettext_lazy("%(name)s gave the taken tile back."),
    "show": gettext_lazy("%(name)s showed the indicator's twin, %(tile)s."),
    "timeout": gettext_lazy("%(name)s ran out of time."),
}


def move_text(kind: str, name: str, tile: str | None, variant: str = "") -> str:
    text = MOVES.get(kind)
    if text is None:
        return ""
    return str(text) % {"name": name, "tile": tile_words(tile, variant) if tile else ""}


# The turn clock and the stand-in (docs/clock-and-presence.md): what a player is told
# when their clock ran out, and on coming back what their stand-in did meanwhile.
def timeout_text(kind: str, tile: str | None, variant: str = "") -> str:
    """What the clock's stand-in played for a player whose time ran out: ``kind`` is the
    last action it played for them (a discard names the tile in words)."""
    if kind in ("discard", "timeout") and tile:
        return gettext("Time's up: %(tile)s was discarded for you.") % {
            "tile": tile_words(tile, variant)
        }
    if kind == "close":
        return gettext("Time's up: your stand-in finished the hand for you.")
    if kind in ("discard", "timeout"):
        return gettext("Time's up: your stand-in ended your turn.")
    return gettext("Time's up: your stand-in is playing your turn.")


def stand_in_text(timeouts: int) -> str:
    """Said to a player whose clock ran out ``timeouts`` turns in a row (two or more):
    the stand-in keeps playing until they are back."""
    return ngettext(
        "Your time ran out %(n)s turn in a row: your stand-in plays for you until you are back.",
        "Your time ran out %(n)s turns in a row: your stand-in plays for you until you are back.",
        timeouts,
    ) % {"n": timeouts}


def away_turns_text(turns: int) -> str:
    """The first line of "While you were away": how many turns the stand-in played."""
    return ngettext(
        "Your stand-in played %(n)s turn.", "Your stand-in played %(n)s turns.", turns
    ) % {"n": turns}


def away_hand_text(number: int, winners: str, points: int) -> str:
    """One hand that ended while the player was away: its number (from 1), who won it
    (names; empty for a drawn hand) and the player's points in it."""
    values = {"n": number, "names": winners, "points": f"{points:+d}"}
    if winners:
        return gettext("Hand %(n)s ended: %(names)s won, you scored %(points)s.") % values
    return gettext("Hand %(n)s ended with no winner, you scored %(points)s.") % values
