"""Signals other parts of the site hook into (solo records, reviews, tournaments)."""

from django.dispatch import Signal

# Sent inside the transaction that records a game's last hand, with
# ``table`` (games.models.Table, status already FINISHED) and ``game``
# (games.engine.game.Game with every hand recorded). Receivers may write rows
# in the same transaction.
game_finished = Signal()
