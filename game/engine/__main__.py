"""``python -m game.engine``: see :mod:`game.engine.cli`."""

import sys

from game.engine.cli import main

sys.exit(main())
