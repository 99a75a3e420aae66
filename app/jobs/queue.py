"""Enqueueing jobs in the caller's transaction.

procrastinate (>= 3.8) runs its ``defer`` on a connection it is handed: here the psycopg
connection under the SQLAlchemy session, so a job exists exactly when the rows it is
about are committed (a rolled-back ingest leaves no job; a committed one always has
its job). Nothing here opens a pool: the connector is only a query runner.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

if TYPE_CHECKING:  # imported when first used: SQLite servers never load procrastinate
    import procrastinate

#: task names (``namespace:name`` as the worker registers them) and their queues.
NAMESPACE = "paohuzi"
VERIFY = f"{NAMESPACE}:verify_logs"
DELIVER = f"{NAMESPACE}:deliver_webhook"
VERIFY_QUEUE = "verify"
REAUDIT_QUEUE = "reaudit"
WEBHOOK_QUEUE = "webhooks"
QUEUES = (VERIFY_QUEUE, REAUDIT_QUEUE, WEBHOOK_QUEUE)


def conninfo(database_url: str) -> str:
    """The libpq URI of an SQLAlchemy ``postgresql+psycopg://`` URL (options kept)."""
    url = make_url(database_url).set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


@lru_cache(maxsize=1)
def _deferrer() -> procrastinate.App:
    import procrastinate

    return procrastinate.App(connector=procrastinate.SyncPsycopgConnector())


def _driver_connection(session: Session) -> Any:
    connection = session.connection().connection.driver_connection
    assert connection is not None
    return connection


def defer(
    session: Session,
    task: str,
    *,
    queue: str,
    queueing_lock: str | None = None,
    schedule_at: datetime | None = None,
    priority: int = 0,
    **kwargs: Any,
) -> bool:
    """Enqueue ``task(**kwargs)`` inside the session's transaction; ``False`` if a job
    with the same ``queueing_lock`` is already waiting."""
    deferrer = _deferrer().configure_task(
        name=task,
        queue=queue,
        queueing_lock=queueing_lock,
        schedule_at=schedule_at,
        priority=priority,
        connection=_driver_connection(session),
    )
    if queueing_lock is None:
        deferrer.defer(**kwargs)
        return True
    from procrastinate.exceptions import AlreadyEnqueued

    # A refused insert aborts a PostgreSQL transaction: try it under a savepoint, which
    # SQLAlchemy emits only once the session uses its connection inside it.
    try:
        with session.begin_nested():
            session.connection()
            deferrer.defer(**kwargs)
    except AlreadyEnqueued:
        return False
    return True


def defer_verification(
    session: Session,
    log_ids: Sequence[int],
    *,
    queue: str = VERIFY_QUEUE,
    queueing_lock: str | None = None,
    priority: int = 0,
) -> bool:
    """One job that verifies these logs (one ingest request or one re-audit chunk)."""
    if not log_ids:
        return False
    return defer(
        session,
        VERIFY,
        queue=queue,
        queueing_lock=queueing_lock,
        priority=priority,
        log_ids=list(log_ids),
    )
