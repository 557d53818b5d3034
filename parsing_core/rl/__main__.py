"""``python -m parsing_core.rl``: train the DQN oracle (see :mod:`parsing_core.rl.cli`)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
