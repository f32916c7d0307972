"""Review pages: my games, replays, commentary, export/import, share links."""
