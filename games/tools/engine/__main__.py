"""``python -m games.tools.engine bench|arena …`` (see ``cli.py``)."""

import sys

from games.tools.engine.cli import main

sys.exit(main())
