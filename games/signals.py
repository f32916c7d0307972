"""Signals the sub-apps hook into (ratings, solo records, tournaments, the lobby)."""

from django.dispatch import Signal

# Sent inside the transaction that records a game's last hand, with
# ``table`` (games.models.Table, status already FINISHED, ``finished_at`` set) and
# ``game`` (games.engine.game.Game with every hand recorded). Also sent when every person
# has left a rated game after its first hand (games/live/actions/leavers.py): the game
# ends there, with the hands played so far. Receivers may write rows in the same
# transaction: ratings, solo records, tournament results, the lobby.
game_finished = Signal()

# Sent inside the transaction that records a finished hand (every hand, the game's last
# too, before ``game_finished``), with ``table``, ``hand`` (games.models.Hand, ``result``
# and ``finished_at`` set, its ScoreLine rows stored), ``state`` (the engine's final
# HandState) and ``game`` (games.engine.game.Game with this hand recorded). Receivers
# that need heavy work (the par of each seat) queue it on commit, off the table's path.
hand_finished = Signal()

# Sent by the review (games/review) when a hand's par is known for one seat, with
# ``hand_id``, ``seat`` and ``par`` (the dict stored by the review: the score the expert
# makes from that seat, and the luck of the deal). Insights update their aggregates.
par_ready = Signal()

# Sent by the review when a seat's analysis of a hand is stored, with ``hand_id``, ``seat``
# and ``summary`` (accuracy and value lost per decision).
analysis_ready = Signal()
