"""Re-audit on PostgreSQL: the stale logs, cut into id ranges, one job per range.

Any number of workers take the chunks. Resumable: a chunk job verifies only the logs
still stale, a crashed worker's chunk is put back by the others, and running
``reaudit`` again enqueues chunks for whatever is still stale (a chunk still waiting
under the same first id is not enqueued twice: procrastinate's queueing lock).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..admin.repository import ReauditRepository
from ..database import Database, transaction
from . import queue, stats

#: chunk jobs enqueued per transaction.
PER_TRANSACTION = 100


def enqueue_chunks(db: Database, engine: str, chunk: int) -> int:
    """Enqueue a job per ``chunk`` stale logs; the number of jobs enqueued."""
    after = 0
    jobs = 0
    while True:
        with transaction(db.read) as session:
            ids = ReauditRepository(session).stale_ids(engine, after, chunk * PER_TRANSACTION)
        if not ids:
            return jobs
        with transaction(db.write) as session:
            for start in range(0, len(ids), chunk):
                part = ids[start : start + chunk]
                jobs += queue.defer(
                    session,
                    queue.VERIFY,
                    queue=queue.REAUDIT_QUEUE,
                    queueing_lock=f"reaudit:{engine}:{part[0]}",
                    priority=-1,  # fresh ingests first
                    first=part[0],
                    last=part[-1],
                )
        after = ids[-1]


def wait(db: Database, engine: str, on_progress: Callable[[int], None], poll: float = 1.0) -> int:
    """Until no re-audit job is open; ``on_progress(stale_left)`` each poll. Logs left stale
    (unparseable now, or the engine failed on them)."""
    while True:
        with transaction(db.read) as session:
            left = ReauditRepository(session).count_stale(engine, None)
            open_jobs = stats.open_jobs(session, queue.REAUDIT_QUEUE)
        on_progress(left)
        if open_jobs == 0:
            return left
        time.sleep(poll)
