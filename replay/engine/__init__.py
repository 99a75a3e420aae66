"""``verify`` and ``verify_bytes`` under their historical module name.

The service looks ``replay.engine.verify`` up at call time; the audit itself is
``replay.audit`` and the game state ``replay.state``. (The state machine that was
``replay/engine.py`` is ``replay/state.py`` now; this package keeps the old import
path without a file of that name, so that version control follows the move.)
"""

from ..audit import verify, verify_bytes

__all__ = ["verify", "verify_bytes"]
