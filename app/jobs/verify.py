"""What a verification job does: verify the given logs that still lack a current
verdict of this engine, store the verdicts, record the webhook deliveries.

Idempotent: the write step locks the logs and skips those another run has just done
(``admin.service.apply``), so a job that runs twice (a worker killed after its commit,
before it told the queue) stores the same verdict once.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..admin.repository import ReauditRepository, StoredLog
from ..admin.schemas import ReauditOut
from ..admin.service import apply, empty_report, reverify
from ..database import Database, transaction
from ..games.audit import engine_version


def verify_stored(db: Database, stale: Sequence[StoredLog], max_depth: int) -> ReauditOut:
    engine = engine_version()
    report = empty_report(engine)
    fresh = reverify(stale, max_depth, report)
    with transaction(db.write) as session:
        apply(session, fresh, engine, report, deliver=True)
    return report


def verify_logs(
    db: Database, max_depth: int, *, log_ids: Sequence[int] = (), first: int = 0, last: int = 0
) -> ReauditOut:
    """Verify the stale logs among ``log_ids`` (or in the id range ``first..last``)."""
    with transaction(db.read) as session:
        stale = ReauditRepository(session).stale_among(
            engine_version(), log_ids=log_ids, first=first, last=last
        )
    return verify_stored(db, stale, max_depth)
