"""Signals the sub-apps hook into (ratings, solo records, tournaments, the lobby)."""

from django.dispatch import Signal

# Sent inside the transaction that records a game's last hand, with
# ``table`` (games.models.Table, status already FINISHED, ``finished_at`` set) and
# ``game`` (games.engine.game.Game with every hand recorded). Also sent when every person
# has left a rated game after its first hand (games/live/actions/leavers.py): the game
# ends there, with the hands played so far. Receivers may write rows in the same
# transaction: ratings, solo records, tournament results, the lobby.
game_finished = Signal()
