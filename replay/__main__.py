"""``python -m replay``: the core commands (``replay.cli``) and the tools' commands
(``replay.tools.toolkit_cli``). The program entry point is the one module of the
package that joins the two; the core itself never imports the tools."""

import sys

from .tools.toolkit_cli import main

sys.exit(main())
