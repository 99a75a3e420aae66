"""``python -m replay``: see ``replay.cli``."""

import sys

from .cli import main

sys.exit(main())
