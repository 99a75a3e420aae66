"""Verification and features in one walk of the hand.

``verify_and_read(log)`` runs the audit (``replay.audit.Audit``) with a features
``Reader`` watching each event, and returns the verdict with the hand's features:
the same verdict as ``replay.audit.verify(log)``, the same features as
``extract(log)``, for about the cost of the verification alone plus the reading of
the discards with a choice.

The verdict never depends on the reading: an error while reading (a bug) stops the
reading, not the audit, and the features are then ``None`` (the scan reads them later
with ``extract``). So is an audit other than ``replay.audit.verify`` passed as
``engine`` (a test or a fix swapped in as ``replay.engine.verify``): it is called as it
is. A hand whose deal the audit refuses (no event applied) is read by ``extract``, which
walks the events on the deal as it stands.
"""

from __future__ import annotations

from collections.abc import Callable

from .. import audit
from ..model import Event, Log
from ..state import State
from ..verdict import Verdict
from .features import HandFeatures, Reader, extract


class _Guarded:
    """The reader, switched off at its first error (never an error of the audit's)."""

    def __init__(self, reader: Reader) -> None:
        self.reader: Reader | None = reader

    def before(self, seq: int, event: Event, state: State) -> None:
        if self.reader is not None:
            try:
                self.reader.before(seq, event, state)
            except Exception:
                self.reader = None

    def after(self, seq: int, event: Event, state: State) -> None:
        if self.reader is not None:
            try:
                self.reader.after(seq, event, state)
            except Exception:
                self.reader = None


def verify_and_read(log: Log, engine: Callable[[Log], Verdict] | None = None) \
        -> tuple[Verdict, HandFeatures | None]:
    """The verdict of ``log`` and its features (``None``: not read, see the module doc)."""
    if engine is not None and engine is not audit.verify:
        return engine(log), None
    watch = _Guarded(Reader(log))
    run = audit.Audit(log, watch=watch)
    verdict = run.run()
    reader = watch.reader
    if reader is None:
        return verdict, None
    try:
        if reader.seen == 0 and log.events:
            return verdict, extract(log)  # the audit stopped at the deal
        return verdict, reader.features(run.state)
    except Exception:
        return verdict, None
