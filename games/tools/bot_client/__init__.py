"""The example bot client of the bot API (docs/bots-api.md):
``python -m games.tools.bot_client``."""
