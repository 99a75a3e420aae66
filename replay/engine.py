"""``verify`` and ``verify_bytes`` under their historical module name.

The service looks ``replay.engine.verify`` up at call time; the audit itself is
``replay.audit`` and the game state ``replay.state``.
"""

from .audit import verify, verify_bytes

__all__ = ["verify", "verify_bytes"]
