"""paohuzi rules core: re-executes ``paohuzi-log/1`` hands and returns verdicts.

Pure Python, standard library only. The public surface:

- ``parse_log(raw) -> Log``: strict parsing; raises ``LogFormatError`` whose
  ``problems`` list each JSON pointer and what was expected there.
- ``verify(log) -> Verdict`` and ``verify_bytes(raw) -> Verdict``.
- ``table_steps(log)``: the table after every event (for replay pages).
- ``State(log)``: the game state at the deal; ``state.apply(event)`` (unchecked);
  ``legal_actions(state)``; ``observer.seat_view(state, seat)``.
- ``ENGINE_VERSION``.
"""

from . import native

native.select()  # before any module it may load from a compiled build (replay/native.py)

from .actions import Action, legal_actions  # noqa: E402
from .audit import verify, verify_bytes  # noqa: E402
from .logformat import LogFormatError, Problem, parse_log  # noqa: E402
from .state import State  # noqa: E402
from .steps import Steps, for_seat, table_steps  # noqa: E402
from .verdict import Verdict  # noqa: E402
from .version import ENGINE_VERSION  # noqa: E402

__all__ = [
    "Action",
    "State",
    "legal_actions",
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
