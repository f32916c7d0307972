"""Translated texts for the tournament desk's stable codes.

Services raise ``TournamentError(code, message, **params)`` with an English
message; pages show ``error_text`` in the reader's language. Result problems
from ``results.validate_table_result`` are shown the same way, by code (``problem_text``;
a rule set's own wording of a code is its rules object's ``problem_texts``).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.engine.rules import RULES

ERRORS = {
    "not_organiser": _("Only the tournament's organisers can do that."),
    "bad_option": _("That table option is not allowed."),
    "bad_variant": _("Unknown rule set."),
    "bad_rounds": _("A tournament has between 1 and 30 rounds."),
    "rounds_below_seated": _("%(n)s rounds have already been seated."),
    "bad_placing_points": _("Placing points are four whole numbers, e.g. 4 2 1 0."),
    "no_three_player_tables": _("This rule set is not played at three-player tables."),
    "locked_after_start": _(
        "The rule set, table options, seed, where it is played, the format, its scoring "
        "and the deals per round cannot change once round 1 is seated."
    ),
    "no_such_account": _("There is no account with the username %(username)s."),
    "already_organiser": _("%(username)s is already an organiser."),
    "not_owner": _("Only the tournament's owner can do that."),
    "account_needed": _("In an online tournament every player needs an account."),
    "accounts_missing": _(
        "In an online tournament every player needs an account; these have none: %(names)s. "
        "Drop them or mark them absent for this round."
    ),
    "no_game": _("This table has no online game."),
    "hand_not_over": _("The hand at this table is still being played."),
    "game_over": _("The game at this table is over."),
    "already_registered": _("%(name)s is already registered."),
    "bot_account": _("%(name)s is a bot account: bots play casual tables only."),
    "name_needed": _("Give the player's name or their username."),
    "round_already_seated": _("Round %(round)s has already been seated."),
    "bad_round": _("There is no round %(round)s in this tournament."),
    "finished": _("The tournament is over."),
    "no_more_rounds": _("Every round has been seated."),
    "round_not_complete": _("Round %(round)s still has tables without a result."),
    "too_few_players": _("At least two players are needed to seat a round."),
    "no_such_entry": _("There is no such player in this tournament."),
    "no_such_table": _("There is no such table in this tournament."),
    "already_seated": _("%(name)s has already played; drop them instead."),
    "bad_result": _("That result cannot happen under this rule set."),
    "bad_json": _("This is not valid JSON."),
    "bad_format": _("This is not an okey-tournament/1 file."),
    "bad_file": _("This tournament file is damaged: %(detail)s"),
    "bad_late_entry": _("Late entry ends at one of the tournament's rounds (1 to %(rounds)s)."),
    "late_entry_closed": _("Registration is closed: late entry was open until round %(n)s."),
    "same_entry": _("Choose two different players."),
    "already_apart": _("%(a)s and %(b)s are already kept apart."),
    "no_such_pair": _("There is no such pair in this tournament."),
    "bad_deals": _("A duplicate round has from 1 to %(most)s deals."),
    "duplicate_partners": _(
        "Partner play cannot be scored as duplicate: a seat's hand total depends on its "
        "partner's play. Choose the standard format or play without partners."
    ),
    "deal_lines_needed": _("A duplicate table's result is entered deal by deal."),
    "not_duplicate": _("This tournament is not a duplicate tournament."),
    "player_count_mismatch": _(
        "A deal is dealt for one number of players: every table that plays it must have "
        "as many seats. These results mix tables of different sizes."
    ),
    "duplicate_holding": _("A seat of a deal has two results at the same table."),
    "bad_seat": _("A table's results do not cover its seats."),
    "imp_scale_unknown": _("IMPs are not defined for this rule set: choose matchpoints."),
    "pairs_cannot_be_kept_apart": _(
        "Round not seated: the %(tables)s tables of this round cannot keep all these pairs "
        "apart: %(pairs)s. Remove a pair, or mark one of its players absent for this round."
    ),
    "pairs_not_kept_apart": _(
        "Round not seated: no seating at the %(tables)s tables of this round was found that "
        "keeps all these pairs apart: %(pairs)s. Remove a pair, or mark one of its players "
        "absent for this round."
    ),
}

# Codes of ``results.validate_table_result`` problems (``results.CODES``).
RESULT_PROBLEMS = {
    "bad_options": _("The table options are not valid."),
    "seat_count": _("Enter one score for each seat."),
    "not_integer": _("Every score is a whole number."),
    "above_start": _("That is more than the points everyone starts with."),
    "out_of_range": _("That score is impossible under this rule set."),
    "impossible_total": _("These scores cannot add up like that under this rule set."),
    "game_not_over": _("The game is not over with these scores: someone must reach 0 points."),
    "no_winner": _("Nobody has reached the target: the game is not over."),
    "several_winners": _("Only one player can reach the target."),
    "not_multiple": _("Every score in this rule set is a multiple of its step (5 or 10)."),
    "too_many_finishers": _(
        "Too many players are below zero: only the player who finishes a hand scores below zero."
    ),
}

# Codes of ``actions.deal_problems`` (a duplicate table's deal lines).
DEAL_PROBLEMS = {
    "deal_count": _("Enter one line for each deal of the round."),
    "seat_count": _("Enter one score for each seat."),
    "not_integer": _("Every score is a whole number."),
    "out_of_range": _("That hand total is far too large."),
    "player_count_mismatch": _(
        "The deals of this round were dealt for another number of players than this "
        "table's seats: they cannot be scored here."
    ),
}


def deal_problem_text(code: str, fallback: str = "") -> str:
    text = DEAL_PROBLEMS.get(code)
    return str(text) if text is not None else (fallback or code.replace("_", " "))


def error_text(code: str, fallback: str = "", **params: Any) -> str:
    text = ERRORS.get(code)
    if text is None:
        return fallback or code.replace("_", " ")
    try:
        return str(text) % params if params else str(text)
    except (KeyError, TypeError, ValueError):
        return str(text)


def problem_text(code: str, fallback: str = "", variant: str = "") -> str:
    """A result problem in the reader's language: said for the rule set when its rules
    object has a text for the code (``problem_texts``: the organiser needs to know which
    sheet line to check, not only that "it cannot add up"), else the shared text, else
    ``fallback`` (the problem's English message)."""
    rules = RULES.get(variant)
    msgid = rules.problem_texts.get(code) if rules is not None else None
    if msgid:
        return gettext(msgid)
    text = RESULT_PROBLEMS.get(code)
    return str(text) if text is not None else (fallback or code.replace("_", " "))


AUDIT_ACTIONS = {
    "created": _("Tournament created"),
    "settings": _("Settings changed"),
    "organiser_added": _("Co-organiser added"),
    "organiser_removed": _("Co-organiser removed"),
    "entry_added": _("Player registered"),
    "entry_dropped": _("Player dropped out"),
    "entry_reinstated": _("Drop-out undone"),
    "no_show": _("No-show"),
    "no_show_cleared": _("No-show cleared"),
    "entry_removed": _("Registration removed"),
    "round_seated": _("Round seated"),
    "result_entered": _("Result entered"),
    "result_corrected": _("Result corrected"),
    "result_posted": _("Result posted by the finished game"),
    "game_result_ignored": _("Game finished; the entered result was kept"),
    "finished": _("Tournament finished"),
    "next_hand": _("Next hand dealt by an organiser"),
    "imported": _("Imported from a file"),
    "apart_added": _("Must-not-meet pair added"),
    "apart_removed": _("Must-not-meet pair removed"),
}


def audit_label(action: str) -> str:
    text = AUDIT_ACTIONS.get(action)
    return str(text) if text is not None else action.replace("_", " ")
