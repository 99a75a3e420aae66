"""paohuzi rules core: re-executes ``paohuzi-log/1`` hands and returns verdicts.

Pure Python, standard library only. The public surface:

- ``parse_log(raw) -> Log``: strict parsing; raises ``LogFormatError`` whose
  ``problems`` list each JSON pointer and what was expected there.
- ``verify(log) -> Verdict`` and ``verify_bytes(raw) -> Verdict``.
- ``table_steps(log)``: the table after every event (for replay pages).
- ``ENGINE_VERSION``.
"""

from .engine import verify, verify_bytes
from .logformat import LogFormatError, Problem, parse_log
from .steps import Steps, for_seat, table_steps
from .verdict import Verdict
from .version import ENGINE_VERSION

__all__ = [
    "ENGINE_VERSION",
    "LogFormatError",
    "Problem",
    "Steps",
    "Verdict",
    "for_seat",
    "parse_log",
    "table_steps",
    "verify",
    "verify_bytes",
]
