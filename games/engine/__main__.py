"""``python -m games.engine …`` (see cli.py)."""

from .cli import main

raise SystemExit(main())
